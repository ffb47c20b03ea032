import HTTPServer
import Resolving
import Store

/// The configuration of `hinge serve`, as `ServiceApp` reads it, filled from the command line and the
/// environment by its one table of options (`ServeOptions.table`: each option's flag, variable, default and
/// help; the README's configuration table is generated from it).
public struct ServeOptions: Sendable, Equatable {
    public enum LogLevel: String, Sendable, CaseIterable {
        case info, warn, error
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var db = Store.Configuration.defaultPath
    /// `--replica-id`: stored with each record, shown in `/metrics` and the start-up line.
    public var replicaID = Store.defaultReplicaID()
    public var threads = Configuration.coreCount
    public var maxBody = Configuration.defaultMaxBodyBytes
    public var apiKey: String? = nil
    /// `--pairing-token`: the credential that opens the log and writes to sandboxed pages (`Origin: null`,
    /// docs/http.md#sandboxed-pages). nil: `hinge serve` makes a random one at start and prints it.
    public var pairingToken: String? = nil
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
        guard !name.contains(":"), !name.contains("["), HostPolicy.kind(of: name) != .malformed else {
            return "'\(name)' is not a host name: expected letters, digits, '-', '_' and '.', without scheme or port"
        }
        return nil
    }
}
