import Synchronization

/// Sends the response to one request. Call `respond` exactly once, right away inside the handler or
/// later from any thread; later calls are ignored. Responses on a connection always leave in request
/// order (the next pipelined request is not parsed before this one is answered).
///
/// Inside the handler (or a job on the loop) the response is handed to the loop, which sends it when the
/// handler returns. From another thread it is queued on the connection's event loop (`ResponseQueue`), which
/// is woken through an eventfd; one wakeup carries every response queued before the loop drains its inbox, so
/// a writer thread answering a batch of requests costs one `write(2)` per loop, not one per response.
/// A responder dropped without responding answers 500, so a handler bug never hangs a connection.
public final class HTTPResponder: Sendable {
    private let queue: ResponseQueue
    private let fd: Int32
    private let connectionID: UInt64
    private let done = Atomic<Bool>(false)
    private let liveness: ConnectionLiveness
    /// Who sent the request, as a key for limits per client: the IPv4 address, or the /64 prefix of the IPv6
    /// address, of the connection's peer (read once per connection); 0 when unknown.
    public let clientKey: UInt64

    init(
        queue: ResponseQueue, fd: Int32, connectionID: UInt64, liveness: ConnectionLiveness, clientKey: UInt64
    ) {
        self.liveness = liveness
        self.clientKey = clientKey
        self.queue = queue
        self.fd = fd
        self.connectionID = connectionID
    }

    public func respond(_ response: consuming HTTPResponse) {
        if done.exchange(true, ordering: .acquiringAndReleasing) { return }
        queue.deliver(fd: fd, connectionID: connectionID, response: response)
    }

    /// Runs `finish` on the thread of the event loop that read the request and sends its response: a
    /// completion called on another thread (the request log's writer) hands back with it, so that the
    /// response is finished (headers, counters) where it is sent. `finish` is expected to call `respond`.
    public func onLoop(_ finish: @escaping @Sendable () -> Void) { queue.run(finish) }

    /// Whether the client went away (closed or reset its connection, or shut its sending side) before the
    /// response was sent: work done for it only may stop. Set by the connection's loop; read from any thread.
    public var clientGone: Bool { liveness.clientGone }

    /// Whether `respond` was called already.
    public var hasResponded: Bool { done.load(ordering: .acquiring) }

    deinit {
        if !done.load(ordering: .acquiring) {
            queue.deliver(
                fd: fd, connectionID: connectionID,
                response: .problem(status: .internalServerError, detail: "The handler finished without a response."))
        }
    }
}
