import Synchronization
import Threads

/// `slots` counters, each kept as one relaxed atomic per shard (`LoopShard`), the shards of a slot 64 bytes
/// apart: loops that add to the same counter touch different cache lines, and a read sums the shards. (One
/// shared atomic per counter would bounce its cache line between the loops on every request.) A caller names its
/// shard: an event loop its own, work done for a request the shard of the request's loop (`HTTPRequest.shard`).
public final class ShardedCounters: Sendable {
    // Sendable: the pointer is set once in init and only ever used through atomic operations.
    nonisolated(unsafe) private let base: UnsafeMutablePointer<Atomic<Int>>
    private let slots: Int
    /// Atomics per shard row: the slots rounded up to whole cache lines (8 × 8 bytes).
    private let stride: Int

    public init(slots: Int) {
        self.slots = slots
        stride = (slots + 7) / 8 * 8
        let total = stride * LoopShard.count
        base = .allocate(capacity: total)
        for i in 0..<total { (base + i).initialize(to: Atomic(0)) }
    }

    deinit {
        _ = base.deinitialize(count: stride * LoopShard.count)
        base.deallocate()
    }

    @inline(__always) public func add(_ slot: Int, _ n: Int = 1, shard: LoopShard) {
        (base + shard.index * stride + slot).pointee.add(n, ordering: .relaxed)
    }

    /// The sum over the shards (each read relaxed: a snapshot that may miss additions in flight).
    public func load(_ slot: Int) -> Int {
        var sum = 0
        for shard in 0..<LoopShard.count { sum &+= (base + shard * stride + slot).pointee.load(ordering: .relaxed) }
        return sum
    }
}

/// One sharded counter for the server's metrics. Every operation is relaxed: a counter orders nothing else,
/// and a read is a snapshot that may miss additions in flight.
public struct ShardedCounter: Sendable {
    private let counters = ShardedCounters(slots: 1)
    public init() {}
    @inline(__always) public func add(_ n: Int = 1, shard: LoopShard) { counters.add(0, n, shard: shard) }
    @inline(__always) public func subtract(_ n: Int, shard: LoopShard) { counters.add(0, -n, shard: shard) }
    public func load() -> Int { counters.load(0) }
}

/// Cheap counters the server keeps (relaxed atomics, sharded per event loop); a `/metrics` route reads them.
public final class ServerMetrics: Sendable {
    /// Connections open now (one shared atomic: accepting compares it with `maxConnections`; it changes per
    /// connection, not per request).
    public let openConnections = Atomic<Int>(0)
    /// Response bytes waiting for slow readers, all connections together (`maxBufferedResponseBytes`). It
    /// changes only when a write leaves bytes behind or a slow reader catches up, not per request.
    public let bufferedResponseBytes = Atomic<Int>(0)
    /// Responses replaced by 503 because `bufferedResponseBytes` was over `maxBufferedResponseBytes`.
    public let refusedForBufferedBytes = ShardedCounter()
    /// Connections closed because they held more than `slowReaderBytes` unsent for `slowReaderGrace`.
    public let shedConnections = ShardedCounter()
    /// Connections accepted since start (refused ones included).
    public let acceptedConnections = ShardedCounter()
    /// Connections refused with 503 because `maxConnections` were open.
    public let refusedConnections = ShardedCounter()
    /// Requests handed to the handler.
    public let requests = ShardedCounter()
    /// Requests refused by the parser (4xx/5xx before any handler ran).
    public let parseErrors = ShardedCounter()
    /// Connections answered 408 (header or body read timeout) or closed because their response waited
    /// unread for the idle timeout.
    public let timeouts = ShardedCounter()
    public let responses1xx = ShardedCounter()
    public let responses2xx = ShardedCounter()
    public let responses3xx = ShardedCounter()
    public let responses4xx = ShardedCounter()
    public let responses5xx = ShardedCounter()

    public init() {}

    func countResponse(status: HTTPStatus, shard: LoopShard) {
        switch status.code {
        case ..<200: responses1xx.add(shard: shard)
        case 200..<300: responses2xx.add(shard: shard)
        case 300..<400: responses3xx.add(shard: shard)
        case 400..<500: responses4xx.add(shard: shard)
        default: responses5xx.add(shard: shard)
        }
    }
}
