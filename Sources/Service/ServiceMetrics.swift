import Glibc
import HTTPServer
import Synchronization

/// Per-route request counts by status and a latency histogram per route, for `GET /metrics`.
///
/// One uncontended-most-of-the-time mutex per request: a handful of additions, far below the cost of
/// the request itself (measured in BENCHMARKS.md).
public final class ServiceMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds (Prometheus `le`).
    static let bucketBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    struct RouteState {
        var byStatus: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServiceMetrics.bucketBounds.count)
        var count = 0
        var sumSeconds = 0.0
    }

    private let routes: Mutex<[String: RouteState]> = Mutex([:])
    /// Records that could not be written to the request log (the request still answered).
    let recordFailures = Atomic<Int>(0)

    public init() {}

    func observe(route: String, status: Int, seconds: Double) {
        routes.withLock { all in
            var s = all[route] ?? RouteState()
            s.byStatus[status, default: 0] += 1
            s.count += 1
            s.sumSeconds += seconds
            var i = 0
            while i < ServiceMetrics.bucketBounds.count, seconds > ServiceMetrics.bucketBounds[i] { i += 1 }
            if i < s.buckets.count { s.buckets[i] += 1 }
            all[route] = s
        }
    }

    func snapshot() -> [String: RouteState] { routes.withLock { $0 } }
}

/// Monotonic clock in nanoseconds.
func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// The answer to one request: sends through the server's responder and records the route's metrics.
/// Sendable: it may be carried to the request-log writer thread and sent from there.
struct Reply: Sendable {
    let responder: HTTPResponder
    let route: String
    let startNanos: UInt64
    let metrics: ServiceMetrics

    var elapsedMicros: Int64 { Int64((monotonicNanos() &- startNanos) / 1000) }

    func send(_ response: HTTPResponse) {
        let seconds = Double(monotonicNanos() &- startNanos) / 1e9
        metrics.observe(route: route, status: response.status, seconds: seconds)
        responder.respond(response)
    }
}

/// A router whose handlers get a `Reply` (metrics by route pattern) instead of the bare responder.
struct ServiceRouter {
    var router = Router()
    let metrics: ServiceMetrics
    /// Every `METHOD pattern` registered, for the contract test against openapi.yaml.
    var registered: [String] = []

    init(metrics: ServiceMetrics) { self.metrics = metrics }

    mutating func add(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (HTTPRequest, Reply) -> Void
    ) {
        let label = "\(method.rawValue) \(pattern)"
        registered.append(label)
        let metrics = self.metrics
        router.add(method, pattern, responding: { request, responder in
            handler(request, Reply(responder: responder, route: label, startNanos: monotonicNanos(), metrics: metrics))
        })
    }

    /// A synchronous handler.
    mutating func add(_ method: HTTPMethod, _ pattern: String, sync handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        add(method, pattern) { request, reply in reply.send(handler(request)) }
    }
}
