import HTTPServer
import Store
import Synchronization
import Threads

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
    /// event loop (see `ShardedCounters`): a request's observation goes to the shard of the loop that read it.
    private let slots: ShardedCounters
    private static let bucketBase = statusSlots
    private static let countSlot = statusSlots + ServiceMetrics.bucketBounds.count
    private static let sumSlot = countSlot + 1

    init() {
        slots = ShardedCounters(slots: RouteCounters.sumSlot + 1)
    }

    func observe(status: Int, nanos: UInt64, shard: LoopShard) {
        let slot = status - RouteCounters.statusBase
        if slot >= 0 && slot < RouteCounters.statusSlots { slots.add(slot, shard: shard) }
        let seconds = Double(nanos) / 1e9
        var i = 0
        while i < ServiceMetrics.bucketBounds.count, seconds > ServiceMetrics.bucketBounds[i] { i += 1 }
        if i < ServiceMetrics.bucketBounds.count { slots.add(RouteCounters.bucketBase + i, shard: shard) }
        slots.add(RouteCounters.countSlot, shard: shard)
        slots.add(RouteCounters.sumSlot, Int(truncatingIfNeeded: nanos), shard: shard)
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
