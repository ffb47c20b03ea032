/// One client connection. Owned and touched only by its event loop's thread.
final class Connection {
    let fd: Int32
    /// Unique per loop and per request: bumped on every dispatched request so that a late responder
    /// of a closed connection (whose fd was reused) or of an old request never writes here.
    var id: UInt64
    var parser: HTTPParser

    /// Outgoing bytes; `outSent` of them are already written.
    var out: [UInt8] = []
    var outSent = 0
    /// Bytes of `out` not yet sent that are counted in `ServerMetrics.bufferedResponseBytes` (updated when a
    /// flush leaves bytes behind or clears them, so a response sent at once never touches the shared count).
    var outCounted = 0

    /// A request was handed to the handler and its response has not arrived.
    var awaiting = false
    /// True while the handler runs on this thread (a synchronous response must not re-enter `process`).
    var inDispatch = false
    var requestCount = 0
    var isHead = false
    var keepAlive = true
    var version10 = false
    var requestStart: UInt64 = 0
    var logMethod = ""
    var logPath = ""

    /// Close once `out` is flushed.
    var closeAfterFlush = false
    /// After an error response: half-close and discard input until EOF or `lingerDeadline`, so the
    /// peer reads the error instead of a reset.
    var lingerAfterFlush = false
    var lingering = false
    var lingerDeadline: UInt64 = 0
    var peerClosed = false

    /// Monotonic times: last response written or accept; first byte of the current head; end of head.
    var lastActivity: UInt64
    var headStart: UInt64 = 0
    var bodyStart: UInt64 = 0

    /// epoll interest currently registered.
    var interest: UInt32

    init(fd: Int32, id: UInt64, limits: HTTPParser.Limits, now: UInt64, interest: UInt32) {
        self.fd = fd
        self.id = id
        self.parser = HTTPParser(limits: limits)
        self.lastActivity = now
        self.interest = interest
    }

    var hasPendingOutput: Bool { outSent < out.count }
}
