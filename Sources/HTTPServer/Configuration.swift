/// Every limit and timeout of the server, with its default. `docs/http.md` has the same table.
///
/// | field | default | when exceeded |
/// |---|---|---|
/// | `maxRequestLineBytes` | 8 KiB | 414, close |
/// | `maxHeaderBlockBytes` | 32 KiB | 431, close |
/// | `maxHeaderFields` | 100 | 431, close |
/// | `maxBodyBytes` | 1 MiB | 413, close (before reading the body, also under `Expect: 100-continue`) |
/// | `headerReadTimeout` | 10 s | 408, close (from the first byte of a request to the end of its head) |
/// | `bodyReadTimeout` | 10 s | 408, close (from the end of the head to the end of the body) |
/// | `keepAliveIdleTimeout` | 60 s | close silently (no request bytes since the last response, or no write |
/// |   |   | progress on a pending response: a peer that stopped reading) |
/// | `maxConnections` | 4,096 | 503 + close for each connection beyond |
/// | `maxRequestsPerConnection` | 1,000 | the last response carries `Connection: close` |
/// | `shutdownDeadline` | 10 s | connections still open are closed |
/// | `maxBufferedResponseBytes` | 64 MiB | while response bytes not yet read by their clients, all connections |
/// |   |   | together, are above it: 503 + `Retry-After: 1` instead of a response over `smallResponseBytes`, or |
/// |   |   | for a connection that holds unsent bytes itself |
/// | `smallResponseBytes` | 64 KiB | responses up to this size (health, metrics, a typical resolution) are |
/// |   |   | sent to a connection holding nothing unsent even above `maxBufferedResponseBytes` |
/// | `slowReaderBytes` | 1 MiB | a connection holding more unsent bytes than this … |
/// | `slowReaderGrace` | 2 s | … without write progress for this long is closed (shed) |
/// | `notSentLowWaterBytes` | 128 KiB | unsent bytes a socket holds in the kernel (`TCP_NOTSENT_LOWAT`), |
/// |   |   | so that write progress shows while the peer reads |
public struct Configuration: Sendable {
    /// How the process's one listening socket is shared by the event loops. Either way a connection goes
    /// to the loop with the fewest connections (the accepting loop keeps it on a tie, without a hand-off).
    /// There is never more than one listening socket: no `SO_REUSEPORT`, so another process cannot bind
    /// the same port and take a share of the connections.
    public enum AcceptStrategy: String, Sendable, CaseIterable {
        /// Every loop watches the socket (`EPOLLEXCLUSIVE`: the kernel wakes one waiting loop) and accepts.
        case sharedListener
        /// Loop 0 alone accepts and hands sockets to the loops.
        case singleAcceptor
    }

    /// Address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`) or `localhost`.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 lets the kernel choose (read it back from `HTTPServer.port`).
    public var port: Int = 8080
    /// Number of event loops (threads); default one per core.
    public var threads: Int = Configuration.coreCount
    public var acceptStrategy: AcceptStrategy = .sharedListener
    /// `listen(2)` backlog.
    public var backlog: Int32 = 1024

    public var maxRequestLineBytes: Int = 8 * 1024
    public var maxHeaderBlockBytes: Int = 32 * 1024
    public var maxHeaderFields: Int = 100
    public var maxBodyBytes: Int = Configuration.defaultMaxBodyBytes
    /// 1 MiB: the default largest request body, of `Configuration`, `HTTPParser.Limits` and `hinge serve
    /// --max-body`.
    public static let defaultMaxBodyBytes = 1 << 20

    public var headerReadTimeout: Duration = .seconds(10)
    public var bodyReadTimeout: Duration = .seconds(10)
    public var keepAliveIdleTimeout: Duration = .seconds(60)

    public var maxConnections: Int = 4096
    public var maxRequestsPerConnection: Int = 1000
    /// Response bytes the server holds for clients that do not read them yet, all connections together.
    /// Above it, new requests are answered 503 (without running their handler) until readers catch up or
    /// their connections time out.
    public var maxBufferedResponseBytes: Int = 64 * 1024 * 1024
    /// Above `maxBufferedResponseBytes`, a response up to this size still reaches a connection that holds no
    /// unsent bytes: the attacker's slow readers cannot take `/healthz` or a fresh client's resolution down.
    public var smallResponseBytes: Int = 64 * 1024
    /// A client's share of unsent response bytes: a connection above it that has read nothing for
    /// `slowReaderGrace` is closed and counted as shed.
    public var slowReaderBytes: Int = 1024 * 1024
    /// Unsent bytes a connection's socket holds in the kernel at most (`TCP_NOTSENT_LOWAT`): the loop writes
    /// more as soon as the peer has taken some, so a client that reads steadily shows progress within the
    /// grace however slowly the kernel's send buffer would otherwise drain.
    public var notSentLowWaterBytes: Int = 128 * 1024
    public var slowReaderGrace: Duration = .seconds(2)
    /// How long `shutdown` waits for in-flight requests before closing what remains.
    public var shutdownDeadline: Duration = .seconds(10)

    /// Value of the `Server` header sent on every response.
    public var serverName: String = "hinge/0.1.0"
    /// When true, one line per request (`METHOD path status NNNus`) is written to `logFileDescriptor`,
    /// batched into one write per event-loop iteration.
    public var logRequests: Bool = false
    public var logFileDescriptor: Int32 = 2

    public init() {}

    public static var coreCount: Int {
        let n = sysconfCores()
        return n > 0 ? n : 1
    }
}

#if canImport(Glibc)
    import Glibc
    private func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
#else
    private func sysconfCores() -> Int { 1 }
#endif

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: UInt64 {
        let (s, a) = components
        if s < 0 { return 0 }
        let (m, o) = UInt64(s).multipliedReportingOverflow(by: 1_000_000_000)
        if o { return .max }
        return m &+ UInt64(a / 1_000_000_000)
    }
}
