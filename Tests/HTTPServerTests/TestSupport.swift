import Glibc
import Synchronization
import Testing
import TestSupport

@testable import HTTPServer

/// A blocking TCP client for live tests (5 s receive timeout so a bug fails instead of hanging).
final class TestClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int) throws {
        do { fd = try connectLoopback(port: port, receiveTimeoutSeconds: 5) } catch {
            throw SystemError(error.operation, error.code)
        }
    }

    deinit { close(fd) }

    func send(_ s: String) { send(Array(s.utf8)) }

    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// Reads more bytes into `pending`; false on EOF, error or timeout.
    private func fill() -> Bool {
        var buf = [UInt8](repeating: 0, count: 65536)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        pending.append(contentsOf: buf[0..<n])
        return true
    }

    /// Everything until the server closes the connection.
    func readToEnd() -> String {
        while fill() {}
        let s = String(decoding: pending, as: UTF8.self)
        pending = []
        return s
    }

    /// True when the peer closed (EOF or reset) with nothing more to read.
    func isClosedByPeer() -> Bool {
        if !pending.isEmpty { return false }
        var b: UInt8 = 0
        let n = recv(fd, &b, 1, 0)
        if n == 1 { pending.append(b) }
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// One response (interim 1xx included as its own response); nil on EOF before a full response.
    func readResponse(head isHead: Bool = false) -> TestResponse? {
        while true {
            if let r = TestResponse.parse(&pending, head: isHead) { return r }
            if !fill() { return nil }
        }
    }
}

struct TestResponse {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    static func parse(_ buf: inout [UInt8], head: Bool) -> TestResponse? {
        guard let end = find(buf, [13, 10, 13, 10]) else { return nil }
        let text = String(decoding: buf[0..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = Int(statusLine[1]) ?? 0
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]).trimmingCharacters(in: " ") : "")
        }
        var length = 0
        if status >= 200 && !head, let cl = headers.first(where: { $0.0.lowercased() == "content-length" }) {
            length = Int(cl.1) ?? 0
        }
        guard buf.count >= end + 4 + length else { return nil }
        let body = String(decoding: buf[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buf.removeFirst(end + 4 + length)
        return TestResponse(status: status, headers: headers, body: body)
    }

    static func find(_ hay: [UInt8], _ needle: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

extension String {
    func components(separatedBy sep: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.range(of: sep) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

extension Substring {
    func range(of needle: String) -> Range<Substring.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}

/// Polls `condition` until it holds or `seconds` pass (no sleeps as synchronisation).
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while monotonicNanoseconds() < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// A started server on port 0 with a test router; `stop()` shuts it down and waits.
final class LiveServer: Sendable {
    let server: HTTPServer
    var port: Int { server.port }

    init(_ configure: (inout Configuration) -> Void = { _ in }, router: Router = LiveServer.defaultRouter) throws {
        var c = Configuration()
        c.port = 0
        c.threads = 2
        configure(&c)
        server = HTTPServer(configuration: c, router: router)
        try server.start()
    }

    func client() throws -> TestClient { try TestClient(port: port) }

    func stop() {
        server.shutdown(deadline: .seconds(2))
        server.wait()
    }

    static var defaultRouter: Router {
        var r = Router()
        r.add(.GET, "/hello") { _ in .text("hello") }
        r.add(.GET, "/echo/{name}") { req in .text("\(req.pathParameters["name"] ?? "")|\(req.query ?? "")") }
        r.add(.POST, "/echo") { req in HTTPResponse(status: 200, body: req.body) }
        r.add(.DELETE, "/echo/{name}") { _ in HTTPResponse(status: 204) }
        return r
    }
}
