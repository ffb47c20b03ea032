/// Deterministic JSON writer: the same value always gives the same bytes (SPEC §1, §5).
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
        var encoder = Encoder(buffer: buffer, options: options)
        buffer = []  // hand the storage to the encoder without a copy
        if options.pretty {
            encoder.writePretty(value, indent: 0)
        } else {
            encoder.write(value)
        }
        buffer = encoder.buffer
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
        guard d.isFinite else {
            buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
            return
        }
        if d == d.rounded(.towardZero) && abs(d) < 1e16 {
            appendInteger(Int64(d), to: &buffer)
            return
        }
        // Swift's description is shortest round-trip: "0.1", "1e-05", "1e+21", "5e-324", "1.5e+300".
        // Drop leading zeros of the exponent so the text is the usual minimal form.
        let text = d.description
        var afterExponentSign = false
        var leadingZero = true
        for c in text.utf8 {
            if afterExponentSign {
                if leadingZero && c == UInt8(ascii: "0") { continue }
                leadingZero = false
            }
            buffer.append(c)
            if c == UInt8(ascii: "+") || c == UInt8(ascii: "-"), buffer.count >= 2,
                buffer[buffer.count - 2] == UInt8(ascii: "e")
            {
                afterExponentSign = true
            }
        }
    }

    @inline(__always)
    static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        let start = buffer.count
        while magnitude > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        buffer[start...].reverse()
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func appendString(_ s: String, to buffer: inout [UInt8], escapeLineTerminators: Bool = false) {
        var s = s
        s.withUTF8 { utf8 in appendString(utf8, to: &buffer, escapeLineTerminators: escapeLineTerminators) }
    }

    static func appendString(
        _ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8], escapeLineTerminators: Bool
    ) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var k = 0
        let n = utf8.count
        while k < n {
            let c = utf8[k]
            let escape: UInt8
            switch c {
            case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case 0x08: escape = UInt8(ascii: "b")
            case 0x0C: escape = UInt8(ascii: "f")
            case 0..<0x20: escape = UInt8(ascii: "u")
            case 0xE2 where escapeLineTerminators && k + 2 < n && utf8[k + 1] == 0x80
                && (utf8[k + 2] == 0xA8 || utf8[k + 2] == 0xA9):
                flush(utf8, from: runStart, to: k, into: &buffer)
                buffer.append(contentsOf: utf8[k + 2] == 0xA8 ? lineSeparatorEscape : paragraphSeparatorEscape)
                k += 3
                runStart = k
                continue
            default:
                k += 1
                continue
            }
            flush(utf8, from: runStart, to: k, into: &buffer)
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(escape)
            if escape == UInt8(ascii: "u") {
                buffer.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0")])
                buffer.append(hexDigit(c >> 4))
                buffer.append(hexDigit(c & 0xF))
            }
            k += 1
            runStart = k
        }
        flush(utf8, from: runStart, to: n, into: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    private static let lineSeparatorEscape: [UInt8] = Array("\\u2028".utf8)
    private static let paragraphSeparatorEscape: [UInt8] = Array("\\u2029".utf8)

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }

    @inline(__always)
    private static func flush(
        _ utf8: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into buffer: inout [UInt8]
    ) {
        if end > start { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end])) }
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes (= Unicode scalar order).
    @inline(__always)
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = min(pa.count, pb.count)
                if n > 0 {
                    let r = memcmpBytes(pa.baseAddress!, pb.baseAddress!, n)
                    if r != 0 { return r < 0 }
                }
                return pa.count < pb.count
            }
        }
    }

    @inline(__always)
    private static func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var k = 0
        while k < n {
            if a[k] != b[k] { return a[k] < b[k] ? -1 : 1 }
            k += 1
        }
        return 0
    }
}

extension JSONWriter {
    struct Encoder {
        var buffer: [UInt8]
        let options: Options

        mutating func write(_ value: JSONValue) {
            switch value {
            case .null: buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            case .bool(true): buffer.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
            case .bool(false): buffer.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
            case .number(let d): JSONWriter.appendNumber(d, to: &buffer)
            case .string(let s): writeString(s)
            case .array(let elements):
                buffer.append(UInt8(ascii: "["))
                var first = true
                for e in elements {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    write(e)
                }
                buffer.append(UInt8(ascii: "]"))
            case .object(let object):
                buffer.append(UInt8(ascii: "{"))
                let members = object.members
                Self.withSortedOrder(members) { order in
                    var first = true
                    for index in order {
                        if !first { buffer.append(UInt8(ascii: ",")) }
                        first = false
                        writeString(members[index].key)
                        buffer.append(UInt8(ascii: ":"))
                        write(members[index].value)
                    }
                }
                buffer.append(UInt8(ascii: "}"))
            }
        }

        mutating func writePretty(_ value: JSONValue, indent: Int) {
            switch value {
            case .array(let elements) where !elements.isEmpty:
                buffer.append(UInt8(ascii: "["))
                var first = true
                for e in elements {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    newline(indent + 1)
                    writePretty(e, indent: indent + 1)
                }
                newline(indent)
                buffer.append(UInt8(ascii: "]"))
            case .object(let object) where !object.members.isEmpty:
                buffer.append(UInt8(ascii: "{"))
                let members = object.members
                Self.withSortedOrder(members) { order in
                    var first = true
                    for index in order {
                        if !first { buffer.append(UInt8(ascii: ",")) }
                        first = false
                        newline(indent + 1)
                        writeString(members[index].key)
                        buffer.append(UInt8(ascii: ":"))
                        buffer.append(UInt8(ascii: " "))
                        writePretty(members[index].value, indent: indent + 1)
                    }
                }
                newline(indent)
                buffer.append(UInt8(ascii: "}"))
            default:
                write(value)
            }
        }

        @inline(__always)
        private mutating func newline(_ indent: Int) {
            buffer.append(0x0A)
            for _ in 0..<(indent * 2) { buffer.append(0x20) }
        }

        @inline(__always)
        private mutating func writeString(_ s: String) {
            var s = s
            let escape = options.escapeLineTerminators
            s.withUTF8 { JSONWriter.appendString($0, to: &buffer, escapeLineTerminators: escape) }
        }

        /// Calls `body` with the member indices in key order, without sorting when they already are.
        @inline(__always)
        private static func withSortedOrder(_ members: [JSONMember], _ body: (UnsafeBufferPointer<Int>) -> Void) {
            let n = members.count
            withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { (order: UnsafeMutableBufferPointer<Int>) in
                var order = order
                var sorted = true
                for k in 0..<n {
                    order.initializeElement(at: k, to: k)
                    if k > 0 && sorted && JSONWriter.keyPrecedes(members[k].key, members[k - 1].key) { sorted = false }
                }
                if !sorted {
                    // Ties (equal keys) are ordered by position, so the result never depends on the sort's stability.
                    order.sort { x, y in
                        let kx = members[x].key
                        let ky = members[y].key
                        if JSONWriter.keyPrecedes(kx, ky) { return true }
                        if JSONWriter.keyPrecedes(ky, kx) { return false }
                        return x < y
                    }
                }
                body(UnsafeBufferPointer(order))
            }
        }
    }
}
