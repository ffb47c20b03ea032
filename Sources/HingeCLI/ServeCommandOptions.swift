import HTTPServer
import Service
import Store

/// `hinge serve`'s command line and environment, read into Service's `ServeOptions` through the same
/// `CommandArguments` scanner as the other subcommands. Every flag has an environment variable; the flag
/// wins over its variable, which wins over the default.
extension ServeOptions {
    public static let usage = """
        USAGE: hinge serve [options]

        Serves the layout-resolution API over HTTP/1.1. Stops gracefully on SIGTERM or SIGINT.

        OPTIONS (each also an environment variable; the flag wins):
          --host ADDR          address to bind (HINGE_HOST, default 127.0.0.1)
          --port N             port, 0 for any free port (HINGE_PORT, default 8080)
          --db PATH|URL        SQLite database, or postgres://user@host:port/dbname (no password in it:
                               PGPASSWORD, PGPASSFILE or ~/.pgpass) (HINGE_DB, default ./hinge.sqlite)
          --replica-id NAME    this server's name, stored with each record and shown in /metrics
                               (HINGE_REPLICA_ID, default: the host name)
          --threads N          event-loop threads (HINGE_THREADS, default: one per core)
          --max-body BYTES     largest request body (HINGE_MAX_BODY, default 1048576)
          --api-key KEY        key required as 'Authorization: Bearer KEY' for writes (HINGE_API_KEY)
          --no-record          do not record resolutions in the request log (HINGE_NO_RECORD=1)
          --max-records N      request-log size cap in records (HINGE_MAX_RECORDS, default 100000)
          --max-log-bytes N    request-log size cap in database bytes, at least 1048576
                               (HINGE_MAX_LOG_BYTES, default 1073741824 = 1 GiB); the first bound reached prunes
          --commit-gather-us N µs the request-log writer waits for more records when it is saturated, 0 to
                               10000000; 0 commits at once (HINGE_COMMIT_GATHER_US, default 200)
          --max-response-bytes BYTES
                               largest resolve or matrix response, 422 beyond (HINGE_MAX_RESPONSE_BYTES,
                               default 8388608)
          --max-matrix-work N  largest matrix: combinations x scene JSON nodes, 422 beyond
                               (HINGE_MAX_MATRIX_WORK, default 200000)
          --max-buffered-bytes BYTES
                               response bytes held for clients that read slowly, all connections together;
                               new requests get 503 beyond (HINGE_MAX_BUFFERED_BYTES, default 67108864)
          --log-level LEVEL    info | warn | error (HINGE_LOG_LEVEL, default info)
          --cors-origin ORIGIN browser origin allowed to call the API: scheme://host[:port], * (any) or
                               null (sandboxed iframes, data: pages); repeatable (HINGE_CORS_ORIGINS,
                               comma-separated; default none)
          --public-host NAME   a host name clients call the server by (its address, localhost and the
                               --host name are always answered; any other Host gets 421); repeatable
                               (HINGE_PUBLIC_HOSTS, comma-separated; default none)
          -h, --help           show this help
        """

    /// Parses `arguments` (after `serve`) over `environment`: the variables first, then the flags over them.
    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> ServeOptions
    {
        var o = try fromEnvironment(environment)
        var flagOrigins: [String] = []
        var flagHosts: [String] = []
        var scanner = CommandArguments(arguments, command: "serve")
        while let token = scanner.next() {
            switch token {
            case .positional(let p):
                throw scanner.extraArgument(p)
            case .option(let name, let inline):
                func value() throws(UsageError) -> String { try scanner.value(of: name, inline: inline) }
                switch name {
                case "--host": o.host = try value()
                case "--port": o.port = try port(try value(), name)
                case "--db": o.db = try value()
                case "--replica-id": o.replicaID = try value()
                case "--threads": o.threads = try int(try value(), name, 1...256)
                case "--max-body": o.maxBody = try int(try value(), name, 0...(1 << 40))
                case "--api-key": o.apiKey = try value()
                case "--no-record":
                    if inline != nil { throw UsageError("option --no-record takes no value") }
                    o.noRecord = true
                case "--max-records": o.maxRecords = try int(try value(), name, 0...Int.max)
                case "--max-log-bytes": o.maxLogBytes = try int(try value(), name, logBytesRange)
                case "--commit-gather-us": o.commitGatherMicroseconds = try int(try value(), name, gatherRange)
                case "--max-response-bytes": o.maxResponseBytes = try int(try value(), name, bufferBytesRange)
                case "--max-matrix-work": o.maxMatrixWork = try int(try value(), name, matrixWorkRange)
                case "--max-buffered-bytes": o.maxBufferedBytes = try int(try value(), name, bufferBytesRange)
                case "--log-level": o.logLevel = try CommandArguments.choice(try value(), name, LogLevel.self)
                case "--cors-origin": flagOrigins.append(try corsOrigin(try value(), name))
                case "--public-host": flagHosts.append(try publicHost(try value(), name))
                default: throw scanner.unknownOption(name)
                }
            }
        }
        // Repeated flags replace the variable's list as a whole rather than adding to it.
        if !flagOrigins.isEmpty { o.corsOrigins = flagOrigins }
        if !flagHosts.isEmpty { o.publicHosts = flagHosts }
        return o
    }

    /// The defaults overridden by every `HINGE_*` variable that is set.
    private static func fromEnvironment(_ environment: (String) -> String?) throws(UsageError) -> ServeOptions {
        var o = ServeOptions()
        if let v = environment("HINGE_HOST") { o.host = v }
        if let v = environment("HINGE_PORT") { o.port = try port(v, "HINGE_PORT") }
        if let v = environment("HINGE_DB") { o.db = v }
        if let v = environment("HINGE_REPLICA_ID"), !v.isEmpty { o.replicaID = v }
        if let v = environment("HINGE_THREADS") { o.threads = try int(v, "HINGE_THREADS", 1...256) }
        if let v = environment("HINGE_MAX_BODY") { o.maxBody = try int(v, "HINGE_MAX_BODY", 0...(1 << 40)) }
        if let v = environment("HINGE_API_KEY"), !v.isEmpty { o.apiKey = v }
        if let v = environment("HINGE_NO_RECORD") { o.noRecord = try bool(v, "HINGE_NO_RECORD") }
        if let v = environment("HINGE_MAX_RECORDS") { o.maxRecords = try int(v, "HINGE_MAX_RECORDS", 0...Int.max) }
        if let v = environment("HINGE_MAX_LOG_BYTES") {
            o.maxLogBytes = try int(v, "HINGE_MAX_LOG_BYTES", logBytesRange)
        }
        if let v = environment("HINGE_COMMIT_GATHER_US") {
            o.commitGatherMicroseconds = try int(v, "HINGE_COMMIT_GATHER_US", gatherRange)
        }
        if let v = environment("HINGE_MAX_RESPONSE_BYTES") {
            o.maxResponseBytes = try int(v, "HINGE_MAX_RESPONSE_BYTES", bufferBytesRange)
        }
        if let v = environment("HINGE_MAX_MATRIX_WORK") {
            o.maxMatrixWork = try int(v, "HINGE_MAX_MATRIX_WORK", matrixWorkRange)
        }
        if let v = environment("HINGE_MAX_BUFFERED_BYTES") {
            o.maxBufferedBytes = try int(v, "HINGE_MAX_BUFFERED_BYTES", bufferBytesRange)
        }
        if let v = environment("HINGE_LOG_LEVEL") {
            o.logLevel = try CommandArguments.choice(v, "HINGE_LOG_LEVEL", LogLevel.self)
        }
        if let v = environment("HINGE_CORS_ORIGINS") {
            o.corsOrigins = try CommandArguments.commaSeparated(v).map { origin throws(UsageError) in
                try corsOrigin(origin, "HINGE_CORS_ORIGINS")
            }
        }
        if let v = environment("HINGE_PUBLIC_HOSTS") {
            o.publicHosts = try CommandArguments.commaSeparated(v).map { name throws(UsageError) in
                try publicHost(name, "HINGE_PUBLIC_HOSTS")
            }
        }
        if let v = environment("HINGE_ACCEPT_STRATEGY") {
            guard let a = Configuration.AcceptStrategy(rawValue: v) else {
                throw UsageError("HINGE_ACCEPT_STRATEGY must be sharedListener or singleAcceptor, got '\(v)'")
            }
            o.acceptStrategy = a
        }
        return o
    }

    /// 1 MiB (a database of a few pages already holds the schema and the device profiles) to 1 PiB.
    static let logBytesRange = (1 << 20)...(1 << 50)
    /// `--commit-gather-us`: 0 (commit at once) to 10 s, as the store accepts.
    static let gatherRange = Store.Configuration.commitGatherRange
    /// `--max-response-bytes` and `--max-buffered-bytes`: 1 KiB to 1 TiB.
    static let bufferBytesRange = 1024...(1 << 40)
    static let matrixWorkRange = 1...Int(Int32.max)

    private static func corsOrigin(_ s: String, _ name: String) throws(UsageError) -> String {
        if let problem = corsOriginProblem(s) { throw UsageError("\(name): \(problem)") }
        return s
    }

    private static func publicHost(_ s: String, _ name: String) throws(UsageError) -> String {
        if let problem = publicHostProblem(s) { throw UsageError("\(name): \(problem)") }
        return s
    }

    private static func int(_ s: String, _ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let n = Int(s), range.contains(n) else {
            throw UsageError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(s)'")
        }
        return n
    }

    private static func port(_ s: String, _ name: String) throws(UsageError) -> Int { try int(s, name, 0...65535) }

    private static func bool(_ s: String, _ name: String) throws(UsageError) -> Bool {
        switch s.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw UsageError("\(name) must be 1/0, true/false, yes/no or on/off, got '\(s)'")
        }
    }

}
