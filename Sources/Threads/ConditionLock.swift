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
public final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        // Timed waits measure against the monotonic clock (`MonotonicClock`'s, CLOCK_MONOTONIC): a step of the
        // wall clock (NTP, an operator) neither cuts a wait short nor stretches it.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal; the caller holds the lock and re-checks its predicate in a loop.
    public func wait() { pthread_cond_wait(condition, mutex) }
    /// Waits at most `milliseconds` (a signal, a timeout or a spurious wakeup all return).
    public func wait(milliseconds: Int) {
        wait(until: ConditionLock.deadline(afterNanoseconds: milliseconds * 1_000_000))
    }
    /// Waits until `deadline` at the latest (`MonotonicClock` time, from `deadline(afterNanoseconds:)`).
    public func wait(until deadline: timespec) {
        var d = deadline
        _ = pthread_cond_timedwait(condition, mutex, &d)
    }
    /// The `MonotonicClock` time `nanoseconds` from now, for `wait(until:)`.
    public static func deadline(afterNanoseconds nanoseconds: Int) -> timespec {
        let at = MonotonicClock.nanoseconds() &+ UInt64(max(nanoseconds, 0))
        var deadline = timespec()
        deadline.tv_sec = time_t(at / 1_000_000_000)
        deadline.tv_nsec = Int(at % 1_000_000_000)
        return deadline
    }
    /// True once `deadline` (`MonotonicClock` time) has passed.
    public static func hasPassed(_ deadline: timespec) -> Bool {
        let at = UInt64(deadline.tv_sec) &* 1_000_000_000 &+ UInt64(deadline.tv_nsec)
        return MonotonicClock.nanoseconds() >= at
    }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
