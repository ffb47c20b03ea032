import CLinux

/// The server's event loop: sockets, and epoll waits on its own thread.
typealias SocketEventLoop = EventLoop<SocketTransport>

extension EventLoop where Transport == SocketTransport {
    convenience init(
        index: Int, configuration: Configuration, handler: @escaping HTTPHandler, metrics: ServerMetrics,
        listenFD: Int32
    ) throws(SystemError) {
        let transport = try SocketTransport()
        let responses = try ResponseQueue()
        try transport.watchWake(responses.wakeFD)
        self.init(
            index: index, configuration: configuration, handler: handler, metrics: metrics, listenFD: listenFD,
            transport: transport, responses: responses)
    }

    /// Runs the loop on the calling thread until it has shut down: waits for events (at most until the next
    /// tick), handles each (the wake-up, the listener, a connection), then ends the batch.
    func run() {
        start()
        let maxEvents: Int32 = 256
        let events = UnsafeMutableRawPointer.allocate(
            byteCount: hinge_epoll_event_size() * Int(maxEvents), alignment: 16)
        defer { events.deallocate() }
        while true {
            let n = hinge_epoll_wait(transport.epollFD, events, maxEvents, timers.waitMilliseconds)
            beginBatch()
            if n > 0 {
                for i in 0..<Int(n) {
                    let tag = hinge_epoll_event_data(events, Int32(i))
                    let flags = hinge_epoll_event_events(events, Int32(i))
                    if tag == SocketTransport.wakeTag {
                        drainInbox()
                    } else if tag == SocketTransport.listenerTag {
                        acceptConnections()
                    } else {
                        handleEvent(fd: Int32(truncatingIfNeeded: tag), flags: flags)
                    }
                }
            }
            if !endBatch() { break }
        }
        finish()
    }
}
