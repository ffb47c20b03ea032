/// Which copy of state kept per event loop a caller uses. Counters (`ShardedCounters` in HTTPServer) and device
/// snapshots (`DeviceProfileStore` in Store) keep `LoopShard.count` copies, each on its own cache lines, so that
/// loops working at once never share one. Loop N uses shard N + 1 and passes it explicitly (a request carries
/// its loop's index); shard 0 is for every other thread. Beyond `count - 1` loops, loops share shards, which
/// stays correct, only slower.
public struct LoopShard: Sendable, Equatable {
    /// How many copies there are: the one count for every sharded structure. A power of two.
    public static let count = 8
    /// The shard of threads that are not event loops (workers, the request log's threads, the CLI).
    public static let other = LoopShard(index: 0)

    /// 0..<count.
    public let index: Int

    /// Shard `index` taken modulo `count`.
    @inlinable public init(index: Int) { self.index = index & (LoopShard.count - 1) }

    /// The shard of the event loop numbered `loopIndex` (0-based).
    @inlinable public init(loopIndex: Int) { self.init(index: loopIndex + 1) }
}
