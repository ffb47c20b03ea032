import Testing

@testable import HTTPServer

/// The bytes of a response head and body, including a head longer than the loop's scratch buffer (it goes on
/// in an array) and the headers the server writes itself.
@Suite("Response encoding")
struct ResponseEncoderTests {
    private func encoded(
        _ response: HTTPResponse, head: Bool = false, close: Bool = false, version10: Bool = false,
        after existing: [UInt8] = []
    ) -> String {
        let encoder = ResponseEncoder(serverName: "hinge/test")  // no refreshDate: no Date line
        var out = existing
        encoder.encode(response, into: &out, head: head, close: close, version10: version10)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("status line, Server, the handler's headers, Content-Length, body; managed headers dropped")
    func plain() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/plain", "Content-Length": "99", "X-Id": "7"],
            body: Array("hello".utf8))
        #expect(
            encoded(response)
                == "HTTP/1.1 200 OK\r\nServer: hinge/test\r\nContent-Type: text/plain\r\nX-Id: 7\r\n"
                + "Content-Length: 5\r\n\r\nhello")
    }

    @Test("Connection: close, HTTP/1.0 keep-alive, HEAD, 204 and 304, appended after earlier output")
    func variants() {
        let body = HTTPResponse(status: .ok, body: Array("abc".utf8))
        #expect(
            encoded(body, close: true)
                == "HTTP/1.1 200 OK\r\nServer: hinge/test\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        #expect(
            encoded(body, version10: true)
                == "HTTP/1.1 200 OK\r\nServer: hinge/test\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\nabc")
        #expect(encoded(body, head: true) == "HTTP/1.1 200 OK\r\nServer: hinge/test\r\nContent-Length: 3\r\n\r\n")
        #expect(encoded(HTTPResponse(status: .noContent)) == "HTTP/1.1 204 No Content\r\nServer: hinge/test\r\n\r\n")
        #expect(
            encoded(HTTPResponse(status: .notModified, body: Array("x".utf8)))
                == "HTTP/1.1 304 Not Modified\r\nServer: hinge/test\r\nContent-Length: 0\r\n\r\n")
        #expect(
            encoded(body, after: Array("earlier".utf8))
                == "earlierHTTP/1.1 200 OK\r\nServer: hinge/test\r\nContent-Length: 3\r\n\r\nabc")
    }

    @Test("a head longer than the scratch buffer is written whole")
    func longHead() {
        let long = String(repeating: "v", count: 5000)
        let response = HTTPResponse(
            status: .ok, headers: ["X-Long": long, "X-After": "1"], body: Array("b".utf8))
        #expect(
            encoded(response)
                == "HTTP/1.1 200 OK\r\nServer: hinge/test\r\nX-Long: \(long)\r\nX-After: 1\r\nContent-Length: 1\r\n\r\nb"
        )
    }
}
