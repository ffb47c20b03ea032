import Synchronization
import Threads

/// A loop's counters: what it adds to the server's (`ServerMetrics`, into its own shard, so that loops never
/// share a cache line on a request), the connections assigned to it (`load`), and its connections' part of
/// the server-wide count of unsent response bytes.
///
/// Sendable: `load` is read by the other loops (to hand an accepted connection to the least loaded one); the
/// rest is only called on the loop's thread, and everything it touches is atomic.
final class LoopMetrics: Sendable {
    let server: ServerMetrics
    let shard: LoopShard
    /// Connections assigned to this loop and not yet closed (an accepting loop counts a hand-off at once, so
    /// that a burst of accepts spreads before the receiving loop has registered anything).
    let load = Atomic<Int>(0)

    init(server: ServerMetrics, shard: LoopShard) {
        self.server = server
        self.shard = shard
    }

    /// A connection was accepted; false when it is over `maxConnections` and refused (counted as such).
    func admit(maxConnections: Int) -> Bool {
        server.acceptedConnections.add(shard: shard)
        let open = server.openConnections.add(1, ordering: .relaxed).newValue
        if open <= maxConnections { return true }
        server.openConnections.subtract(1, ordering: .relaxed)
        server.refusedConnections.add(shard: shard)
        return false
    }

    /// A connection admitted by `admit` closed, or was never registered.
    func connectionClosed() {
        load.subtract(1, ordering: .relaxed)
        server.openConnections.subtract(1, ordering: .relaxed)
    }

    @inline(__always) func requestDispatched() { server.requests.add(shard: shard) }
    @inline(__always) func response(_ status: HTTPStatus) { server.countResponse(status: status, shard: shard) }
    func parseError() { server.parseErrors.add(shard: shard) }
    func timedOut() { server.timeouts.add(shard: shard) }
    func shed() { server.shedConnections.add(shard: shard) }
    func refusedForBufferedBytes() { server.refusedForBufferedBytes.add(shard: shard) }

    /// Slow readers together hold more than `limit` unsent bytes (docs/http.md#slow-readers).
    @inline(__always) func overBufferedBytes(_ limit: Int) -> Bool {
        server.bufferedResponseBytes.load(ordering: .relaxed) > limit
    }

    /// Keeps `ServerMetrics.bufferedResponseBytes` equal to the sum of the connections' unsent bytes: `c` holds
    /// `pending` unsent now; the shared count is touched only when that figure changes.
    @inline(__always) func countUnsent(_ c: HTTPConnection, _ pending: Int) {
        if pending == c.outCounted { return }
        server.bufferedResponseBytes.add(pending - c.outCounted, ordering: .relaxed)
        c.outCounted = pending
    }
}
