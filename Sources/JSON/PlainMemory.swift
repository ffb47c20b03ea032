#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Buffers of plain values taken from `malloc` and given back with `free`.
///
/// `UnsafeMutablePointer.allocate` asks the Swift runtime for the default alignment, and the runtime on Linux
/// serves that request with `posix_memalign`: for the small buffers every request takes (the parsed document,
/// the mapper's lists, the response) about four times the instructions of `malloc` (callgrind), whose blocks
/// are already aligned for every type kept in them (at most 16 bytes).
public enum PlainMemory {
    /// Room for `capacity` values of `T` (uninitialised); traps when memory is exhausted, as `allocate` does.
    @inlinable
    public static func allocate<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= 16, "PlainMemory serves alignments up to 16 bytes")
        precondition(capacity >= 0, "negative capacity")
        let (bytes, overflow) = MemoryLayout<T>.stride.multipliedReportingOverflow(by: max(capacity, 1))
        precondition(!overflow, "allocation size overflows")
        guard let raw = malloc(bytes) else { fatalError("out of memory (\(bytes) bytes)") }
        return raw.bindMemory(to: T.self, capacity: max(capacity, 1))
    }

    /// Gives back a buffer from `allocate` (its values must already be deinitialised, or be plain).
    @inlinable
    public static func free<T>(_ pointer: UnsafeMutablePointer<T>) {
        #if canImport(Glibc)
            Glibc.free(pointer)
        #else
            Musl.free(pointer)
        #endif
    }
}
