import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A joinable OS thread running one closure, with a name (`top -H`, `perf report --comms`,
/// `/proc/PID/task/*/comm`). The event loops, the signal waiter and the store's writer, checkpoint, watch and
/// read threads are all one of these: they block (in `epoll_wait`, `sigwait`, SQLite) by design, so they
/// must not run on Swift's cooperative pool.
public final class NamedThread: Sendable {
    /// `pthread_create` failed (the thread limit, or memory for its stack).
    public struct StartError: Error, Equatable, CustomStringConvertible {
        public var name: String
        public var errno: Int32
        public var description: String {
            "pthread_create failed: \(String(cString: strerror(errno))) (errno \(errno)) for thread \(name)"
        }
    }

    /// The kernel keeps 15 bytes of a thread's name; longer names are cut there.
    public static let maxNameBytes = 15

    // pthread_t is an integer on Linux; written once in init, before the object is shared.
    private let handle: pthread_t
    private let joined = Atomic<Bool>(false)

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts a thread named `name` (cut to `maxNameBytes`) that runs `body` and ends.
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let start = Unmanaged.passRetained(Start(name, body)).toOpaque()
        var t = pthread_t()
        let rc = pthread_create(
            &t, nil,
            { raw in
                guard let raw else { return nil }
                let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
                // Best effort: a failure only loses the name.
                _ = hinge_thread_set_name(start.name)
                start.body()
                return nil
            }, start)
        guard rc == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw StartError(name: name, errno: rc)
        }
        handle = t
    }

    /// Waits for the thread to end. Only the first call waits; later ones return at once. Called on the thread
    /// itself (the last reference to its owner dropped inside its own body), it returns at once instead of
    /// deadlocking, and the thread ends by itself.
    public func join() {
        guard !joined.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if pthread_equal(handle, pthread_self()) != 0 {
            pthread_detach(handle)
            return
        }
        pthread_join(handle, nil)
    }
}
