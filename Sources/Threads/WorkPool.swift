import CLinux
import Glibc

/// A bounded pool of threads for work that must not run where it was asked for: requests too heavy for an
/// event loop (the service's `hinge-work` threads, at nice 19 so that the loops win the CPU) and the
/// request log's reads (Store's `hinge-db-read` threads, which block in SQLite).
///
/// - At most `threads` threads, started on demand (a pool that never gets work starts none), named `name`
///   and run at `nice` (0 leaves the priority as it is).
/// - At most `capacity` jobs wait; `submit` refuses beyond it, at once, so that the caller answers 503
///   instead of queueing without bound (each waiting job holds its request body).
/// - `close()` runs the jobs already queued, then joins the threads; `submit` refuses after it.
public final class WorkPool: @unchecked Sendable {
    // @unchecked Sendable: `state` is only touched with `lock` held.
    public typealias Job = @Sendable () -> Void

    public let threads: Int
    public let capacity: Int
    /// Runs on the worker thread before each job (tests use it as a gate).
    private let beforeEachJob: (@Sendable () -> Void)?
    private let name: String
    private let nice: Int32
    private let lock = ConditionLock()
    private var state = State()

    private struct State {
        var jobs: [Job] = []
        var head = 0  // jobs[head...] wait
        var idle = 0
        var running = 0
        var started: [NamedThread] = []
        var closing = false
        var waiting: Int { jobs.count - head }
    }

    public init(
        threads: Int, capacity: Int, name: String = "hinge-work", nice: Int32 = 19,
        beforeEachJob: (@Sendable () -> Void)? = nil
    ) {
        self.threads = max(1, threads)
        self.capacity = max(1, capacity)
        self.name = name
        self.nice = nice
        self.beforeEachJob = beforeEachJob
    }

    deinit { close() }

    /// Queues `job`. False, without running it, when `capacity` jobs already wait, after `close()`, or when
    /// no thread could be started.
    public func submit(_ job: @escaping Job) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !state.closing, state.waiting < capacity else { return false }
        state.jobs.append(job)
        if state.idle >= state.waiting {
            lock.signal()
        } else if state.started.count < threads {
            do {
                state.started.append(try NamedThread(name: name) { [self] in self.work() })
            } catch {
                if state.started.isEmpty {
                    state.jobs.removeLast()
                    return false
                }
            }
        }
        return true
    }

    /// Jobs waiting for a thread, and jobs running.
    public var load: (waiting: Int, running: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (state.waiting, state.running)
    }

    /// Runs what is queued, stops the threads. Idempotent.
    public func close() {
        lock.lock()
        state.closing = true
        let started = state.started
        state.started = []
        lock.broadcast()
        lock.unlock()
        for t in started { t.join() }  // a worker closing the pool detaches itself instead (NamedThread.join)
    }

    private func work() {
        if nice != 0 { _ = name.withCString { hinge_thread_setup($0, nice) } }
        while let job = next() {
            beforeEachJob?()
            job()
            lock.lock()
            state.running -= 1
            lock.unlock()
        }
    }

    /// The next job, waiting for one; nil once closing and nothing is left.
    private func next() -> Job? {
        lock.lock()
        defer { lock.unlock() }
        while state.waiting == 0 && !state.closing {
            state.idle += 1
            lock.wait()
            state.idle -= 1
        }
        if state.waiting == 0 { return nil }
        let job = state.jobs[state.head]
        state.head += 1
        if state.head == state.jobs.count {
            state.jobs.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head > 64 && state.head * 2 > state.jobs.count {
            state.jobs.removeFirst(state.head)
            state.head = 0
        }
        state.running += 1
        return job
    }
}
