// The HTTP client of the live tests: raw sockets to a server on loopback, so that tests see exactly the
// bytes the server writes (and can send bytes no well-behaved client would).
import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP response as the client saw it.
public struct HTTPReply: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    public var contentType: String { header("Content-Type") ?? "" }

    /// Index of the CRLF CRLF that ends the head in `bytes`, if it has arrived.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// The status and header fields of a head (`HTTP/1.1 NNN …` and `Name: value` lines), nil when the status
    /// line is not HTTP/1.1's.
    static func parseHead(_ head: ArraySlice<UInt8>) -> (status: Int, headers: [(name: String, value: String)])? {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), trimmingSpaces(line[line.index(after: colon)...])))
        }
        return (status, headers)
    }

    private static func trimmingSpaces(_ s: Substring) -> String {
        var s = s
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// A blocking TCP connection to a server on loopback, kept open across requests (reads time out after
/// `receiveTimeoutSeconds` so that a bug fails a test instead of hanging it).
public final class TestClient {
    public let fd: Int32
    private var pending: [UInt8] = []

    public init(port: Int, receiveTimeoutSeconds: Int = 5) throws(SocketError) {
        fd = try connectLoopback(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    deinit { close(fd) }

    public func send(_ s: String) { send(Array(s.utf8)) }

    /// Sends every byte (stops early only when the connection fails).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    /// Reads more bytes into `pending`; false on EOF, error or timeout.
    private func fill() -> Bool {
        var buf = [UInt8](repeating: 0, count: 65536)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        pending.append(contentsOf: buf[0..<n])
        return true
    }

    /// Every byte until the server closes the connection.
    public func readBytesToEnd() -> [UInt8] {
        while fill() {}
        defer { pending = [] }
        return pending
    }

    /// Everything until the server closes the connection, as text.
    public func readToEnd() -> String { String(decoding: readBytesToEnd(), as: UTF8.self) }

    /// True when the peer closed (EOF or reset) with nothing more to read.
    public func isClosedByPeer() -> Bool {
        if !pending.isEmpty { return false }
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, 0)
        if n == 1 { pending.append(b) }
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// One response, its body framed by `Content-Length` (interim 1xx responses are returned on their own;
    /// `head`: the answer to a HEAD, without a body). Nil on EOF before a full response.
    public func readResponse(head isHead: Bool = false) -> HTTPReply? {
        while true {
            if let r = takeResponse(head: isHead) { return r }
            if !fill() { return nil }
        }
    }

    private func takeResponse(head isHead: Bool) -> HTTPReply? {
        guard let end = HTTPReply.headEnd(pending) else { return nil }
        let parsed = HTTPReply.parseHead(pending[0..<end])
        let status = parsed?.status ?? 0
        let headers = parsed?.headers ?? []
        var length = 0
        if status >= 200 && !isHead, let cl = headers.first(where: { $0.name.lowercased() == "content-length" }) {
            length = Int(cl.value) ?? 0
        }
        guard pending.count >= end + 4 + length else { return nil }
        let body = Array(pending[(end + 4)..<(end + 4 + length)])
        pending.removeFirst(end + 4 + length)
        return HTTPReply(status: status, headers: headers, body: body)
    }
}

/// One request per connection (`Connection: close`, the response read to EOF).
public enum HTTPClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static func send(
        port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPReply {
        let client: TestClient
        do { client = try TestClient(port: port, receiveTimeoutSeconds: 10) } catch {
            throw Failure(description: error.description)
        }
        // `Host: 127.0.0.1` unless the caller sends its own.
        let ownHost = headers.contains { $0.0.lowercased() == "host" }
        var head = "\(method) \(target) HTTP/1.1\r\n\(ownHost ? "" : "Host: 127.0.0.1\r\n")Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var request = Array(head.utf8)
        if let body { request += body }
        guard client.send(request) else { throw Failure(description: "send: errno \(errno)") }
        return try parse(client.readBytesToEnd())
    }

    /// A response read to EOF: the head, and every byte after it as the body.
    public static func parse(_ data: [UInt8]) throws -> HTTPReply {
        guard let end = HTTPReply.headEnd(data) else {
            throw Failure(description: "no response head in \(data.count) bytes")
        }
        guard let (status, headers) = HTTPReply.parseHead(data[..<end]) else {
            throw Failure(description: "bad status line")
        }
        return HTTPReply(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }
}

/// Polls `condition` until it holds or `seconds` pass (never a fixed sleep as synchronisation).
public func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let start = MonotonicClock.nanoseconds()
    while true {
        if try condition() { return true }
        if Double(MonotonicClock.nanoseconds() - start) / 1e9 > seconds { return false }
        sched_yield()
        usleep(2000)
    }
}
