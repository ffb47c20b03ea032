// Strings of the JSON text (RFC 8259 §7): validated UTF-8, escapes decoded into the document.
extension ByteParser {
    /// Parses the rest of a string into a string node; `i` is just after the opening quote and ends just after
    /// the closing one.
    ///
    /// In line: a string whose first flagged byte (see `attentionMask`) is its closing quote — printable ASCII
    /// without escapes, most keys and values — is found eight bytes at a time and added here. Any other string
    /// goes on in `parseStringSlowly` from its start.
    @inline(__always)
    mutating func parseString() throws(Failure) {
        let start = i
        var k = start
        while k &+ 8 <= end {
            let mask = Self.attentionMask(
                UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)))
            if mask != 0 {
                k &+= mask.trailingZeroBitCount &>> 3
                if base[k] == UInt8(ascii: "\"") {
                    append(JSONDocument.Node(string: start, length: k &- start, escaped: false))
                    i = k &+ 1
                    return
                }
                break
            }
            k &+= 8
        }
        try parseStringSlowly()
    }

    /// `parseString` for a string with escapes, non-ASCII or control bytes, or near the end of the input:
    /// validated byte by byte where needed. `i` is just after the opening quote.
    @inline(never)
    mutating func parseStringSlowly() throws(Failure) {
        let start = i
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control or non-ASCII byte; then straight
            // to the first byte that is (the lowest flagged byte of the mask is exact).
            while i + 8 <= end {
                let mask = Self.attentionMask(
                    UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                if mask != 0 {
                    i += mask.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < end else { break }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                append(JSONDocument.Node(string: start, length: i - start, escaped: false))
                i += 1
                return
            }
            if c == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if c < 0x20 { throw Failure(reason: .controlCharacterInString(c), offset: i) }
            if c < 0x80 {
                i += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw Failure(reason: .unexpectedEnd(expected: "'\"' to close the string"), offset: i)
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\\`, below 0x20 or above 0x7F — and
    /// possibly of bytes above such a byte (a borrow), never below the lowest one.
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is `"`, `\\`, below 0x20 or above 0x7F (classic SWAR zero-byte tests; a
    /// false positive only sends the chunk to the byte loop).
    /// `ignoringHighBit` = 0x8080… lets the writer pass non-ASCII bytes, which it copies unchanged.
    @inline(__always)
    static func needsAttention(_ word: UInt64, ignoringHighBit: UInt64 = 0) -> Bool {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | (word & ~ignoringHighBit)) & highs != 0
    }

    /// The slow path: copies the string into `decoded`, decoding escapes, and adds its node.
    mutating func parseEscapedString(from start: Int) throws(Failure) {
        let from = decoded.count
        decoded.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
        while i < end {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                append(JSONDocument.Node(string: from, length: decoded.count - from, escaped: true))
                return
            }
            if c == UInt8(ascii: "\\") {
                try parseEscape()
            } else if c < 0x20 {
                throw Failure(reason: .controlCharacterInString(c), offset: i)
            } else if c < 0x80 {
                decoded.append(c)
                i += 1
            } else {
                let s = i
                try skipUTF8Sequence()
                decoded.append(contentsOf: UnsafeBufferPointer(start: base + s, count: i - s))
            }
        }
        throw Failure(reason: .unexpectedEnd(expected: "'\"' to close the string"), offset: i)
    }

    mutating func parseEscape() throws(Failure) {
        let escapeStart = i
        i += 1  // backslash
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "an escape character"), offset: i) }
        let c = base[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""): decoded.append(0x22)
        case UInt8(ascii: "\\"): decoded.append(0x5C)
        case UInt8(ascii: "/"): decoded.append(0x2F)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: escapeStart)
            var scalar = UInt32(unit)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw Failure(reason: .unpairedSurrogate(unit), offset: escapeStart)
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 1 < end, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") else {
                    throw Failure(reason: .unpairedSurrogate(unit), offset: escapeStart)
                }
                let lowStart = i
                i += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw Failure(reason: .unpairedSurrogate(unit), offset: escapeStart)
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            i -= 1
            throw Failure(reason: .invalidEscape(describeEscape(at: escapeStart)), offset: escapeStart)
        }
    }

    /// Four hex digits after `\u`; `i` is at the first of them.
    mutating func hexQuad(escapeStart: Int) throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "4 hex digits after \\u"), offset: i) }
            let c = base[i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default:
                throw Failure(reason: .invalidEscape(describeEscape(at: escapeStart)), offset: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            i += 1
        }
        return value
    }

    /// The escape as written, for the message: `'\x'`, `'\u12G4'` (printable ASCII only, at most 6 bytes).
    func describeEscape(at start: Int) -> String {
        var text = ""
        var k = start
        while k < end && k < start + 6 {
            let c = base[k]
            guard c >= 0x20 && c < 0x7F, k == start || c != UInt8(ascii: "\\") else { break }
            text.unicodeScalars.append(Unicode.Scalar(c))
            if k == start + 1 && c != UInt8(ascii: "u") { break }
            k += 1
        }
        return "'\(text)'"
    }

    @inline(__always)
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            decoded.append(UInt8(scalar))
        case 0x80..<0x800:
            decoded.append(UInt8(0xC0 | scalar >> 6))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            decoded.append(UInt8(0xE0 | scalar >> 12))
            decoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        default:
            decoded.append(UInt8(0xF0 | scalar >> 18))
            decoded.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            decoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (Unicode Table 3-7) and steps over it.
    @inline(__always)
    mutating func skipUTF8Sequence() throws(Failure) {
        guard let n = Self.utf8SequenceLength(base, end, at: i) else {
            throw Failure(reason: .invalidUTF8(base[i]), offset: i)
        }
        i += n
    }

    /// The length of the well-formed multi-byte UTF-8 sequence at `i` of `base[0..<end]` (Unicode Table 3-7),
    /// or nil when it is not one (truncated, bad continuation, overlong, surrogate, above U+10FFFF): the
    /// parser's check and `JSONStreamReader`'s.
    @inline(__always)
    static func utf8SequenceLength(_ base: UnsafePointer<UInt8>, _ end: Int, at i: Int) -> Int? {
        let lead = base[i]
        var count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0  // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F  // no encoded surrogates
        case 0xF0:
            count = 3
            low = 0x90  // no overlong 4-byte forms
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F  // nothing above U+10FFFF
        default:
            return nil
        }
        // Any defect in the sequence (truncated, bad continuation, overlong, surrogate) is reported at its lead.
        guard i + count < end else { return nil }
        let second = base[i + 1]
        guard second >= low && second <= high else { return nil }
        var k = 2
        while k <= count {
            guard base[i + k] & 0xC0 == 0x80 else { return nil }
            k += 1
        }
        return count + 1
    }
}
