import Glibc
import HTTPServer
import Store
import Synchronization

/// Per-route request counts by status and a latency histogram per route, for `GET /metrics`.
///
/// Lock-free on the request path: each route owns its counters (relaxed atomics), and a `Reply` holds its
/// route's counters directly. A mutex here would make one event loop wait whenever the other was
/// descheduled while holding it — on a busy 2-core machine, a latency tail of a whole scheduler slice.
public final class ServiceMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds (Prometheus `le`).
    static let bucketBounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
    ]

    /// A route's snapshot for the exposition text.
    struct RouteState {
        var byStatus: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServiceMetrics.bucketBounds.count)
        var count = 0
        var sumSeconds = 0.0
    }

    /// Routes by label; written when routes are registered (start-up), read by `/metrics`.
    private let routes: Mutex<[String: RouteCounters]> = Mutex([:])
    /// Records that could not be written to the request log (the request still answered).
    let recordFailures = Atomic<Int>(0)
    /// Heavy requests answered 503 because the worker pool was full.
    let workRefusals = Atomic<Int>(0)

    public init() {}

    /// The counters of `route`, created on first use (registering the same label twice shares them).
    func counters(route: String) -> RouteCounters {
        routes.withLock { all in
            if let c = all[route] { return c }
            let c = RouteCounters()
            all[route] = c
            return c
        }
    }

    func snapshot() -> [String: RouteState] {
        let all = routes.withLock { $0 }
        return all.mapValues { $0.state() }.filter { $0.value.count > 0 }
    }
}

/// The counters of one route: a slot per HTTP status 100…599, one per latency bucket, the count and the sum
/// of latencies in nanoseconds. All relaxed atomics: `/metrics` may read a request's count before its
/// bucket, never a torn value.
final class RouteCounters: Sendable {
    private static let statusBase = 100
    private static let statusSlots = 500
    /// Slots: the statuses, then the latency buckets, then the count and the sum of nanoseconds; sharded per
    /// event loop (see `ShardedCounters`).
    private let slots: ShardedCounters
    private static let bucketBase = statusSlots
    private static let countSlot = statusSlots + ServiceMetrics.bucketBounds.count
    private static let sumSlot = countSlot + 1

    init() {
        slots = ShardedCounters(slots: RouteCounters.sumSlot + 1)
    }

    func observe(status: Int, nanos: UInt64) {
        let slot = status - RouteCounters.statusBase
        if slot >= 0 && slot < RouteCounters.statusSlots { slots.add(slot) }
        let seconds = Double(nanos) / 1e9
        var i = 0
        while i < ServiceMetrics.bucketBounds.count, seconds > ServiceMetrics.bucketBounds[i] { i += 1 }
        if i < ServiceMetrics.bucketBounds.count { slots.add(RouteCounters.bucketBase + i) }
        slots.add(RouteCounters.countSlot)
        slots.add(RouteCounters.sumSlot, Int(truncatingIfNeeded: nanos))
    }

    func state() -> ServiceMetrics.RouteState {
        var s = ServiceMetrics.RouteState()
        for slot in 0..<RouteCounters.statusSlots {
            let n = slots.load(slot)
            if n > 0 { s.byStatus[slot + RouteCounters.statusBase] = n }
        }
        for i in 0..<ServiceMetrics.bucketBounds.count { s.buckets[i] = slots.load(RouteCounters.bucketBase + i) }
        s.count = slots.load(RouteCounters.countSlot)
        s.sumSeconds = Double(slots.load(RouteCounters.sumSlot)) / 1e9
        return s
    }
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
    let counters: RouteCounters
    let startNanos: UInt64
    let cors: CORSPolicy
    let origin: CORSPolicy.Verdict

    var elapsedMicros: Int64 { Int64((monotonicNanos() &- startNanos) / 1000) }

    /// Runs `finish` on the request's event loop: a completion on another thread (the request log's writer)
    /// hands back with it, so that `send` and its header work run where the response is sent.
    func onLoop(_ finish: @escaping @Sendable () -> Void) { responder.onLoop(finish) }

    /// Sends `response` with the CORS headers the request's origin gets, and `Cache-Control: no-store` unless
    /// the route said how it may be cached: live state, resolutions and errors must never be served stale.
    func send(_ response: HTTPResponse) {
        var response = response
        if !response.headers.contains("Cache-Control") { response.headers.add("Cache-Control", "no-store") }
        cors.decorate(&response.headers, origin)
        counters.observe(status: response.status.code, nanos: monotonicNanos() &- startNanos)
        responder.respond(response)
    }
}

/// A router whose handlers get a `Reply` (metrics by route pattern, CORS and caching headers) instead of the
/// bare responder. Before a handler runs, a write from an origin that is not allowed is refused (403) and so
/// is a query parameter the route does not know (400).
struct ServiceRouter {
    var router = Router()
    let metrics: ServiceMetrics
    let cors: CORSPolicy
    let hosts: HostPolicy
    /// Every `METHOD pattern` registered, for the contract test against openapi.yaml.
    var registered: [String] = []

    init(
        metrics: ServiceMetrics, cors: CORSPolicy = CORSPolicy(origins: []),
        hosts: HostPolicy = HostPolicy(bindHost: "127.0.0.1", publicHosts: [])
    ) {
        self.metrics = metrics
        self.cors = cors
        self.hosts = hosts
    }

    mutating func add(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (HTTPRequest, Reply) -> Void
    ) {
        let label = "\(method.rawValue) \(pattern)"
        registered.append(label)
        let counters = metrics.counters(route: label)
        let cors = self.cors
        let accepted = QueryParameters.accepted[label] ?? []
        router.add(
            method, pattern,
            responding: { request, responder in
                let origin = cors.verdict(request)
                let reply = Reply(
                    responder: responder, counters: counters, startNanos: monotonicNanos(), cors: cors, origin: origin)
                if CORSPolicy.refuses(origin, request.method) { return reply.send(CORSPolicy.refusal(request)) }
                if let query = request.query,
                    let refused = QueryParameters.refusal(query, accepted: accepted, route: label)
                {
                    return reply.send(refused)
                }
                handler(request, reply)
            })
    }

    /// Every `METHOD pattern` answered: those registered, then `OPTIONS` on each pattern (see `handler`).
    var answered: [String] {
        var patterns: [Substring] = []
        for label in registered {
            let pattern = label.split(separator: " ", maxSplits: 1)[1]
            if !patterns.contains(pattern) { patterns.append(pattern) }
        }
        return registered + patterns.map { "OPTIONS \($0)" }
    }

    /// The server's handler: the routes, `OPTIONS` on every route (`CORSPolicy.preflight`), and 404/405
    /// problems that carry the CORS headers too, so a browser page can read why its call failed.
    var handler: HTTPHandler {
        let router = self.router
        let cors = self.cors
        let hosts = self.hosts
        return { request, responder in
            // Before any route, CORS decision or work: a name the server does not answer for (DNS rebinding).
            if !hosts.accepts(request.headers["Host"]) { return responder.respond(HostPolicy.refusal(request)) }
            switch router.match(method: request.method, path: request.path) {
            case .found(let handler, let parameters):
                if parameters.isEmpty { return handler(request, responder) }
                var request = request
                request.pathParameters = parameters
                handler(request, responder)
            case .methodNotAllowed(let allow):
                if request.method == .OPTIONS { return responder.respond(cors.preflight(request, methods: allow)) }
                let methods = (allow + ["OPTIONS"]).joined(separator: ", ")
                var response = Problem.response(
                    status: .methodNotAllowed,
                    detail: "\(request.method) is not allowed on \(request.path); allowed: \(methods).",
                    headers: ["Allow": methods, "Cache-Control": "no-store"])
                cors.decorate(&response.headers, cors.verdict(request))
                responder.respond(response)
            case .notFound:
                var response = Problem.response(
                    status: .notFound, detail: "No resource at \(request.path).", headers: ["Cache-Control": "no-store"]
                )
                cors.decorate(&response.headers, cors.verdict(request))
                responder.respond(response)
            }
        }
    }

    /// A handler that reads the database: it runs on `workers` (`Store.readWorkers`), never on the event
    /// loop, and its response is sent from there. When `workers` refuse the job (their queue is full, or
    /// the store is closing) the answer is an immediate 503 with `Retry-After: 1`.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, reading workers: ReadWorkers,
        _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        add(method, pattern) { request, reply in
            guard workers.submit({ reply.send(handler(request)) }) else {
                return reply.send(Self.readersBusy(workers))
            }
        }
    }

    /// A handler that starts on `workers` (`Store.readWorkers`) and sends its response itself, from there or
    /// from wherever it hands the work on; a full queue answers 503 as above.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, reading workers: ReadWorkers,
        _ handler: @escaping @Sendable (HTTPRequest, Reply) -> Void
    ) {
        add(method, pattern) { request, reply in
            guard workers.submit({ handler(request, reply) }) else {
                return reply.send(Self.readersBusy(workers))
            }
        }
    }

    static func readersBusy(_ workers: ReadWorkers) -> HTTPResponse {
        Problem.response(
            status: .serviceUnavailable,
            detail: "Too many request-log reads are waiting (\(workers.capacity)); retry shortly.",
            headers: ["Retry-After": "1"])
    }

    /// A synchronous handler.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, sync handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        add(method, pattern) { request, reply in reply.send(handler(request)) }
    }
}
