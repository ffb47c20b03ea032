import CLinux
import Glibc
import Synchronization
import Threads

/// An HTTP/1.1 server over POSIX sockets and epoll. Knows nothing of what it serves.
///
/// ```swift
/// var config = Configuration()
/// config.port = 0
/// let server = HTTPServer(configuration: config, router: router)
/// try server.start()                 // binds; `server.port` is the real port
/// server.onShutdown { log.flush() }  // runs after the last connection closed
/// TerminationSignals.onSignal { _ in server.shutdown() }
/// server.wait()                      // returns after shutdown and the hooks
/// ```
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    public let metrics = ServerMetrics()
    private let handler: HTTPHandler

    private struct State: Sendable {
        var started = false
        var loops: [SocketEventLoop] = []
        var threads: [NamedThread] = []
        var port = 0
        /// The listening socket, shared by the loops; closed by `wait()` once they have stopped.
        var listenFD: Int32 = -1
        var hooks: [@Sendable () -> Void] = []
        var shutdownRequested = false
        var finished = false
    }
    private let state = Mutex(State())

    public init(configuration: Configuration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    public convenience init(configuration: Configuration, router: Router) {
        self.init(configuration: configuration, handler: router.handler)
    }

    /// Connections assigned to each loop now (tests: the loops share the accepts evenly).
    var loopLoads: [Int] { state.withLock { $0.loops.map { $0.metrics.load.load(ordering: .relaxed) } } }

    /// The bound port (the kernel's choice when `configuration.port` is 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Registers work to run once the server has stopped (after the last connection closed or the
    /// shutdown deadline passed), in registration order, before `wait()` returns.
    public func onShutdown(_ hook: @escaping @Sendable () -> Void) {
        state.withLock { $0.hooks.append(hook) }
    }

    /// Binds the one listening socket (never `SO_REUSEPORT`: a port another process holds is refused with
    /// `EADDRINUSE`) and starts one event loop thread per `configuration.threads`.
    /// Throws `SystemError` (e.g. `bind` with EADDRINUSE).
    public func start() throws {
        if state.withLock({ $0.started }) { throw SystemError("start (already started)", EALREADY) }
        if hinge_ignore_sigpipe() != 0 { throw SystemError("signal(SIGPIPE)", errno) }
        raiseDescriptorLimit()
        let threads = max(1, configuration.threads)
        let shared = configuration.acceptStrategy == .sharedListener
        let listener = try Listener.open(
            host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        var loops: [SocketEventLoop] = []
        do {
            for i in 0..<threads {
                let fd: Int32 = shared || i == 0 ? listener.fd : -1
                loops.append(
                    try SocketEventLoop(
                        index: i, configuration: configuration, handler: handler, metrics: metrics, listenFD: fd))
            }
        } catch {
            Glibc.close(listener.fd)
            throw error
        }
        if threads > 1 { for loop in loops { loop.peers = loops } }
        var started: [NamedThread] = []
        for loop in loops {
            started.append(try NamedThread(name: "hinge-loop-\(loop.index)") { loop.run() })
        }
        state.withLock {
            $0.started = true
            $0.loops = loops
            $0.threads = started
            $0.port = listener.port
            $0.listenFD = listener.fd
        }
    }

    /// Stops accepting, closes idle connections, lets in-flight requests finish (their responses carry
    /// `Connection: close`), then closes what remains once `deadline` (default
    /// `configuration.shutdownDeadline`) has passed. Returns at once; `wait()` blocks until done.
    public func shutdown(deadline: Duration? = nil) {
        let loops = state.withLock { s -> [SocketEventLoop] in
            if s.shutdownRequested { return [] }
            s.shutdownRequested = true
            // Stop listening at once (new connections are refused) while the loops finish; the descriptor
            // itself stays open until they have stopped, so that no loop ever accepts on a reused number.
            if s.listenFD >= 0 { Glibc.shutdown(s.listenFD, Int32(SHUT_RD)) }
            return s.loops
        }
        let at = MonotonicClock.nanoseconds() &+ (deadline ?? configuration.shutdownDeadline).nanoseconds
        for loop in loops { loop.responses.send(.shutdown(deadlineNanoseconds: at)) }
    }

    /// Blocks until the loops have stopped after `shutdown`, then runs the shutdown hooks once.
    public func wait() {
        let threads = state.withLock { s -> [NamedThread] in
            let t = s.threads
            s.threads = []
            return t
        }
        for t in threads { t.join() }
        let hooks = state.withLock { s -> [@Sendable () -> Void] in
            if s.finished { return [] }
            s.finished = true
            if s.listenFD >= 0 {
                Glibc.close(s.listenFD)
                s.listenFD = -1
            }
            let h = s.hooks
            s.hooks = []
            s.loops = []
            return h
        }
        for hook in hooks { hook() }
    }

    /// `start()` then `wait()`.
    public func run() throws {
        try start()
        wait()
    }

    private func raiseDescriptorLimit() {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < limit.rlim_max {
            let wanted = rlim_t(configuration.maxConnections + 256)
            limit.rlim_cur = min(limit.rlim_max, max(limit.rlim_cur, wanted))
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}

enum Listener {
    /// A bound, listening, non-blocking TCP socket and its port.
    static func open(host: String, port: Int, backlog: Int32) throws(SystemError) -> (
        fd: Int32, port: Int
    ) {
        guard port >= 0 && port <= 65535 else { throw SystemError("bind (port \(port))", EINVAL) }
        let name = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            throw SystemError("inet_pton (host \(host))", EINVAL)
        }
        guard let fd = try syscall("socket", { hinge_tcp_socket(family) }) else { throw SystemError("socket", EAGAIN) }
        do {
            var one: Int32 = 1
            let size = socklen_t(MemoryLayout<Int32>.size)
            // SO_REUSEADDR only lets a restart bind over TIME_WAIT connections: Linux still refuses a second
            // listener on the port. SO_REUSEPORT would let any process of the same user share the port.
            _ = try syscall("setsockopt(SO_REUSEADDR)") { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size) }
            if family == AF_INET {
                _ = try syscall("bind") {
                    withUnsafePointer(to: &v4) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
            } else {
                _ = try syscall("bind") {
                    withUnsafePointer(to: &v6) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                        }
                    }
                }
            }
            _ = try syscall("listen") { listen(fd, backlog) }
            var storage = sockaddr_in6()
            var len = socklen_t(MemoryLayout<sockaddr_in6>.size)
            _ = try syscall("getsockname") {
                withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
                }
            }
            // sin_port and sin6_port sit at the same offset.
            let bound = Int(UInt16(bigEndian: storage.sin6_port))
            return (fd, bound)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }
}

/// SIGTERM/SIGINT without work in a signal handler: the signals are blocked in every thread and one
/// dedicated thread receives them with `sigwait`.
public enum TerminationSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread. Call it first thing in `main`, before any
    /// other thread exists, so that every thread inherits the mask.
    public static func block() {
        _ = hinge_block_termination_signals()
    }

    /// Starts a thread that calls `handler` with the signal number for each SIGTERM/SIGINT received.
    public static func onSignal(_ handler: @escaping @Sendable (Int32) -> Void) throws {
        let thread = try NamedThread(name: "hinge-signals") {
            while true {
                let sig = hinge_wait_termination_signal()
                if sig < 0 { return }
                handler(sig)
            }
        }
        _ = thread  // detached in effect: it lives as long as the process
    }
}
