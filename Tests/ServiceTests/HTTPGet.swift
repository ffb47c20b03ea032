import Glibc

/// A minimal blocking HTTP/1.1 GET over a real socket (Connection: close), for service tests.
enum HTTPGet {
    struct Failure: Error {}

    static func fetch(port: Int, path: String) throws -> (Int, String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw Failure() }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buf[0..<n])
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let sep = text.firstRange(of: "\r\n\r\n") else { throw Failure() }
        let status = Int(text.dropFirst(9).prefix(3)) ?? 0
        return (status, String(text[sep.upperBound...]))
    }
}

extension String {
    fileprivate func firstRange(of needle: String) -> Range<String.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
