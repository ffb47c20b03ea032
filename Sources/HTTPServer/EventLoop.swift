import CLinux
import Glibc
import Synchronization

/// Work handed to a loop from other threads.
enum LoopMessage: Sendable {
    case response(fd: Int32, connectionID: UInt64, response: HTTPResponse)
    /// A socket accepted by another loop (single-acceptor strategy).
    case connection(Int32)
    case shutdown(deadlineNanoseconds: UInt64)
}

/// One level-triggered epoll loop on its own thread: accepts (from the process's one listening socket,
/// which every loop or loop 0 alone watches), reads, parses, dispatches, writes. It does I/O and nothing else.
///
/// `@unchecked Sendable`: all mutable state below `// MARK: loop-thread state` is only read or written
/// by the thread running `run()` (and by `init` before the loop is shared). Other threads reach the
/// loop only through `deliver`/`send`, which use the `inbox` Mutex and a `write(2)` on the eventfd
/// (thread-safe), and through `threadID` (an Atomic).
final class EventLoop: @unchecked Sendable {
    let index: Int
    let configuration: Configuration
    let limits: HTTPParser.Limits
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
    /// The server's listening socket (owned and closed by `HTTPServer`), or -1 when this loop does not accept.
    var listenFD: Int32
    /// Every loop of the server (itself included), to hand an accepted socket to the least loaded one.
    var peers: [EventLoop] = []
    private var connections: [Connection?] = []
    private var liveConnections = 0
    /// Most connections open on this loop since the heap was last trimmed (see `trimHeapAfterFlood`).
    private var connectionHighWater = 0
    private var nextConnectionID: UInt64 = 1
    private var now: UInt64 = 0
    private var stopping = false
    private var stopDeadline: UInt64 = .max
    private var acceptPausedUntil: UInt64 = 0
    private var listenerRegistered = false
    private var dateSecond: Int64 = -1
    private var dateLine: [UInt8] = []
    private let serverLine: [UInt8]
    private var logBuffer: [UInt8] = []
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let tickNanoseconds: UInt64
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64
    private let idleTimeout: UInt64
    private let lingerNanoseconds: UInt64

    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let connectionClose: [UInt8] = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive: [UInt8] = Array("Connection: keep-alive\r\n".utf8)
    private static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    private static let listenerTag: UInt64 = 1 << 40
    private static let wakeTag: UInt64 = 1 << 41

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
        serverLine = Array("Server: \(configuration.serverName)\r\n".utf8)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        headerTimeout = configuration.headerReadTimeout.nanoseconds
        bodyTimeout = configuration.bodyReadTimeout.nanoseconds
        idleTimeout = configuration.keepAliveIdleTimeout.nanoseconds
        let smallest = min(headerTimeout, bodyTimeout, idleTimeout)
        tickNanoseconds = min(max(smallest / 4, 5_000_000), 500_000_000)
        lingerNanoseconds = min(headerTimeout, 2_000_000_000)
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
            refreshDate()
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
            if now >= nextTick {
                checkTimeouts()
                nextTick = now &+ tickNanoseconds
            }
            flushLog()
            if stopping && (liveConnections == 0 || now >= stopDeadline) { break }
        }
        for c in connections { if let c { close(c) } }
        flushLog()
    }

    private func refreshDate() {
        let s = hinge_wall_seconds()
        if s != dateSecond {
            dateSecond = s
            dateLine = Array("Date: ".utf8) + httpDate(epochSeconds: s) + [13, 10]
        }
    }

    private func registerListener() {
        if !listenerRegistered && listenFD >= 0 {
            // EPOLLEXCLUSIVE: a connection wakes one waiting loop, not all (they share the socket).
            let events = hinge_epoll_in() | hinge_epoll_exclusive()
            if hinge_epoll_ctl(epollFD, hinge_epoll_add(), listenFD, events, EventLoop.listenerTag) == 0 {
                listenerRegistered = true
            }
        }
    }

    private func unregisterListener() {
        if listenerRegistered {
            _ = hinge_epoll_ctl(epollFD, hinge_epoll_del(), listenFD, 0, 0)
            listenerRegistered = false
        }
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
            if c.lingering || isIdle(c) { close(c) }
        }
    }

    private func isIdle(_ c: Connection) -> Bool {
        !c.awaiting && !c.hasPendingOutput && c.parser.phase == .idle
    }

    // MARK: - Accept

    private func acceptConnections() {
        if stopping { return }
        for _ in 0..<64 {
            let fd = hinge_accept(listenFD)
            if fd < 0 {
                let e = errno
                if e == EINTR || e == ECONNABORTED { continue }
                if e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM {
                    // Out of descriptors: stop accepting until the next tick instead of spinning.
                    unregisterListener()
                    acceptPausedUntil = now &+ tickNanoseconds
                }
                return
            }
            metrics.acceptedConnections.add()
            let open = metrics.openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                metrics.openConnections.subtract(1, ordering: .relaxed)
                metrics.refusedConnections.add()
                refuse(fd: fd)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let target = leastLoaded()
            target.load.add(1, ordering: .relaxed)
            if target !== self {
                target.send(.connection(fd))
                continue
            }
            register(fd: fd)
        }
    }

    /// The loop with the fewest connections; this one on a tie (no hand-off when the loops are balanced).
    private func leastLoaded() -> EventLoop {
        var best = self
        var bestLoad = load.load(ordering: .relaxed)
        for peer in peers where peer !== self {
            let l = peer.load.load(ordering: .relaxed)
            if l < bestLoad {
                best = peer
                bestLoad = l
            }
        }
        return best
    }

    /// Beyond `maxConnections`: a best-effort 503 and close.
    private func refuse(fd: Int32) {
        var out: [UInt8] = []
        let response = HTTPResponse.problem(
            status: .serviceUnavailable, detail: "The server has reached its limit of \(configuration.maxConnections) connections.")
        encode(response, into: &out, head: false, close: true, version10: false)
        out.withUnsafeBytes { _ = Glibc.send(fd, $0.baseAddress, $0.count, hinge_msg_nosignal()) }
        metrics.countResponse(status: .serviceUnavailable)
        Glibc.shutdown(fd, Int32(SHUT_WR))
        // Drain what the client already sent so that close() does not turn into a reset that
        // could discard the 503 before the client reads it.
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
        }
        Glibc.close(fd)
    }

    private func register(fd: Int32) {
        let c = Connection(fd: fd, id: nextConnectionID, limits: limits, now: now, interest: hinge_epoll_in())
        nextConnectionID &+= 1
        if hinge_epoll_ctl(epollFD, hinge_epoll_add(), fd, hinge_epoll_in(), UInt64(UInt32(bitPattern: fd))) < 0 {
            Glibc.close(fd)
            load.subtract(1, ordering: .relaxed)
            metrics.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        let slot = Int(fd)
        if slot >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: slot + 1 - connections.count))
        }
        connections[slot] = c
        liveConnections += 1
        if liveConnections > connectionHighWater { connectionHighWater = liveConnections }
    }

    private func close(_ c: Connection) {
        guard Int(c.fd) < connections.count, connections[Int(c.fd)] === c else { return }
        connections[Int(c.fd)] = nil
        liveConnections -= 1
        Glibc.close(c.fd)  // never retried (Linux frees the descriptor even on EINTR)
        load.subtract(1, ordering: .relaxed)
        metrics.openConnections.subtract(1, ordering: .relaxed)
    }

    // MARK: - Connection events

    private func handleEvent(fd: Int32, flags: UInt32) {
        guard Int(fd) < connections.count, let c = connections[Int(fd)] else { return }
        if flags & hinge_epoll_out() != 0 {
            flush(c)
            guard connections[Int(fd)] === c else { return }
        }
        if flags & (hinge_epoll_in() | hinge_epoll_hup() | hinge_epoll_err()) != 0 {
            readable(c)
        }
    }

    private func readable(_ c: Connection) {
        let n = recv(c.fd, readBuffer.baseAddress, readBuffer.count, 0)
        if n > 0 {
            if c.lingering { return }  // discard: the connection is being closed
            c.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            process(c)
        } else if n == 0 {
            if c.lingering || (isIdle(c) && !c.peerClosed) {
                close(c)
                return
            }
            // Half-closed by the peer: answer what is complete, then close.
            c.peerClosed = true
            process(c)
        } else {
            let e = errno
            if e == EINTR || e == EAGAIN || e == EWOULDBLOCK { return }
            close(c)  // ECONNRESET and friends: this connection only
        }
    }

    /// Parses and dispatches as many requests as the connection allows right now, then writes.
    private func process(_ c: Connection) {
        while !c.awaiting && !c.closeAfterFlush && c.out.count - c.outSent < 1 << 20 {
            guard let event = c.parser.next() else { break }
            switch event {
            case .expectContinue:
                c.out.append(contentsOf: EventLoop.continueBytes)
            case .error(let e):
                metrics.parseErrors.add()
                fail(c, status: e.status, detail: e.detail)
            case .request(let request):
                dispatch(c, request)
            }
        }
        switch c.parser.phase {
        case .head:
            if c.headStart == 0 { c.headStart = now }
            c.bodyStart = 0
        case .body:
            if c.bodyStart == 0 { c.bodyStart = now }
        case .idle, .failed:
            c.headStart = 0
            c.bodyStart = 0
        }
        if c.peerClosed && !c.awaiting { c.closeAfterFlush = true }
        flush(c)
    }

    /// An error response with `Connection: close`, then a lingering close.
    private func fail(_ c: Connection, status: HTTPStatus, detail: String) {
        encode(.problem(status: status, detail: detail), into: &c.out, head: false, close: true, version10: false)
        metrics.countResponse(status: status)
        if configuration.logRequests { log(method: "-", path: "-", status: status.code, micros: 0) }
        c.closeAfterFlush = true
        c.lingerAfterFlush = true
    }

    private func dispatch(_ c: Connection, _ request: HTTPRequest) {
        c.requestCount += 1
        c.awaiting = true
        c.id = nextConnectionID
        nextConnectionID &+= 1
        c.isHead = request.method == .HEAD
        c.version10 = request.version == .http1_0
        c.keepAlive = request.keepAlive && c.requestCount < configuration.maxRequestsPerConnection
        c.headStart = 0
        c.bodyStart = 0
        if configuration.logRequests {
            c.requestStart = monotonicNanoseconds()
            c.logMethod = request.method.rawValue
            c.logPath = request.path
        }
        metrics.requests.add()
        c.inDispatch = true
        handler(request, HTTPResponder(loop: self, fd: c.fd, connectionID: c.id))
        c.inDispatch = false
    }

    private func deliverOnLoop(fd: Int32, connectionID: UInt64, response: HTTPResponse) {
        guard Int(fd) < connections.count, let c = connections[Int(fd)], c.id == connectionID, c.awaiting else {
            return  // the connection is gone (closed, reset, shut down)
        }
        let close = !c.keepAlive || stopping || c.peerClosed
        encode(response, into: &c.out, head: c.isHead, close: close, version10: c.version10)
        metrics.countResponse(status: response.status)
        c.awaiting = false
        c.lastActivity = now
        if close {
            c.closeAfterFlush = true
            // Closing while the peer may still be sending (requests pipelined beyond the last one answered):
            // a plain close with unread bytes would send a reset that can destroy responses not yet read. A
            // client that asked to close sends nothing more, unless bytes are already buffered.
            let serverEnded = c.requestCount >= configuration.maxRequestsPerConnection
            if !c.peerClosed && !stopping && (serverEnded || c.parser.bufferedByteCount > 0) {
                c.lingerAfterFlush = true
            }
        }
        if configuration.logRequests {
            let micros = Int((monotonicNanoseconds() &- c.requestStart) / 1000)
            log(method: c.logMethod, path: c.logPath, status: response.status.code, micros: micros)
        }
        if !c.inDispatch { process(c) }
    }

    // MARK: - Writing

    private func flush(_ c: Connection) {
        while c.outSent < c.out.count {
            let n = c.out.withUnsafeBytes { p in
                Glibc.send(c.fd, p.baseAddress! + c.outSent, p.count - c.outSent, hinge_msg_nosignal())
            }
            if n > 0 {
                c.outSent += n
                c.lastActivity = now
                continue
            }
            let e = errno
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) { break }
            close(c)  // EPIPE, ECONNRESET: this connection only
            return
        }
        if !c.hasPendingOutput {
            if c.out.capacity > 256 * 1024 {
                c.out = []
            } else {
                c.out.removeAll(keepingCapacity: true)
            }
            c.outSent = 0
            if c.closeAfterFlush {
                if c.lingerAfterFlush && !c.peerClosed {
                    startLingering(c)
                } else {
                    close(c)
                    return
                }
            } else if stopping && isIdle(c) {
                close(c)
                return
            }
        }
        updateInterest(c)
    }

    private func startLingering(_ c: Connection) {
        if c.lingering { return }
        c.lingering = true
        c.lingerDeadline = now &+ lingerNanoseconds
        Glibc.shutdown(c.fd, Int32(SHUT_WR))
    }

    private func updateInterest(_ c: Connection) {
        var wanted: UInt32 = 0
        // Stop reading while a response is pending and a lot is already buffered (back-pressure), or
        // when the peer has half-closed.
        let pause = c.peerClosed || ((c.awaiting || c.hasPendingOutput) && c.parser.bufferedByteCount > 256 * 1024)
        if !pause { wanted |= hinge_epoll_in() }
        if c.hasPendingOutput { wanted |= hinge_epoll_out() }
        if wanted != c.interest {
            c.interest = wanted
            _ = hinge_epoll_ctl(epollFD, hinge_epoll_mod(), c.fd, wanted, UInt64(UInt32(bitPattern: c.fd)))
        }
    }

    // MARK: - Timeouts

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

    private func checkTimeouts() {
        trimHeapAfterFlood()
        if acceptPausedUntil != 0 && now >= acceptPausedUntil && !stopping {
            acceptPausedUntil = 0
            registerListener()
        }
        for c in connections {
            guard let c else { continue }
            if c.lingering {
                if now >= c.lingerDeadline { close(c) }
                continue
            }
            if c.hasPendingOutput {
                // A peer that stops reading its responses is dropped after the idle timeout.
                if now &- c.lastActivity >= idleTimeout { close(c) }
                continue
            }
            if c.awaiting || c.closeAfterFlush { continue }
            switch c.parser.phase {
            case .idle:
                let limit = c.requestCount == 0 ? headerTimeout : idleTimeout
                if stopping || now &- c.lastActivity >= limit { close(c) }
            case .head:
                if now &- c.headStart >= headerTimeout {
                    timeout(c, "The request head was not received within the header-read timeout.")
                }
            case .body:
                if now &- c.bodyStart >= bodyTimeout {
                    timeout(c, "The request body was not received within the body-read timeout.")
                }
            case .failed:
                close(c)
            }
        }
    }

    private func timeout(_ c: Connection, _ detail: String) {
        metrics.timeouts.add()
        fail(c, status: .requestTimeout, detail: detail)
        flush(c)
    }

    // MARK: - Encoding

    private func encode(_ response: HTTPResponse, into out: inout [UInt8], head: Bool, close: Bool, version10: Bool) {
        var status = response.status.code
        if status < 200 || status > 999 { status = 500 }
        let noBody = status == 204 || status == 304
        out.reserveCapacity(out.count + 160 + response.body.count)
        out.append(contentsOf: [72, 84, 84, 80, 47, 49, 46, 49, 32])  // "HTTP/1.1 "
        out.appendDecimal(status)
        out.append(32)
        out.appendString(HTTPStatus.reasonPhrase(status))
        out.append(contentsOf: [13, 10])
        out.append(contentsOf: serverLine)
        out.append(contentsOf: dateLine)
        for field in response.headers {
            if EventLoop.isManagedHeader(field.name) { continue }
            out.appendString(field.name)
            out.append(contentsOf: [58, 32])
            out.appendString(field.value)
            out.append(contentsOf: [13, 10])
        }
        if status != 204 {
            out.append(contentsOf: EventLoop.contentLengthPrefix)
            out.appendDecimal(noBody ? 0 : response.body.count)
            out.append(contentsOf: [13, 10])
        }
        if close {
            out.append(contentsOf: EventLoop.connectionClose)
        } else if version10 {
            out.append(contentsOf: EventLoop.connectionKeepAlive)
        }
        out.append(contentsOf: [13, 10])
        if !head && !noBody { out.append(contentsOf: response.body) }
    }

    /// Headers the server writes itself; a handler's copies are dropped.
    private static func isManagedHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return asciiCaseInsensitiveEquals(name, "date")
        case 6: return asciiCaseInsensitiveEquals(name, "server")
        case 10: return asciiCaseInsensitiveEquals(name, "connection")
        case 14: return asciiCaseInsensitiveEquals(name, "content-length")
        case 17: return asciiCaseInsensitiveEquals(name, "transfer-encoding")
        default: return false
        }
    }

    // MARK: - Request log

    private func log(method: String, path: String, status: Int, micros: Int) {
        logBuffer.appendString(method)
        logBuffer.append(32)
        logBuffer.appendString(path)
        logBuffer.append(32)
        logBuffer.appendDecimal(status)
        logBuffer.append(32)
        logBuffer.appendDecimal(micros)
        logBuffer.append(contentsOf: [117, 115, 10])  // "us\n"
    }

    private func flushLog() {
        guard !logBuffer.isEmpty else { return }
        logBuffer.withUnsafeBytes { p in
            var off = 0
            while off < p.count {
                let n = Glibc.write(configuration.logFileDescriptor, p.baseAddress! + off, p.count - off)
                if n > 0 {
                    off += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break  // a log that cannot be written must not stop the server
                }
            }
        }
        logBuffer.removeAll(keepingCapacity: true)
    }
}
