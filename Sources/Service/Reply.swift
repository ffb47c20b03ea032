import HTTPServer
import Store
import Synchronization
import Threads

/// The answer to one request: sends through the server's responder and records the route's metrics.
/// Sendable: it may be carried to another thread (the worker pool, a read thread); a completion on the
/// request log's writer thread hands back with `onLoop` before sending.
struct Reply: Sendable {
    let responder: HTTPResponder
    let counters: RouteCounters
    /// The shard of the loop that read the request, which the route's counters add to on any thread.
    let shard: LoopShard
    /// When the request reached its route (`MonotonicClock`).
    let startNanos: UInt64
    let cors: CORSPolicy
    let origin: CORSPolicy.Verdict

    /// Whether the client went away before the answer was sent (`HTTPResponder.clientGone`).
    var clientGone: Bool { responder.clientGone }

    var elapsedMicros: Int64 { Int64((MonotonicClock.nanoseconds() &- startNanos) / 1000) }

    /// Runs `finish` on the request's event loop: a completion on another thread (the request log's writer)
    /// hands back with it, so that `send` and its header work run where the response is sent.
    func onLoop(_ finish: @escaping @Sendable () -> Void) { responder.onLoop(finish) }

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
