#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a JSON text front to back without building anything: the way in of a one-pass decoder (the
/// scene's, in LayoutEngine), which asks for each value as it comes.
///
/// It reads a strict subset of what `JSONParser` accepts and turns `failed` at the first thing outside it: a
/// syntax error, ill-formed UTF-8, a number the parser would reject, but also any string with an escape, a
/// document over the parser's default size, or a byte order mark. Within the subset a value is exactly what
/// the parser makes of it: a string is its bytes (UTF-8 checked by the parser's own rule,
/// `ByteParser.utf8SequenceLength`), a number goes through the parser's own conversion (`NumberScanner`).
/// So a caller that gives up on `failed` and hands the bytes to the parser never reads a document
/// differently from it.
///
/// `failed` is sticky: once set, every call answers nil or false and reads nothing, so a decoder may check it
/// once at the end. `null` reads as absent: the getters answer nil for it without failing.
public struct JSONStreamReader {
    let base: UnsafePointer<UInt8>
    let end: Int
    var i = 0
    public private(set) var failed = false
    /// Whether the last string read had a byte above 0x7F (then its length in characters is not its length in
    /// bytes).
    public private(set) var lastStringIsASCII = true

    /// A reader of `bytes`, which must stay valid while it reads.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        if Self.reads(bytes), let start = bytes.baseAddress {
            base = start
            end = bytes.count
        } else {
            base = UnsafePointer(bitPattern: 1)!
            end = 0
            failed = true
        }
    }

    /// Whether a reader of `bytes` reads them at all: not when they are empty, larger than the parser's default
    /// size, or hold a backslash (an escape, or a syntax error), which would make it give up at the first one
    /// and lose the work up to there (`memchr` looks at a request's bytes in a few dozen cycles).
    public static func reads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress, bytes.count > 0, bytes.count <= JSONParser.Options.default.maxSize
        else { return false }
        return memchr(start, Int32(UInt8(ascii: "\\")), bytes.count) == nil
    }

    /// Gives up: the document is not one this reader's caller takes.
    public mutating func fail() { failed = true }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i &+= 1
        }
    }

    /// The next byte after whitespace, not consumed (0 at the end or after a failure).
    @inline(__always)
    public mutating func peek() -> UInt8 {
        guard !failed else { return 0 }
        skipWhitespace()
        return i < end ? base[i] : 0
    }

    /// Consumes `null` when it is the next value.
    @inline(__always)
    mutating func null() -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        literal(0x6C6C_756E, 4)  // "null"
        return true
    }

    /// Consumes the `count`-byte literal whose bytes are `word` (first byte lowest), or fails.
    @inline(__always)
    mutating func literal(_ word: UInt64, _ count: Int) {
        var w = word
        for k in 0..<count {
            guard i &+ k < end, base[i &+ k] == UInt8(truncatingIfNeeded: w) else {
                failed = true
                return
            }
            w >>= 8
        }
        i &+= count
    }

    // MARK: Containers

    /// Opens the object that is the next value: true. `null`: false. Anything else fails.
    public mutating func beginObject() -> Bool { begin(UInt8(ascii: "{")) }

    /// Opens the array that is the next value: true. `null`: false. Anything else fails.
    public mutating func beginArray() -> Bool { begin(UInt8(ascii: "[")) }

    /// Consumes `open` when it is the next byte: true. `null`: false. Anything else fails.
    @inline(__always)
    mutating func begin(_ open: UInt8) -> Bool {
        if null() { return false }
        guard peek() == open else {
            failed = true
            return false
        }
        i &+= 1
        return true
    }

    /// The next member's key, its colon consumed (the value comes next), or nil at the object's end (consumed)
    /// or on failure. `first` is the caller's, true before the object's first member.
    public mutating func nextKey(_ first: inout Bool) -> UnsafeBufferPointer<UInt8>? {
        let c = peek()
        if c == UInt8(ascii: "}") {
            i &+= 1
            return nil
        }
        if !first {
            guard c == UInt8(ascii: ",") else {
                failed = true
                return nil
            }
            i &+= 1
            skipWhitespace()
        }
        first = false
        guard i < end, base[i] == UInt8(ascii: "\"") else {
            failed = true
            return nil
        }
        i &+= 1
        guard let key = plainString() else { return nil }
        guard peek() == UInt8(ascii: ":") else {
            failed = true
            return nil
        }
        i &+= 1
        return key
    }

    /// True when another element follows (its comma consumed); false at the array's end (consumed) or on
    /// failure. `first` is the caller's, true before the array's first element.
    public mutating func nextElement(_ first: inout Bool) -> Bool {
        let c = peek()
        if c == UInt8(ascii: "]") {
            i &+= 1
            return false
        }
        if first {
            first = false
            return !failed
        }
        guard c == UInt8(ascii: ",") else {
            failed = true
            return false
        }
        i &+= 1
        return true
    }

    /// True when only whitespace is left and nothing failed.
    public mutating func atEnd() -> Bool {
        guard !failed else { return false }
        skipWhitespace()
        return i == end
    }

    // MARK: Scalars

    /// The bytes of the string that is the next value (nil for `null`), valid while the input is.
    public mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
        if null() { return nil }
        guard peek() == UInt8(ascii: "\"") else {
            failed = true
            return nil
        }
        i &+= 1
        return plainString()
    }

    /// `bytes` (well-formed UTF-8, as this reader's strings are) as a String: copied into the new string's own
    /// storage, which costs less than `String(decoding:as:)` for the short strings of a request.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            guard let to = buffer.baseAddress, let from = bytes.baseAddress else { return 0 }
            to.update(from: from, count: bytes.count)
            return bytes.count
        }
    }

    /// The rest of a string whose opening quote is consumed, when it has no escape: eight bytes at a time up to
    /// the first byte that needs attention, which must be the closing quote or the start of a well-formed UTF-8
    /// sequence (stepped over). A control byte or a backslash fails.
    @inline(__always)
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        var k = start
        lastStringIsASCII = true
        while true {
            if k &+ 8 <= end {
                let mask = ByteParser.attentionMask(
                    UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)))
                if mask == 0 {
                    k &+= 8
                    continue
                }
                k &+= mask.trailingZeroBitCount &>> 3
            } else {
                while k < end, base[k] >= 0x20, base[k] < 0x80, base[k] != UInt8(ascii: "\""),
                    base[k] != UInt8(ascii: "\\")
                {
                    k &+= 1
                }
            }
            if k < end {
                let c = base[k]
                if c == UInt8(ascii: "\"") {
                    i = k &+ 1
                    return UnsafeBufferPointer(start: base + start, count: k &- start)
                }
                if c >= 0x80, let n = ByteParser.utf8SequenceLength(base, end, at: k) {
                    lastStringIsASCII = false
                    k &+= n
                    continue
                }
            }
            failed = true
            return nil
        }
    }

    /// The number that is the next value (nil for `null`), converted as the parser converts it.
    public mutating func number() -> Double? {
        if null() { return nil }
        let c = peek()
        guard c == UInt8(ascii: "-") || (c &- UInt8(ascii: "0")) < 10 else {
            failed = true
            return nil
        }
        var scanner = NumberScanner(base: base, end: end, i: i)
        do throws(ByteParser.Failure) {
            let d = try scanner.scan()
            i = scanner.i
            return d
        } catch {
            failed = true
            return nil
        }
    }

    /// The boolean that is the next value (nil for `null`).
    public mutating func bool() -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"):
            literal(0x6575_7274, 4)  // "true"
            return failed ? nil : true
        case UInt8(ascii: "f"):
            literal(0x65_736C_6166, 5)  // "false"
            return failed ? nil : false
        case UInt8(ascii: "n"):
            _ = null()
            return nil
        default:
            failed = true
            return nil
        }
    }
}
