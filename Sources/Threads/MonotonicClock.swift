import CLinux

/// The process's one monotonic clock: nanoseconds of `CLOCK_MONOTONIC`, read through the vDSO (no system call).
/// Every timeout, deadline and duration is measured with it; the event loops' in-memory tests pass their own
/// time instead (`EventLoopTransport.now`).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start; never goes backwards.
    @inlinable @inline(__always)
    public static func nanoseconds() -> UInt64 { hinge_monotonic_ns() }
}
