import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

// Text helpers of the HTTP server's live tests (no Foundation in this target).
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
        r.add(.POST, "/echo") { req in HTTPResponse(status: .ok, body: req.body) }
        r.add(.DELETE, "/echo/{name}") { _ in HTTPResponse(status: .noContent) }
        return r
    }
}
