import ArgumentScanning
import HTTPServer
import JSON
import Store
import TestSupport
import Testing

@testable import Service

/// docs/http.md#sandboxed-pages: a page whose origin is `null` (any sandboxed iframe on the web) reaches the
/// stateless routes only, unless it carries the API key or the pairing token.
@Suite struct SandboxedPageTests {
    static let token = "pairing-token-for-tests-0123"
    static let null = [("Origin", "null")]
    static let scene = #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet"}]}"#
    static let profile = customProfile(id: "planted")

    @Test func everyStatelessRouteIsARouteOfTheService() throws {
        let s = try LiveServer()
        for route in SandboxPolicy.statelessRoutes { #expect(s.app.routes.contains(route), "\(route)") }
        // Nothing that reads the log or writes is among them.
        for route in SandboxPolicy.statelessRoutes {
            #expect(!route.contains("/v1/requests"))
            #expect(
                route.hasPrefix("GET ") || route.hasPrefix("POST /v1/resolve") || route == "POST /v1/swiftui"
                    || route == "POST /v1/scenes/from-swift")
        }
    }

    @Test func aSandboxedPageResolvesAndListsButReadsNoLogAndWritesNothing() throws {
        let s = try LiveServer(corsOrigins: ["null"], pairingToken: Self.token)
        let resolved = try s.post("/v1/resolve", Self.scene, headers: Self.null)
        #expect(resolved.status == 200)
        #expect(resolved.header("Access-Control-Allow-Origin") == "null")
        #expect(try s.get("/v1/devices", headers: Self.null).status == 200)
        #expect(try s.get("/v1/constant-sets", headers: Self.null).status == 200)
        #expect(try s.post("/v1/resolve/matrix", #"{"scene":\#(Self.scene)}"#, headers: Self.null).status == 200)
        s.store.requestLog.flush()

        let log = try s.get("/v1/requests?limit=1", headers: Self.null)
        #expect(log.status == 403)
        // The page may read why: the refusal carries the grant.
        #expect(log.header("Access-Control-Allow-Origin") == "null")
        #expect(log.text.contains("pairing token"))
        #expect(!log.text.contains("iphone-16"))
        let id = try #require(try s.records().first?["id"]?.stringValue)
        #expect(try s.get("/v1/requests/\(id)", headers: Self.null).status == 403)
        #expect(try s.get("/v1/requests/\(id)/svg", headers: Self.null).status == 403)
        #expect(try s.send("POST", "/v1/requests/\(id)/replay", headers: Self.null).status == 403)
        #expect(try s.put("/v1/devices/planted", Self.profile, headers: Self.null).status == 403)
        #expect(try s.get("/v1/devices/planted").status == 404)
        let set = try s.post("/v1/constant-sets/planted/versions", #"{"constants":{}}"#, headers: Self.null)
        #expect(set.status == 403)
        #expect(try s.delete("/v1/requests", headers: Self.null).status == 403)
        #expect(try s.get("/metrics", headers: Self.null).status == 403)
        #expect(try s.records().count == 2)
    }

    @Test func thePairingTokenOrTheKeyOpensTheRest() throws {
        let s = try LiveServer(corsOrigins: ["null"], pairingToken: Self.token)
        #expect(try s.post("/v1/resolve", Self.scene).status == 200)
        s.store.requestLog.flush()
        let paired = Self.null + [("Authorization", "Bearer \(Self.token)")]
        let log = try s.get("/v1/requests", headers: paired)
        #expect(log.status == 200)
        #expect(log.json?["items"]?.arrayValue?.count == 1)
        #expect(try s.put("/v1/devices/planted", Self.profile, headers: paired).status == 201)
        let wrong = Self.null + [("Authorization", "Bearer \(Self.token)x")]
        #expect(try s.get("/v1/requests", headers: wrong).status == 403)
        #expect(try s.get("/v1/requests", headers: Self.null + [("Authorization", "Basic abc")]).status == 403)
    }

    @Test func underAnAPIKeyThePairingTokenReadsButOnlyTheKeyWrites() throws {
        let s = try LiveServer(apiKey: "the-key", corsOrigins: ["*"], pairingToken: Self.token)
        let paired = Self.null + [("Authorization", "Bearer \(Self.token)")]
        #expect(try s.get("/v1/requests", headers: paired).status == 200)
        #expect(try s.put("/v1/devices/planted", Self.profile, headers: paired).status == 401)
        let keyed = Self.null + [("Authorization", "Bearer the-key")]
        #expect(try s.put("/v1/devices/planted", Self.profile, headers: keyed).status == 201)
        // `*` grants every origin, and `null` is still held to the stateless routes.
        #expect(try s.get("/v1/requests", headers: Self.null).status == 403)
        #expect(try s.get("/v1/requests", headers: [("Origin", "https://tool.example")]).status == 200)
    }

    @Test func preflightsGrantWhatTheRequestWouldGet() throws {
        let s = try LiveServer(corsOrigins: ["null"], pairingToken: Self.token)
        func preflight(_ path: String, _ method: String, headers: String? = nil) throws -> String? {
            var h = Self.null + [("Access-Control-Request-Method", method)]
            if let headers { h.append(("Access-Control-Request-Headers", headers)) }
            let r = try s.send("OPTIONS", path, headers: h)
            #expect(r.status == 204)
            return r.header("Access-Control-Allow-Origin")
        }
        #expect(try preflight("/v1/resolve", "POST", headers: "content-type") == "null")
        #expect(try preflight("/v1/devices/iphone-16", "GET") == "null")
        #expect(try preflight("/v1/devices/planted", "PUT", headers: "content-type") == nil)
        #expect(try preflight("/v1/requests", "GET") == nil)
        #expect(try preflight("/v1/requests", "DELETE") == nil)
        // A request that will carry a credential is checked when it comes.
        #expect(try preflight("/v1/requests", "GET", headers: "Authorization") == "null")
        #expect(try preflight("/v1/devices/planted", "PUT", headers: "content-type, authorization") == "null")
    }

    @Test func thePairingTokenIsRandomUnlessGivenAndPrintedOnlyWhereItServes() throws {
        let a = SandboxPolicy.randomToken()
        let b = SandboxPolicy.randomToken()
        #expect(a.utf8.count == 32 && b.utf8.count == 32 && a != b)
        #expect(a.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
        var options = ServeOptions()
        #expect(ServiceApp(options: options).pairingLine == nil)
        options.corsOrigins = ["https://tool.example"]
        #expect(ServiceApp(options: options).pairingLine == nil)
        options.corsOrigins = ["null"]
        options.pairingToken = Self.token
        let app = ServiceApp(options: options)
        #expect(app.pairingToken == Self.token)
        #expect(app.pairingLine?.contains(Self.token) == true)
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--pairing-token", "short"], environment: { _ in nil })
        }
        let parsed = try ServeOptions.parse([], environment: { $0 == "HINGE_PAIRING_TOKEN" ? Self.token : nil })
        #expect(parsed.pairingToken == Self.token)
    }
}
