import HTTPServer
import Testing

@testable import Service

/// `CORSPolicy` on its own: verdicts, refusals, headers.
@Suite struct CORSPolicyTests {
    func request(
        _ method: HTTPMethod = .GET, origin: String? = nil, host: String = "127.0.0.1:8080",
        _ extra: [(String, String)] = []
    ) -> HTTPRequest {
        var headers = HTTPHeaders([("Host", host)])
        if let origin { headers.add("Origin", origin) }
        for (n, v) in extra { headers.add(n, v) }
        return HTTPRequest(method: method, path: "/v1/resolve", headers: headers)
    }

    @Test func verdicts() {
        let policy = CORSPolicy(origins: ["https://Plugin.Example/", "null"])
        #expect(policy.verdict(request()) == .noOrigin)
        #expect(policy.verdict(request(origin: "http://127.0.0.1:8080")) == .sameOrigin)
        #expect(policy.verdict(request(origin: "https://127.0.0.1:8080")) == .sameOrigin)
        #expect(policy.verdict(request(origin: "http://127.0.0.1:9999")) == .refused)
        // The request's own spelling is echoed; the comparison ignores case.
        #expect(policy.verdict(request(origin: "https://plugin.example")) == .allowed("https://plugin.example"))
        #expect(policy.verdict(request(origin: "null")) == .allowed("null"))
        #expect(policy.verdict(request(origin: "https://plugin.example.evil")) == .refused)
        let any = CORSPolicy(origins: ["*"])
        #expect(any.verdict(request(origin: "https://anything.example")) == .allowed("*"))
        #expect(any.verdict(request(origin: "null")) == .allowed("*"))
        let none = CORSPolicy(origins: [])
        #expect(!none.isEnabled)
        #expect(none.verdict(request(origin: "null")) == .refused)
        #expect(none.verdict(request(origin: "http://127.0.0.1:8080")) == .sameOrigin)
    }

    @Test func onlyUnsafeMethodsFromARefusedOriginAreRefused() {
        for method in [HTTPMethod.POST, .PUT, .DELETE, .PATCH] {
            #expect(CORSPolicy.refuses(.refused, method))
            #expect(!CORSPolicy.refuses(.allowed("x"), method))
            #expect(!CORSPolicy.refuses(.sameOrigin, method))
            #expect(!CORSPolicy.refuses(.noOrigin, method))
        }
        for method in [HTTPMethod.GET, .HEAD, .OPTIONS] { #expect(!CORSPolicy.refuses(.refused, method)) }
    }

    @Test func actualResponseHeaders() {
        let policy = CORSPolicy(origins: ["https://plugin.example"])
        var allowed = HTTPHeaders()
        policy.decorate(&allowed, .allowed("https://plugin.example"))
        #expect(allowed["Access-Control-Allow-Origin"] == "https://plugin.example")
        #expect(allowed["Access-Control-Expose-Headers"] == "ETag, Hinge-Record-Id, Location")
        #expect(allowed["Vary"] == "Origin")
        var refused = HTTPHeaders()
        policy.decorate(&refused, .refused)
        #expect(refused.count == 1 && refused["Vary"] == "Origin")
        var unconfigured = HTTPHeaders()
        CORSPolicy(origins: []).decorate(&unconfigured, .noOrigin)
        #expect(unconfigured.count == 0)
    }

    @Test func preflight() {
        let policy = CORSPolicy(origins: ["null"])
        let grant = policy.preflight(
            request(
                .OPTIONS, origin: "null",
                [("Access-Control-Request-Method", "PUT"), ("Access-Control-Request-Private-Network", "true")]),
            methods: ["DELETE", "GET", "HEAD", "PUT"])
        #expect(grant.status == .noContent)
        #expect(grant.headers["Allow"] == "DELETE, GET, HEAD, PUT, OPTIONS")
        #expect(grant.headers["Access-Control-Allow-Origin"] == "null")
        #expect(grant.headers["Access-Control-Allow-Methods"] == "DELETE, GET, HEAD, PUT")
        #expect(
            grant.headers["Access-Control-Allow-Headers"]
                == "Content-Type, Authorization, If-Match, If-None-Match, Accept, Hinge-Client, Hinge-Record")
        #expect(grant.headers["Access-Control-Max-Age"] == "600")
        #expect(grant.headers["Access-Control-Allow-Private-Network"] == "true")
        #expect(grant.headers["Vary"] == "Origin")
        // Not a preflight (no Access-Control-Request-Method), or another origin: Allow only.
        for r in [
            request(.OPTIONS, origin: "null"),
            request(.OPTIONS, origin: "https://x.example", [("Access-Control-Request-Method", "PUT")]),
        ] {
            let plain = policy.preflight(r, methods: ["POST"])
            #expect(plain.status == .noContent)
            #expect(plain.headers["Allow"] == "POST, OPTIONS")
            #expect(plain.headers["Access-Control-Allow-Origin"] == nil)
            #expect(plain.headers["Access-Control-Allow-Private-Network"] == nil)
        }
        // No private-network grant without the request for it.
        let noPNA = policy.preflight(
            request(.OPTIONS, origin: "null", [("Access-Control-Request-Method", "POST")]), methods: ["POST"])
        #expect(noPNA.headers["Access-Control-Allow-Origin"] == "null")
        #expect(noPNA.headers["Access-Control-Allow-Private-Network"] == nil)
    }

    @Test(arguments: [
        ("*", true), ("null", true), ("http://localhost:3000", true), ("https://plugin.example/", true),
        ("plugin.example", false), ("https://plugin.example/ui", false), ("https://", false), ("://x", false),
    ])
    func configuredOrigins(_ origin: String, _ valid: Bool) {
        #expect((CORSPolicy.problem(with: origin) == nil) == valid)
    }
}

/// CORS against a real server.
@Suite struct CORSLiveTests {
    static let plugin = "https://plugin.example"

    @Test func preflightOnEveryRouteWithItsMethods() throws {
        let s = try LiveServer(corsOrigins: [Self.plugin])
        let cases: [(String, String)] = [
            ("/v1/resolve", "POST"), ("/v1/devices/iphone-16", "DELETE, GET, HEAD, PUT"),
            ("/v1/requests", "DELETE, GET, HEAD"),
            ("/healthz", "GET, HEAD"), ("/v1/requests/7/replay", "POST"),
        ]
        for (path, methods) in cases {
            let r = try s.send(
                "OPTIONS", path, headers: [("Origin", Self.plugin), ("Access-Control-Request-Method", "POST")])
            #expect(r.status == 204, "\(path)")
            #expect(r.header("Access-Control-Allow-Origin") == Self.plugin)
            #expect(r.header("Access-Control-Allow-Methods") == methods, "\(path)")
            #expect(r.header("Access-Control-Max-Age") == "600")
            #expect(r.header("Vary") == "Origin")
            #expect(r.body.isEmpty)
        }
        #expect(try s.send("OPTIONS", "/v1/nothing", headers: [("Origin", Self.plugin)]).status == 404)
    }

    @Test func allowedOriginReadsTheAnswerAndItsRecordId() throws {
        let s = try LiveServer(corsOrigins: ["null", Self.plugin])
        let r = try s.post("/v1/resolve", settingsScene, headers: [("Origin", "null"), ("Content-Type", "text/plain")])
        #expect(r.status == 200)
        #expect(r.header("Access-Control-Allow-Origin") == "null")
        #expect(r.header("Access-Control-Expose-Headers") == "ETag, Hinge-Record-Id, Location")
        #expect(r.header("Vary") == "Origin")
        #expect(r.header("Hinge-Record-Id") != nil)
        // Errors carry them too, so a page can read why its call failed.
        let missing = try s.get("/v1/nothing", headers: [("Origin", Self.plugin)])
        #expect(missing.status == 404)
        #expect(missing.header("Access-Control-Allow-Origin") == Self.plugin)
        let wrongMethod = try s.send("PATCH", "/v1/resolve", headers: [("Origin", Self.plugin)])
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST, OPTIONS")
        #expect(wrongMethod.header("Access-Control-Allow-Origin") == Self.plugin)
    }

    @Test func otherOriginGetsNoHeadersAndItsWritesAre403BeforeAnyWork() throws {
        let s = try LiveServer(corsOrigins: [Self.plugin])
        let evil = [("Origin", "https://evil.example")]
        let read = try s.get("/v1/devices/iphone-16", headers: evil)
        #expect(read.status == 200)
        #expect(read.header("Access-Control-Allow-Origin") == nil)
        let preflight = try s.send(
            "OPTIONS", "/v1/resolve", headers: evil + [("Access-Control-Request-Method", "POST")])
        #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        let resolve = try s.post("/v1/resolve", settingsScene, headers: evil + [("Content-Type", "text/plain")])
        #expect(resolve.status == 403)
        #expect(resolve.contentType == "application/problem+json")
        #expect(resolve.header("Access-Control-Allow-Origin") == nil)
        #expect(try s.records().isEmpty)  // not recorded
        #expect(try s.put("/v1/devices/evil-phone", customProfile(id: "evil-phone"), headers: evil).status == 403)
        #expect(try s.get("/v1/devices/evil-phone").status == 404)
        #expect(try s.delete("/v1/requests", headers: evil).status == 403)
        // The same write from the server's own origin, and from no browser at all, goes through.
        #expect(try s.post("/v1/resolve", settingsScene, headers: [("Origin", "http://127.0.0.1")]).status == 200)
        #expect(
            try s.put(
                "/v1/devices/own-phone", customProfile(id: "own-phone"), headers: [("Origin", "http://127.0.0.1")]
            ).status == 201)
        #expect(try s.records().count == 1)
    }

    @Test func withoutCORSOriginsThereAreNoCORSHeadersAndPlainOptionsAnswersAllow() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", settingsScene, headers: [("Origin", Self.plugin)])
        #expect(r.status == 403)
        let plain = try s.post("/v1/resolve", settingsScene)
        #expect(plain.status == 200)
        #expect(!plain.headers.contains { $0.name.lowercased().hasPrefix("access-control-") || $0.name == "Vary" })
        let options = try s.send("OPTIONS", "/v1/devices/iphone-16")
        #expect(options.status == 204)
        #expect(options.header("Allow") == "DELETE, GET, HEAD, PUT, OPTIONS")
        #expect(options.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func anAllowedOriginStillNeedsTheAPIKeyToWrite() throws {
        let s = try LiveServer(apiKey: "k", corsOrigins: ["*"])
        let origin = [("Origin", Self.plugin)]
        let refused = try s.delete("/v1/requests", headers: origin)
        #expect(refused.status == 401)
        #expect(refused.header("Access-Control-Allow-Origin") == "*")
        #expect(try s.delete("/v1/requests", headers: origin + [("Authorization", "Bearer k")]).status == 204)
    }
}
