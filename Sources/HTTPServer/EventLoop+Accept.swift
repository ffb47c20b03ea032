import CLinux
import Glibc

/// The listening socket, accepting, handing a connection to the least loaded loop, registering and closing.
extension EventLoop {
    func registerListener() {
        if !listenerRegistered && listenFD >= 0 {
            // EPOLLEXCLUSIVE: a connection wakes one waiting loop, not all (they share the socket).
            let events = hinge_epoll_in() | hinge_epoll_exclusive()
            if hinge_epoll_ctl(epollFD, hinge_epoll_add(), listenFD, events, EventLoop.listenerTag) == 0 {
                listenerRegistered = true
            }
        }
    }

    func unregisterListener() {
        if listenerRegistered {
            _ = hinge_epoll_ctl(epollFD, hinge_epoll_del(), listenFD, 0, 0)
            listenerRegistered = false
        }
    }

    func acceptConnections() {
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
            metrics.acceptedConnections.add(1)
            let open = metrics.openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                metrics.openConnections.subtract(1, ordering: .relaxed)
                metrics.refusedConnections.add(1)
                refuse(fd: fd)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            _ = hinge_set_notsent_lowat(fd, Int32(configuration.notSentLowWaterBytes))
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
            status: .serviceUnavailable,
            detail: "The server has reached its limit of \(configuration.maxConnections) connections.")
        encoder.encode(response, into: &out, head: false, close: true, version10: false)
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

    func register(fd: Int32) {
        let c = HTTPConnection(
            fd: fd, id: nextConnectionID, limits: limits, machineLimits: machineLimits, now: now,
            interest: hinge_epoll_in())
        nextConnectionID &+= 1
        c.peerKey = hinge_peer_key(fd)
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

    func close(_ c: HTTPConnection) {
        guard Int(c.fd) < connections.count, connections[Int(c.fd)] === c else { return }
        connections[Int(c.fd)] = nil
        c.liveness.markGone()
        countBuffered(c, 0)
        if c.out.capacity >= Self.largeResponseBytes { noteLargeFree() }
        liveConnections -= 1
        Glibc.close(c.fd)  // never retried (Linux frees the descriptor even on EINTR)
        load.subtract(1, ordering: .relaxed)
        metrics.openConnections.subtract(1, ordering: .relaxed)
    }
}
