/// A loop's clock and deadlines, time passed in: the time of the current batch, the tick on which every
/// connection's timeouts are checked (header, body, idle, slow reader: their deadlines are each connection's
/// `ConnectionStateMachine`'s), when accepting resumes after the process ran out of descriptors, the shutdown
/// deadline, and when the heap is given back after a large response. No I/O and no clock of its own.
struct LoopTimers {
    /// Monotonic time of the current batch (nanoseconds), set when the batch starts.
    var now: UInt64 = 0
    /// Time between two ticks: a quarter of the shortest timeout, within 5 ms…500 ms.
    let tickNanoseconds: UInt64
    private(set) var nextTick: UInt64 = 0
    /// While not 0, accepting is paused until this time (the process ran out of descriptors).
    private(set) var acceptPausedUntil: UInt64 = 0
    /// When a shutting-down loop closes what is left (`UInt64.max` until shutdown).
    var stopDeadline: UInt64 = .max
    /// A large response buffer was freed since the last trim, and when; when the heap was last trimmed.
    private var largeResponseFreed = false
    private var lastLargeFree: UInt64 = 0
    private var lastTrim: UInt64 = 0

    init(limits: ConnectionStateMachine.Limits) {
        tickNanoseconds = Self.tickInterval(limits)
    }

    static func tickInterval(_ limits: ConnectionStateMachine.Limits) -> UInt64 {
        let smallest = min(limits.headerRead, limits.bodyRead, limits.keepAliveIdle, limits.slowReaderGrace)
        return min(max(smallest / 4, 5_000_000), 500_000_000)
    }

    /// The loop starts at `now`: the first tick is one interval away.
    mutating func start(at now: UInt64) {
        self.now = now
        nextTick = now &+ tickNanoseconds
    }

    /// How long `epoll_wait` may sleep: until the next tick, rounded up to a millisecond, at most a second;
    /// 0 once the tick is due.
    var waitMilliseconds: Int32 {
        nextTick > now ? Int32(min((nextTick - now + 999_999) / 1_000_000, 1000)) : 0
    }

    var tickDue: Bool { now >= nextTick }

    /// The tick ran: the next one is an interval from now.
    mutating func ticked() { nextTick = now &+ tickNanoseconds }

    /// Stops accepting until the next tick (out of descriptors: waiting beats spinning on `EMFILE`).
    mutating func pauseAccepting() { acceptPausedUntil = now &+ tickNanoseconds }

    /// Whether a pause of accepting is over (and ends it).
    mutating func acceptingResumes() -> Bool {
        guard acceptPausedUntil != 0 && now >= acceptPausedUntil else { return false }
        acceptPausedUntil = 0
        return true
    }

    /// Whether a shutting-down loop with `liveConnections` open stops now.
    func stopsAfterShutdown(liveConnections: Int) -> Bool { liveConnections == 0 || now >= stopDeadline }

    /// A response buffer of `EventLoop.largeResponseBytes` or more was freed.
    mutating func noteLargeFree() {
        largeResponseFreed = true
        lastLargeFree = now
    }

    /// Whether to give the heap back to the kernel on this tick after a large response: the response, its
    /// copies and what was built for it (on worker and request-log threads too) would otherwise stay in glibc's
    /// free lists, and the process at its peak RSS. At most once a second, never per request; and once more a
    /// second after the last large response, when the threads that finish after it (the request-log writer)
    /// have freed their part.
    mutating func trimsAfterLargeResponse() -> Bool {
        guard largeResponseFreed, now &- lastTrim >= 1_000_000_000 else { return false }
        if now &- lastLargeFree >= 1_000_000_000 { largeResponseFreed = false }
        lastTrim = now
        return true
    }
}
