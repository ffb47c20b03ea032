import HTTPServer
import Synchronization
import Testing
import TestSupport

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
        let (status, body) = try get(ServiceApp(options: ServeOptions(), readiness: { ready ? .ready : .commitFailed("test") }), "/readyz")
        #expect(status == expected)
        #expect(body.contains(expected == 200 ? "ready" : "\"status\":503"))
    }

    @Test func unknownRouteIsProblemJSON() throws {
        let (status, body) = try get(ServiceApp(options: ServeOptions()), "/v1/nothing")
        #expect(status == 404)
        #expect(body.contains("\"title\":\"Not Found\""))
    }
}

@Suite struct ServeOptionsTests {
    func parse(_ args: [String], _ env: [String: String] = [:]) throws(UsageError) -> ServeOptions {
        try ServeOptions.parse(args, environment: { env[$0] })
    }

    @Test func defaults() throws {
        let o = try parse([])
        #expect(o.host == "127.0.0.1")
        #expect(o.port == 8080)
        #expect(o.db == "./hinge.sqlite")
        #expect(o.maxBody == 1_048_576)
        #expect(o.apiKey == nil)
        #expect(!o.noRecord)
        #expect(o.logLevel == .info)
        #expect(o.threads >= 1)
    }

    @Test func flagsAndEqualsForm() throws {
        let o = try parse([
            "--host", "0.0.0.0", "--port=9000", "--db", "/tmp/x.sqlite", "--threads", "3", "--max-body", "10",
            "--api-key", "k", "--no-record", "--max-records", "5", "--log-level", "warn",
        ])
        #expect(o.host == "0.0.0.0")
        #expect(o.port == 9000)
        #expect(o.db == "/tmp/x.sqlite")
        #expect(o.threads == 3)
        #expect(o.maxBody == 10)
        #expect(o.apiKey == "k")
        #expect(o.noRecord)
        #expect(o.maxRecords == 5)
        #expect(o.logLevel == .warn)
    }

    @Test func environmentAndFlagPrecedence() throws {
        let env = [
            "HINGE_HOST": "::1", "HINGE_PORT": "1234", "HINGE_DB": "e.sqlite", "HINGE_THREADS": "2",
            "HINGE_MAX_BODY": "99", "HINGE_API_KEY": "secret", "HINGE_NO_RECORD": "1", "HINGE_MAX_RECORDS": "7",
            "HINGE_LOG_LEVEL": "error",
        ]
        let o = try parse([], env)
        #expect(o.host == "::1")
        #expect(o.port == 1234)
        #expect(o.db == "e.sqlite")
        #expect(o.threads == 2)
        #expect(o.maxBody == 99)
        #expect(o.apiKey == "secret")
        #expect(o.noRecord)
        #expect(o.maxRecords == 7)
        #expect(o.logLevel == .error)
        #expect(try parse(["--port", "5"], env).port == 5)
    }

    @Test(arguments: [
        ["--bogus"], ["--port"], ["--port", "x"], ["--port", "70000"], ["--threads", "0"], ["--log-level", "debug"],
        ["--no-record=1"], ["serve"],
    ])
    func badFlagsAreUsageErrors(_ args: [String]) {
        #expect(throws: UsageError.self) { try parse(args) }
    }

    @Test func badEnvironmentIsAUsageError() {
        #expect(throws: UsageError.self) { try parse([], ["HINGE_PORT": "abc"]) }
    }

    @Test func configurationFollowsOptions() throws {
        let app = ServiceApp(options: try parse(["--max-body", "42", "--log-level", "warn", "--threads", "1"]))
        #expect(app.configuration.maxBodyBytes == 42)
        #expect(app.configuration.logRequests == false)
        #expect(app.configuration.threads == 1)
        #expect(app.configuration.serverName == "hinge/\(hingeVersion)")
    }
}
