import Glibc

/// One `POST` to a Hinge server (`http://host[:port]`), for the subcommands that write through a server instead of
/// a database: HTTP/1.1, `Connection: close`, the answer read to its end (at most `maxResponse` bytes, reads
/// time out after `timeoutSeconds`). Plain HTTP only: a server behind TLS is reached through its proxy's
/// plain-HTTP side, or with the database.
struct ServerPost {
    static let maxResponse = 8 * 1024 * 1024
    var host: String
    var port: String
    var timeoutSeconds = 30

    /// `http://host[:port]` (a trailing `/` allowed); nil for anything else.
    init?(url: String) {
        guard url.hasPrefix("http://") else { return nil }
        var rest = Substring(url.dropFirst(7))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"), !rest.contains("?") else { return nil }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.isEmpty ? "80" : String(after.dropFirst())
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            port = String(rest[rest.index(after: colon)...])
        } else {
            host = String(rest)
            port = "80"
        }
        guard !host.isEmpty, let p = Int(port), (1...65535).contains(p) else { return nil }
    }

    struct Answer {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Sends the request and reads the answer; a message saying what failed otherwise.
    func post(_ path: String, body: [UInt8], headers: [(String, String)]) -> Result<Answer, ServerPostError> {
        let fd: Int32
        switch connectSocket() {
        case .failure(let e): return .failure(e)
        case .success(let s): fd = s
        }
        defer { close(fd) }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        guard sendAll(fd, Array((head + "\r\n").utf8) + body) else {
            return .failure(ServerPostError("cannot send the request to \(hostHeader)"))
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count <= Self.maxResponse {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ServerPostError("no answer from \(hostHeader) (\(String(cString: strerror(errno))))"))
            }
            received += buffer[0..<n]
        }
        guard let answer = Self.parse(received) else {
            return .failure(ServerPostError("\(hostHeader) did not answer HTTP"))
        }
        return .success(answer)
    }

    private func connectSocket() -> Result<Int32, ServerPostError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0, let first = list else {
            return .failure(ServerPostError("cannot resolve \(host)"))
        }
        defer { freeaddrinfo(list) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let a = next {
            next = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            if fd < 0 { continue }
            var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return .success(fd) }
            close(fd)
        }
        return .failure(ServerPostError("cannot connect to \(host) port \(port)"))
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    /// The status line, the header fields and the body (up to `Content-Length` when given).
    static func parse(_ bytes: [UInt8]) -> Answer? {
        var end: Int?
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
                end = i
                break
            }
            i += 1
        }
        guard let end else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        guard let first = lines.first, first.hasPrefix("HTTP/1."), let status = Int(first.dropFirst(9).prefix(3))
        else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append((String(line[..<colon]), String(value)))
        }
        var body = Array(bytes[(end + 4)...])
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
        if let length, length < body.count { body = Array(body.prefix(length)) }
        return Answer(status: status, headers: headers, body: body)
    }
}

struct ServerPostError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
