import HTTPServer
import Store
import Synchronization
import Threads

/// The answer to one request: sends through the server's responder and records the route's metrics.
/// Sendable: it may be carried to another thread (the worker pool, the long-work lane, a store thread).
///
/// **One rule for store completions.** Work the store does on its own threads (the writer's commits, the read
/// threads' reads) ends with `complete`, which finishes the answer on the request's event loop: the response
/// is built and sent where the connection lives, whichever store thread completed.
struct Reply: Sendable {
    let responder: HTTPResponder
    let counters: RouteCounters
    /// The shard of the loop that read the request, which the route's counters add to on any thread.
    let shard: LoopShard
    /// When the request reached its route (`MonotonicClock`).
    let startNanos: UInt64
    let cors: CORSPolicy
    let origin: CORSPolicy.Verdict
    /// Where a store failure behind an error is logged.
    let failures: FailureLog
    let method: HTTPMethod
    let path: String

    /// Whether the client went away before the answer was sent (`HTTPResponder.clientGone`).
    var clientGone: Bool { responder.clientGone }

    var elapsedMicros: Int64 { Int64((MonotonicClock.nanoseconds() &- startNanos) / 1000) }

    /// Runs `finish` on the request's event loop.
    func onLoop(_ finish: @escaping @Sendable () -> Void) { responder.onLoop(finish) }

    /// Finishes the answer on the request's event loop: the response `answer` builds, or its error's.
    /// Every completion of the store's threads answers through it.
    func complete(_ answer: @escaping @Sendable () throws(RouteError) -> HTTPResponse) {
        responder.onLoop {
            do throws(RouteError) { self.send(try answer()) } catch { self.send(error) }
        }
    }

    /// Sends `error` as its problem document (logging a store failure behind it).
    func send(_ error: RouteError) { send(error.response(failures, method: method, path: path)) }

    /// Sends `response` with the CORS headers the request's origin gets, and `Cache-Control: no-store` unless
    /// the route said how it may be cached: live state, resolutions and errors must never be served stale.
    func send(_ response: HTTPResponse) {
        var response = response
        if !response.headers.contains("Cache-Control") { response.headers.add("Cache-Control", "no-store") }
        cors.decorate(&response.headers, origin)
        counters.observe(status: response.status.code, nanos: MonotonicClock.nanoseconds() &- startNanos, shard: shard)
        responder.respond(response)
    }
}
