import HTTPServer
import TestSupport
import Testing

@testable import Service

/// docs/api.md#host-check: the `Host` names the server answers for, against DNS rebinding.
@Suite struct HostPolicyTests {
    @Test("host-check: addresses, localhost, the bind name and public names are answered; other names are not")
    func accepted() {
        let loopback = HostPolicy(bindHost: "127.0.0.1", publicHosts: [])
        for host in [
            "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:8080", "localhost", "LOCALHOST:8080", "app.localhost:1",
            "10.0.0.11:80", "localhost.",
        ] {
            #expect(loopback.accepts(host), "\(host)")
        }
        #expect(loopback.accepts(nil))  // HTTP/1.0 without Host
        for host in [
            "evil.example:8080", "attacker.test", "127.0.0.1.nip.io", "localhost.evil.example", "", ":8080",
            "127.0.0.1:80x", "a b", "user@127.0.0.1", "[::1", "999.0.0.1", "127.0.0.1:123456",
        ] {
            #expect(!loopback.accepts(host), "\(host)")
        }
        let fleet = HostPolicy(bindHost: "0.0.0.0", publicHosts: ["Hinge.Internal", "design.example."])
        #expect(fleet.accepts("hinge.internal"))
        #expect(fleet.accepts("HINGE.INTERNAL:8080"))
        #expect(fleet.accepts("design.example"))
        #expect(!fleet.accepts("hinge.internal.evil"))
        #expect(HostPolicy(bindHost: "myhost", publicHosts: []).accepts("myhost:8080"))
    }

    @Test("host-check: the listening address and port, accepted as written, change no answer")
    func exactValues() {
        let hosts = [
            "127.0.0.1:8080", "localhost:8080", "myhost:8080", "MYHOST:8080", "127.0.0.1:8081", "evil.example:8080",
            "127.0.0.1.evil:8080", "[::1]:8080", "", ":8080", "10.0.0.11:8080",
        ]
        for bind in ["127.0.0.1", "localhost", "myhost", "0.0.0.0", "::1", "10.0.0.11"] {
            let general = HostPolicy(bindHost: bind, publicHosts: ["design.example"])
            let listening = HostPolicy(bindHost: bind, publicHosts: ["design.example"], port: 8080)
            for host in hosts { #expect(listening.accepts(host) == general.accepts(host), "\(bind): \(host)") }
            for value in listening.exact { #expect(general.accepts(value), "\(bind): \(value)") }
        }
        #expect(HostPolicy(bindHost: "127.0.0.1", publicHosts: [], port: 8080).exact.contains("127.0.0.1:8080"))
        #expect(HostPolicy(bindHost: "0.0.0.0", publicHosts: [], port: 8080).exact.isEmpty)
        #expect(HostPolicy(bindHost: "127.0.0.1", publicHosts: [], port: 0).exact.isEmpty)
    }

    @Test("host-check: --public-host takes names only")
    func configuredNames() {
        #expect(ServeOptions.publicHostProblem("hinge.internal") == nil)
        #expect(ServeOptions.publicHostProblem("hinge.internal:8080") != nil)
        #expect(ServeOptions.publicHostProblem("http://hinge.internal") != nil)
        #expect(ServeOptions.publicHostProblem("") != nil)
    }
}

/// The rebinding requests of a hostile page against a real server: refused before any work.
@Suite struct HostCheckLiveTests {
    @Test("host-check: a rebound name cannot plant a profile, clear the log, or read it")
    func reboundNameIsRefused() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        let evil = [("Host", "evil.example:8080"), ("Origin", "http://evil.example:8080")]
        let plant = try s.put(
            "/v1/devices/rebound", customProfile(id: "rebound"), headers: evil + [("Content-Type", "text/plain")])
        #expect(plant.status == 421)
        #expect(plant.contentType == "application/problem+json")
        #expect(plant.header("Access-Control-Allow-Origin") == nil)
        #expect(try s.get("/v1/devices/rebound").status == 404)
        let clear = try s.delete(
            "/v1/requests", headers: [("Host", "attacker.test"), ("Origin", "http://attacker.test")])
        #expect(clear.status == 421)
        #expect(try s.get("/v1/requests", headers: [("Host", "attacker.test")]).status == 421)
        #expect(try s.get("/healthz", headers: [("Host", "attacker.test")]).status == 421)
        // An absolute-form target names the host (RFC 9112 §3.2.2), whatever `Host` says.
        #expect(try s.get("http://attacker.test/v1/requests", headers: [("Host", "127.0.0.1")]).status == 421)
        #expect(try s.get("http://127.0.0.1/healthz", headers: [("Host", "attacker.test")]).status == 200)
        #expect(try s.records().count == 1)
        // The same calls by address or localhost are the server's own origin, as before.
        let own = [("Host", "localhost:8080"), ("Origin", "http://localhost:8080")]
        #expect(try s.put("/v1/devices/own", customProfile(id: "own"), headers: own).status == 201)
    }
}
