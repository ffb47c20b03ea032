/// A growable byte buffer written through a raw pointer, with JSON's number and string formatting: the one
/// sink that `JSONWriter` and the resolution encoder write into. Appends check capacity once per piece, not
/// per byte, and skip `[UInt8]`'s uniqueness checks, which are most of the cost of `append` in a tight
/// encoder loop.
///
/// Non-copyable, with one owner that frees the memory when the sink goes out of scope. The hot operations are
/// `@inlinable` so that encoders in other modules compile them into their own loops.
public struct ByteSink: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    @inlinable
    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = PlainMemory.allocate(UInt8.self, capacity: self.capacity)
    }

    deinit { PlainMemory.free(base) }

    /// The bytes written so far (valid while the sink is not written to or dropped).
    @inlinable public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes written so far, copied into an array.
    @inlinable public var array: [UInt8] { Array(bytes) }

    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
        if count &+ n > capacity { grow(count &+ n) }
    }

    @usableFromInline @inline(never)
    mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = PlainMemory.allocate(UInt8.self, capacity: newCapacity)
        newBase.update(from: base, count: count)
        PlainMemory.free(base)
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends without a capacity check; the caller reserved room.
    @inlinable @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        Self.copy(from: source, to: base + count, count: bytes.count)
        count &+= bytes.count
    }

    /// Appends the literal's bytes as they are (keys with their quotes and colon, `null`, punctuation).
    @inlinable @inline(__always)
    public mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        Self.copy(from: s.utf8Start, to: base + count, count: n)
        count &+= n
    }

    /// Copies `n` bytes with word loads and stores instead of a `memcpy` call: keys, names and most strings
    /// are short, and the call costs more than the copy. Reads and writes stay inside the `n` bytes (the last
    /// word may overlap the one before).
    @inlinable @inline(__always)
    static func copy(from src: UnsafePointer<UInt8>, to dst: UnsafeMutablePointer<UInt8>, count n: Int) {
        if n > 64 {
            dst.update(from: src, count: n)
        } else if n >= 8 {
            let from = UnsafeRawPointer(src)
            let to = UnsafeMutableRawPointer(dst)
            var i = 0
            while i &+ 8 <= n {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            if i < n {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8,
                    as: UInt64.self)
            }
        } else {
            var i = 0
            while i < n {
                dst[i] = src[i]
                i &+= 1
            }
        }
    }

    // MARK: Numbers

    /// The JSON text of `d`: integers of magnitude below 10^16 as integers (`390`, `-0` as `0`), other values
    /// as the shortest text that reads back as the same Double, NaN and infinities as `null`.
    @inlinable
    public mutating func writeNumber(_ d: Double) {
        if abs(d) < 1e16, Double(Int64(d)) == d {
            writeInteger(Int64(d))
        } else {
            writeFractional(d)
        }
    }

    /// In line in `writeNumber` (the encoders' numbers are mostly integral): a call per number cost about a
    /// sixth of the formatting.
    @inlinable @inline(__always)
    public mutating func writeInteger(_ value: Int64) {
        reserve(21)
        if value < 0 { appendUnchecked(UInt8(ascii: "-")) }
        let m = value.magnitude
        // Frames and insets are mostly below 10,000 points: their digits directly, two at a time from a table of
        // the pairs "00" … "99".
        if m < 10 {
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
            count &+= 1
        } else if m < 100 {
            putPair(Int(truncatingIfNeeded: m), at: count)
            count &+= 2
        } else if m < 1000 {
            let high = m / 100
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            putPair(Int(truncatingIfNeeded: m &- high &* 100), at: count &+ 1)
            count &+= 3
        } else if m < 10_000 {
            let high = m / 100
            putPair(Int(truncatingIfNeeded: high), at: count)
            putPair(Int(truncatingIfNeeded: m &- high &* 100), at: count &+ 2)
            count &+= 4
        } else {
            writeLongMagnitude(m)
        }
    }

    /// Writes the two digits of `pair` (0…99) at `offset` (room reserved).
    @inlinable @inline(__always)
    mutating func putPair(_ pair: Int, at offset: Int) {
        let digits = UnsafeRawPointer(ByteSink.digitPairs.utf8Start + 2 &* pair).loadUnaligned(as: UInt16.self)
        UnsafeMutableRawPointer(base + offset).storeBytes(of: digits, as: UInt16.self)
    }

    /// "00", "01", … "99": the two ASCII digits of each number below 100, in order (a literal: no lazy global
    /// to initialise on each access).
    @usableFromInline static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// The digits of `m` ≥ 10,000 (room reserved by the caller).
    @usableFromInline
    mutating func writeLongMagnitude(_ magnitude: UInt64) {
        var m = magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, filled from the end
        let n = withUnsafeMutableBytes(of: &digits) { raw in
            var k = raw.count
            repeat {
                k -= 1
                raw[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            } while m > 0
            (base + count).update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + k, count: raw.count - k)
            return raw.count - k
        }
        count &+= n
    }

    /// A number that is not an integer below 10^16 (or not finite).
    @usableFromInline
    mutating func writeFractional(_ d: Double) {
        guard d.isFinite else {
            append("null")
            return
        }
        if writeShortDecimal(d) { return }
        // Swift's description is shortest round-trip: "0.1", "1e-05", "1e+21", "5e-324", "1.5e+300".
        // Drop leading zeros of the exponent so the text is the usual minimal form.
        var text = d.description
        text.withUTF8 { utf8 in
            reserve(utf8.count)
            var k = 0
            while k < utf8.count {
                let c = utf8[k]
                appendUnchecked(c)
                k += 1
                if (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) && k >= 2 && utf8[k - 2] == UInt8(ascii: "e") {
                    while k + 1 < utf8.count && utf8[k] == UInt8(ascii: "0") { k += 1 }
                }
            }
        }
    }

    private static let decimalScales: (Double, Double, Double, Double) = (10, 100, 1000, 10000)

    /// Fast path for values with at most 4 fraction digits (98.5, 1014.25, 0.001): the smallest k for which
    /// m = round(d·10^k) gives back d as m / 10^k. With m < 2^53 and k ≤ 22 that division is correctly
    /// rounded, so "m·10^-k" is exactly what a correct parser reads as d, and the smallest k gives the
    /// shortest such text — the digits Swift's `description` prints, without building a String.
    private mutating func writeShortDecimal(_ d: Double) -> Bool {
        let magnitude = abs(d)
        guard magnitude >= 1e-4 && magnitude < 1e11 else { return false }
        var k = 0
        var m: Double = 0
        var scale: Double = 1
        while true {
            k += 1
            if k > 4 { return false }
            switch k {
            case 1: scale = Self.decimalScales.0
            case 2: scale = Self.decimalScales.1
            case 3: scale = Self.decimalScales.2
            default: scale = Self.decimalScales.3
            }
            m = (magnitude * scale).rounded()
            if m / scale == magnitude { break }
        }
        let digits = UInt64(m)
        let divisor = UInt64(scale)
        if d < 0 { append(UInt8(ascii: "-")) }
        writeInteger(Int64(digits / divisor))
        reserve(1 + k)
        appendUnchecked(UInt8(ascii: "."))
        var fraction = digits % divisor
        var position = k
        // Fraction digits, most significant first, zero-padded to k.
        var place = divisor / 10
        while position > 0 {
            appendUnchecked(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / place))
            fraction %= place
            place /= 10
            position -= 1
        }
        return true
    }

    // MARK: Strings

    /// `s` as a quoted JSON string: `"` `\` and controls escaped (`\b \f \n \r \t`, others `\u00XX`),
    /// everything else, non-ASCII included, as UTF-8; with `escapeLineTerminators`, U+2028/U+2029 as `\u2028`
    /// and `\u2029` too, for consumers that embed the output in JavaScript source.
    @inlinable
    public mutating func writeString(_ s: String, escapeLineTerminators: Bool = false) {
        append(UInt8(ascii: "\""))
        writeEscaped(s, escapeLineTerminators: escapeLineTerminators)
        append(UInt8(ascii: "\""))
    }

    /// `s` escaped as in `writeString`, without the quotes.
    @inlinable
    public mutating func writeEscaped(_ s: String, escapeLineTerminators: Bool = false) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable {
            writeEscaped($0, escapeLineTerminators: escapeLineTerminators)
        }
        if done == nil {
            var copy = s
            copy.withUTF8 { writeEscaped($0, escapeLineTerminators: escapeLineTerminators) }
        }
    }

    /// The bytes of `utf8` escaped as in `writeString`, without the quotes.
    @inlinable
    public mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, escapeLineTerminators: Bool = false) {
        guard let source = utf8.baseAddress, utf8.count > 0 else { return }
        if !escapeLineTerminators && copyIfNothingToEscape(source, utf8.count) { return }
        writeEscapedSlowly(utf8, escapeLineTerminators: escapeLineTerminators)
    }

    /// A string that needs no escaping, quoted: the raw value of an enumeration (identifiers; checked in debug
    /// builds, and the golden and property tests compare these bytes with the tree writer's).
    @inlinable
    public mutating func writeCleanString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            assert(!utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            reserve(utf8.count + 2)
            base[count] = UInt8(ascii: "\"")
            if let start = utf8.baseAddress { Self.copy(from: start, to: base + count + 1, count: utf8.count) }
            base[count + 1 + utf8.count] = UInt8(ascii: "\"")
            count += utf8.count + 2
        }
    }

    /// Copies `n` bytes from `src` when none of them needs an escape (names, ids, codes, most messages) and
    /// says whether it did. Words are loaded only inside the source (the last may overlap the one before) and
    /// stored only inside the `n` reserved bytes.
    @inlinable @inline(__always)
    mutating func copyIfNothingToEscape(_ src: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        reserve(n)
        let raw = UnsafeRawPointer(src)
        if n >= 8 {
            var i = 0
            while i &+ 8 <= n, !Self.needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i &+= 8 }
            guard i &+ 8 > n,
                i == n || !Self.needsEscape(raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
            else { return false }
            let dst = UnsafeMutableRawPointer(base + count)
            if n <= 16 {
                let head = raw.loadUnaligned(as: UInt64.self)
                let tail = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                dst.storeBytes(of: head, as: UInt64.self)
                dst.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
            } else {
                dst.copyMemory(from: raw, byteCount: n)
            }
            count &+= n
            return true
        }
        // Copied while checked; the bytes count only if none needs an escape.
        let dst = base + count
        var k = 0
        while k < n {
            let c = src[k]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            dst[k] = c
            k &+= 1
        }
        count &+= n
        return true
    }

    /// Whether any byte of `w` is a control character, `"` or `\\` (or, with `nonASCII`, above 0x7F): the
    /// classic "has a byte less than n" and "has a zero byte" word tests, exact as yes/no answers (a yes
    /// falls back to the byte loop).
    @inlinable @inline(__always)
    static func needsEscape(_ w: UInt64, nonASCII: Bool = false) -> Bool {
        escapeMask(w, nonASCII: nonASCII) != 0
    }

    /// The high bit of each byte of `w` (first byte lowest) that is a control character, `"` or `\\` (or, with
    /// `nonASCII`, above 0x7F), and possibly of bytes above such a byte (a borrow), never below the lowest one:
    /// the lowest set bit marks exactly the first byte that needs a look.
    @inlinable @inline(__always)
    static func escapeMask(_ w: UInt64, nonASCII: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w
        let q = w ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q
        let b = w ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b
        return (control | quote | backslash | (nonASCII ? w : 0)) & high
    }

    /// `writeEscaped` for text with something to escape (or U+2028/U+2029 to look for).
    @usableFromInline
    mutating func writeEscapedSlowly(_ utf8: UnsafeBufferPointer<UInt8>, escapeLineTerminators: Bool) {
        guard let source = utf8.baseAddress else { return }
        let n = utf8.count
        // Worst case every byte becomes \u00XX: reserve once, then write without checks.
        reserve(n * 6)
        var k = 0
        var runStart = 0
        while k < n {
            // Eight bytes at a time while none needs an escape (non-ASCII counts when U+2028/9 are escaped), then
            // straight to the first byte that may.
            while k + 8 <= n {
                let flagged = Self.escapeMask(
                    UnsafeRawPointer(source + k).loadUnaligned(as: UInt64.self), nonASCII: escapeLineTerminators)
                if flagged != 0 {
                    k += flagged.trailingZeroBitCount >> 3
                    break
                }
                k += 8
            }
            guard k < n else { break }
            let c = source[k]
            if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") && (c != 0xE2 || !escapeLineTerminators)
            {
                k += 1
                continue
            }
            if c == 0xE2 {
                // U+2028 / U+2029 when asked; any other E2 sequence is copied as is.
                guard k + 2 < n && source[k + 1] == 0x80 && (source[k + 2] == 0xA8 || source[k + 2] == 0xA9) else {
                    k += 1
                    continue
                }
                flush(source, runStart, k)
                append(source[k + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                k += 3
                runStart = k
                continue
            }
            flush(source, runStart, k)
            appendUnchecked(UInt8(ascii: "\\"))
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): appendUnchecked(c)
            case 0x0A: appendUnchecked(UInt8(ascii: "n"))
            case 0x0D: appendUnchecked(UInt8(ascii: "r"))
            case 0x09: appendUnchecked(UInt8(ascii: "t"))
            case 0x08: appendUnchecked(UInt8(ascii: "b"))
            case 0x0C: appendUnchecked(UInt8(ascii: "f"))
            default:
                appendUnchecked(UInt8(ascii: "u"))
                appendUnchecked(UInt8(ascii: "0"))
                appendUnchecked(UInt8(ascii: "0"))
                appendUnchecked(Self.hexDigit(c >> 4))
                appendUnchecked(Self.hexDigit(c & 0xF))
            }
            k += 1
            runStart = k
        }
        flush(source, runStart, n)
    }

    /// Copies `source[start..<end]` (room reserved).
    @inline(__always)
    private mutating func flush(_ source: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        let n = end &- start
        guard n > 0 else { return }
        Self.copy(from: source + start, to: base + count, count: n)
        count &+= n
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }
}
