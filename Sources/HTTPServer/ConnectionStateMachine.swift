/// The life of one HTTP/1.1 connection as a value: events in, actions out, no I/O and no clock of its own.
///
/// The event loop owns the socket, the parser and the output buffer; it tells the machine what happened
/// (a request parsed, a response ready, output written, the peer closed, the tick, shutdown) with the facts
/// the machine cannot see (the parser's phase, whether output is pending, the current monotonic time in
/// nanoseconds), and performs what the machine answers (dispatch, write, close, lingering close, which
/// epoll events to watch). Every action is a small enum, so driving the machine allocates nothing.
///
/// Timeouts are checked on the loop's tick: `timerFired(now:…)` compares the deadlines kept here with the
/// time the loop passes in, so tests drive them with any clock.
struct ConnectionStateMachine {
    /// Timeouts in nanoseconds and the request limit, from `Configuration`.
    struct Limits: Sendable {
        var headerRead: UInt64
        var bodyRead: UInt64
        var keepAliveIdle: UInt64
        /// How long a lingering close drains input before closing anyway.
        var linger: UInt64
        var maxRequestsPerConnection: Int
        /// A connection holding more unsent bytes than this, without write progress for `slowReaderGrace`,
        /// is shed (`Configuration.slowReaderBytes`).
        var slowReaderBytes: Int
        var slowReaderGrace: UInt64

        init(_ c: Configuration) {
            headerRead = c.headerReadTimeout.nanoseconds
            bodyRead = c.bodyReadTimeout.nanoseconds
            keepAliveIdle = c.keepAliveIdleTimeout.nanoseconds
            linger = min(headerRead, 2_000_000_000)
            maxRequestsPerConnection = c.maxRequestsPerConnection
            slowReaderBytes = c.slowReaderBytes
            slowReaderGrace = c.slowReaderGrace.nanoseconds
        }

        init(
            headerRead: UInt64, bodyRead: UInt64, keepAliveIdle: UInt64, linger: UInt64, maxRequests: Int,
            slowReaderBytes: Int = 1 << 20, slowReaderGrace: UInt64 = 2_000_000_000
        ) {
            self.headerRead = headerRead
            self.bodyRead = bodyRead
            self.keepAliveIdle = keepAliveIdle
            self.linger = linger
            self.maxRequestsPerConnection = maxRequests
            self.slowReaderBytes = slowReaderBytes
            self.slowReaderGrace = slowReaderGrace
        }
    }

    /// How the response to the request being handled is framed.
    struct ResponseFraming: Equatable, Sendable {
        var isHead: Bool
        var version10: Bool
        /// The request allows the connection to stay open and the request limit is not reached.
        var keepAlive: Bool
    }

    enum State: Equatable, Sendable {
        /// Parsing requests as bytes arrive (or waiting for the first byte of the next one).
        case reading
        /// A request is with its handler; `dispatching` while the handler runs on the loop's own thread
        /// (a synchronous response must not re-enter parsing).
        case awaitingResponse(ResponseFraming, dispatching: Bool)
        /// The last response is queued: close once it is written, with a lingering close if `linger`.
        case closingAfterFlush(linger: Bool)
        /// Write side shut down after the last response; input is read and dropped until the peer closes
        /// or `deadline`, so that unread input does not turn the close into a reset.
        case lingering(deadline: UInt64)
        case closed
    }

    /// What a parsed event asks the loop to do.
    enum ParsedEvent: Equatable, Sendable {
        case request(ResponseFraming)
        case expectContinue
        case error
    }

    enum ParseAction: Equatable, Sendable {
        /// Hand the request to the handler (then call `dispatchReturned`).
        case dispatch
        case writeContinue
        /// Write the error response with `Connection: close`; a lingering close follows once it is written.
        case writeErrorAndClose
    }

    /// Write the response with this framing; `close` adds `Connection: close`. Parse on afterwards unless
    /// `resumeParsing` is false (the handler is still on the stack and parsing resumes when it returns).
    struct ResponseWrite: Equatable, Sendable {
        var isHead: Bool
        var version10: Bool
        var close: Bool
        var resumeParsing: Bool
    }

    enum InputAction: Equatable, Sendable {
        case parse
        case discard
        case close
    }

    enum FlushAction: Equatable, Sendable {
        case none
        case close
        /// `shutdown(SHUT_WR)` and keep reading (and dropping) until the peer closes or the deadline.
        case startLingering
    }

    enum TimeoutKind: Equatable, Sendable {
        case headerRead
        case bodyRead
    }

    enum TimerAction: Equatable, Sendable {
        case none
        /// Close silently (idle, linger over, shutdown of an idle connection).
        case close
        /// Close silently: a response has been waiting for the peer to read it for the idle timeout.
        case writeStalled
        /// Close silently: the peer holds more than its share of unsent bytes (`slowReaderBytes`) and has read
        /// nothing for `slowReaderGrace`.
        case shed
        /// Write `408` with `Connection: close`, then a lingering close.
        case timeout(TimeoutKind)
    }

    /// The epoll events to watch.
    struct Interest: Equatable, Sendable {
        var read: Bool
        var write: Bool
    }

    /// Input buffered beyond this while a response is pending pauses reading (back-pressure).
    static let pauseReadingAboveBufferedBytes = 256 * 1024
    /// Output pending beyond this stops parsing further pipelined requests until it drains.
    static let stopParsingAbovePendingBytes = 1 << 20

    let limits: Limits
    private(set) var state: State = .reading
    private(set) var requestCount = 0
    /// The peer half-closed: answer what is complete, then close.
    private(set) var peerClosed = false
    private(set) var shuttingDown = false
    /// Monotonic times: last response or write progress (or accept); first byte of the current head;
    /// end of the current head. 0 while not in that phase.
    private(set) var lastActivity: UInt64
    /// While response bytes wait to be written: the last write progress, or when bytes began to wait. A
    /// response queued behind unsent bytes does not move it, so a client that stops reading cannot keep its
    /// connection (and its share of the buffered bytes) by sending small requests (docs/http.md#slow-readers).
    private(set) var lastOutputProgress: UInt64
    private(set) var headStart: UInt64 = 0
    private(set) var bodyStart: UInt64 = 0

    init(limits: Limits, now: UInt64) {
        self.limits = limits
        self.lastActivity = now
        self.lastOutputProgress = now
    }

    var isAwaitingResponse: Bool {
        if case .awaitingResponse = state { return true }
        return false
    }

    var isLingering: Bool {
        if case .lingering = state { return true }
        return false
    }

    /// No request in progress, nothing to write, no partial request received.
    func isIdle(parserPhase: HTTPParser.Phase, hasPendingOutput: Bool) -> Bool {
        !isAwaitingResponse && !hasPendingOutput && parserPhase == .idle
    }
}

// MARK: - Transitions

extension ConnectionStateMachine {
    /// Whether the loop should take the next event from the parser: only while reading, and only while
    /// the output not yet written is below `stopParsingAbovePendingBytes`.
    func canParse(pendingOutputBytes: Int) -> Bool {
        guard case .reading = state else { return false }
        return pendingOutputBytes < Self.stopParsingAbovePendingBytes
    }

    /// The parser produced an event (called only when `canParse`).
    mutating func parsed(_ event: ParsedEvent) -> ParseAction {
        switch event {
        case .expectContinue:
            return .writeContinue
        case .error:
            state = .closingAfterFlush(linger: true)
            return .writeErrorAndClose
        case .request(var framing):
            requestCount += 1
            framing.keepAlive = framing.keepAlive && requestCount < limits.maxRequestsPerConnection
            state = .awaitingResponse(framing, dispatching: true)
            headStart = 0
            bodyStart = 0
            return .dispatch
        }
    }

    /// The handler returned (it may have responded already).
    mutating func dispatchReturned() {
        if case .awaitingResponse(let framing, dispatching: true) = state {
            state = .awaitingResponse(framing, dispatching: false)
        }
    }

    /// A response for the current request is ready. `nil`: nothing awaits one (a stale responder).
    /// `bufferedInputBytes`: bytes received and not parsed yet (pipelined requests behind this one);
    /// `outputPending`: earlier response bytes are still unsent.
    mutating func responseReady(now: UInt64, bufferedInputBytes: Int, outputPending: Bool = false) -> ResponseWrite? {
        guard case .awaitingResponse(let framing, let dispatching) = state else { return nil }
        let close = !framing.keepAlive || shuttingDown || peerClosed
        lastActivity = now
        if !outputPending { lastOutputProgress = now }
        if close {
            // Closing while the peer may still be sending (requests pipelined beyond the last one answered):
            // a plain close with unread bytes would send a reset that can destroy responses not yet read. A
            // client that asked to close sends nothing more, unless bytes are already buffered.
            let serverEnded = requestCount >= limits.maxRequestsPerConnection
            let linger = !peerClosed && !shuttingDown && (serverEnded || bufferedInputBytes > 0)
            state = .closingAfterFlush(linger: linger)
        } else {
            state = .reading
        }
        return ResponseWrite(
            isHead: framing.isHead, version10: framing.version10, close: close, resumeParsing: !dispatching)
    }

    /// Parsing stopped (no complete event or `canParse` false): note where the next request stands for
    /// the read timeouts, and after a half-close with nothing in flight, plan the close.
    mutating func parsingPaused(parserPhase: HTTPParser.Phase, now: UInt64) {
        switch parserPhase {
        case .head:
            if headStart == 0 { headStart = now }
            bodyStart = 0
        case .body:
            if bodyStart == 0 { bodyStart = now }
        case .idle, .failed:
            headStart = 0
            bodyStart = 0
        }
        if peerClosed, case .reading = state { state = .closingAfterFlush(linger: false) }
    }

    /// Bytes arrived from the peer.
    func bytesReceived() -> InputAction {
        isLingering ? .discard : .parse
    }

    /// The peer closed its side (read returned 0).
    mutating func peerClosedInput(parserPhase: HTTPParser.Phase, hasPendingOutput: Bool) -> InputAction {
        if isLingering || (isIdle(parserPhase: parserPhase, hasPendingOutput: hasPendingOutput) && !peerClosed) {
            state = .closed
            return .close
        }
        peerClosed = true
        return .parse
    }

    /// Some output was written.
    mutating func outputProgressed(now: UInt64) {
        lastActivity = now
        lastOutputProgress = now
    }

    /// Every pending byte has been written.
    mutating func outputFlushed(parserPhase: HTTPParser.Phase, now: UInt64) -> FlushAction {
        switch state {
        case .closingAfterFlush(let linger):
            if linger && !peerClosed {
                state = .lingering(deadline: now &+ limits.linger)
                return .startLingering
            }
            state = .closed
            return .close
        case .reading where shuttingDown && parserPhase == .idle:
            state = .closed
            return .close
        default:
            return .none
        }
    }

    /// Which epoll events to watch: no reading after a half-close, nor while a response is pending and a
    /// lot of input is already buffered (back-pressure); writing while output is pending.
    func interest(hasPendingOutput: Bool, bufferedInputBytes: Int) -> Interest {
        let busy = isAwaitingResponse || hasPendingOutput
        let pause = peerClosed || (busy && bufferedInputBytes > Self.pauseReadingAboveBufferedBytes)
        return Interest(read: !pause, write: hasPendingOutput)
    }

    /// The loop's tick. `pendingOutputBytes`: response bytes not yet written (0 when `hasPendingOutput` is
    /// false).
    mutating func timerFired(
        now: UInt64, parserPhase: HTTPParser.Phase, hasPendingOutput: Bool, pendingOutputBytes: Int = 0
    ) -> TimerAction {
        let action = timerAction(
            now: now, parserPhase: parserPhase, hasPendingOutput: hasPendingOutput,
            pendingOutputBytes: pendingOutputBytes)
        switch action {
        case .none: break
        case .close, .writeStalled, .shed: state = .closed
        case .timeout: state = .closingAfterFlush(linger: true)
        }
        return action
    }

    private func timerAction(
        now: UInt64, parserPhase: HTTPParser.Phase, hasPendingOutput: Bool, pendingOutputBytes: Int
    ) -> TimerAction {
        if case .lingering(let deadline) = state { return now >= deadline ? .close : .none }
        if case .closed = state { return .none }
        if hasPendingOutput {
            // A peer that stops reading holds at most its share for a short grace (docs/http.md#slow-readers),
            // and anything for the idle timeout.
            let stalled = now &- lastOutputProgress
            if pendingOutputBytes > limits.slowReaderBytes && stalled >= limits.slowReaderGrace { return .shed }
            return stalled >= limits.keepAliveIdle ? .writeStalled : .none
        }
        guard case .reading = state else { return .none }
        switch parserPhase {
        case .idle:
            // A new connection that sends nothing gets the header timeout; after a response, the idle one.
            let limit = requestCount == 0 ? limits.headerRead : limits.keepAliveIdle
            return shuttingDown || now &- lastActivity >= limit ? .close : .none
        case .head:
            return now &- headStart >= limits.headerRead ? .timeout(.headerRead) : .none
        case .body:
            return now &- bodyStart >= limits.bodyRead ? .timeout(.bodyRead) : .none
        case .failed:
            return .close
        }
    }

    /// The server is shutting down: idle and lingering connections close now, busy ones finish their
    /// current response and then close.
    mutating func shutdownBegun(parserPhase: HTTPParser.Phase, hasPendingOutput: Bool) -> Bool {
        shuttingDown = true
        if isLingering || isIdle(parserPhase: parserPhase, hasPendingOutput: hasPendingOutput) {
            state = .closed
            return true
        }
        return false
    }
}
