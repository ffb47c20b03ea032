import Threads

/// Threads that run request-log queries, and what a route computes from their result (a replay, a
/// picture), away from the event loops: a loop never waits for SQLite. A filtered listing may scan the
/// whole log (6–16 ms for 100 000 records, BENCHMARKS.md), and `DatabasePool.read` blocks while all
/// `maxReaders` connections are busy; on a loop thread either would stall every connection of that loop.
///
/// - At most `maxThreads` threads (`Store.Configuration.maxReaders`, one per read connection), started
///   on demand: a store that is never read starts none. They are named `hinge-db-read`.
/// - At most `capacity` jobs wait (`Store.Configuration.readQueueCapacity`); `submit` refuses beyond it,
///   at once, so that the caller can answer 503 instead of queueing without bound.
/// - `close()` (called by `Store.close`) runs the jobs already queued, then joins the threads; `submit`
///   refuses after it.
public final class ReadWorkers: Sendable {
    public typealias Job = WorkPool.Job

    private let pool: WorkPool
    public var maxThreads: Int { pool.threads }
    public var capacity: Int { pool.capacity }

    init(maxThreads: Int, capacity: Int) {
        pool = WorkPool(threads: maxThreads, capacity: capacity, name: "hinge-db-read", nice: 0)
    }

    /// Queues `job` for a read thread. False, without running it, when `capacity` jobs already wait, when
    /// the workers are closed, or when no thread could be started.
    public func submit(_ job: @escaping Job) -> Bool { pool.submit(job) }

    /// Jobs waiting for a thread (not those running).
    public var waiting: Int { pool.load.waiting }

    /// Runs what is queued, stops the threads. Idempotent.
    func close() { pool.close() }
}
