import CLinux
import Glibc

/// The listening socket, accepting, handing a connection to the least loaded loop, registering and closing.
extension EventLoop {
    func watchListener() {
        if !listenerWatched && listenFD >= 0 && transport.watchListener(listenFD) { listenerWatched = true }
    }

    func unwatchListener() {
        if listenerWatched {
            transport.unwatchListener(listenFD)
            listenerWatched = false
        }
    }

    func acceptConnections() {
        if stopping { return }
        for _ in 0..<64 {
            let fd = transport.accept(listenFD)
            if fd < 0 {
                let e = -fd
                if e == EINTR || e == ECONNABORTED { continue }
                if e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM {
                    // Out of descriptors: stop accepting until the next tick instead of spinning.
                    unwatchListener()
                    timers.pauseAccepting()
                }
                return
            }
            if !metrics.admit(maxConnections: configuration.maxConnections) {
                refuse(fd: fd)
                continue
            }
            transport.prepareAccepted(fd, notSentLowWaterBytes: configuration.notSentLowWaterBytes)
            let target = leastLoaded()
            target.metrics.load.add(1, ordering: .relaxed)
            if target !== self {
                target.responses.send(.connection(fd))
                continue
            }
            register(fd: fd)
        }
    }

    /// The loop with the fewest connections; this one on a tie (no hand-off when the loops are balanced).
    private func leastLoaded() -> EventLoop {
        var best = self
        var bestLoad = metrics.load.load(ordering: .relaxed)
        for peer in peers where peer !== self {
            let l = peer.metrics.load.load(ordering: .relaxed)
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
            status: .serviceUnavailable,
            detail: "The server has reached its limit of \(configuration.maxConnections) connections.")
        encoder.encode(response, into: &out, head: false, close: true, version10: false)
        out.withUnsafeBytes { _ = transport.send(fd, $0.baseAddress!, count: $0.count) }
        metrics.response(.serviceUnavailable)
        transport.shutdownOutput(fd)
        // Drain what the client already sent so that close() does not turn into a reset that
        // could discard the 503 before the client reads it.
        for _ in 0..<4 {
            if transport.receive(fd, into: readBuffer.baseAddress!, count: 4096) <= 0 { break }
        }
        transport.close(fd)
    }

    func register(fd: Int32) {
        let c = HTTPConnection(
            fd: fd, id: connections.newID(), limits: limits, machineLimits: machineLimits, now: timers.now,
            interest: hinge_epoll_in())
        c.peerKey = transport.peerKey(fd)
        if !transport.watch(fd, events: hinge_epoll_in()) {
            transport.close(fd)
            metrics.connectionClosed()
            return
        }
        connections.insert(c)
    }

    func close(_ c: HTTPConnection) {
        guard connections.remove(c) else { return }
        c.liveness.markGone()
        metrics.countUnsent(c, 0)
        if c.out.capacity >= Self.largeResponseBytes { timers.noteLargeFree() }
        transport.close(c.fd)
        metrics.connectionClosed()
    }
}
