import CLinux
import Glibc
import Testing

@testable import HTTPServer

/// An event loop's transport in memory: each connection is two byte queues, readiness is what level-triggered
/// epoll would report for them, and time is a manual clock (monotonic and wall). No descriptor, port or sleep:
/// a test decides exactly which bytes arrive in which read, and when.
final class MemoryTransport: EventLoopTransport {
    /// One connection as the kernel would hold it, and its client's side.
    final class Peer {
        let fd: Int32
        /// Sent by the client, not yet read by the server.
        var inbound: [UInt8] = []
        /// The most the server gets in one read (a test's read boundaries; `Int.max`: all that waits).
        var readChunk = Int.max
        /// The client shut its sending side: after `inbound`, the server reads the end of input.
        var inputEnded = false
        /// The client reset the connection: reads and writes fail with `ECONNRESET`.
        var reset = false
        /// Written by the server and not yet read by the client: at most `window` bytes (the socket buffers).
        var inFlight: [UInt8] = []
        var window: Int
        /// Every `send` that took bytes, by size.
        var sends: [Int] = []
        var outputShut = false
        var closed = false
        /// What the loop watches this connection for (epoll events), and whether it watches it at all.
        var events: UInt32 = 0
        var watched = false

        init(fd: Int32, window: Int) {
            self.fd = fd
            self.window = window
        }
    }

    /// The monotonic clock, in nanoseconds.
    var clock: UInt64 = 1_000_000_000_000
    /// The wall clock: Sun, 06 Nov 1994 08:49:37 GMT.
    var wall: Int64 = 784_111_777
    private(set) var peers: [Int32: Peer] = [:]
    /// Connections waiting to be accepted, and failures `accept` returns first (`EMFILE`…).
    var backlog: [Int32] = []
    var acceptFailures: [Int32] = []
    private(set) var listenerWatched = false
    private var nextFD: Int32 = 10

    /// A client connects: queued on the listener until the loop accepts it.
    func connect(window: Int) -> Peer {
        let peer = Peer(fd: nextFD, window: window)
        nextFD += 1
        peers[peer.fd] = peer
        backlog.append(peer.fd)
        return peer
    }

    /// The connections ready now and their epoll flags, by descriptor: readable while the loop watches for
    /// input and bytes or the end of input wait; writable while it watches for output and the window has room;
    /// a reset is reported whatever is watched.
    func readyEvents() -> [(fd: Int32, flags: UInt32)] {
        var ready: [(fd: Int32, flags: UInt32)] = []
        for fd in peers.keys.sorted() {
            guard let p = peers[fd], p.watched, !p.closed else { continue }
            var flags: UInt32 = 0
            if p.reset { flags |= hinge_epoll_err() | hinge_epoll_hup() }
            if p.events & hinge_epoll_in() != 0 && (!p.inbound.isEmpty || p.inputEnded) { flags |= hinge_epoll_in() }
            if p.events & hinge_epoll_out() != 0 && p.inFlight.count < p.window { flags |= hinge_epoll_out() }
            if flags != 0 { ready.append((fd, flags)) }
        }
        return ready
    }

    var acceptsPending: Bool { listenerWatched && (!backlog.isEmpty || !acceptFailures.isEmpty) }

    // MARK: EventLoopTransport

    func now() -> UInt64 { clock }
    func wallSeconds() -> Int64 { wall }

    func watch(_ fd: Int32, events: UInt32) -> Bool {
        guard let p = peers[fd] else { return false }
        p.watched = true
        p.events = events
        return true
    }

    func rewatch(_ fd: Int32, events: UInt32) { peers[fd]?.events = events }

    func watchListener(_ fd: Int32) -> Bool {
        listenerWatched = true
        return true
    }

    func unwatchListener(_ fd: Int32) { listenerWatched = false }

    func accept(_ listener: Int32) -> Int32 {
        if !acceptFailures.isEmpty { return -acceptFailures.removeFirst() }
        return backlog.isEmpty ? -EAGAIN : backlog.removeFirst()
    }

    func prepareAccepted(_ fd: Int32, notSentLowWaterBytes: Int) {}

    func peerKey(_ fd: Int32) -> UInt64 { (1 << 32) | 0x7F00_0001 }  // 127.0.0.1

    func receive(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard let p = peers[fd], !p.closed else { return -Int(EBADF) }
        if p.reset { return -Int(ECONNRESET) }
        if p.inbound.isEmpty { return p.inputEnded ? 0 : -Int(EAGAIN) }
        let n = min(count, p.readChunk, p.inbound.count)
        p.inbound.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: n) }
        p.inbound.removeFirst(n)
        return n
    }

    func send(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int) -> Int {
        guard let p = peers[fd], !p.closed else { return -Int(EBADF) }
        if p.reset { return -Int(ECONNRESET) }
        if p.outputShut { return -Int(EPIPE) }
        let n = min(count, p.window - p.inFlight.count)
        if n <= 0 { return -Int(EAGAIN) }
        p.inFlight.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: n))
        p.sends.append(n)
        return n
    }

    func unacknowledgedBytes(_ fd: Int32) -> Int { peers[fd]?.inFlight.count ?? -1 }

    func shutdownOutput(_ fd: Int32) { peers[fd]?.outputShut = true }

    func close(_ fd: Int32) {
        guard let p = peers[fd] else { return }  // a refused connection is never watched
        p.closed = true
        p.watched = false
    }
}

/// An event loop over a `MemoryTransport`, driven batch by batch on the test's thread (which becomes the
/// loop's thread): `settle` runs batches until nothing is ready, `advance` moves the clock first.
final class InMemoryServer {
    let transport = MemoryTransport()
    let metrics = ServerMetrics()
    let loop: EventLoop<MemoryTransport>
    /// False once the loop has stopped after a shutdown.
    private(set) var running = true

    init(_ configure: (inout Configuration) -> Void = { _ in }, router: Router = LiveServer.defaultRouter) throws {
        var c = Configuration()
        c.threads = 1
        configure(&c)
        loop = EventLoop(
            index: 0, configuration: c, handler: router.handler, metrics: metrics, listenFD: 3,
            transport: transport, responses: try ResponseQueue())
        loop.start()
    }

    /// One batch of events, as `run()` handles what `epoll_wait` returned; false when nothing was ready. When a
    /// shutting-down loop is done, it closes what is left, as `run()` does, and `running` turns false.
    @discardableResult func step() -> Bool {
        guard running else { return false }
        loop.beginBatch()
        var handled = false
        if loop.responses.hasMessages {
            loop.drainInbox()
            handled = true
        }
        if transport.acceptsPending {
            loop.acceptConnections()
            handled = true
        }
        for (fd, flags) in transport.readyEvents() {
            loop.handleEvent(fd: fd, flags: flags)
            handled = true
        }
        if !loop.endBatch() {
            running = false
            loop.finish()
        }
        return handled
    }

    /// Batches until nothing is ready (a bound guards against a loop that never settles).
    func settle() {
        var batches = 0
        while step() {
            batches += 1
            if batches == 1000 {
                Issue.record("the loop did not settle in 1,000 batches")
                return
            }
        }
    }

    /// Moves the monotonic clock on by `nanoseconds` as a loop waiting in `epoll_wait` lives it: a batch at
    /// every tick on the way (the wall clock, and so the `Date` line, stays).
    func advance(by nanoseconds: UInt64) {
        let target = transport.clock + nanoseconds
        while running && loop.timers.nextTick <= target {
            transport.clock = max(transport.clock, loop.timers.nextTick)
            settle()
        }
        transport.clock = target
        settle()
    }

    /// A client connects and the loop accepts it.
    func connect(window: Int = 4 << 20) -> MemoryClient {
        let peer = transport.connect(window: window)
        settle()
        return MemoryClient(peer: peer, server: self)
    }
}

/// A client of an `InMemoryServer`: each call lets the loop settle afterwards.
final class MemoryClient {
    let peer: MemoryTransport.Peer
    let server: InMemoryServer

    init(peer: MemoryTransport.Peer, server: InMemoryServer) {
        self.peer = peer
        self.server = server
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        peer.inbound.append(contentsOf: bytes)
        server.settle()
    }

    /// Takes every byte the server wrote and this client has not read yet (the loop may then write more).
    func read() -> [UInt8] {
        server.settle()
        let bytes = peer.inFlight
        peer.inFlight.removeAll()
        server.settle()
        return bytes
    }

    /// `read()` as text.
    func readText() -> String { String(decoding: read(), as: UTF8.self) }

    /// Shuts the sending side (a half-close: the client still reads).
    func shutdownWrite() {
        peer.inputEnded = true
        server.settle()
    }

    func reset() {
        peer.reset = true
        server.settle()
    }

    /// The server closed the connection.
    var isClosed: Bool { peer.closed }
    /// The server shut its sending side and keeps reading (a lingering close).
    var isLingering: Bool { peer.outputShut && !peer.closed }
}
