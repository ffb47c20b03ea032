import Synchronization

/// Counters for `/metrics` and `/readyz`, updated with relaxed atomics (no lock on any hot path).
final class StoreMetrics: Sendable {
    let queueDepth = Atomic<Int>(0)
    let commits = Atomic<Int>(0)
    let commitFailures = Atomic<Int>(0)
    let recordsWritten = Atomic<Int>(0)
    let recordsFailed = Atomic<Int>(0)
    let recordsRejected = Atomic<Int>(0)
    let recordsPruned = Atomic<Int>(0)
    let pruneFailures = Atomic<Int>(0)
    let lastBatchSize = Atomic<Int>(0)
    let maxBatchSize = Atomic<Int>(0)
    /// Database pages in use, in bytes (`PageUsage`), after the last commit or prune.
    let logBytes = Atomic<Int>(0)
    let healthy = Atomic<Bool>(true)
    let lastFailure = Mutex<StoreError?>(nil)

}

/// A point-in-time copy of the Store's counters (`/metrics`, docs/api.md#operations).
public struct StoreCounters: Sendable, Equatable {
    /// Records accepted by `RequestLog.append` and not yet committed (or failed).
    public var queueDepth: Int
    /// Request-log transactions committed (one per batch).
    public var commits: Int
    /// Request-log transactions that failed (each failed every record in its batch).
    public var commitFailures: Int
    /// Records committed.
    public var recordsWritten: Int
    /// Records whose commit failed (their completion got the error).
    public var recordsFailed: Int
    /// Records refused at `append` because the queue was full or the log closed.
    public var recordsRejected: Int
    /// Records deleted by the `maxRecords` pruning.
    public var recordsPruned: Int
    public var pruneFailures: Int
    /// Size of the last committed batch and the largest seen (group commit at work).
    public var lastBatchSize: Int
    public var maxBatchSize: Int
    /// Device profiles in the in-memory cache.
    public var deviceCacheSize: Int
    /// Database pages in use, in bytes: what `--max-log-bytes` bounds.
    public var logBytes: Int
    /// False after a failed commit until a later commit succeeds, and while the files under the store are
    /// unusable (`/readyz` → 503).
    public var healthy: Bool
}
