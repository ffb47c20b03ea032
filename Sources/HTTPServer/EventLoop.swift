import CLinux
import Glibc
import Synchronization

/// Work handed to a loop from other threads.
enum LoopMessage: Sendable {
    case response(fd: Int32, connectionID: UInt64, response: HTTPResponse)
    /// A socket accepted by another loop (single-acceptor strategy).
    case connection(Int32)
    case shutdown(deadlineNanoseconds: UInt64)
    /// Work handed back to the loop by another thread (`HTTPResponder.onLoop`).
    case job(@Sendable () -> Void)
}

/// One level-triggered epoll loop on its own thread. It does I/O and drives each connection's
/// `ConnectionStateMachine`; the jobs are split by file:
/// - here: the loop itself, the cross-thread inbox, shutdown, the tick (timeouts, heap trims);
/// - `EventLoop+Accept.swift`: the listening socket, accept, hand-off to the least loaded loop, close;
/// - `EventLoop+ConnectionIO.swift`: read, parse, dispatch, deliver, flush — feeding the state machine
///   and performing its actions;
/// - `ResponseEncoder` serializes responses, `AccessLog` buffers the request log.
///
/// `@unchecked Sendable`: all mutable state below `// MARK: loop-thread state` is only read or written
/// by the thread running `run()` (and by `init` before the loop is shared). Other threads reach the
/// loop only through `deliver`/`send`, which use the `inbox` Mutex and a `write(2)` on the eventfd
/// (thread-safe), and through `threadID` (an Atomic).
final class EventLoop: @unchecked Sendable {
    let index: Int
    let configuration: Configuration
    let limits: HTTPParser.Limits
    let machineLimits: ConnectionStateMachine.Limits
    let handler: HTTPHandler
    let metrics: ServerMetrics
    let epollFD: Int32
    let wakeFD: Int32
    private let inbox = Mutex<[LoopMessage]>([])
    private let threadID = Atomic<UInt>(0)
    /// Connections assigned to this loop and not yet closed (the acceptor counts a hand-off at once, so
    /// that a burst of accepts spreads before the receiving loop has registered anything).
    let load = Atomic<Int>(0)

    // MARK: loop-thread state
    // Exclusivity is not checked at run time on the fields every request reads or writes (`connections`,
    // `nextConnectionID`, `now`, `encoder`, `accessLog`): only this loop's thread touches them,
    // no access to one of them is held across a call that could reach it again, and the checks cost more
    // than the work they guarded.
    /// The server's listening socket (owned and closed by `HTTPServer`), or -1 when this loop does not accept.
    var listenFD: Int32
    /// Every loop of the server (itself included), to hand an accepted socket to the least loaded one.
    var peers: [EventLoop] = []
    @exclusivity(unchecked) var connections: [HTTPConnection?] = []
    var liveConnections = 0
    /// Most connections open on this loop since the heap was last trimmed (see `trimHeapAfterFlood`).
    var connectionHighWater = 0
    /// A large response buffer was freed since the last trim (see `trimHeapAfterLargeResponse`), and when.
    private var largeResponseFreed = false
    private var lastLargeFree: UInt64 = 0
    private var lastTrim: UInt64 = 0
    @exclusivity(unchecked) var nextConnectionID: UInt64 = 1
    @exclusivity(unchecked) var now: UInt64 = 0
    var stopping = false
    private var stopDeadline: UInt64 = .max
    var acceptPausedUntil: UInt64 = 0
    var listenerRegistered = false
    @exclusivity(unchecked) var encoder: ResponseEncoder
    /// Connections that received bytes in the current event batch, parsed and answered after every read of the
    /// batch (`scheduleProcessing`).
    let toProcess = ConnectionBatch(step: 1)
    /// Connections whose output is written at the end of the current event batch (`scheduleFlush`).
    let toFlush = ConnectionBatch(step: 2)
    @exclusivity(unchecked) var accessLog: AccessLog
    let readBuffer: UnsafeMutableRawBufferPointer
    let tickNanoseconds: UInt64

    /// A response buffer at least this large is "large": freeing it asks for a heap trim.
    static let largeResponseBytes = 1024 * 1024
    static let listenerTag: UInt64 = 1 << 40
    static let wakeTag: UInt64 = 1 << 41

    init(
        index: Int, configuration: Configuration, handler: @escaping HTTPHandler, metrics: ServerMetrics,
        listenFD: Int32
    )
        throws(SystemError)
    {
        self.index = index
        self.configuration = configuration
        self.limits = HTTPParser.Limits(
            maxRequestLineBytes: configuration.maxRequestLineBytes,
            maxHeaderBlockBytes: configuration.maxHeaderBlockBytes,
            maxHeaderFields: configuration.maxHeaderFields, maxBodyBytes: configuration.maxBodyBytes)
        self.machineLimits = ConnectionStateMachine.Limits(configuration)
        self.handler = handler
        self.metrics = metrics
        self.listenFD = listenFD
        let ep = hinge_epoll_create()
        if ep < 0 { throw SystemError("epoll_create1", errno) }
        let wake = hinge_eventfd_create()
        if wake < 0 {
            Glibc.close(ep)
            throw SystemError("eventfd", errno)
        }
        epollFD = ep
        wakeFD = wake
        encoder = ResponseEncoder(serverName: configuration.serverName)
        accessLog = AccessLog(fileDescriptor: configuration.logFileDescriptor)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        let smallest = min(
            machineLimits.headerRead, machineLimits.bodyRead, machineLimits.keepAliveIdle, machineLimits.slowReaderGrace
        )
        tickNanoseconds = min(max(smallest / 4, 5_000_000), 500_000_000)
        if hinge_epoll_ctl(epollFD, hinge_epoll_add(), wakeFD, hinge_epoll_in(), EventLoop.wakeTag) < 0 {
            throw SystemError("epoll_ctl", errno)
        }
    }

    deinit {
        // Responders keep the loop alive, so the eventfd is never closed while one could still write it.
        Glibc.close(wakeFD)
        Glibc.close(epollFD)
        readBuffer.deallocate()
    }

    // MARK: - Cross-thread entry points

    /// Queues a message and wakes the loop if the inbox was empty (one wakeup per batch).
    func send(_ message: LoopMessage) {
        let wasEmpty = inbox.withLock { box -> Bool in
            let empty = box.isEmpty
            box.append(message)
            return empty
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(wakeFD, $0.baseAddress, 8) }
        }
    }

    var isCurrentThread: Bool { threadID.load(ordering: .relaxed) == UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Runs `job` on this loop's thread: now when called there, else after the loop drains its inbox.
    func run(_ job: @escaping @Sendable () -> Void) {
        if isCurrentThread { job() } else { send(.job(job)) }
    }

    func deliver(fd: Int32, connectionID: UInt64, response: HTTPResponse) {
        if isCurrentThread {
            deliverOnLoop(fd: fd, connectionID: connectionID, response: response)
        } else {
            send(.response(fd: fd, connectionID: connectionID, response: response))
        }
    }

    // MARK: - Loop

    func run() {
        threadID.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
        CounterShard.set(index + 1)
        now = monotonicNanoseconds()
        if listenFD >= 0 { registerListener() }
        let maxEvents: Int32 = 256
        let events = UnsafeMutableRawPointer.allocate(
            byteCount: hinge_epoll_event_size() * Int(maxEvents), alignment: 16)
        defer { events.deallocate() }
        var nextTick = now &+ tickNanoseconds
        while true {
            let timeoutMs = nextTick > now ? Int32(min((nextTick - now + 999_999) / 1_000_000, 1000)) : 0
            let n = hinge_epoll_wait(epollFD, events, maxEvents, timeoutMs)
            now = monotonicNanoseconds()
            encoder.refreshDate()
            if n > 0 {
                for i in 0..<Int(n) {
                    let tag = hinge_epoll_event_data(events, Int32(i))
                    let flags = hinge_epoll_event_events(events, Int32(i))
                    if tag == EventLoop.wakeTag {
                        drainInbox()
                    } else if tag == EventLoop.listenerTag {
                        acceptConnections()
                    } else {
                        handleEvent(fd: Int32(truncatingIfNeeded: tag), flags: flags)
                    }
                }
            }
            processScheduled()
            flushScheduled()
            if now >= nextTick {
                tick()
                nextTick = now &+ tickNanoseconds
            }
            accessLog.flush()
            if stopping && (liveConnections == 0 || now >= stopDeadline) { break }
        }
        for c in connections { if let c { close(c) } }
        accessLog.flush()
    }

    private func drainInbox() {
        var counter: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &counter) { Glibc.read(wakeFD, $0.baseAddress, 8) }
        let messages = inbox.withLock { box -> [LoopMessage] in
            let m = box
            box.removeAll(keepingCapacity: true)
            return m
        }
        for m in messages {
            switch m {
            case .response(let fd, let id, let response):
                deliverOnLoop(fd: fd, connectionID: id, response: response)
            case .connection(let fd):
                if stopping {
                    Glibc.close(fd)
                    load.subtract(1, ordering: .relaxed)
                    metrics.openConnections.subtract(1, ordering: .relaxed)
                } else {
                    register(fd: fd)
                }
            case .shutdown(let deadline):
                beginShutdown(deadline: deadline)
            case .job(let job):
                job()
            }
        }
    }

    private func beginShutdown(deadline: UInt64) {
        if stopping { return }
        stopping = true
        stopDeadline = deadline
        unregisterListener()
        listenFD = -1  // HTTPServer closes it once every loop has stopped
        for c in connections {
            guard let c else { continue }
            if c.machine.shutdownBegun(parserPhase: c.parser.phase, hasPendingOutput: c.hasPendingOutput) {
                close(c)
            }
        }
    }

    // MARK: - Tick

    /// A connection holding more than its share of unsent bytes writes nothing until the kernel's send queue
    /// has room, which on loopback comes a whole segment (64 KiB) at a time. Bytes the peer acknowledged
    /// since the last look are progress too, so a client that reads steadily keeps its download
    /// (docs/http.md#slow-readers).
    private func notePeerAcknowledgements(_ c: HTTPConnection) {
        let queued = Int(hinge_socket_unacknowledged(c.fd))
        guard queued >= 0 else { return }
        if c.kernelQueued >= 0 && queued < c.kernelQueued { c.machine.outputProgressed(now: now) }
        c.kernelQueued = queued
    }

    private func tick() {
        trimHeapAfterFlood()
        trimHeapAfterLargeResponse()
        if acceptPausedUntil != 0 && now >= acceptPausedUntil && !stopping {
            acceptPausedUntil = 0
            registerListener()
        }
        for c in connections {
            guard let c else { continue }
            if c.pendingOutputBytes > configuration.slowReaderBytes { notePeerAcknowledgements(c) }
            let action = c.machine.timerFired(
                now: now, parserPhase: c.parser.phase, hasPendingOutput: c.hasPendingOutput,
                pendingOutputBytes: c.pendingOutputBytes)
            switch action {
            case .none:
                break
            case .close:
                close(c)
            case .writeStalled:
                metrics.timeouts.add(1)
                close(c)
            case .shed:
                metrics.shedConnections.add(1)
                close(c)
            case .timeout(let kind):
                metrics.timeouts.add(1)
                let detail =
                    switch kind {
                    case .headerRead: "The request head was not received within the header-read timeout."
                    case .bodyRead: "The request body was not received within the body-read timeout."
                    }
                writeError(c, status: .requestTimeout, detail: detail)
                flush(c)
            }
        }
    }

    /// After a flood (hundreds of connections, each with its buffers) has mostly closed, give the freed
    /// heap back to the kernel: glibc keeps it otherwise, and the process would stay at its peak RSS
    /// (scripts/soak.sh checks that RSS returns near its level before the flood). Once per flood, on the
    /// tick, never per request.
    private func trimHeapAfterFlood() {
        if connectionHighWater >= 256 && liveConnections * 4 <= connectionHighWater {
            _ = hinge_malloc_trim()
            connectionHighWater = liveConnections
        }
    }

    func noteLargeFree() {
        largeResponseFreed = true
        lastLargeFree = now
    }

    /// After a large response has been sent and freed, give the heap back to the kernel: the response,
    /// its copies and what was built for it (on worker and request-log threads too) would otherwise stay
    /// in glibc's free lists, and the process at its peak RSS. On the tick, at most once a second per loop,
    /// never per request; and once more a second after the last large response, when the threads that
    /// finish after it (the request-log writer) have freed their part.
    private func trimHeapAfterLargeResponse() {
        guard largeResponseFreed, now &- lastTrim >= 1_000_000_000 else { return }
        if now &- lastLargeFree >= 1_000_000_000 { largeResponseFreed = false }
        lastTrim = now
        _ = hinge_malloc_trim()
    }
}
