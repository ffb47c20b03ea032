import Synchronization

/// One client connection: its socket, parser, output buffer and state machine. Owned and touched only by
/// its event loop's thread.
///
/// Exclusivity is not checked at run time on the fields the per-request path reads and writes (`parser`,
/// `machine`, `out`, `outSent`): only the loop's thread touches them, no access to one of them is held across a
/// call that could reach the same field again, and the checks cost more than the work they guarded. The
/// compiler's static checks still apply.
final class HTTPConnection {
    let fd: Int32
    /// Unique per loop and per request: bumped on every dispatched request so that a late responder
    /// of a closed connection (whose fd was reused) or of an old request never writes here.
    var id: UInt64
    @exclusivity(unchecked) var parser: HTTPParser
    @exclusivity(unchecked) var machine: ConnectionStateMachine

    /// Outgoing bytes; `outSent` of them are already written.
    @exclusivity(unchecked) var out: [UInt8] = []
    @exclusivity(unchecked) var outSent = 0
    /// Bytes of `out` not yet sent that are counted in `ServerMetrics.bufferedResponseBytes` (updated when a
    /// flush leaves bytes behind or clears them, so a response sent at once never touches the shared count).
    var outCounted = 0

    /// For the access log: when the current request was dispatched, and its method and path.
    var requestStart: UInt64 = 0
    var logMethod = ""
    var logPath = ""

    /// The peer's address as a key for per-client limits (`hinge_peer_key`), read once at accept.
    var peerKey: UInt64 = 0
    /// Set when the client goes away (the connection closes, or the peer shuts its sending side) and read by
    /// the responders of this connection's requests (`HTTPResponder.clientGone`), so that long work can stop.
    let liveness = ConnectionLiveness()

    /// The socket's unacknowledged bytes (`SIOCOUTQ`) when the loop last looked, while a slow reader holds
    /// output; -1 after a write, until the next look. A smaller figure later means the peer took bytes.
    var kernelQueued = -1

    /// epoll interest currently registered.
    var interest: UInt32
    /// The end-of-batch steps this connection is queued for (`ConnectionBatch.step` bits).
    var batchSteps: UInt8 = 0

    init(
        fd: Int32, id: UInt64, limits: HTTPParser.Limits, machineLimits: ConnectionStateMachine.Limits,
        now: UInt64, interest: UInt32
    ) {
        self.fd = fd
        self.id = id
        self.parser = HTTPParser(limits: limits)
        self.machine = ConnectionStateMachine(limits: machineLimits, now: now)
        self.interest = interest
    }

    var hasPendingOutput: Bool { outSent < out.count }
    var pendingOutputBytes: Int { out.count - outSent }
}

/// Whether a connection's client is still there, shared by the connection (its loop writes it) and the
/// responders of its requests (any thread reads it).
final class ConnectionLiveness: Sendable {
    private let gone = Atomic<Bool>(false)
    var clientGone: Bool { gone.load(ordering: .relaxed) }
    func markGone() { gone.store(true, ordering: .relaxed) }
}

/// Connections waiting for one step at the end of an `epoll_wait` batch (parsing what they received, writing
/// what they were answered), each queued once and taken in the order queued.
final class ConnectionBatch {
    /// This step's bit in `Connection.batchSteps`.
    private let step: UInt8
    /// Not checked for exclusive access at run time (the checks cost more than the appends): only the loop's
    /// thread touches a batch, and `drain` holds no access to it across `body`, which may add to it.
    @exclusivity(unchecked) private var items: [HTTPConnection] = []

    init(step: UInt8) { self.step = step }

    @inline(__always) func add(_ c: HTTPConnection) {
        if c.batchSteps & step != 0 { return }
        c.batchSteps |= step
        items.append(c)
    }

    /// Runs `body` on every queued connection, those added while it runs included, and empties the batch.
    @inline(__always) func drain(_ body: (HTTPConnection) -> Void) {
        var i = 0
        while i < items.count {
            let c = items[i]
            c.batchSteps &= ~step
            body(c)
            i += 1
        }
        items.removeAll(keepingCapacity: true)
    }
}
