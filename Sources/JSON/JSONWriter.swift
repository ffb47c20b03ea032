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
        out.writeNumber(d)
        buffer.append(contentsOf: out.bytes)
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func appendString(_ s: String, to buffer: inout [UInt8], escapeLineTerminators: Bool = false) {
        var out = ByteSink(capacity: s.utf8.count + 16)
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

/// Writing `JSONValue` trees (the sink's numbers and strings, objects in key order).
extension ByteSink {
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
