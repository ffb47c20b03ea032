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
    public typealias Job = @Sendable () -> Void

    public let maxThreads: Int
    public let capacity: Int
    private let lock = ConditionLock()
    private let state = State()

    /// Guarded by `lock`.
    private final class State: @unchecked Sendable {
        // Sendable proof: every access happens with the owning ReadWorkers' `lock` held.
        var jobs: [Job] = []
        var head = 0  // jobs[head...] wait; the consumed prefix is dropped when it outgrows the rest
        var idle = 0
        var threads: [NamedThread] = []
        var closing = false
        var waiting: Int { jobs.count - head }
    }

    init(maxThreads: Int, capacity: Int) {
        self.maxThreads = max(1, maxThreads)
        self.capacity = max(1, capacity)
    }

    /// Queues `job` for a read thread. False, without running it, when `capacity` jobs already wait, when
    /// the workers are closed, or when no thread could be started.
    public func submit(_ job: @escaping Job) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !state.closing, state.waiting < capacity else { return false }
        state.jobs.append(job)
        if state.idle >= state.waiting {
            lock.signal()
        } else if state.threads.count < maxThreads {
            do {
                state.threads.append(try NamedThread.start("hinge-db-read") { [self] in self.run() })
            } catch {
                if state.threads.isEmpty {
                    state.jobs.removeLast()
                    return false
                }
            }
        }
        return true
    }

    /// Jobs waiting for a thread (not those running).
    public var waiting: Int { lock.withLock { state.waiting } }

    /// Runs what is queued, stops the threads. Idempotent.
    func close() {
        let threads = lock.withLock { () -> [NamedThread] in
            state.closing = true
            let t = state.threads
            state.threads = []
            return t
        }
        lock.broadcast()
        for t in threads { t.join() }
    }

    private func run() {
        while true {
            lock.lock()
            while state.waiting == 0 && !state.closing {
                state.idle += 1
                lock.wait()
                state.idle -= 1
            }
            if state.waiting == 0 {
                lock.unlock()
                return
            }
            let job = state.jobs[state.head]
            state.head += 1
            if state.head == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 64 && state.head * 2 > state.jobs.count {
                state.jobs.removeFirst(state.head)
                state.head = 0
            }
            lock.unlock()
            job()
        }
    }
}
