#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A UTC instant with millisecond precision, formatted and parsed by hand as ISO 8601
/// (`2025-01-31T09:05:07.042Z`): no shared `DateFormatter`, which is not thread-safe on Linux.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    /// The wall clock now (`CLOCK_REALTIME`).
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(millisecondsSinceEpoch: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.millisecondsSinceEpoch < b.millisecondsSinceEpoch }

    public var description: String { iso8601 }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public var iso8601: String {
        let ms = millisecondsSinceEpoch
        let days = floorDiv(ms, 86_400_000)
        let msOfDay = ms - days * 86_400_000
        let (y, m, d) = Timestamp.civil(fromDays: days)
        var out = ""
        out.reserveCapacity(24)
        func pad(_ v: Int64, _ width: Int) {
            let s = String(v)
            if s.count < width { out.append(String(repeating: "0", count: width - s.count)) }
            out.append(s)
        }
        if y < 0 {
            out.append("-")
            pad(-y, 4)
        } else {
            pad(y, 4)
        }
        out.append("-")
        pad(m, 2)
        out.append("-")
        pad(d, 2)
        out.append("T")
        pad(msOfDay / 3_600_000, 2)
        out.append(":")
        pad(msOfDay / 60_000 % 60, 2)
        out.append(":")
        pad(msOfDay / 1000 % 60, 2)
        out.append(".")
        pad(msOfDay % 1000, 3)
        out.append("Z")
        return out
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM` (a time needs a
    /// zone: a bare local time would silently mean the server's zone). Fractions beyond ms are truncated.
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int64? {
            guard i + n <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[k] - 0x30)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = digits(4), expect(0x2D), let mo = digits(2), expect(0x2D), let d = digits(2) else { return nil }
        guard (1...12).contains(mo), d >= 1, d <= Timestamp.daysInMonth(y, mo) else { return nil }
        var ms: Int64 = 0
        if i < b.count {
            guard expect(0x54) || expect(0x74) || expect(0x20) else { return nil }
            guard let h = digits(2), expect(0x3A), let mi = digits(2), h < 24, mi < 60 else { return nil }
            var s: Int64 = 0
            var frac: Int64 = 0
            if expect(0x3A) {
                guard let sec = digits(2), sec < 60 else { return nil }
                s = sec
                if expect(0x2E) || expect(0x2C) {
                    var scale: Int64 = 100
                    var any = false
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                        frac += Int64(b[i] - 0x30) * scale
                        scale /= 10
                        any = true
                        i += 1
                    }
                    guard any else { return nil }
                }
            }
            var offset: Int64 = 0
            if expect(0x5A) || expect(0x7A) {
                offset = 0
            } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
                let sign: Int64 = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), expect(0x3A), let om = digits(2), oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 60 + om) * 60_000
            } else {
                return nil
            }
            ms = ((h * 60 + mi) * 60 + s) * 1000 + frac - offset
        }
        guard i == b.count else { return nil }
        millisecondsSinceEpoch = Timestamp.days(fromCivil: y, mo, d) * 86_400_000 + ms
    }

    private static func daysInMonth(_ y: Int64, _ m: Int64) -> Int64 {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (public domain algorithms).
    static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

@inline(__always)
private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
