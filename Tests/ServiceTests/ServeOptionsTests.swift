import ArgumentScanning
import HTTPServer
import Resolving
import Store
import Testing

@testable import Service

/// `hinge serve`'s flags and `HINGE_*` variables read into `ServeOptions` (a flag wins over its variable,
/// which wins over the default).
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

    /// `hinge serve` reads its flags with the scanner of the other subcommands, so its one-line messages
    /// read the same.
    @Test func usageErrorsReadLikeEverySubcommand() throws {
        #expect(throws: UsageError("unknown option '--bogus' for 'hinge serve' (see hinge serve --help)")) {
            try parse(["--bogus=1"])
        }
        #expect(throws: UsageError("unexpected argument 'serve' for 'hinge serve' (see hinge serve --help)")) {
            try parse(["serve"])
        }
        #expect(throws: UsageError("option --port needs a value")) { try parse(["--port"]) }
        #expect(throws: UsageError("option --no-record takes no value")) { try parse(["--no-record=1"]) }
        #expect(throws: UsageError("--log-level must be one of info, warn, error, got 'debug'")) {
            try parse(["--log-level", "debug"])
        }
        #expect(throws: UsageError("HINGE_PORT must be an integer in 0...65535, got 'abc'")) {
            try parse([], ["HINGE_PORT": "abc"])
        }
        #expect(try parse(["--port", "9", "--"]).port == 9)
    }

    /// `--replica-id` wins over `HINGE_REPLICA_ID`, which wins over the host name; a PostgreSQL URL is a `--db`.
    @Test func replicaIDAndPostgresURL() throws {
        #expect(try parse([]).replicaID == Store.defaultReplicaID())
        #expect(!Store.defaultReplicaID().isEmpty)
        #expect(try parse([], ["HINGE_REPLICA_ID": "env-1"]).replicaID == "env-1")
        #expect(try parse(["--replica-id", "flag-1"], ["HINGE_REPLICA_ID": "env-1"]).replicaID == "flag-1")
        #expect(try parse(["--replica-id=eq"]).replicaID == "eq")
        let url = "postgres://hinge@db.internal:5432/hinge"
        #expect(try parse(["--db", url]).db == url)
        #expect(try parse([], ["HINGE_DB": url]).db == url)
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

    @Test func maxLogBytesFromTheFlagOrTheEnvironment() throws {
        #expect(try ServeOptions.parse([], environment: { _ in nil }).maxLogBytes == 1 << 30)
        #expect(
            try ServeOptions.parse(["--max-log-bytes", "2097152"], environment: { _ in nil }).maxLogBytes == 2_097_152)
        #expect(
            try ServeOptions.parse(
                ["--max-log-bytes=3145728"], environment: { $0 == "HINGE_MAX_LOG_BYTES" ? "2097152" : nil }
            )
            .maxLogBytes == 3_145_728)
        #expect(
            try ServeOptions.parse([], environment: { $0 == "HINGE_MAX_LOG_BYTES" ? "2097152" : nil }).maxLogBytes
                == 2_097_152)
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--max-log-bytes", "1000"], environment: { _ in nil })
        }
    }
}

@Suite struct CORSOptionTests {
    @Test func theFlagRepeatsWinsOverTheVariableWhichSplitsOnCommas() throws {
        let env = ["HINGE_CORS_ORIGINS": "https://a.example, null,"]
        #expect(try ServeOptions.parse([], environment: { env[$0] }).corsOrigins == ["https://a.example", "null"])
        #expect(
            try ServeOptions.parse(["--cors-origin", "*", "--cors-origin=null"], environment: { env[$0] }).corsOrigins
                == ["*", "null"])
        #expect(try ServeOptions.parse([], environment: { _ in nil }).corsOrigins == [])
    }

    @Test func aValueThatIsNoOriginIsAUsageError() {
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--cors-origin", "plugin.example"], environment: { _ in nil })
        }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse([], environment: { $0 == "HINGE_CORS_ORIGINS" ? "https://a.example/ui" : nil })
        }
    }

    @Test func commitGatherFromTheFlagOrTheEnvironment() throws {
        #expect(try ServeOptions.parse([], environment: { _ in nil }).commitGatherMicroseconds == 200)
        #expect(
            try ServeOptions.parse(["--commit-gather-us", "0"], environment: { _ in nil }).commitGatherMicroseconds == 0
        )
        let env: (String) -> String? = { $0 == "HINGE_COMMIT_GATHER_US" ? "500" : nil }
        #expect(try ServeOptions.parse([], environment: env).commitGatherMicroseconds == 500)
        #expect(try ServeOptions.parse(["--commit-gather-us=50"], environment: env).commitGatherMicroseconds == 50)
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--commit-gather-us", "-1"], environment: { _ in nil })
        }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--commit-gather-us", "10000001"], environment: { _ in nil })
        }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse([], environment: { $0 == "HINGE_COMMIT_GATHER_US" ? "soon" : nil })
        }
    }
}
