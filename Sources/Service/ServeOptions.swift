import HTTPServer
import Store

/// The configuration of `hinge serve`, as `ServiceApp` reads it. `HingeCLI` fills it from the command line
/// and the environment (`ServeOptions.parse`): a flag wins over its variable, which wins over the default.
///
/// | flag | variable | default | meaning |
/// |---|---|---|---|
/// | `--host` | `HINGE_HOST` | `127.0.0.1` | address to bind |
/// | `--port` | `HINGE_PORT` | `8080` | port (0: any free port) |
/// | `--db` | `HINGE_DB` | `./hinge.sqlite` | SQLite database, or a `postgres://user@host:port/dbname` URL (no password) |
/// | `--replica-id` | `HINGE_REPLICA_ID` | host name | this server's name, stored with each record, in `/metrics` |
/// | `--threads` | `HINGE_THREADS` | cores | event loops |
/// | `--max-body` | `HINGE_MAX_BODY` | `1048576` | largest request body in bytes (413 beyond) |
/// | `--api-key` | `HINGE_API_KEY` | none | bearer key for writes (`PUT`, `DELETE`) |
/// | `--no-record` | `HINGE_NO_RECORD` | off | do not record resolutions in the request log |
/// | `--max-records` | `HINGE_MAX_RECORDS` | `100000` | request-log size cap in records (oldest pruned beyond it) |
/// | `--max-log-bytes` | `HINGE_MAX_LOG_BYTES` | `1073741824` | request-log size cap in database bytes (≥ 1 MiB) |
/// | `--commit-gather-us` | `HINGE_COMMIT_GATHER_US` | `200` | the request-log writer's gathering window in µs (0: off) |
/// | `--max-response-bytes` | `HINGE_MAX_RESPONSE_BYTES` | `8388608` | largest resolve or matrix response (422 beyond) |
/// | `--max-matrix-work` | `HINGE_MAX_MATRIX_WORK` | `200000` | largest matrix: combinations × scene nodes (422 beyond) |
/// | `--max-buffered-bytes` | `HINGE_MAX_BUFFERED_BYTES` | `67108864` | response bytes held for slow readers (503 beyond) |
/// | `--log-level` | `HINGE_LOG_LEVEL` | `info` | `info`: one line per request on stderr; `warn`, `error`: none |
/// | `--cors-origin` (repeatable) | `HINGE_CORS_ORIGINS` (comma-separated) | none | browser origins allowed to call the API (`CORSPolicy`) |
/// | `--public-host` (repeatable) | `HINGE_PUBLIC_HOSTS` (comma-separated) | none | names clients call the server by, beyond its address and localhost (`HostPolicy`) |
public struct ServeOptions: Sendable, Equatable {
    public enum LogLevel: String, Sendable, CaseIterable {
        case info, warn, error
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var db = "./hinge.sqlite"
    /// `--replica-id`: stored with each record, shown in `/metrics` and the start-up line.
    public var replicaID = Store.defaultReplicaID()
    public var threads = Configuration.coreCount
    public var maxBody = 1024 * 1024
    public var apiKey: String? = nil
    public var noRecord = false
    public var maxRecords = 100_000
    public var maxLogBytes = 1 << 30
    /// `--commit-gather-us`: how long a saturated request-log writer waits for more records before a commit
    /// (`Store.Configuration.commitGatherMicroseconds`); 0 commits at once.
    public var commitGatherMicroseconds = 200
    public var maxResponseBytes = Matrix.Limits.defaultMaxResponseBytes
    public var maxMatrixWork = Matrix.Limits.defaultMaxWork
    public var maxBufferedBytes = Configuration().maxBufferedResponseBytes
    public var logLevel = LogLevel.info
    /// Browser origins allowed to call the API across origins: `scheme://host[:port]`, `*` (any) or `null`
    /// (opaque origins: sandboxed iframes, `data:` pages). Empty: no CORS headers at all.
    public var corsOrigins: [String] = []
    /// Host names the server answers for besides IP addresses, `localhost` and the bind name (`HostPolicy`):
    /// the names clients and load balancers use. Any other `Host` gets 421.
    public var publicHosts: [String] = []
    /// How the loops share the listening socket (`HINGE_ACCEPT_STRATEGY=sharedListener|singleAcceptor`, no
    /// flag: a tuning knob for benchmarks; see docs/http.md).
    public var acceptStrategy = Configuration.AcceptStrategy.sharedListener

    public init() {}

    /// Why `origin` cannot be one of `corsOrigins`, or nil when it can (`CORSPolicy` says what an origin is).
    public static func corsOriginProblem(_ origin: String) -> String? { CORSPolicy.problem(with: origin) }

    /// Why `name` cannot be one of `publicHosts`, or nil when it can: a host name without port or scheme.
    public static func publicHostProblem(_ name: String) -> String? {
        guard !name.contains(":"), !name.contains("["), HostPolicy.name(ofHostHeader: name) != nil else {
            return "'\(name)' is not a host name: expected letters, digits, '-', '_' and '.', without scheme or port"
        }
        return nil
    }
}
