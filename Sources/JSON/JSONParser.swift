/// Strict RFC 8259 parser: bytes in, `JSONValue` out, or a `JSONParseError` that says where and why.
///
/// Choices where the RFC leaves room (§9):
/// - Duplicate object keys are rejected (compared by code points, not by canonical equivalence).
/// - Numbers become `Double`, correctly rounded; integers up to 2^53 are exact. A number whose magnitude
///   overflows a finite Double (`1e400`) is rejected; one that underflows (`1e-400`) becomes 0 (or a
///   subnormal), as IEEE 754 rounding says. `NaN`/`Infinity` are not JSON and are rejected.
/// - Text must be well-formed UTF-8 (overlong forms, encoded surrogates, bytes above U+10FFFF rejected).
///   A leading byte order mark is rejected.
/// - An escaped lone surrogate (`"\uD800"`, `"\uDC00"`) is rejected: a Swift `String` cannot hold one, and
///   replacing it with U+FFFD would silently change the data.
/// - Nesting deeper than `Options.maxDepth` and documents larger than `Options.maxSize` are rejected.
///
/// No input makes it trap, recurse without bound, or take more than linear time (duplicate-key checks on
/// large objects are hashed).
public enum JSONParser {
    public struct Options: Sendable, Equatable {
        /// Most levels of nested arrays and objects; `[]` is depth 1. Default 64; capped at `maxDepthCeiling`
        /// because the parser recurses once per level.
        public var maxDepth: Int
        /// Largest accepted document in bytes. Default 1 MiB.
        public var maxSize: Int
        /// Reject an object that repeats a key (default). RFC 8259 §4 only says names SHOULD be unique, so
        /// grammar-only checks (JSONTestSuite's `y_object_duplicated_key`) turn this off; then the last
        /// occurrence wins, in the position of the first, as in JavaScript.
        public var rejectDuplicateKeys: Bool

        public static let maxDepthCeiling = 512

        public init(maxDepth: Int = 64, maxSize: Int = 1 << 20, rejectDuplicateKeys: Bool = true) {
            self.maxDepth = maxDepth
            self.maxSize = maxSize
            self.rejectDuplicateKeys = rejectDuplicateKeys
        }

        public static let `default` = Options()
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, options: Options = .default) throws(JSONParseError)
        -> JSONValue
    {
        let result: Result<JSONValue, JSONParseError> = parseResult(bytes, options: options)
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8], options: Options = .default) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { parseResult($0, options: options) }
        return try result.get()
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, options: Options = .default) throws(JSONParseError)
        -> JSONValue
    {
        let result = bytes.withUnsafeBytes { parseResult($0, options: options) }
        return try result.get()
    }

    public static func parse(_ text: String, options: Options = .default) throws(JSONParseError) -> JSONValue {
        let direct = text.utf8.withContiguousStorageIfAvailable {
            parseResult(UnsafeRawBufferPointer($0), options: options)
        }
        if let direct { return try direct.get() }
        return try parse(Array(text.utf8), options: options)
    }

    static func parseResult(_ bytes: UnsafeRawBufferPointer, options: Options) -> Result<JSONValue, JSONParseError> {
        guard bytes.count <= options.maxSize else {
            return .failure(
                JSONParseError(
                    reason: .sizeLimitExceeded(limit: options.maxSize, size: bytes.count), offset: 0, line: 1,
                    column: 1))
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            return .failure(JSONParseError(reason: .unexpectedEnd(expected: "a value"), offset: 0, line: 1, column: 1))
        }
        let depth = min(max(options.maxDepth, 0), Options.maxDepthCeiling)
        var parser = ByteParser(
            base: base, end: bytes.count, maxDepth: depth, rejectDuplicateKeys: options.rejectDuplicateKeys)
        do throws(ByteParser.Failure) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error.located(in: UnsafeBufferPointer(start: base, count: bytes.count)))
        }
    }
}

/// The parsing state over one contiguous buffer. Positions are byte indices into `base`.
struct ByteParser {
    struct Failure: Error {
        var reason: JSONParseError.Reason
        var offset: Int

        func located(in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
            var line = 1
            var lineStart = 0
            let stop = min(offset, bytes.count)
            var i = 0
            while i < stop {
                if bytes[i] == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
            var column = 1
            i = lineStart
            while i < stop {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return JSONParseError(reason: reason, offset: offset, line: line, column: column)
        }
    }

    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    let rejectDuplicateKeys: Bool
    var i = 0
    /// Reused for strings with escapes, so that only the final `String` is allocated.
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int, rejectDuplicateKeys: Bool) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    mutating func parseDocument() throws(Failure) -> JSONValue {
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            throw Failure(reason: .byteOrderMark, offset: 0)
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if i < end { throw unexpected(expected: "end of input") }
        return value
    }

    // MARK: - Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i += 1
        }
    }

    mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a value"), offset: i) }
        switch base[i] {
        case UInt8(ascii: "\""):
            i += 1
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw unexpected(expected: "a value")
        }
    }

    mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        if depth > maxDepth { throw Failure(reason: .depthLimitExceeded(limit: maxDepth), offset: i) }
        i += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a value or ']'"), offset: i) }
        if base[i] == UInt8(ascii: "]") {
            i += 1
            return .array(elements)
        }
        elements.reserveCapacity(4)  // skips the 1→2→4 growth steps of small arrays
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "',' or ']'"), offset: i) }
            let c = base[i]
            i += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "]") { return .array(elements) }
            i -= 1
            throw unexpected(expected: "',' or ']'")
        }
    }

    mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        if depth > maxDepth { throw Failure(reason: .depthLimitExceeded(limit: maxDepth), offset: i) }
        i += 1  // {
        skipWhitespace()
        var members: [JSONMember] = []
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a string key or '}'"), offset: i) }
        if base[i] == UInt8(ascii: "}") {
            i += 1
            return .object(JSONObject(members))
        }
        if base[i] != UInt8(ascii: "\"") { throw unexpected(expected: "a string key or '}'") }
        members.reserveCapacity(8)
        // Duplicate detection: a linear scan while the object is small, a hash of the UTF-8 keys beyond.
        var seen: [[UInt8]: Int]? = nil
        while true {
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a string key"), offset: i) }
            guard base[i] == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let keyOffset = i
            i += 1
            let key = try parseString()
            let duplicate = indexOf(key, in: members, seen: &seen)
            if duplicate != nil && rejectDuplicateKeys {
                throw Failure(reason: .duplicateKey(key), offset: keyOffset)
            }
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "':'"), offset: i) }
            guard base[i] == UInt8(ascii: ":") else { throw unexpected(expected: "':' after the key") }
            i += 1
            let value = try parseValue(depth: depth)
            if let duplicate {
                members[duplicate].value = value
            } else {
                members.append(JSONMember(key, value))
            }
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "',' or '}'"), offset: i) }
            let c = base[i]
            i += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "}") { return .object(JSONObject(members)) }
            i -= 1
            throw unexpected(expected: "',' or '}'")
        }
    }

    private static let linearDuplicateScanLimit = 16

    /// The index of the member named `key`, if any (keys compared by Unicode scalars).
    @inline(__always)
    private func indexOf(_ key: String, in members: [JSONMember], seen: inout [[UInt8]: Int]?) -> Int? {
        if members.count < Self.linearDuplicateScanLimit {
            for k in members.indices where sameScalars(members[k].key, key) { return k }
            return nil
        }
        if seen == nil {
            var index = [[UInt8]: Int](minimumCapacity: members.count * 2)
            for (k, m) in members.enumerated() { index[Array(m.key.utf8)] = k }
            seen = index
        }
        let bytes = Array(key.utf8)
        if let k = seen![bytes] { return k }
        seen![bytes] = members.count
        return nil
    }

    /// Equal code points. `==` alone would also match canonically equivalent keys ("é" and "e\u{301}"), but it
    /// is the fast test (bitwise for small strings, memcmp for ASCII), so it filters before the byte check.
    @inline(__always)
    private func sameScalars(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b && a.utf8.elementsEqual(b.utf8)
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n {
            guard i + k < end else {
                throw Failure(reason: .unexpectedEnd(expected: "'\(word)'"), offset: i + k)
            }
            if base[i + k] != w[k] {
                i += k
                throw unexpected(expected: "'\(word)'")
            }
        }
        i += n
    }

    // MARK: - Numbers

    /// Exact powers of ten: `m * 10^e` or `m / 10^e` with m ≤ 2^53 and e ≤ 22 is one correctly rounded
    /// operation (Clinger's fast path), so most real-world numbers never reach the slow path.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(Failure) -> Double {
        let start = i
        var negative = false
        if base[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var overflow = false
        var exponent = 0

        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a digit"), offset: i) }
        let first = base[i]
        if first == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(base[i]) {
                throw Failure(reason: .invalidNumber("leading zeros are not allowed"), offset: start)
            }
        } else if isDigit(first) {
            while i < end, isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, overflow: &overflow)
                i += 1
            }
        } else {
            throw unexpected(expected: "a digit")
        }

        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end else {
                throw Failure(reason: .unexpectedEnd(expected: "a digit after the decimal point"), offset: i)
            }
            guard isDigit(base[i]) else { throw unexpected(expected: "a digit after the decimal point") }
            while i < end, isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, overflow: &overflow)
                exponent -= 1
                i += 1
            }
        }

        if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            var exponentNegative = false
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end else {
                throw Failure(reason: .unexpectedEnd(expected: "a digit in the exponent"), offset: i)
            }
            guard isDigit(base[i]) else { throw unexpected(expected: "a digit in the exponent") }
            var e = 0
            while i < end, isDigit(base[i]) {
                if e < 1_000_000 { e = e * 10 + Int(base[i] &- UInt8(ascii: "0")) }  // saturate; slow path decides
                i += 1
            }
            exponent += exponentNegative ? -e : e
        }

        if !overflow && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var d = Double(mantissa)
            if exponent < 0 {
                d /= Self.exactPowersOfTen[-exponent]
            } else if exponent > 0 {
                d *= Self.exactPowersOfTen[exponent]
            }
            return negative ? -d : d
        }
        return try slowNumber(from: start)
    }

    /// Correctly rounded conversion of the validated text (`Double(_:)` is strtod in the C locale).
    private func slowNumber(from start: Int) throws(Failure) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            let shown = text.utf8.count > 40 ? String(text.prefix(37)) + "..." : text
            throw Failure(reason: .numberOutOfRange(shown), offset: start)
        }
        return d
    }

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private func accumulate(_ c: UInt8, into mantissa: inout UInt64, overflow: inout Bool) {
        if mantissa < 1_000_000_000_000_000_000 {
            mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
        } else {
            overflow = true
        }
    }

    // MARK: - Strings

    /// Parses the rest of a string; `i` is just after the opening quote and ends just after the closing one.
    mutating func parseString() throws(Failure) -> String {
        let start = i
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control or non-ASCII byte; then straight
            // to the first byte that is (the lowest flagged byte of the mask is exact).
            while i + 8 <= end {
                let mask = Self.attentionMask(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                if mask != 0 {
                    i += mask.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < end else { break }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                let n = i - start
                let from = base + start
                // Copies the (already validated) bytes into the new string's own storage.
                let s = String(unsafeUninitializedCapacity: n) { buffer in
                    guard let to = buffer.baseAddress else { return 0 }
                    to.update(from: from, count: n)
                    return n
                }
                i += 1
                return s
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

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

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

    /// The slow path: copies the string into `scratch`, decoding escapes.
    private mutating func parseEscapedString(from start: Int) throws(Failure) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
        while i < end {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") {
                try parseEscape()
            } else if c < 0x20 {
                throw Failure(reason: .controlCharacterInString(c), offset: i)
            } else if c < 0x80 {
                scratch.append(c)
                i += 1
            } else {
                let s = i
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + s, count: i - s))
            }
        }
        throw Failure(reason: .unexpectedEnd(expected: "'\"' to close the string"), offset: i)
    }

    private mutating func parseEscape() throws(Failure) {
        let escapeStart = i
        i += 1  // backslash
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "an escape character"), offset: i) }
        let c = base[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
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
    private mutating func hexQuad(escapeStart: Int) throws(Failure) -> UInt16 {
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
    private func describeEscape(at start: Int) -> String {
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
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (Unicode Table 3-7) and steps over it.
    @inline(__always)
    private mutating func skipUTF8Sequence() throws(Failure) {
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
            throw Failure(reason: .invalidUTF8(lead), offset: i)
        }
        // Any defect in the sequence (truncated, bad continuation, overlong, surrogate) is reported at its lead.
        guard i + count < end else { throw Failure(reason: .invalidUTF8(lead), offset: i) }
        let second = base[i + 1]
        guard second >= low && second <= high else { throw Failure(reason: .invalidUTF8(lead), offset: i) }
        var k = 2
        while k <= count {
            guard base[i + k] & 0xC0 == 0x80 else { throw Failure(reason: .invalidUTF8(lead), offset: i) }
            k += 1
        }
        i += count + 1
    }

    // MARK: - Errors

    /// An "unexpected character" failure at `i`, describing the character found there.
    private func unexpected(expected: String) -> Failure {
        guard i < end else { return Failure(reason: .unexpectedEnd(expected: expected), offset: i) }
        let c = base[i]
        let found: String
        switch c {
        case 0x21..<0x7F:
            found = "'\(Character(Unicode.Scalar(c)))'"
        case 0..<0x20, 0x7F:
            found = "U+\(hex4(UInt16(c)))"
        default:
            // Decode the scalar for the message when it is well formed; otherwise report the bad byte.
            var iterator = UnsafeBufferPointer(start: base + i, count: min(4, end - i)).makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let s) = decoder.decode(&iterator) {
                let hex = String(s.value, radix: 16, uppercase: true)
                found = "'\(Character(s))' (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
            } else {
                return Failure(reason: .invalidUTF8(c), offset: i)
            }
        }
        return Failure(reason: .unexpectedCharacter(found: found, expected: expected), offset: i)
    }
}
