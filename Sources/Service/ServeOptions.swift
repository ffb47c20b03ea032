import HTTPServer

/// A command-line problem: one line for stderr, exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Options of `hinge serve`. Each flag has an environment variable; a flag wins over its variable,
/// which wins over the default.
///
/// | flag | variable | default | meaning |
/// |---|---|---|---|
/// | `--host` | `HINGE_HOST` | `127.0.0.1` | address to bind |
/// | `--port` | `HINGE_PORT` | `8080` | port (0: any free port) |
/// | `--db` | `HINGE_DB` | `./hinge.sqlite` | SQLite database (used from the Store issue on) |
/// | `--threads` | `HINGE_THREADS` | cores | event loops |
/// | `--max-body` | `HINGE_MAX_BODY` | `1048576` | largest request body in bytes (413 beyond) |
/// | `--api-key` | `HINGE_API_KEY` | none | bearer key for writes (used from the devices issue on) |
/// | `--no-record` | `HINGE_NO_RECORD` | off | do not record resolutions (request-log issue) |
/// | `--max-records` | `HINGE_MAX_RECORDS` | `100000` | request-log size cap (request-log issue) |
/// | `--log-level` | `HINGE_LOG_LEVEL` | `info` | `info`: one line per request on stderr; `warn`, `error`: none |
/// | `--cors-origin` (repeatable) | `HINGE_CORS_ORIGINS` (comma-separated) | none | browser origins allowed to call the API (`CORSPolicy`) |
public struct ServeOptions: Sendable, Equatable {
    public enum LogLevel: String, Sendable, CaseIterable {
        case info, warn, error
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var db = "./hinge.sqlite"
    public var threads = Configuration.coreCount
    public var maxBody = 1024 * 1024
    public var apiKey: String? = nil
    public var noRecord = false
    public var maxRecords = 100_000
    public var logLevel = LogLevel.info
    /// Browser origins allowed to call the API across origins: `scheme://host[:port]`, `*` (any) or `null`
    /// (opaque origins: sandboxed iframes, `data:` pages). Empty: no CORS headers at all.
    public var corsOrigins: [String] = []
    /// How connections are accepted (`HINGE_ACCEPT_STRATEGY=reusePort|singleAcceptor`, no flag: a tuning
    /// knob for benchmarks; see docs/http.md).
    public var acceptStrategy = Configuration.AcceptStrategy.reusePort

    public init() {}

    public static let usage = """
        USAGE: hinge serve [options]

        Serves the layout-resolution API over HTTP/1.1. Stops gracefully on SIGTERM or SIGINT.

        OPTIONS (each also an environment variable; the flag wins):
          --host ADDR          address to bind (HINGE_HOST, default 127.0.0.1)
          --port N             port, 0 for any free port (HINGE_PORT, default 8080)
          --db PATH            SQLite database (HINGE_DB, default ./hinge.sqlite)
          --threads N          event-loop threads (HINGE_THREADS, default: one per core)
          --max-body BYTES     largest request body (HINGE_MAX_BODY, default 1048576)
          --api-key KEY        key required as 'Authorization: Bearer KEY' for writes (HINGE_API_KEY)
          --no-record          do not record resolutions in the request log (HINGE_NO_RECORD=1)
          --max-records N      request-log size cap (HINGE_MAX_RECORDS, default 100000)
          --log-level LEVEL    info | warn | error (HINGE_LOG_LEVEL, default info)
          --cors-origin ORIGIN browser origin allowed to call the API: scheme://host[:port], * (any) or
                               null (sandboxed iframes, data: pages); repeatable (HINGE_CORS_ORIGINS,
                               comma-separated; default none)
          -h, --help           show this help
        """

    /// Parses `arguments` (after `serve`) over `environment`.
    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> ServeOptions
    {
        var o = ServeOptions()
        // Environment first, flags override.
        if let v = environment("HINGE_HOST") { o.host = v }
        if let v = environment("HINGE_PORT") { o.port = try port(v, "HINGE_PORT") }
        if let v = environment("HINGE_DB") { o.db = v }
        if let v = environment("HINGE_THREADS") { o.threads = try int(v, "HINGE_THREADS", 1...256) }
        if let v = environment("HINGE_MAX_BODY") { o.maxBody = try int(v, "HINGE_MAX_BODY", 0...(1 << 40)) }
        if let v = environment("HINGE_API_KEY"), !v.isEmpty { o.apiKey = v }
        if let v = environment("HINGE_NO_RECORD") { o.noRecord = try bool(v, "HINGE_NO_RECORD") }
        if let v = environment("HINGE_MAX_RECORDS") { o.maxRecords = try int(v, "HINGE_MAX_RECORDS", 0...Int.max) }
        if let v = environment("HINGE_LOG_LEVEL") { o.logLevel = try level(v, "HINGE_LOG_LEVEL") }
        if let v = environment("HINGE_CORS_ORIGINS") {
            o.corsOrigins = try v.split(separator: ",").map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
                .map { origin throws(UsageError) in try corsOrigin(origin, "HINGE_CORS_ORIGINS") }
        }
        if let v = environment("HINGE_ACCEPT_STRATEGY") {
            guard let a = Configuration.AcceptStrategy(rawValue: v) else {
                throw UsageError("HINGE_ACCEPT_STRATEGY must be reusePort or singleAcceptor, got '\(v)'")
            }
            o.acceptStrategy = a
        }

        var flagOrigins: [String] = []
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError("option \(flag) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            var arg = arguments[i]
            var inline: String? = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                inline = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            func v() throws(UsageError) -> String { if let inline { return inline } else { return try value(arg) } }
            switch arg {
            case "--host": o.host = try v()
            case "--port": o.port = try port(try v(), arg)
            case "--db": o.db = try v()
            case "--threads": o.threads = try int(try v(), arg, 1...256)
            case "--max-body": o.maxBody = try int(try v(), arg, 0...(1 << 40))
            case "--api-key": o.apiKey = try v()
            case "--no-record":
                if inline != nil { throw UsageError("option --no-record takes no value") }
                o.noRecord = true
            case "--max-records": o.maxRecords = try int(try v(), arg, 0...Int.max)
            case "--log-level": o.logLevel = try level(try v(), arg)
            case "--cors-origin": flagOrigins.append(try corsOrigin(try v(), arg))
            default:
                throw UsageError("unknown option '\(arguments[i])' for 'hinge serve' (see hinge serve --help)")
            }
            i += 1
        }
        if !flagOrigins.isEmpty { o.corsOrigins = flagOrigins }
        return o
    }

    private static func corsOrigin(_ s: String, _ name: String) throws(UsageError) -> String {
        if let problem = CORSPolicy.problem(with: s) { throw UsageError("\(name): \(problem)") }
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

    private static func level(_ s: String, _ name: String) throws(UsageError) -> LogLevel {
        guard let l = LogLevel(rawValue: s) else {
            throw UsageError("\(name) must be one of info, warn, error, got '\(s)'")
        }
        return l
    }
}
