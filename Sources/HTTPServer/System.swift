import CLinux
import Glibc
import Threads

/// A failed system call: the function and the errno it set.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var function: String
    public var errno: Int32
    public init(_ function: String, _ errno: Int32) {
        self.function = function
        self.errno = errno
    }
    public var description: String { "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// Runs a system call: retries EINTR, returns nil for EAGAIN/EWOULDBLOCK (would block), throws
/// anything else with the function's name. Never use it for `close` (closing is never retried).
@inline(__always)
func syscall<T: BinaryInteger>(_ function: StaticString, _ body: () -> T) throws(SystemError) -> T? {
    while true {
        let r = body()
        if r >= 0 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        if e == EAGAIN || e == EWOULDBLOCK { return nil }
        throw SystemError("\(function)", e)
    }
}

/// Formats an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7) without Foundation.
func httpDate(epochSeconds: Int64) -> [UInt8] {
    var t = time_t(epochSeconds)
    var tmv = tm()
    gmtime_r(&t, &tmv)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let s =
        "\(days[Int(tmv.tm_wday) % 7]), \(two(tmv.tm_mday)) \(months[Int(tmv.tm_mon) % 12]) \(tmv.tm_year + 1900) "
        + "\(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
    return Array(s.utf8)
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(45) }
        var n = value.magnitude
        var divisor: UInt = 1
        while n / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(48 + (n / divisor)))
            n %= divisor
            divisor /= 10
        }
    }

    @inline(__always)
    mutating func appendString(_ s: String) {
        var s = s
        s.withUTF8 { append(contentsOf: $0) }
    }
}

/// Writes all of `bytes` to `fd` (`hinge_write_fully`: short writes and `EINTR` retried). False when a write
/// fails: callers that log give up quietly (a log that cannot be written must not stop the server).
@discardableResult
public func writeFully(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    return hinge_write_fully(fd, base, bytes.count) == 0
}
