import Testing

@testable import HTTPServer

/// Captures what a handler responds synchronously (outside a server).
private func respond(_ router: Router, _ method: HTTPMethod, _ path: String) -> (HTTPResponse?, [String: String]) {
    switch router.match(method: method, path: path) {
    case .found(_, let parameters):
        return (nil, parameters)
    case .methodNotAllowed(let allow):
        return (.problem(status: .methodNotAllowed, detail: "", headers: ["Allow": allow.joined(separator: ", ")]), [:])
    case .notFound:
        return (.problem(status: .notFound, detail: ""), [:])
    }
}

@Suite struct RouterTests {
    var router: Router {
        var r = Router()
        r.add(.GET, "/v1/devices") { _ in .text("list") }
        r.add(.GET, "/v1/devices/{id}") { req in .text("get \(req.pathParameters["id"]!)") }
        r.add(.PUT, "/v1/devices/{id}") { _ in .text("put") }
        r.add(.DELETE, "/v1/devices/{id}") { _ in .text("delete") }
        r.add(.GET, "/v1/requests/{id}/svg") { req in .text("svg \(req.pathParameters["id"]!)") }
        r.add(.POST, "/v1/resolve") { _ in .text("resolve") }
        return r
    }

    @Test(arguments: [
        ("/v1/devices/pixel-9", ["id": "pixel-9"]),
        ("/v1/devices/a%20b", ["id": "a b"]),
        ("/v1/requests/42/svg", ["id": "42"]),
        ("/v1/devices", [:]),
    ])
    func parametersAreBound(_ path: String, _ expected: [String: String]) {
        let (response, params) = respond(router, .GET, path)
        #expect(response == nil)
        #expect(params == expected)
    }

    @Test(arguments: ["/v1/devices/", "/v1/devices/a/b", "/v1", "/", "/v1/devicesx", "/v1/requests/1/png"])
    func unknownPathsAre404(_ path: String) {
        #expect(respond(router, .GET, path).0?.status == .notFound)
    }

    @Test func wrongMethodIs405WithSortedAllow() {
        let (r, _) = respond(router, .POST, "/v1/devices/x")
        #expect(r?.status == .methodNotAllowed)
        #expect(r?.headers["Allow"] == "DELETE, GET, HEAD, PUT")
        let (s, _) = respond(router, .GET, "/v1/resolve")
        #expect(s?.headers["Allow"] == "POST")
    }

    /// Literal routes are matched by comparing the whole path, parameter routes by segments; registration
    /// order still decides between them.
    @Test func routesAreTriedInRegistrationOrder() {
        var r = Router()
        r.add(.GET, "/v1/items/{id}") { _ in .text("param") }
        r.add(.GET, "/v1/items/new") { _ in .text("literal") }
        r.add(.POST, "/v1/items/new") { _ in .text("post") }
        #expect(respond(r, .GET, "/v1/items/new").1 == ["id": "new"])
        #expect(respond(r, .POST, "/v1/items/new").0 == nil)
        #expect(respond(r, .DELETE, "/v1/items/new").0?.headers["Allow"] == "GET, HEAD, POST")
        #expect(respond(r, .GET, "v1/items/new/").0?.status == .notFound)
    }

    @Test func headFallsBackToGet() {
        let (r, params) = respond(router, .HEAD, "/v1/devices/x")
        #expect(r == nil)
        #expect(params == ["id": "x"])
    }

    @Test func problemJSONHasTheFourMembers() {
        let p = HTTPResponse.problem(status: .notFound, detail: "No \"thing\" at /x\n.")
        #expect(p.headers["Content-Type"] == "application/problem+json")
        #expect(
            String(decoding: p.body, as: UTF8.self)
                == #"{"detail":"No \"thing\" at /x\n.","status":404,"title":"Not Found","type":"about:blank"}"#)
    }
}
