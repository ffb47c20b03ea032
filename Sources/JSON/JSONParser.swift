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
                PlainMemory.free(parser.nodeBase)
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
        nodeBase = PlainMemory.allocate(JSONDocument.Node.self, capacity: nodeCapacity)
    }

    @inline(__always)
    mutating func append(_ node: JSONDocument.Node) {
        if nodeCount == nodeCapacity { growNodes() }
        (nodeBase + nodeCount).initialize(to: node)
        nodeCount += 1
    }

    private mutating func growNodes() {
        let bigger = PlainMemory.allocate(JSONDocument.Node.self, capacity: nodeCapacity * 2)
        bigger.moveInitialize(from: nodeBase, count: nodeCount)
        PlainMemory.free(nodeBase)
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

    /// One value at `i` (after optional whitespace), added as its node(s). In line in its three callers: the
    /// recursion goes through `parseObject` and `parseArray`, and a scalar costs no call.
    @inline(__always)
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
            if rejectDuplicateKeys
                && (count >= Self.linearDuplicateScanLimit || hasKeyOfSameLength(as: key, object: at, members: count))
                && isDuplicate(key, object: at, members: count, seen: &seen)
            {
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

    /// Whether one of the `members` keys already parsed in the object at node `object` has as many bytes as key
    /// node `key`. The lengths, read from the nodes (reached through their `c` links), clear most keys of a
    /// small object without a call or a byte compared; `isDuplicate` decides the rest.
    @inline(__always)
    private func hasKeyOfSameLength(as key: Int, object: Int, members: Int) -> Bool {
        let length = nodeBase[key].b
        var k = object + 1
        var m = 0
        while m < members {
            let node = nodeBase[k]
            if node.b == length { return true }
            k = Int(node.c)
            m += 1
        }
        return false
    }

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

    // MARK: - Errors

    /// An "unexpected character" failure at `i`, describing the character found there.
    func unexpected(expected: String) -> Failure {
        Self.unexpected(base: base, end: end, at: i, expected: expected)
    }

    /// An "unexpected character" failure at `i` of `base[0..<end]`, describing the character found there.
    static func unexpected(base: UnsafePointer<UInt8>, end: Int, at i: Int, expected: String) -> Failure {
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
