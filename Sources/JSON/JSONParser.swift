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
        try document(Array(bytes), options: options).root.value
    }

    public static func parse(_ bytes: [UInt8], options: Options = .default) throws(JSONParseError) -> JSONValue {
        try document(bytes, options: options).root.value
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, options: Options = .default) throws(JSONParseError)
        -> JSONValue
    {
        try document(Array(bytes), options: options).root.value
    }

    public static func parse(_ text: String, options: Options = .default) throws(JSONParseError) -> JSONValue {
        try document(Array(text.utf8), options: options).root.value
    }

    /// The validated document, flat (see `JSONDocument`): what the mapping layer reads without building a
    /// `JSONValue` tree. `parse` is this followed by `root.value`.
    public static func document(_ bytes: [UInt8], options: Options = .default) throws(JSONParseError) -> JSONDocument {
        guard bytes.count <= options.maxSize, bytes.count <= JSONDocument.maxBytes else {
            throw JSONParseError(
                reason: .sizeLimitExceeded(limit: min(options.maxSize, JSONDocument.maxBytes), size: bytes.count),
                offset: 0, line: 1, column: 1)
        }
        let result: Result<JSONDocument, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return .failure(
                    JSONParseError(reason: .unexpectedEnd(expected: "a value"), offset: 0, line: 1, column: 1))
            }
            let depth = min(max(options.maxDepth, 0), Options.maxDepthCeiling)
            var parser = ByteParser(
                base: base, end: buffer.count, maxDepth: depth, rejectDuplicateKeys: options.rejectDuplicateKeys)
            do throws(ByteParser.Failure) {
                try parser.parseDocument()
            } catch {
                parser.nodeBase.deallocate()
                return .failure(error.located(in: buffer))
            }
            return .success(
                JSONDocument(
                    input: buffer, decoded: parser.decoded,
                    nodes: UnsafeMutableBufferPointer(start: parser.nodeBase, count: parser.nodeCount),
                    keysMayRepeat: !options.rejectDuplicateKeys))
        }
        return try result.get()
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
    /// The document's nodes in document order (see `JSONDocument`), `nodeCount` of them in a buffer of
    /// `nodeCapacity`: the caller hands the buffer to the document, or frees it when parsing fails. (Nodes are
    /// plain values; a raw buffer spares each append the uniqueness and bounds checks of an array.)
    var nodeBase: UnsafeMutablePointer<JSONDocument.Node>
    var nodeCount = 0
    var nodeCapacity: Int
    /// The text of strings that had escapes, decoded; their nodes point here (`escapedString`).
    var decoded: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int, rejectDuplicateKeys: Bool) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
        self.rejectDuplicateKeys = rejectDuplicateKeys
        // About one node per 6 bytes in scene-like documents; the buffer grows if needed.
        nodeCapacity = end / 6 + 8
        nodeBase = .allocate(capacity: nodeCapacity)
    }

    @inline(__always)
    private mutating func append(_ node: JSONDocument.Node) {
        if nodeCount == nodeCapacity { growNodes() }
        (nodeBase + nodeCount).initialize(to: node)
        nodeCount += 1
    }

    private mutating func growNodes() {
        let bigger = UnsafeMutablePointer<JSONDocument.Node>.allocate(capacity: nodeCapacity * 2)
        bigger.moveInitialize(from: nodeBase, count: nodeCount)
        nodeBase.deallocate()
        nodeBase = bigger
        nodeCapacity *= 2
    }

    mutating func parseDocument() throws(Failure) {
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            throw Failure(reason: .byteOrderMark, offset: 0)
        }
        try parseValue(depth: 0)
        skipWhitespace()
        if i < end { throw unexpected(expected: "end of input") }
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

    mutating func parseValue(depth: Int) throws(Failure) {
        skipWhitespace()
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a value"), offset: i) }
        switch base[i] {
        case UInt8(ascii: "\""):
            i += 1
            try parseString()
        case UInt8(ascii: "{"):
            try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            append(JSONDocument.Node(number: try parseNumber()))
        case UInt8(ascii: "t"):
            try literal("true")
            append(JSONDocument.Node(kind: .true))
        case UInt8(ascii: "f"):
            try literal("false")
            append(JSONDocument.Node(kind: .false))
        case UInt8(ascii: "n"):
            try literal("null")
            append(JSONDocument.Node(kind: .null))
        default:
            throw unexpected(expected: "a value")
        }
    }

    /// Sets the element/member count and the end of the container node at `index`, once its content is parsed.
    @inline(__always)
    private mutating func close(_ index: Int, count: Int) {
        nodeBase[index].a = Int32(truncatingIfNeeded: count)
        nodeBase[index].b = Int32(truncatingIfNeeded: nodeCount)
    }

    mutating func parseArray(depth: Int) throws(Failure) {
        if depth > maxDepth { throw Failure(reason: .depthLimitExceeded(limit: maxDepth), offset: i) }
        i += 1  // [
        let at = nodeCount
        append(JSONDocument.Node(kind: .array))
        skipWhitespace()
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a value or ']'"), offset: i) }
        if base[i] == UInt8(ascii: "]") {
            i += 1
            close(at, count: 0)
            return
        }
        var count = 0
        while true {
            try parseValue(depth: depth)
            count += 1
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "',' or ']'"), offset: i) }
            let c = base[i]
            i += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "]") {
                close(at, count: count)
                return
            }
            i -= 1
            throw unexpected(expected: "',' or ']'")
        }
    }

    mutating func parseObject(depth: Int) throws(Failure) {
        if depth > maxDepth { throw Failure(reason: .depthLimitExceeded(limit: maxDepth), offset: i) }
        i += 1  // {
        let at = nodeCount
        append(JSONDocument.Node(kind: .object))
        skipWhitespace()
        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a string key or '}'"), offset: i) }
        if base[i] == UInt8(ascii: "}") {
            i += 1
            close(at, count: 0)
            return
        }
        if base[i] != UInt8(ascii: "\"") { throw unexpected(expected: "a string key or '}'") }
        // Duplicate detection: a linear scan while the object is small, a hash of the keys' bytes beyond.
        var seen: Set<[UInt8]>? = nil
        var count = 0
        while true {
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a string key"), offset: i) }
            guard base[i] == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let keyOffset = i
            i += 1
            try parseString()
            let key = nodeCount - 1
            if rejectDuplicateKeys && isDuplicate(key, object: at, members: count, seen: &seen) {
                throw Failure(reason: .duplicateKey(keyText(key)), offset: keyOffset)
            }
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "':'"), offset: i) }
            guard base[i] == UInt8(ascii: ":") else { throw unexpected(expected: "':' after the key") }
            i += 1
            try parseValue(depth: depth)
            nodeBase[key].c = Int32(truncatingIfNeeded: nodeCount)
            count += 1
            skipWhitespace()
            guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "',' or '}'"), offset: i) }
            let c = base[i]
            i += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "}") {
                close(at, count: count)
                return
            }
            i -= 1
            throw unexpected(expected: "',' or '}'")
        }
    }

    private static let linearDuplicateScanLimit = 16

    /// The bytes of the text of string node `index` (the input between the quotes, or its decoded copy).
    @inline(__always)
    private func withKeyBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = nodeBase[index]
        if n.kind == .escapedString {
            return decoded.withUnsafeBufferPointer {
                body(UnsafeBufferPointer(rebasing: $0[Int(n.a)..<Int(n.a) + Int(n.b)]))
            }
        }
        return body(UnsafeBufferPointer(start: base + Int(n.a), count: Int(n.b)))
    }

    private func keyText(_ index: Int) -> String { withKeyBytes(index) { String(decoding: $0, as: UTF8.self) } }

    /// Whether key node `key` repeats one of the `members` keys already parsed in the object at node `object`:
    /// same code points, that is the same bytes of well-formed UTF-8. The earlier keys are reached through
    /// their `c` links; the lengths decide most comparisons.
    private func isDuplicate(_ key: Int, object: Int, members: Int, seen: inout Set<[UInt8]>?) -> Bool {
        let n = nodeBase[key]
        if members < Self.linearDuplicateScanLimit {
            var k = object + 1
            for _ in 0..<members {
                let m = nodeBase[k]
                if m.b == n.b, withKeyBytes(key, { a in withKeyBytes(k) { b in a.elementsEqual(b) } }) { return true }
                k = Int(m.c)
            }
            return false
        }
        if seen == nil {
            var set = Set<[UInt8]>(minimumCapacity: members * 2)
            var k = object + 1
            for _ in 0..<members {
                set.insert(withKeyBytes(k) { Array($0) })
                k = Int(nodeBase[k].c)
            }
            seen = set
        }
        return !seen!.insert(withKeyBytes(key) { Array($0) }).inserted
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

    /// Parses the rest of a string into a string node; `i` is just after the opening quote and ends just after
    /// the closing one.
    mutating func parseString() throws(Failure) {
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

    /// The slow path: copies the string into `decoded`, decoding escapes, and adds its node.
    private mutating func parseEscapedString(from start: Int) throws(Failure) {
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

    private mutating func parseEscape() throws(Failure) {
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
