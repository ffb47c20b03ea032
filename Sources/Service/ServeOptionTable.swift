import ArgumentScanning
import HTTPServer
import Store

/// One option of `hinge serve`, declared once: its flag, environment variable, default and help. Parsing
/// (`ServeOptions.parse`), the environment, `hinge serve --help` and the README's configuration table
/// (checked by `ServeOptionTableTests`) all come from `ServeOption.all`.
public struct ServeOption: Sendable {
    public enum Value: Sendable {
        /// `--flag VALUE`; the variable holds the value.
        case one(String)
        /// `--flag VALUE`, repeatable; the variable holds a comma-separated list. Flags replace the variable's list.
        case list(String)
        /// `--flag` alone; the variable holds 1/0, true/false, yes/no or on/off.
        case onOff
    }
    /// nil for a variable without a flag (a tuning knob).
    public let flag: String?
    public let variable: String
    public let value: Value
    /// The default as the README shows it (Markdown).
    public let defaultText: String
    /// One line for `--help` (plain text).
    public let help: String
    /// The README's "meaning" column (Markdown); `help` when nil.
    public let readme: String?
    /// Applies the values given (one, or the list), read from `source` (the flag or variable named in errors).
    let set: @Sendable (inout ServeOptions, [String], String) throws(UsageError) -> Void

    init(
        _ flag: String?, _ variable: String, _ value: Value, default defaultText: String, help: String,
        readme: String? = nil,
        set: @escaping @Sendable (inout ServeOptions, [String], String) throws(UsageError) -> Void
    ) {
        self.flag = flag
        self.variable = variable
        self.value = value
        self.defaultText = defaultText
        self.help = help
        self.readme = readme
        self.set = set
    }

    /// One value (the last one given).
    static func one(_ values: [String]) -> String { values.last ?? "" }
}

extension ServeOption {
    private static let d = ServeOptions()

    /// Every option of `hinge serve`, in the order of `--help` and the README.
    public static let all: [ServeOption] = [
        ServeOption(
            "--host", "HINGE_HOST", .one("ADDR"), default: "`\(d.host)`", help: "address to bind",
            readme: "address to bind (loopback by default; the Docker image uses `0.0.0.0`)"
        ) { o, v, _ in o.host = one(v) },
        ServeOption(
            "--port", "HINGE_PORT", .one("N"), default: "`\(d.port)`", help: "port; 0 picks a free one",
            readme: "port; `0` picks a free one"
        ) { o, v, name throws(UsageError) in o.port = try int(one(v), name, 0...65535) },
        ServeOption(
            "--db", "HINGE_DB", .one("PATH|URL"), default: "`\(d.db)`",
            help: "SQLite database, or postgres://user@host:port/dbname (no password in it: PGPASSWORD, PGPASSFILE "
                + "or ~/.pgpass)",
            readme: "SQLite database (created and migrated on start; `:memory:` allowed), or a PostgreSQL URL "
                + "`postgres://user@host:port/dbname` (also `postgresql://`; several servers may share it). A URL "
                + "with a password is refused: give it through libpq's `PGPASSWORD`, `PGPASSFILE` or `~/.pgpass`. "
                + "See [docs/store.md](docs/store.md#engines) for what each engine guarantees"
        ) { o, v, _ in o.db = one(v) },
        ServeOption(
            "--replica-id", "HINGE_REPLICA_ID", .one("NAME"), default: "the host name",
            help: "this server's name, stored with each record and shown in /metrics",
            readme: "this server's name: stored with each record (`replica`), in `/metrics` (`hinge_store_info`) "
                + "and the start-up line"
        ) { o, v, _ in if !one(v).isEmpty { o.replicaID = one(v) } },
        ServeOption(
            "--threads", "HINGE_THREADS", .one("N"), default: "one per core", help: "event loops"
        ) { o, v, name throws(UsageError) in o.threads = try int(one(v), name, 1...256) },
        ServeOption(
            "--max-body", "HINGE_MAX_BODY", .one("BYTES"), default: "`\(d.maxBody)`",
            help: "largest request body in bytes (413 beyond)"
        ) { o, v, name throws(UsageError) in o.maxBody = try int(one(v), name, 0...(1 << 40)) },
        ServeOption(
            "--api-key", "HINGE_API_KEY", .one("KEY"), default: "none",
            help: "bearer key required for writes and impact reports ('Authorization: Bearer KEY')",
            readme: "bearer key required for writes and impact reports ([docs/api.md](docs/api.md#authorization))"
        ) { o, v, _ in if !one(v).isEmpty { o.apiKey = one(v) } },
        ServeOption(
            "--pairing-token", "HINGE_PAIRING_TOKEN", .one("TOKEN"), default: "random, printed at start",
            help: "bearer token that opens the request log to sandboxed pages (Origin: null), such as a plugin "
                + "panel; 16 to 256 characters",
            readme: "bearer token that opens the request log to sandboxed pages (`Origin: null`), such as a "
                + "plugin panel; 16 to 256 characters; by default a random one, printed at start "
                + "([docs/http.md](docs/http.md#sandboxed-pages))"
        ) { o, v, name throws(UsageError) in
            let t = one(v)
            guard (16...256).contains(t.utf8.count), t.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw UsageError("\(name) must be 16 to 256 visible ASCII characters")
            }
            o.pairingToken = t
        },
        ServeOption(
            "--no-record", "HINGE_NO_RECORD", .onOff, default: "off",
            help: "do not record resolutions in the request log"
        ) { o, v, name throws(UsageError) in o.noRecord = try bool(one(v), name) },
        ServeOption(
            "--max-records", "HINGE_MAX_RECORDS", .one("N"), default: "`\(d.maxRecords)`",
            help: "newest records kept; older ones are pruned in the background"
        ) { o, v, name throws(UsageError) in o.maxRecords = try int(one(v), name, 0...Int.max) },
        ServeOption(
            "--max-log-bytes", "HINGE_MAX_LOG_BYTES", .one("N"), default: "`\(d.maxLogBytes)` (1 GiB)",
            help: "bytes of database pages in use kept, at least 1048576; the first bound reached prunes",
            readme: "bytes of database pages in use kept (at least 1 MiB); the oldest records are pruned by the "
                + "same background pass, whichever bound is reached first. SQLite only: with PostgreSQL, "
                + "`--max-records` bounds the log"
        ) { o, v, name throws(UsageError) in o.maxLogBytes = try int(one(v), name, logBytesRange) },
        ServeOption(
            "--commit-gather-us", "HINGE_COMMIT_GATHER_US", .one("N"), default: "`\(d.commitGatherMicroseconds)`",
            help: "µs the request-log writer waits for more records when it is saturated, 0 to 10000000; 0 "
                + "commits at once",
            readme: "when the request-log writer is saturated (a commit of several records ends with more "
                + "waiting), it waits up to this many µs, or until 64 records wait, before the next commit: "
                + "fewer, larger transactions, at the cost of a longer latency tail under saturation "
                + "([docs/store.md](docs/store.md), "
                + "[BENCHMARKS.md](BENCHMARKS.md#request-log-what-recording-costs-and-what-a-record-takes)); "
                + "`0` commits at once"
        ) { o, v, name throws(UsageError) in o.commitGatherMicroseconds = try int(one(v), name, gatherRange) },
        ServeOption(
            "--max-response-bytes", "HINGE_MAX_RESPONSE_BYTES", .one("BYTES"),
            default: "`\(d.maxResponseBytes)` (8 MiB)", help: "largest resolve or matrix response body (422 beyond)"
        ) { o, v, name throws(UsageError) in o.maxResponseBytes = try int(one(v), name, bufferBytesRange) },
        ServeOption(
            "--max-matrix-work", "HINGE_MAX_MATRIX_WORK", .one("N"), default: "`\(d.maxMatrixWork)`",
            help: "largest matrix: combinations × the scene's JSON nodes (422 beyond)"
        ) { o, v, name throws(UsageError) in o.maxMatrixWork = try int(one(v), name, matrixWorkRange) },
        ServeOption(
            "--max-buffered-bytes", "HINGE_MAX_BUFFERED_BYTES", .one("BYTES"),
            default: "`\(d.maxBufferedBytes)` (64 MiB)",
            help: "response bytes held for clients that have not read them, all connections together (beyond "
                + "it, answers over 64 KiB get 503)",
            readme: "response bytes held for clients that have not read them, all connections together (beyond "
                + "it, answers over 64 KiB get 503; [docs/http.md](docs/http.md#slow-readers))"
        ) { o, v, name throws(UsageError) in o.maxBufferedBytes = try int(one(v), name, bufferBytesRange) },
        ServeOption(
            "--log-level", "HINGE_LOG_LEVEL", .one("LEVEL"), default: "`\(d.logLevel.rawValue)`",
            help: "info: one line per request on stderr; warn, error: none",
            readme: "`info`: one line per request on stderr; `warn`/`error`: none"
        ) { o, v, name throws(UsageError) in
            o.logLevel = try CommandArguments.choice(one(v), name, ServeOptions.LogLevel.self)
        },
        ServeOption(
            "--cors-origin", "HINGE_CORS_ORIGINS", .list("ORIGIN"), default: "none",
            help: "browser origin allowed to call the API: scheme://host[:port], * (any) or null (sandboxed "
                + "iframes)",
            readme: "browser origins allowed to call the API: `scheme://host[:port]`, `null`, `*` "
                + "([Calling Hinge from a plugin](#calling-hinge-from-a-plugin))"
        ) { o, v, name throws(UsageError) in
            o.corsOrigins = try checked(v, name, ServeOptions.corsOriginProblem)
        },
        ServeOption(
            "--public-host", "HINGE_PUBLIC_HOSTS", .list("NAME"), default: "none",
            help: "a host name clients call the server by (addresses, localhost and the --host name are always "
                + "answered; any other Host gets 421)",
            readme: "host names clients call the server by; IP addresses, `localhost` and the `--host` name are "
                + "always answered, any other `Host` gets 421 ([docs/api.md](docs/api.md#host-check))"
        ) { o, v, name throws(UsageError) in
            o.publicHosts = try checked(v, name, ServeOptions.publicHostProblem)
        },
        ServeOption(
            nil, "HINGE_ACCEPT_STRATEGY", .one("STRATEGY"), default: "`sharedListener`",
            help: "sharedListener or singleAcceptor: how the event loops share the listening socket (a benchmark "
                + "knob)",
            readme: "`sharedListener` or `singleAcceptor`: how the event loops share the listening socket, a knob "
                + "for benchmarks ([docs/http.md](docs/http.md))"
        ) { o, v, name throws(UsageError) in
            guard let a = Configuration.AcceptStrategy(rawValue: one(v)) else {
                throw UsageError("\(name) must be sharedListener or singleAcceptor, got '\(one(v))'")
            }
            o.acceptStrategy = a
        },
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

    static func bool(_ s: String, _ name: String) throws(UsageError) -> Bool {
        switch s.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw UsageError("\(name) must be 1/0, true/false, yes/no or on/off, got '\(s)'")
        }
    }
}

// MARK: - What comes from the table

extension ServeOption {
    /// `--flag VALUE` as `--help` shows it.
    var synopsis: String {
        guard let flag else { return variable }
        switch value {
        case .one(let metavar), .list(let metavar): return "\(flag) \(metavar)"
        case .onOff: return flag
        }
    }

    /// The option's lines of `hinge serve --help`: the synopsis, then the help and where its variable and
    /// default are, wrapped to 110 columns.
    var helpLines: [String] {
        let variablePart: String
        switch value {
        case .list: variablePart = "\(variable), comma-separated"
        case .onOff: variablePart = "\(variable)=1"
        case .one: variablePart = variable
        }
        let repeatable = if case .list = value { "; repeatable" } else { "" }
        let plainDefault = defaultText.filter { $0 != "`" }
        let text = "\(help)\(repeatable) (\(variablePart), default \(plainDefault))"
        let indent = String(repeating: " ", count: 25)
        var lines: [String] = []
        var line = "  " + synopsis
        line += line.count < 25 ? String(repeating: " ", count: 25 - line.count) : "\n" + indent
        var width = line.split(separator: "\n").last.map(\.count) ?? 0
        for word in text.split(separator: " ") {
            if width + word.count + 1 > 110 && width > indent.count {
                lines.append(line)
                line = indent
                width = indent.count
            }
            line += (width == indent.count || line.hasSuffix(" ") ? "" : " ") + word
            width += word.count + 1
        }
        lines.append(line)
        return lines
    }

    /// The README's row.
    var readmeRow: String {
        let flagCell: String
        let variableCell: String
        switch value {
        case .list:
            flagCell = "`\(flag ?? "")` (repeatable)"
            variableCell = "`\(variable)` (comma-separated)"
        default:
            flagCell = flag.map { "`\($0)`" } ?? "—"
            variableCell = "`\(variable)`"
        }
        return "| \(flagCell) | \(variableCell) | \(defaultText) | \(readme ?? help) |"
    }

    /// The README's configuration table, header included.
    public static var readmeTable: String {
        (["| flag | environment | default | meaning |", "|---|---|---|---|"] + all.map(\.readmeRow))
            .joined(separator: "\n")
    }
}
