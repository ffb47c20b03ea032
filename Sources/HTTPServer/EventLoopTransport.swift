import CLinux
import Glibc
import Threads

/// What an event loop needs of the world outside it: watching descriptors for readiness, accepting, reading
/// and writing connections, closing them, and the time. `SocketTransport` is the real one (epoll, non-blocking
/// sockets, `MonotonicClock`); tests drive a loop in memory with their own (`EventLoopInMemoryTests`), as
/// SwiftNIO's `EmbeddedChannel` does.
///
/// `EventLoop` is generic over its transport, so the server's loop is specialised for `SocketTransport`: a
/// read or a write is a direct call, with no dynamic dispatch and no allocation. Errors are `-errno`.
protocol EventLoopTransport: AnyObject {
    /// The monotonic time in nanoseconds.
    func now() -> UInt64
    /// The wall clock in seconds since the epoch (the `Date` header).
    func wallSeconds() -> Int64

    /// Starts watching connection `fd` for `events` (`hinge_epoll_in()`, `hinge_epoll_out()`); false when refused.
    func watch(_ fd: Int32, events: UInt32) -> Bool
    /// Changes what connection `fd` is watched for.
    func rewatch(_ fd: Int32, events: UInt32)
    /// Starts watching the listening socket (shared by the loops: one of them is woken per connection).
    func watchListener(_ fd: Int32) -> Bool
    func unwatchListener(_ fd: Int32)

    /// A connection waiting on the listener: its descriptor, or `-errno` (`-EAGAIN` when none waits).
    func accept(_ listener: Int32) -> Int32
    /// Sets an accepted connection up: no Nagle delay, and at most `notSentLowWaterBytes` unsent in the kernel.
    func prepareAccepted(_ fd: Int32, notSentLowWaterBytes: Int)
    /// Who the peer is, as a key for limits per client (`HTTPResponder.clientKey`); 0 when unknown.
    func peerKey(_ fd: Int32) -> UInt64

    /// Reads at most `count` bytes into `buffer`: how many, 0 at the end of input, or `-errno`.
    func receive(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int
    /// Writes at most `count` bytes of `bytes`: how many were taken, or `-errno` (`-EAGAIN` when none fit).
    func send(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int) -> Int
    /// Bytes written that the peer has not acknowledged yet (`SIOCOUTQ`), or -1 when unknown.
    func unacknowledgedBytes(_ fd: Int32) -> Int
    /// Ends the output (`shutdown(SHUT_WR)`), reading on: the lingering close.
    func shutdownOutput(_ fd: Int32)
    /// Closes `fd` (never retried: Linux frees the descriptor even on `EINTR`); it is no longer watched.
    func close(_ fd: Int32)
}

/// The server's transport: one epoll instance per loop, non-blocking TCP sockets, `MonotonicClock`.
final class SocketTransport: EventLoopTransport {
    let epollFD: Int32
    /// Epoll tags of the two descriptors that are not connections (a connection's tag is its descriptor).
    static let listenerTag: UInt64 = 1 << 40
    static let wakeTag: UInt64 = 1 << 41

    init() throws(SystemError) {
        let ep = hinge_epoll_create()
        if ep < 0 { throw SystemError("epoll_create1", errno) }
        epollFD = ep
    }

    deinit { Glibc.close(epollFD) }

    /// Watches a loop's wake-up descriptor (`ResponseQueue.wakeFD`).
    func watchWake(_ fd: Int32) throws(SystemError) {
        if hinge_epoll_ctl(epollFD, hinge_epoll_add(), fd, hinge_epoll_in(), Self.wakeTag) < 0 {
            throw SystemError("epoll_ctl", errno)
        }
    }

    @inline(__always) func now() -> UInt64 { MonotonicClock.nanoseconds() }
    @inline(__always) func wallSeconds() -> Int64 { hinge_wall_seconds() }

    func watch(_ fd: Int32, events: UInt32) -> Bool {
        hinge_epoll_ctl(epollFD, hinge_epoll_add(), fd, events, UInt64(UInt32(bitPattern: fd))) == 0
    }

    @inline(__always) func rewatch(_ fd: Int32, events: UInt32) {
        _ = hinge_epoll_ctl(epollFD, hinge_epoll_mod(), fd, events, UInt64(UInt32(bitPattern: fd)))
    }

    func watchListener(_ fd: Int32) -> Bool {
        // EPOLLEXCLUSIVE: a connection wakes one waiting loop, not all (they share the socket).
        let events = hinge_epoll_in() | hinge_epoll_exclusive()
        return hinge_epoll_ctl(epollFD, hinge_epoll_add(), fd, events, Self.listenerTag) == 0
    }

    func unwatchListener(_ fd: Int32) { _ = hinge_epoll_ctl(epollFD, hinge_epoll_del(), fd, 0, 0) }

    func accept(_ listener: Int32) -> Int32 {
        let fd = hinge_accept(listener)
        return fd >= 0 ? fd : -errno
    }

    func prepareAccepted(_ fd: Int32, notSentLowWaterBytes: Int) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = hinge_set_notsent_lowat(fd, Int32(notSentLowWaterBytes))
    }

    func peerKey(_ fd: Int32) -> UInt64 { hinge_peer_key(fd) }

    @inline(__always) func receive(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let n = recv(fd, buffer, count, 0)
        return n >= 0 ? n : -Int(errno)
    }

    @inline(__always) func send(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int) -> Int {
        let n = Glibc.send(fd, bytes, count, hinge_msg_nosignal())
        return n >= 0 ? n : -Int(errno)
    }

    func unacknowledgedBytes(_ fd: Int32) -> Int { Int(hinge_socket_unacknowledged(fd)) }

    func shutdownOutput(_ fd: Int32) { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    @inline(__always) func close(_ fd: Int32) { Glibc.close(fd) }
}
