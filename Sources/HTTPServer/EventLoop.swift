import CLinux
import Glibc
import Threads

/// One level-triggered event loop on its own thread. It composes its parts and performs I/O through its
/// transport, driving each connection's `ConnectionStateMachine` (which decides; the loop does):
/// - `ConnectionTable` (`connections`): the open connections by descriptor, connection ids;
/// - `LoopTimers` (`timers`): the batch's time, the tick, accept pauses, the shutdown deadline, heap trims;
/// - `ResponseQueue` (`responses`): what responders and other threads hand to the loop, and the wake-up;
/// - `LoopMetrics` (`metrics`): the loop's counters and its shard of the server's;
/// - `ResponseEncoder`, `AccessLog`, and the end-of-batch queues (`ConnectionBatch`).
///
/// The jobs are split by file: here the batch (its start, the inbox, its end), shutdown and the tick;
/// `EventLoop+Accept.swift` accepting, hand-off, registering and closing; `EventLoop+ConnectionIO.swift` read,
/// parse, dispatch, deliver, flush; `EventLoop+Socket.swift` the server's loop over epoll (`run()`).
///
/// `@unchecked Sendable`: all mutable state below `// MARK: loop-thread state` is only read or written by the
/// loop's thread (and by `init` before the loop is shared). Other threads reach the loop only through
/// `responses` (the queue's Mutex and eventfd) and `metrics.load` (an Atomic).
final class EventLoop<Transport: EventLoopTransport>: @unchecked Sendable {
    let index: Int
    let configuration: Configuration
    let limits: HTTPParser.Limits
    let machineLimits: ConnectionStateMachine.Limits
    let handler: HTTPHandler
    let transport: Transport
    let responses: ResponseQueue
    let metrics: LoopMetrics

    // MARK: loop-thread state
    // Exclusivity is not checked at run time on the fields every request reads or writes (`connections`,
    // `timers`, `encoder`, `accessLog`, `messages`): only this loop's thread touches them, no access to one of
    // them is held across a call that could reach it again, and the checks cost more than the work they guarded.
    /// The server's listening socket (owned and closed by `HTTPServer`), or -1 when this loop does not accept.
    var listenFD: Int32
    var listenerWatched = false
    /// Every loop of the server (itself included), to hand an accepted socket to the least loaded one.
    var peers: [EventLoop] = []
    @exclusivity(unchecked) var connections = ConnectionTable()
    @exclusivity(unchecked) var timers: LoopTimers
    var stopping = false
    @exclusivity(unchecked) var encoder: ResponseEncoder
    @exclusivity(unchecked) var accessLog: AccessLog
    /// The inbox's messages being handled (swapped with the queue's array, so neither allocates).
    @exclusivity(unchecked) private var messages: [LoopMessage] = []
    /// Connections that received bytes in the current batch, parsed and answered after every read of the
    /// batch (`scheduleProcessing`).
    let toProcess = ConnectionBatch(step: 1)
    /// Connections whose output is written at the end of the current batch (`scheduleFlush`).
    let toFlush = ConnectionBatch(step: 2)
    let readBuffer: UnsafeMutableRawBufferPointer

    /// A response buffer at least this large is "large": freeing it asks for a heap trim.
    static var largeResponseBytes: Int { 1024 * 1024 }

    init(
        index: Int, configuration: Configuration, handler: @escaping HTTPHandler, metrics: ServerMetrics,
        listenFD: Int32, transport: Transport, responses: ResponseQueue
    ) {
        self.index = index
        self.configuration = configuration
        self.limits = HTTPParser.Limits(
            maxRequestLineBytes: configuration.maxRequestLineBytes,
            maxHeaderBlockBytes: configuration.maxHeaderBlockBytes,
            maxHeaderFields: configuration.maxHeaderFields, maxBodyBytes: configuration.maxBodyBytes)
        self.machineLimits = ConnectionStateMachine.Limits(configuration)
        self.handler = handler
        self.transport = transport
        self.responses = responses
        self.metrics = LoopMetrics(server: metrics, shard: LoopShard(loopIndex: index))
        self.listenFD = listenFD
        timers = LoopTimers(limits: machineLimits)
        encoder = ResponseEncoder(serverName: configuration.serverName)
        accessLog = AccessLog(fileDescriptor: configuration.logFileDescriptor)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    // MARK: - A batch of events

    /// The loop starts on the calling thread.
    func start() {
        responses.bindToCurrentThread()
        timers.start(at: transport.now())
        if listenFD >= 0 { watchListener() }
    }

    /// A batch of events begins: its time, and the `Date` line when the second changed.
    @inline(__always) func beginBatch() {
        timers.now = transport.now()
        encoder.refreshDate(wallSeconds: transport.wallSeconds())
    }

    /// Ends a batch: parses and answers what the batch read, writes what it answered, runs the tick when due,
    /// writes the access log. False once a shutting-down loop is done.
    func endBatch() -> Bool {
        deliverHandedOver()
        processScheduled()
        flushScheduled()
        if timers.tickDue {
            tick()
            timers.ticked()
        }
        accessLog.flush()
        return !(stopping && timers.stopsAfterShutdown(liveConnections: connections.live))
    }

    /// The loop has stopped: closes what is left.
    func finish() {
        for c in connections.slots { if let c { close(c) } }
        accessLog.flush()
    }

    /// Handles what other threads queued (`responses`).
    func drainInbox() {
        responses.take(into: &messages)
        for m in messages {
            switch m {
            case .response(let fd, let id, let response):
                deliverOnLoop(fd: fd, connectionID: id, response: response)
            case .connection(let fd):
                if stopping {
                    transport.close(fd)
                    metrics.connectionClosed()
                } else {
                    register(fd: fd)
                }
            case .shutdown(let deadline):
                beginShutdown(deadline: deadline)
            case .job(let job):
                job()
                deliverHandedOver()
            }
        }
        messages.removeAll(keepingCapacity: true)
        deliverHandedOver()  // a job released with the messages may have dropped the last reference to a responder
    }

    private func beginShutdown(deadline: UInt64) {
        if stopping { return }
        stopping = true
        timers.stopDeadline = deadline
        unwatchListener()
        listenFD = -1  // HTTPServer closes it once every loop has stopped
        for c in connections.slots {
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
        let queued = transport.unacknowledgedBytes(c.fd)
        guard queued >= 0 else { return }
        if c.kernelQueued >= 0 && queued < c.kernelQueued { c.machine.outputProgressed(now: timers.now) }
        c.kernelQueued = queued
    }

    func tick() {
        // After a flood has mostly closed, or after a large response, give the freed heap back to the kernel
        // (ConnectionTable.floodEnded, LoopTimers.trimsAfterLargeResponse): on the tick, never per request.
        if connections.floodEnded() { _ = hinge_malloc_trim() }
        if timers.trimsAfterLargeResponse() { _ = hinge_malloc_trim() }
        if !stopping && timers.acceptingResumes() { watchListener() }
        for c in connections.slots {
            guard let c else { continue }
            if c.pendingOutputBytes > configuration.slowReaderBytes { notePeerAcknowledgements(c) }
            let action = c.machine.timerFired(
                now: timers.now, parserPhase: c.parser.phase, hasPendingOutput: c.hasPendingOutput,
                pendingOutputBytes: c.pendingOutputBytes)
            switch action {
            case .none:
                break
            case .close:
                close(c)
            case .writeStalled:
                metrics.timedOut()
                close(c)
            case .shed:
                metrics.shed()
                close(c)
            case .timeout(let kind):
                metrics.timedOut()
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
}
