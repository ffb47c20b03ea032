import ArgumentScanning
import HTTPServer
import Store

/// `hinge serve`'s options, declared once: each option's flag, environment variable, default and help.
/// Parsing (`ServeOptions.parse`), the environment, `hinge serve --help` and the README's configuration
/// table (checked by `ServeOptionTableTests`) all come from `ServeOptions.table`.
extension ServeOptions {
    private static let d = ServeOptions()

    /// Every option of `hinge serve`, in the order of `--help` and the README: the flags, then the variable
    /// without one.
    public static let table = OptionTable<ServeOptions>(
        command: "serve",
        header: """
            USAGE: hinge serve [options]

            Serves the layout-resolution API over HTTP/1.1. Stops gracefully on SIGTERM or SIGINT.
            """,
        helpColumn: 25,
        sections: [
            .init("OPTIONS (each also an environment variable; the flag wins):", flagged),
            .init("ENVIRONMENT ONLY:", environmentOnly),
        ])

    private static let flagged: [CommandOption<ServeOptions>] = [
        .one(
            "--host", "ADDR", variable: "HINGE_HOST", default: "`\(d.host)`", help: "address to bind",
            readme: "address to bind (loopback by default; the Docker image uses `0.0.0.0`)"
        ) { o, v, _ in o.host = v },
        .one(
            "--port", "N", variable: "HINGE_PORT", default: "`\(d.port)`", help: "port; 0 picks a free one",
            readme: "port; `0` picks a free one"
        ) { o, v, name throws(UsageError) in o.port = try int(v, name, 0...65535) },
        .one(
            "--db", "PATH|URL", variable: "HINGE_DB", default: "`\(d.db)`",
            help: "SQLite database, or postgres://user@host:port/dbname (no password in it: PGPASSWORD, PGPASSFILE "
                + "or ~/.pgpass)",
            readme: "SQLite database (created and migrated on start; `:memory:` allowed), or a PostgreSQL URL "
                + "`postgres://user@host:port/dbname` (also `postgresql://`; several servers may share it). A URL "
                + "with a password is refused: give it through libpq's `PGPASSWORD`, `PGPASSFILE` or `~/.pgpass`. "
                + "See [docs/store.md](docs/store.md#engines) for what each engine guarantees"
        ) { o, v, _ in o.db = v },
        .one(
            "--replica-id", "NAME", variable: "HINGE_REPLICA_ID", default: "the host name",
            help: "this server's name, stored with each record and shown in /metrics",
            readme: "this server's name: stored with each record (`replica`), in `/metrics` (`hinge_store_info`) "
                + "and the start-up line"
        ) { o, v, _ in if !v.isEmpty { o.replicaID = v } },
        .one(
            "--threads", "N", variable: "HINGE_THREADS", default: "one per core", help: "event loops"
        ) { o, v, name throws(UsageError) in o.threads = try int(v, name, 1...256) },
        .one(
            "--max-body", "BYTES", variable: "HINGE_MAX_BODY", default: "`\(d.maxBody)`",
            help: "largest request body in bytes (413 beyond)"
        ) { o, v, name throws(UsageError) in o.maxBody = try int(v, name, 0...(1 << 40)) },
        .one(
            "--api-key", "KEY", variable: "HINGE_API_KEY", default: "none",
            help: "bearer key required for writes and impact reports ('Authorization: Bearer KEY')",
            readme: "bearer key required for writes and impact reports ([docs/api.md](docs/api.md#authorization))"
        ) { o, v, _ in if !v.isEmpty { o.apiKey = v } },
        .one(
            "--pairing-token", "TOKEN", variable: "HINGE_PAIRING_TOKEN", default: "random, printed at start",
            help: "bearer token that opens the request log to sandboxed pages (Origin: null), such as a plugin "
                + "panel; 16 to 256 characters",
            readme: "bearer token that opens the request log to sandboxed pages (`Origin: null`), such as a "
                + "plugin panel; 16 to 256 characters; by default a random one, printed at start "
                + "([docs/http.md](docs/http.md#sandboxed-pages))"
        ) { o, t, name throws(UsageError) in
            guard (16...256).contains(t.utf8.count), t.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw UsageError("\(name) must be 16 to 256 visible ASCII characters")
            }
            o.pairingToken = t
        },
        .onOff(
            "--no-record", variable: "HINGE_NO_RECORD", default: "off",
            help: "do not record resolutions in the request log"
        ) { o, on in o.noRecord = on },
        .one(
            "--max-records", "N", variable: "HINGE_MAX_RECORDS", default: "`\(d.maxRecords)`",
            help: "newest records kept; older ones are pruned in the background"
        ) { o, v, name throws(UsageError) in o.maxRecords = try int(v, name, 0...Int.max) },
        .one(
            "--max-log-bytes", "N", variable: "HINGE_MAX_LOG_BYTES", default: "`\(d.maxLogBytes)` (1 GiB)",
            help: "bytes of database pages in use kept, at least 1048576; the first bound reached prunes",
            readme: "bytes of database pages in use kept (at least 1 MiB); the oldest records are pruned by the "
                + "same background pass, whichever bound is reached first. SQLite only: with PostgreSQL, "
                + "`--max-records` bounds the log"
        ) { o, v, name throws(UsageError) in o.maxLogBytes = try int(v, name, logBytesRange) },
        .one(
            "--commit-gather-us", "N", variable: "HINGE_COMMIT_GATHER_US", default: "`\(d.commitGatherMicroseconds)`",
            help: "µs the request-log writer waits for more records when it is saturated, 0 to 10000000; 0 "
                + "commits at once",
            readme: "when the request-log writer is saturated (a commit of several records ends with more "
                + "waiting), it waits up to this many µs, or until 64 records wait, before the next commit: "
                + "fewer, larger transactions, at the cost of a longer latency tail under saturation "
                + "([docs/store.md](docs/store.md), "
                + "[BENCHMARKS.md](BENCHMARKS.md#request-log-what-recording-costs-and-what-a-record-takes)); "
                + "`0` commits at once"
        ) { o, v, name throws(UsageError) in o.commitGatherMicroseconds = try int(v, name, gatherRange) },
        .one(
            "--max-response-bytes", "BYTES", variable: "HINGE_MAX_RESPONSE_BYTES",
            default: "`\(d.maxResponseBytes)` (8 MiB)", help: "largest resolve or matrix response body (422 beyond)"
        ) { o, v, name throws(UsageError) in o.maxResponseBytes = try int(v, name, bufferBytesRange) },
        .one(
            "--max-matrix-work", "N", variable: "HINGE_MAX_MATRIX_WORK", default: "`\(d.maxMatrixWork)`",
            help: "largest matrix: combinations × the scene's JSON nodes (422 beyond)"
        ) { o, v, name throws(UsageError) in o.maxMatrixWork = try int(v, name, matrixWorkRange) },
        .one(
            "--max-buffered-bytes", "BYTES", variable: "HINGE_MAX_BUFFERED_BYTES",
            default: "`\(d.maxBufferedBytes)` (64 MiB)",
            help: "response bytes held for clients that have not read them, all connections together (beyond "
                + "it, answers over 64 KiB get 503)",
            readme: "response bytes held for clients that have not read them, all connections together (beyond "
                + "it, answers over 64 KiB get 503; [docs/http.md](docs/http.md#slow-readers))"
        ) { o, v, name throws(UsageError) in o.maxBufferedBytes = try int(v, name, bufferBytesRange) },
        .one(
            "--log-level", "LEVEL", variable: "HINGE_LOG_LEVEL", default: "`\(d.logLevel.rawValue)`",
            help: "info: one line per request on stderr; warn, error: none",
            readme: "`info`: one line per request on stderr; `warn`/`error`: none"
        ) { o, v, name throws(UsageError) in
            o.logLevel = try CommandArguments.choice(v, name, ServeOptions.LogLevel.self)
        },
        .list(
            "--cors-origin", "ORIGIN", variable: "HINGE_CORS_ORIGINS", default: "none",
            help: "browser origin allowed to call the API: scheme://host[:port], * (any) or null (sandboxed "
                + "iframes)",
            readme: "browser origins allowed to call the API: `scheme://host[:port]`, `null`, `*` "
                + "([Calling Hinge from a plugin](#calling-hinge-from-a-plugin))"
        ) { o, v, name throws(UsageError) in
            o.corsOrigins = try checked(v, name, ServeOptions.corsOriginProblem)
        },
        .list(
            "--public-host", "NAME", variable: "HINGE_PUBLIC_HOSTS", default: "none",
            help: "a host name clients call the server by (addresses, localhost and the --host name are always "
                + "answered; any other Host gets 421)",
            readme: "host names clients call the server by; IP addresses, `localhost` and the `--host` name are "
                + "always answered, any other `Host` gets 421 ([docs/api.md](docs/api.md#host-check))"
        ) { o, v, name throws(UsageError) in
            o.publicHosts = try checked(v, name, ServeOptions.publicHostProblem)
        },
    ]

    private static let environmentOnly: [CommandOption<ServeOptions>] = [
        .one(
            nil, "STRATEGY", variable: "HINGE_ACCEPT_STRATEGY", default: "`sharedListener`",
            help: "sharedListener or singleAcceptor: how the event loops share the listening socket (a benchmark "
                + "knob)",
            readme: "`sharedListener` or `singleAcceptor`: how the event loops share the listening socket, a knob "
                + "for benchmarks ([docs/http.md](docs/http.md))"
        ) { o, v, name throws(UsageError) in
            guard let a = Configuration.AcceptStrategy(rawValue: v) else {
                throw UsageError("\(name) must be sharedListener or singleAcceptor, got '\(v)'")
            }
            o.acceptStrategy = a
        }
    ]

    /// 1 MiB (a database of a few pages already holds the schema and the device profiles) to 1 PiB.
    static let logBytesRange = (1 << 20)...(1 << 50)
    /// `--commit-gather-us`: 0 (commit at once) to 10 s, as the store accepts.
    static let gatherRange = Store.Configuration.commitGatherRange
    /// `--max-response-bytes` and `--max-buffered-bytes`: 1 KiB to 1 TiB.
    static let bufferBytesRange = 1024...(1 << 40)
    static let matrixWorkRange = 1...Int(Int32.max)

    /// `values` when `problem` finds none in them; else a usage error naming `name` and the first problem.
    static func checked(_ values: [String], _ name: String, _ problem: (String) -> String?) throws(UsageError)
        -> [String]
    {
        for value in values { if let p = problem(value) { throw UsageError("\(name): \(p)") } }
        return values
    }

    static func int(_ s: String, _ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let n = Int(s), range.contains(n) else {
            throw UsageError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(s)'")
        }
        return n
    }
}

// MARK: - The README's configuration table

extension CommandOption {
    /// The README's row.
    var readmeRow: String {
        let flagCell: String
        let variableCell: String
        switch value {
        case .list:
            flagCell = "`\(flag ?? "")` (repeatable)"
            variableCell = "`\(variable ?? "")` (comma-separated)"
        default:
            flagCell = flag.map { "`\($0)`" } ?? "—"
            variableCell = variable.map { "`\($0)`" } ?? "—"
        }
        return "| \(flagCell) | \(variableCell) | \(defaultText ?? "") | \(readme ?? help) |"
    }

}

extension ServeOptions {
    /// The README's configuration table, header included.
    public static var readmeTable: String {
        (["| flag | environment | default | meaning |", "|---|---|---|---|"] + table.options.map(\.readmeRow))
            .joined(separator: "\n")
    }
}
