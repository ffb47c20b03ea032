import CLinux
import Glibc

/// Connection I/O: read, parse, dispatch, deliver, write. Each step tells the connection's state machine
/// what happened and performs what it answers.
extension EventLoop {
    /// Connection `fd` is ready: `flags` are epoll's (`hinge_epoll_in()`, `hinge_epoll_out()`, …).
    func handleEvent(fd: Int32, flags: UInt32) {
        guard let c = connections[fd] else { return }
        if flags & hinge_epoll_out() != 0 {
            flush(c)
            guard connections.contains(c) else { return }
        }
        if flags & (hinge_epoll_in() | hinge_epoll_hup() | hinge_epoll_err()) != 0 {
            readable(c)
        }
    }

    private func readable(_ c: HTTPConnection) {
        let n = transport.receive(c.fd, into: readBuffer.baseAddress!, count: readBuffer.count)
        if n > 0 {
            if c.machine.bytesReceived() == .discard { return }  // lingering: the connection is being closed
            c.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            scheduleProcessing(c)
        } else if n == 0 {
            let action = c.machine.peerClosedInput(parserPhase: c.parser.phase, hasPendingOutput: c.hasPendingOutput)
            c.liveness.markGone()
            if action == .close {
                close(c)
                return
            }
            process(c)  // half-closed by the peer: answer what is complete, then close
        } else {
            let e = Int32(truncatingIfNeeded: -n)
            if e == EINTR || e == EAGAIN || e == EWOULDBLOCK { return }
            close(c)  // ECONNRESET and friends: this connection only
        }
    }

    /// Parses and dispatches as many requests as the state machine allows right now, then writes.
    func process(_ c: HTTPConnection) {
        while c.machine.canParse(pendingOutputBytes: c.pendingOutputBytes) {
            guard let event = c.parser.next() else { break }
            switch c.machine.parsed(Self.machineEvent(event)) {
            case .writeContinue:
                c.out.append(contentsOf: ResponseEncoder.continueBytes)
            case .writeErrorAndClose:
                guard case .error(let e) = event else { break }
                metrics.parseError()
                writeError(c, status: e.status, detail: e.detail)
            case .dispatch:
                // Consumed: the request moves to the handler instead of being copied out of the event.
                guard case .request(let request) = consume event else { break }
                dispatch(c, request)
            }
        }
        c.machine.parsingPaused(parserPhase: c.parser.phase, now: timers.now)
        scheduleFlush(c)
    }

    /// Parses and answers `c`'s input after every read of the current `epoll_wait` batch (`processScheduled`):
    /// the batch's reads run back to back in the kernel, then its requests back to back in the engine, then
    /// its sends, each with its code and data still in the caches.
    func scheduleProcessing(_ c: HTTPConnection) { toProcess.add(c) }

    /// Processes the connections `scheduleProcessing` queued (those still open), in the order they were queued.
    func processScheduled() { toProcess.drain { c in if connections.contains(c) { process(c) } } }

    /// Writes `c`'s output after every event of the current `epoll_wait` batch has been handled
    /// (`flushScheduled`), not at once: the responses of a batch leave back to back, so a client that reads
    /// them is woken once for the burst rather than once per response (on loopback a send wakes the reader
    /// on the sender's CPU time; waking a sleeping thread on another CPU is the costliest part of a send).
    func scheduleFlush(_ c: HTTPConnection) { toFlush.add(c) }

    /// Flushes the connections `scheduleFlush` queued (those still open), in the order they were queued.
    func flushScheduled() { toFlush.drain { c in if connections.contains(c) { flush(c) } } }

    private static func machineEvent(_ event: HTTPParser.Event) -> ConnectionStateMachine.ParsedEvent {
        switch event {
        case .expectContinue: return .expectContinue
        case .error: return .error
        case .request(let r):
            return .request(.init(isHead: r.method == .HEAD, version10: r.version == .http1_0, keepAlive: r.keepAlive))
        }
    }

    /// An error response with `Connection: close` (the state machine plans the lingering close).
    func writeError(_ c: HTTPConnection, status: HTTPStatus, detail: String) {
        encoder.encode(
            .problem(status: status, detail: detail), into: &c.out, head: false, close: true, version10: false)
        metrics.response(status)
        if configuration.logRequests { accessLog.log(method: "-", path: "-", status: status.code, micros: 0) }
    }

    private func dispatch(_ c: HTTPConnection, _ request: consuming HTTPRequest) {
        request.loopIndex = index
        c.id = connections.newID()
        if configuration.logRequests {
            c.requestStart = transport.now()
            c.logMethod = request.method.rawValue
            c.logPath = request.path
        }
        metrics.requestDispatched()
        if c.hasPendingOutput && metrics.overBufferedBytes(configuration.maxBufferedResponseBytes) {
            // This connection is itself among those not reading: refuse before the handler makes more.
            metrics.refusedForBufferedBytes()
            deliverOnLoop(fd: c.fd, connectionID: c.id, response: HTTPResponse.bufferFull)
        } else {
            handler(
                request,
                HTTPResponder(
                    queue: responses, fd: c.fd, connectionID: c.id, liveness: c.liveness, clientKey: c.peerKey))
            deliverHandedOver()  // the handler's answer, when it answered at once (before parsing resumes)
        }
        c.machine.dispatchReturned()
    }

    /// Delivers the responses handed over on the loop's thread (`ResponseQueue.deliver`), in order.
    @inline(__always) func deliverHandedOver() {
        while let handed = responses.nextHandedOver() {
            deliverOnLoop(fd: handed.fd, connectionID: handed.connectionID, response: handed.response)
        }
    }

    func deliverOnLoop(fd: Int32, connectionID: UInt64, response: consuming HTTPResponse) {
        guard let c = connections[fd], c.id == connectionID,
            let write = c.machine.responseReady(
                now: timers.now, bufferedInputBytes: c.parser.bufferedByteCount, outputPending: c.hasPendingOutput)
        else {
            return  // the connection is gone (closed, reset, shut down) or answered already
        }
        var response = response
        if response.body.count > configuration.smallResponseBytes
            && metrics.overBufferedBytes(configuration.maxBufferedResponseBytes)
        {
            // Above the server-wide bound only small answers leave: a large one is what slow readers pile up.
            metrics.refusedForBufferedBytes()
            response = HTTPResponse.bufferFull
        }
        encoder.encode(response, into: &c.out, head: write.isHead, close: write.close, version10: write.version10)
        metrics.response(response.status)
        if configuration.logRequests {
            let micros = Int((transport.now() &- c.requestStart) / 1000)
            accessLog.log(method: c.logMethod, path: c.logPath, status: response.status.code, micros: micros)
        }
        if write.resumeParsing { process(c) }
    }

    // MARK: - Writing

    func flush(_ c: HTTPConnection) {
        var progressed = false
        while c.outSent < c.out.count {
            let n = c.out.withUnsafeBytes { p in
                transport.send(c.fd, p.baseAddress! + c.outSent, count: p.count - c.outSent)
            }
            if n > 0 {
                c.outSent += n
                progressed = true
                continue
            }
            let e = Int32(truncatingIfNeeded: -n)
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) { break }
            close(c)  // EPIPE, ECONNRESET: this connection only
            return
        }
        if progressed {
            c.machine.outputProgressed(now: timers.now)
            c.kernelQueued = -1
        }
        metrics.countUnsent(c, c.pendingOutputBytes)
        if !c.hasPendingOutput {
            if c.out.capacity > 256 * 1024 {
                if c.out.capacity >= Self.largeResponseBytes { timers.noteLargeFree() }
                c.out = []
            } else {
                c.out.removeAll(keepingCapacity: true)
            }
            c.outSent = 0
            switch c.machine.outputFlushed(parserPhase: c.parser.phase, now: timers.now) {
            case .none:
                break
            case .close:
                close(c)
                return
            case .startLingering:
                transport.shutdownOutput(c.fd)
            }
        }
        updateInterest(c)
    }

    private func updateInterest(_ c: HTTPConnection) {
        let interest = c.machine.interest(
            hasPendingOutput: c.hasPendingOutput, bufferedInputBytes: c.parser.bufferedByteCount)
        var wanted: UInt32 = 0
        if interest.read { wanted |= hinge_epoll_in() }
        if interest.write { wanted |= hinge_epoll_out() }
        if wanted != c.interest {
            c.interest = wanted
            transport.rewatch(c.fd, events: wanted)
        }
    }
}

extension HTTPResponse {
    /// The answer while slow readers hold more than `maxBufferedResponseBytes` (docs/http.md#slow-readers).
    static let bufferFull = HTTPResponse.problem(
        status: .serviceUnavailable,
        detail: "The server holds too many response bytes for clients that have not read them yet; retry shortly.",
        headers: ["Retry-After": "1"])
}
