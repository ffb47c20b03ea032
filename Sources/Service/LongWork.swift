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

    /// Runs `job` on the lane for the client of `reply`'s request and sends what it answers (its error's problem,
    /// or, when it returns nil because it was stopped, `clientGoneAnswer`); the client's turn is freed first.
    /// Throws the 429 for a client that has a report already, the 503 for a full lane.
    func run(_ reply: Reply, _ job: @escaping @Sendable () throws(RouteError) -> HTTPResponse?) throws(RouteError) {
        let client = reply.responder.clientKey
        guard clients.withLock({ $0.insert(client).inserted }) else {
            throw RouteError(
                status: .tooManyRequests,
                detail: "This client already has a report waiting or running; one at a time per client.",
                headers: ["Retry-After": String(Self.retryAfterSeconds)])
        }
        let submitted = pool.submit {
            var answer: Result<HTTPResponse?, RouteError> = .success(nil)
            if !self.cancelled(reply) {
                do throws(RouteError) { answer = .success(try job()) } catch { answer = .failure(error) }
            }
            _ = self.clients.withLock { $0.remove(client) }
            switch answer {
            case .success(let response?): reply.send(response)
            case .success(nil):
                self.stoppedJobs.add(1, ordering: .relaxed)
                reply.send(Self.clientGoneAnswer)
            case .failure(let error): reply.send(error)
            }
        }
        if !submitted {
            _ = clients.withLock { $0.remove(client) }
            throw RouteError(
                status: .serviceUnavailable,
                detail: "The server is busy with other reports (\(pool.capacity) waiting); retry shortly.",
                headers: ["Retry-After": String(Self.retryAfterSeconds)])
        }
    }

    /// What a report whose client has gone answers: nobody reads it (the connection is closed).
    static let clientGoneAnswer = RouteError(
        status: .serviceUnavailable, detail: "The report was stopped: its client went away or the server is stopping.",
        headers: ["Retry-After": String(retryAfterSeconds)]
    ).response()

    /// Whether the work for `reply` should stop: its client has gone, or the server is shutting down.
    func cancelled(_ reply: Reply) -> Bool { reply.clientGone || stopping.load(ordering: .relaxed) }

    /// Stops the lane: reports waiting are answered 503 at once, a running one stops at its next check.
    func close() {
        stopping.store(true, ordering: .relaxed)
        pool.close()
    }
}
