import HTTPServer
import Synchronization
import Threads

/// The lane for work that reads the whole request log (an impact report: up to 100 000 records replayed,
/// seconds of CPU), apart from the worker pool that draws pictures and runs matrices (docs/http.md#long-work).
///
/// - One thread, at the lowest priority: a report takes one core at most, and the worker pool's jobs (at
///   the same priority) and the event loops keep the other, so another user's picture keeps its latency.
/// - At most `capacity` reports wait; beyond, 503 with `Retry-After`.
/// - One report per client (`HTTPResponder.clientKey`: its IPv4 address or IPv6 /64) at a time, waiting or
///   running; a second gets 429 with `Retry-After`.
/// - A report whose client has gone (`Reply.clientGone`: the connection closed or reset) is not started,
///   and one running stops at its next check.
final class LongWorkLane: Sendable {
    static let retryAfterSeconds = 5
    let pool: WorkPool
    private let clients = Mutex<Set<UInt64>>([])
    private let stopping = Atomic<Bool>(false)
    private let stoppedJobs = Atomic<Int>(0)
    /// Reports not started or stopped because their client went away or the server stopped.
    var stoppedCount: Int { stoppedJobs.load(ordering: .relaxed) }

    init(threads: Int = 1, capacity: Int = 4, beforeEachJob: (@Sendable () -> Void)? = nil) {
        pool = WorkPool(
            threads: threads, capacity: capacity, name: "hinge-long", nice: 19, beforeEachJob: beforeEachJob)
    }

    /// Runs `job` on the lane for the client of `reply`'s request. `job` gets `finish`, which sends its answer
    /// and frees the client's turn; it must call it exactly once, from any thread.
    func run(
        _ reply: Reply,
        _ job: @escaping @Sendable (_ finish: @escaping @Sendable (HTTPResponse) -> Void) -> Void
    ) {
        let client = reply.responder.clientKey
        guard clients.withLock({ $0.insert(client).inserted }) else {
            return reply.send(
                Problem.response(
                    status: .tooManyRequests,
                    detail: "This client already has a report waiting or running; one at a time per client.",
                    headers: ["Retry-After": String(Self.retryAfterSeconds)]))
        }
        let finish: @Sendable (HTTPResponse) -> Void = { response in
            _ = self.clients.withLock { $0.remove(client) }
            reply.send(response)
        }
        let submitted = pool.submit {
            if self.cancelled(reply) { return self.stop(finish) }
            job(finish)
        }
        if !submitted {
            finish(
                Problem.response(
                    status: .serviceUnavailable,
                    detail: "The server is busy with other reports (\(pool.capacity) waiting); retry shortly.",
                    headers: ["Retry-After": String(Self.retryAfterSeconds)]))
        }
    }

    /// Ends a report that was stopped (`cancelled`): counts it and frees its client's turn.
    func stop(_ finish: @Sendable (HTTPResponse) -> Void) {
        stoppedJobs.add(1, ordering: .relaxed)
        finish(Self.clientGoneAnswer)
    }

    /// What a report whose client has gone answers: nobody reads it (the connection is closed).
    static let clientGoneAnswer = Problem.response(
        status: .serviceUnavailable, detail: "The report was stopped: its client went away or the server is stopping.",
        headers: ["Retry-After": String(retryAfterSeconds)])

    /// Whether the work for `reply` should stop: its client has gone, or the server is shutting down.
    func cancelled(_ reply: Reply) -> Bool { reply.clientGone || stopping.load(ordering: .relaxed) }

    /// Stops the lane: reports waiting are answered 503 at once, a running one stops at its next check.
    func close() {
        stopping.store(true, ordering: .relaxed)
        pool.close()
    }
}
