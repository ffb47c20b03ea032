import CLinux

/// Serializes responses: status line, `Server`, `Date` (formatted once per second), the handler's headers
/// (minus the ones the server manages), `Content-Length`, `Connection`, body. One per event loop.
struct ResponseEncoder {
    private let serverLine: [UInt8]
    private var dateSecond: Int64 = -1
    private var dateLine: [UInt8] = []

    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let connectionClose: [UInt8] = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive: [UInt8] = Array("Connection: keep-alive\r\n".utf8)
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(serverName: String) {
        serverLine = Array("Server: \(serverName)\r\n".utf8)
    }

    /// Re-formats the `Date` line when the wall-clock second changed.
    mutating func refreshDate() {
        let s = hinge_wall_seconds()
        if s != dateSecond {
            dateSecond = s
            dateLine = Array("Date: ".utf8) + httpDate(epochSeconds: s) + [13, 10]
        }
    }

    /// Appends `response` to `out`. `head`: no body (a HEAD request); `close`: `Connection: close`;
    /// `version10`: an HTTP/1.0 client kept alive is told so.
    func encode(_ response: HTTPResponse, into out: inout [UInt8], head: Bool, close: Bool, version10: Bool) {
        var status = response.status.code
        if status < 200 || status > 999 { status = 500 }
        let noBody = status == 204 || status == 304
        out.reserveCapacity(out.count + 160 + response.body.count)
        out.append(contentsOf: [72, 84, 84, 80, 47, 49, 46, 49, 32])  // "HTTP/1.1 "
        out.appendDecimal(status)
        out.append(32)
        out.appendString(HTTPStatus.reasonPhrase(status))
        out.append(contentsOf: [13, 10])
        out.append(contentsOf: serverLine)
        out.append(contentsOf: dateLine)
        for field in response.headers {
            if Self.isManagedHeader(field.name) { continue }
            out.appendString(field.name)
            out.append(contentsOf: [58, 32])
            out.appendString(field.value)
            out.append(contentsOf: [13, 10])
        }
        if status != 204 {
            out.append(contentsOf: Self.contentLengthPrefix)
            out.appendDecimal(noBody ? 0 : response.body.count)
            out.append(contentsOf: [13, 10])
        }
        if close {
            out.append(contentsOf: Self.connectionClose)
        } else if version10 {
            out.append(contentsOf: Self.connectionKeepAlive)
        }
        out.append(contentsOf: [13, 10])
        if !head && !noBody { out.append(contentsOf: response.body) }
    }

    /// Headers the server writes itself; a handler's copies are dropped.
    private static func isManagedHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return asciiCaseInsensitiveEquals(name, "date")
        case 6: return asciiCaseInsensitiveEquals(name, "server")
        case 10: return asciiCaseInsensitiveEquals(name, "connection")
        case 14: return asciiCaseInsensitiveEquals(name, "content-length")
        case 17: return asciiCaseInsensitiveEquals(name, "transfer-encoding")
        default: return false
        }
    }
}
