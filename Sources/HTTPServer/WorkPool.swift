import CLinux
import Glibc
import Threads

/// Threads that run work too long for an event loop (a large matrix, a large scene), so that a loop
/// keeps answering its other connections meanwhile. The job sends its response through its
/// `HTTPResponder`, which hands it back to the connection's loop.
///
/// - At most `threads` threads, started on demand (a server that never gets heavy work starts none),
///   named `hinge-work` and run at the lowest priority (nice 19): the event loops win the CPU.
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
    private let lock = ConditionLock()
    private var state = State()

    private struct State {
        var jobs: [Job] = []
        var head = 0  // jobs[head...] wait
        var idle = 0
        var running = 0
        var started: [OSThread] = []
        var closing = false
        var waiting: Int { jobs.count - head }
    }

    public init(
        threads: Int, capacity: Int, name: String = "hinge-work", beforeEachJob: (@Sendable () -> Void)? = nil
    ) {
        self.threads = max(1, threads)
        self.capacity = max(1, capacity)
        self.name = name
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
                state.started.append(try OSThread(name: name) { [self] in self.work() })
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
        _ = name.withCString { hinge_thread_setup($0, 19) }
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
