#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable: what `Synchronization.Mutex` does not offer (waiting).
///
/// `@unchecked Sendable` is sound: the mutex and condition are heap-allocated once (they must never move)
/// and only ever touched through pthread calls, which are thread-safe by definition.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal; the caller holds the lock and re-checks its predicate in a loop.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Waits at most `milliseconds` (a signal, a timeout or a spurious wakeup all return).
    func wait(milliseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + milliseconds / 1000 + total / 1_000_000_000
        deadline.tv_nsec = total % 1_000_000_000
        _ = pthread_cond_timedwait(condition, mutex, &deadline)
    }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Starts a detached-joinable pthread running `body`; `join()` waits for it. Dedicated threads (not a
/// dispatch queue) because the writer blocks in SQLite for the length of a commit by design.
final class StoreThread: @unchecked Sendable {
    // Sendable proof: `thread` is written once in `init` before any other thread can see the object,
    // and read only by `join()`, which callers invoke once.
    private var thread: pthread_t?

    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// `name` (at most 15 bytes on Linux) names the thread for `top -H`, `perf` and `/proc/self/task/*/comm`.
    init(name: String, _ body: @escaping @Sendable () -> Void) throws(StoreError) {
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        #if canImport(Darwin)
        var t: pthread_t?
        #else
        var t = pthread_t()
        #endif
        let rc = pthread_create(
            &t, nil,
            { arg in
                #if canImport(Darwin)
                let box = Unmanaged<Box>.fromOpaque(arg).takeRetainedValue()
                #else
                guard let arg else { return nil }
                let box = Unmanaged<Box>.fromOpaque(arg).takeRetainedValue()
                #endif
                StoreThread.setCurrentName(box.name)
                box.body()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw .invalidConfiguration("pthread_create failed with errno \(rc) for \(name)")
        }
        thread = t
    }

    /// Names the calling thread; best effort (a failure only loses the name). Glibc's
    /// `pthread_setname_np` is not visible to Swift without `_GNU_SOURCE`, so Linux writes `comm` directly.
    private static func setCurrentName(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #elseif os(Linux)
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))  // the kernel keeps 15 bytes
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #endif
    }

    /// Waits for the thread to end. Called from the thread itself (the last reference to a `Store`
    /// dropped inside a completion), it returns at once instead of deadlocking; the thread ends by itself.
    func join() {
        guard let t = thread else { return }
        thread = nil
        if pthread_equal(t, pthread_self()) != 0 { return }
        pthread_join(t, nil)
    }
}
