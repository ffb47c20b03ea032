#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Deterministic JSON writer: the same value always gives the same bytes (docs/rules.md#determinism).
///
/// - Object keys are sorted by their UTF-8 bytes, which is the same as Unicode scalar order (no
///   normalisation, no locale). Objects whose members are already in that order are detected in one pass
///   and not re-sorted, so callers that build objects in sorted order pay nothing for sorting. Members with
///   equal keys (the parser never produces them, `JSONObject` allows them) keep their relative order.
/// - Numbers: integers of magnitude below 10^16 print as integers (`390`, never `390.0`); `-0` prints as
///   `0`; other values print the shortest text that reads back as the same Double (Swift's `description`,
///   which is correctly rounded and shortest), with the exponent cleaned up (`1e-5`, `1e+21`). NaN and
///   infinities are not JSON: they print as `null`.
/// - Strings: `"` `\` and controls are escaped (`\b \f \n \r \t`, others `\u00XX`); everything else,
///   including non-ASCII, is written as UTF-8. `Options.escapeLineTerminators` also escapes U+2028/U+2029
///   for consumers that embed the output in JavaScript source.
/// - Compact output has no whitespace; `.pretty` indents by 2 spaces and puts `": "` after keys.
public enum JSONWriter {
    public struct Options: Sendable, Equatable {
        public var pretty: Bool
        public var escapeLineTerminators: Bool

        public init(pretty: Bool = false, escapeLineTerminators: Bool = false) {
            self.pretty = pretty
            self.escapeLineTerminators = escapeLineTerminators
        }

        public static let compact = Options()
        public static let pretty = Options(pretty: true)
    }

    /// Appends the encoding of `value` to `buffer` (which the caller may reuse across requests).
    public static func write(_ value: JSONValue, into buffer: inout [UInt8], options: Options = .compact) {
        var out = ByteSink(capacity: 4096)
        defer { out.deallocate() }
        if options.pretty {
            out.writePretty(value, indent: 0, options)
        } else if options.escapeLineTerminators {
            out.write(value, escapeLineTerminators: true)
        } else {
            out.write(value, escapeLineTerminators: false)
        }
        buffer.append(contentsOf: out.bytes)
    }

    /// The encoding of `value` as bytes.
    public static func encode(_ value: JSONValue, options: Options = .compact) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        write(value, into: &buffer, options: options)
        return buffer
    }

    /// The encoding of `value` as a `String`.
    public static func string(_ value: JSONValue, options: Options = .compact) -> String {
        String(decoding: encode(value, options: options), as: UTF8.self)
    }

    /// Shortest text that reads back as the same Double; integers without a fraction (used in messages too).
    public static func formatNumber(_ d: Double) -> String {
        var buffer: [UInt8] = []
        appendNumber(d, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends the JSON text of `d` (see the type's documentation for the format).
    public static func appendNumber(_ d: Double, to buffer: inout [UInt8]) {
        var out = ByteSink(capacity: 32)
        defer { out.deallocate() }
        out.writeNumber(d)
        buffer.append(contentsOf: out.bytes)
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func appendString(_ s: String, to buffer: inout [UInt8], escapeLineTerminators: Bool = false) {
        var out = ByteSink(capacity: s.utf8.count + 16)
        defer { out.deallocate() }
        out.writeString(s, escapeLineTerminators: escapeLineTerminators)
        buffer.append(contentsOf: out.bytes)
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes (= Unicode scalar order).
    @inline(__always)
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        compareUTF8(a, b) < 0
    }
}

/// Three-way comparison of the UTF-8 bytes of two strings, without copying them.
@inline(__always)
func compareUTF8(_ a: String, _ b: String) -> Int {
    let r = a.utf8.withContiguousStorageIfAvailable { pa in
        b.utf8.withContiguousStorageIfAvailable { pb in compareBytes(pa, pb) }
    }
    if let r, let r { return r }
    return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1)
}

@inline(__always)
func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let n = min(a.count, b.count)
    guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return a.count - b.count }
    // Keys are short: compare 8 bytes at a time as big-endian words instead of calling memcmp.
    var k = 0
    while k + 8 <= n {
        let wa = UnsafeRawPointer(pa + k).loadUnaligned(as: UInt64.self)
        let wb = UnsafeRawPointer(pb + k).loadUnaligned(as: UInt64.self)
        if wa != wb { return wa.bigEndian < wb.bigEndian ? -1 : 1 }
        k += 8
    }
    while k < n {
        if pa[k] != pb[k] { return pa[k] < pb[k] ? -1 : 1 }
        k += 1
    }
    return a.count - b.count
}

/// A growable byte buffer written through a raw pointer: no uniqueness or bounds checks per byte, which
/// is most of the cost of `[UInt8].append` in a tight encoder loop.
struct ByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends without a capacity check; the caller reserved room.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ s: StaticString) {
        append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    // MARK: Values

    mutating func write(_ value: JSONValue, escapeLineTerminators: Bool) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let d): writeNumber(d)
        case .string(let s): writeString(s, escapeLineTerminators: escapeLineTerminators)
        case .array(let elements):
            append(UInt8(ascii: "["))
            var first = true
            for e in elements {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                write(e, escapeLineTerminators: escapeLineTerminators)
            }
            append(UInt8(ascii: "]"))
        case .object(let object):
            append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                Self.withKeyOrder(members) { order in
                    var first = true
                    for index in order {
                        if !first { append(UInt8(ascii: ",")) }
                        first = false
                        writeString(members[index].key, escapeLineTerminators: escapeLineTerminators)
                        append(UInt8(ascii: ":"))
                        write(members[index].value, escapeLineTerminators: escapeLineTerminators)
                    }
                }
            }
            append(UInt8(ascii: "}"))
        }
    }

    mutating func writePretty(_ value: JSONValue, indent: Int, _ options: JSONWriter.Options) {
        let escape = options.escapeLineTerminators
        switch value {
        case .array(let elements) where !elements.isEmpty:
            append(UInt8(ascii: "["))
            var first = true
            for e in elements {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                writePretty(e, indent: indent + 1, options)
            }
            newline(indent)
            append(UInt8(ascii: "]"))
        case .object(let object) where !object.members.isEmpty:
            append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                Self.withKeyOrder(members) { order in
                    var first = true
                    for index in order {
                        if !first { append(UInt8(ascii: ",")) }
                        first = false
                        newline(indent + 1)
                        writeString(members[index].key, escapeLineTerminators: escape)
                        append(": ")
                        writePretty(members[index].value, indent: indent + 1, options)
                    }
                }
            }
            newline(indent)
            append(UInt8(ascii: "}"))
        default:
            write(value, escapeLineTerminators: escape)
        }
    }

    private mutating func newline(_ indent: Int) {
        reserve(1 + 2 * indent)
        appendUnchecked(0x0A)
        for _ in 0..<(2 * indent) { appendUnchecked(0x20) }
    }

    // MARK: Numbers

    mutating func writeNumber(_ d: Double) {
        guard d.isFinite else {
            append("null")
            return
        }
        if d == d.rounded(.towardZero) && abs(d) < 1e16 {
            writeInteger(Int64(d))
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
    @inline(__always)
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

    @inline(__always)
    mutating func writeInteger(_ value: Int64) {
        reserve(20)
        var magnitude = value.magnitude
        if value < 0 { appendUnchecked(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, filled from the end
        let n = withUnsafeMutableBytes(of: &digits) { raw in
            var k = raw.count
            repeat {
                k -= 1
                raw[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            (base + count).update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + k, count: raw.count - k)
            return raw.count - k
        }
        count += n
    }

    // MARK: Strings

    mutating func writeString(_ s: String, escapeLineTerminators: Bool) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            writeString(utf8, escapeLineTerminators: escapeLineTerminators)
        }
        if done == nil {
            var copy = s
            copy.withUTF8 { writeString($0, escapeLineTerminators: escapeLineTerminators) }
        }
    }

    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>, escapeLineTerminators: Bool) {
        let n = utf8.count
        // Worst case every byte becomes \u00XX: reserve once, then write without checks.
        reserve(n * 6 + 2)
        appendUnchecked(UInt8(ascii: "\""))
        guard let source = utf8.baseAddress else {
            appendUnchecked(UInt8(ascii: "\""))
            return
        }
        var k = 0
        var runStart = 0
        // Eight bytes at a time while none needs escaping (non-ASCII counts when U+2028/9 are escaped).
        let attentionMask: UInt64 = escapeLineTerminators ? 0 : 0x8080_8080_8080_8080
        while k + 8 <= n {
            let word = UnsafeRawPointer(source + k).loadUnaligned(as: UInt64.self)
            if ByteParser.needsAttention(word, ignoringHighBit: attentionMask) { break }
            k += 8
        }
        while k < n {
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
        appendUnchecked(UInt8(ascii: "\""))
    }

    @inline(__always)
    private mutating func flush(_ source: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        let n = end &- start
        if n > 64 {
            (base + count).update(from: source + start, count: n)
        } else {
            // Short runs (most keys and enum-like values): word copies beat a call to memmove.
            let from = UnsafeRawPointer(source + start)
            let to = UnsafeMutableRawPointer(base + count)
            var k = 0
            while k &+ 8 <= n {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            while k < n {
                to.storeBytes(of: from.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self)
                k &+= 1
            }
        }
        count &+= n
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }

    // MARK: Key order

    /// Calls `body` with the member indices in key order, without sorting when they already are.
    /// Ties (equal keys) are ordered by position, so the result never depends on the sort's stability.
    @inline(__always)
    private static func withKeyOrder(
        _ members: UnsafeBufferPointer<JSONMember>, _ body: (UnsafeBufferPointer<Int>) -> Void
    ) {
        let n = members.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { order in
            var sorted = true
            for k in 0..<n {
                order.initializeElement(at: k, to: k)
                if k > 0 && sorted && compareUTF8(members[k].key, members[k - 1].key) < 0 { sorted = false }
            }
            if !sorted && n > 16 {
                // Large objects (a 1 MiB document can hold 100k keys): O(n log n), ties by position.
                var buffer = order
                buffer.sort { x, y in
                    let c = compareUTF8(members[x].key, members[y].key)
                    return c < 0 || (c == 0 && x < y)
                }
            } else if !sorted {
                // Insertion sort: objects are small, and this avoids a closure call per comparison.
                for k in 1..<n {
                    let index = order[k]
                    var j = k
                    while j > 0 && compareUTF8(members[index].key, members[order[j - 1]].key) < 0 {
                        order[j] = order[j - 1]
                        j -= 1
                    }
                    order[j] = index
                }
            }
            body(UnsafeBufferPointer(order))
        }
    }
}
