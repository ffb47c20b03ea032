import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import Service

@Suite struct HealthRoutesTests {
    func get(_ app: ServiceApp, _ path: String) throws -> (Int, String) {
        var options = app.options
        options.port = 0
        options.threads = 1
        options.logLevel = .warn
        let server = ServiceApp(options: options, readiness: app.readiness).makeServer()
        try server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        let reply = try HTTPClient.send(port: server.port, "GET", path)
        return (reply.status, reply.text)
    }

    @Test func healthzIsOk() throws {
        let (status, body) = try get(ServiceApp(options: ServeOptions()), "/healthz")
        #expect(status == 200)
        #expect(body == "{\"status\":\"ok\"}")
    }

    @Test(arguments: [(true, 200), (false, 503)])
    func readyzFollowsTheReadinessClosure(_ ready: Bool, _ expected: Int) throws {
        let (status, body) = try get(
            ServiceApp(options: ServeOptions(), readiness: { ready ? .ready : .commitFailed("test") }), "/readyz")
        #expect(status == expected)
        #expect(body.contains(expected == 200 ? "ready" : "\"status\":503"))
    }

    @Test func unknownRouteIsProblemJSON() throws {
        let (status, body) = try get(ServiceApp(options: ServeOptions()), "/v1/nothing")
        #expect(status == 404)
        #expect(body.contains("\"title\":\"Not Found\""))
    }
}
