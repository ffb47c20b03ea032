/// A parsed JSON document kept flat: one `Node` per value in document order, and the text of its strings as
/// bytes. The mapping layer (`ObjectReader`) reads requests from it directly: no `String` is made for a key,
/// no array or dictionary for a container, and a value becomes a Swift value only when a decoder asks for it.
/// `root.value` builds the `JSONValue` tree when a caller wants one (`JSONParser.parse` does).
///
/// Layout: a container node is followed by its content — an array by its elements, an object by each key
/// (a string node) followed by its value — and records its count and the index just past its last
/// descendant, so a reader steps over a member's value in one jump. Immutable once built.
public final class JSONDocument: @unchecked Sendable {
    // @unchecked Sendable: every stored property is set in an initialiser and never written again; the two
    // buffers are owned by this object and freed in deinit.

    /// Largest input a document can index (offsets are 32-bit); `JSONParser.Options.maxSize` is far below.
    public static let maxBytes = Int(Int32.max / 2)

    @usableFromInline
    struct Node {
        @usableFromInline
        enum Kind: UInt8 { case null, `false`, `true`, number, string, escapedString, array, object }
        @usableFromInline var kind: Kind
        /// string: offset of its text in `text`; container: number of elements or members.
        @usableFromInline var a: Int32 = 0
        /// string: length of its text in bytes; container: index of the first node after it and its content.
        @usableFromInline var b: Int32 = 0
        /// An object's key: index of the next key (or of the node after the object) — a reader walks the members
        /// without looking at their values.
        @usableFromInline var c: Int32 = 0
        /// number: the value.
        @usableFromInline var number: Double = 0

        init(kind: Kind) { self.kind = kind }
        init(number: Double) {
            kind = .number
            self.number = number
        }
        init(string offset: Int, length: Int, escaped: Bool) {
            kind = escaped ? .escapedString : .string
            a = Int32(truncatingIfNeeded: offset)
            b = Int32(truncatingIfNeeded: length)
        }

        @inlinable var isContainer: Bool { kind == .array || kind == .object }
    }

    /// The input bytes followed by the decoded text of strings that had escapes.
    @usableFromInline let text: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline let nodes: UnsafeMutableBufferPointer<Node>
    /// The parser was told to accept repeated keys: `value` merges them.
    let keysMayRepeat: Bool

    /// From a parse: `input` is copied, `nodes` is taken over (from `PlainMemory`, freed with the document), and
    /// `escapedString` offsets (into `decoded`) are moved past the input.
    init(
        input: UnsafeBufferPointer<UInt8>, decoded: [UInt8], nodes parsed: UnsafeMutableBufferPointer<Node>,
        keysMayRepeat: Bool
    ) {
        self.keysMayRepeat = keysMayRepeat
        text = UnsafeMutableBufferPointer(
            start: PlainMemory.allocate(UInt8.self, capacity: input.count + decoded.count),
            count: input.count + decoded.count)
        _ = text.initialize(from: input)
        if !decoded.isEmpty {
            _ = UnsafeMutableBufferPointer(rebasing: text[input.count...]).initialize(from: decoded)
        }
        nodes = parsed
        if !decoded.isEmpty {
            let shift = Int32(truncatingIfNeeded: input.count)
            for k in nodes.indices where nodes[k].kind == .escapedString { nodes[k].a += shift }
        }
    }

    /// The document of a value tree (decoders read trees this way: the CLI's overrides, the matrix, tests).
    public init(_ value: JSONValue) {
        var builder = TreeFlattener()
        builder.add(value)
        keysMayRepeat = false
        text = Self.copy(builder.text)
        nodes = Self.copy(builder.nodes)
    }

    /// `values` in a buffer from `PlainMemory`.
    private static func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer(
            start: PlainMemory.allocate(T.self, capacity: values.count), count: values.count)
        _ = buffer.initialize(from: values)
        return buffer
    }

    deinit {
        PlainMemory.free(text.baseAddress!)
        PlainMemory.free(nodes.baseAddress!)
    }

    public var root: JSONNode { JSONNode(document: self, index: 0) }

    // MARK: Access (indices are trusted: they come from the document's own structure)

    /// The index of the node after `index` and everything inside it.
    @inlinable @inline(__always) func next(_ index: Int) -> Int {
        let n = nodes[index]
        return n.isContainer ? Int(n.b) : index + 1
    }

    @inlinable @inline(__always) func textBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let n = nodes[index]
        return UnsafeBufferPointer(start: text.baseAddress! + Int(n.a), count: Int(n.b))
    }

    /// Whether string node `index` has exactly the bytes of `s`: the length decides most comparisons, the first
    /// byte most of the rest.
    @inlinable @inline(__always) func textEquals(_ index: Int, _ s: StaticString) -> Bool {
        let n = nodes[index]
        let count = s.utf8CodeUnitCount
        return Int(n.b) == count && JSONDocument.sameBytes(text.baseAddress! + Int(n.a), s.utf8Start, count: count)
    }

    /// Whether `count` bytes at `p` and at `q` are equal, in word loads that stay inside the `count` bytes: eight
    /// bytes at a time and then the last eight (overlapping), or for fewer than eight the first and last four,
    /// two or one. The strings compared here are short (member names and raw values): a byte loop cost about
    /// five instructions a byte.
    @inlinable @inline(__always)
    static func sameBytes(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, count: Int) -> Bool {
        let a = UnsafeRawPointer(p)
        let b = UnsafeRawPointer(q)
        if count >= 8 {
            var k = 0
            while k &+ 8 < count {
                if a.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                {
                    return false
                }
                k &+= 8
            }
            return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        if count >= 2 {
            return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
                && a.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
                    == b.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
        }
        return count <= 0 || p[0] == q[0]
    }

    /// Whether two byte ranges are equal (the same length and bytes).
    @inlinable
    static func equal(_ p: UnsafeBufferPointer<UInt8>, _ q: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count == q.count else { return false }
        guard let a = p.baseAddress, let b = q.baseAddress else { return true }
        return sameBytes(a, b, count: p.count)
    }

    /// The member named `key` of object node `object`: its position among the members and its value's index.
    @inlinable @inline(__always) func member(of object: Int, _ key: StaticString) -> (ordinal: Int, value: Int)? {
        let count = Int(nodes[object].a)
        var k = object + 1
        var m = 0
        while m < count {
            if textEquals(k, key) { return (m, k + 1) }
            k = Int(nodes[k].c)
            m += 1
        }
        return nil
    }

    @usableFromInline
    func string(_ index: Int) -> String {
        let bytes = textBytes(index)
        // Already validated UTF-8: copied into the new string's own storage (measured faster than
        // `String(decoding:as:)` for the short strings of a request).
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            guard let to = buffer.baseAddress, let from = bytes.baseAddress else { return 0 }
            to.update(from: from, count: bytes.count)
            return bytes.count
        }
    }

    /// Whether node `index` is a string with the same bytes as `s`.
    func isString(_ index: Int, equalTo s: String) -> Bool {
        let n = nodes[index]
        // The length (stored in the string, no pass over it) rejects most candidates without touching bytes.
        guard n.kind == .string || n.kind == .escapedString, s.utf8.count == Int(n.b) else { return false }
        var s = s
        return s.withUTF8 { utf8 in
            guard utf8.count == Int(n.b) else { return false }
            guard let q = utf8.baseAddress else { return true }
            return JSONDocument.sameBytes(text.baseAddress! + Int(n.a), q, count: utf8.count)
        }
    }

    /// The value tree of node `index`. In an object that repeats a key (only possible when the parser was told
    /// not to reject duplicates) the last value wins, in the position of the first, as in JavaScript.
    func value(_ index: Int) -> JSONValue {
        let n = nodes[index]
        switch n.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(n.number)
        case .string, .escapedString: return .string(string(index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(n.a))
            var k = index + 1
            while k < Int(n.b) {
                elements.append(value(k))
                k = next(k)
            }
            return .array(elements)
        case .object:
            var members: [JSONMember] = []
            members.reserveCapacity(Int(n.a))
            var positions: [[UInt8]: Int]? = nil
            var k = index + 1
            while k < Int(n.b) {
                let key = string(k)
                let v = value(k + 1)
                if keysMayRepeat, let at = position(of: key, in: members, index: &positions) {
                    members[at].value = v
                } else {
                    members.append(JSONMember(key, v))
                }
                k = next(k + 1)
            }
            return .object(JSONObject(members))
        }
    }

    /// Where `key` already is among `members` (same bytes, i.e. code points), hashing the keys' bytes once
    /// objects grow past 16 members.
    private func position(of key: String, in members: [JSONMember], index: inout [[UInt8]: Int]?) -> Int? {
        if members.count < 16 {
            for m in members.indices where members[m].key.utf8.elementsEqual(key.utf8) { return m }
            return nil
        }
        if index == nil {
            var built: [[UInt8]: Int] = [:]
            for (m, member) in members.enumerated() where built[Array(member.key.utf8)] == nil {
                built[Array(member.key.utf8)] = m
            }
            index = built
        }
        let bytes = Array(key.utf8)
        if let at = index![bytes] { return at }
        index![bytes] = members.count
        return nil
    }
}

/// Builds the nodes of a value tree (`JSONDocument.init(_:)`).
private struct TreeFlattener {
    var nodes: [JSONDocument.Node] = []
    var text: [UInt8] = []

    mutating func add(_ value: JSONValue) {
        switch value {
        case .null: nodes.append(.init(kind: .null))
        case .bool(let b): nodes.append(.init(kind: b ? .true : .false))
        case .number(let d): nodes.append(.init(number: d))
        case .string(let s): addString(s)
        case .array(let elements):
            let at = nodes.count
            nodes.append(.init(kind: .array))
            for e in elements { add(e) }
            close(at, count: elements.count)
        case .object(let o):
            let at = nodes.count
            nodes.append(.init(kind: .object))
            for m in o.members {
                let key = nodes.count
                addString(m.key)
                add(m.value)
                nodes[key].c = Int32(truncatingIfNeeded: nodes.count)
            }
            close(at, count: o.members.count)
        }
    }

    private mutating func addString(_ s: String) {
        let offset = text.count
        text.append(contentsOf: s.utf8)
        nodes.append(.init(string: offset, length: text.count - offset, escaped: false))
    }

    private mutating func close(_ at: Int, count: Int) {
        nodes[at].a = Int32(truncatingIfNeeded: count)
        nodes[at].b = Int32(truncatingIfNeeded: nodes.count)
    }
}

/// One value in a `JSONDocument`: what decoders look at before turning it into a Swift value.
public struct JSONNode: Sendable {
    public let document: JSONDocument
    @usableFromInline let index: Int

    @usableFromInline
    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    @inlinable var kind: JSONDocument.Node.Kind { document.nodes[index].kind }

    public var isNull: Bool { kind == .null }
    @inlinable public var isObject: Bool { kind == .object }
    public var isArray: Bool { kind == .array }
    @inlinable public var isString: Bool { kind == .string || kind == .escapedString }

    /// A short name of the JSON type, for error messages ("expected a number, found a string").
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .false, .true: return "a boolean"
        case .number: return "a number"
        case .string, .escapedString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var boolValue: Bool? {
        switch kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    public var numberValue: Double? { kind == .number ? document.nodes[index].number : nil }

    /// The string, made now (nil for other types).
    public var stringValue: String? { isString ? document.string(index) : nil }

    /// Whether this is a string with exactly the bytes of `s` (no `String` is made).
    @inlinable @inline(__always) public func isString(_ s: StaticString) -> Bool {
        isString && document.textEquals(index, s)
    }

    /// Elements of an array, members of an object, 0 otherwise.
    public var count: Int {
        let n = document.nodes[index]
        return n.isContainer ? Int(n.a) : 0
    }

    /// Nodes in this value: 1 for a scalar; a container counts itself, its member names and every value
    /// inside it. O(1): a measure of how much work reading or copying the value is.
    public var nodeCount: Int {
        let n = document.nodes[index]
        return n.isContainer ? Int(n.b) - index : 1
    }

    /// The elements of an array (none for other types), without copying them into an array.
    public var elements: JSONElements {
        guard kind == .array else { return JSONElements(document: document, first: 0, end: 0, count: 0) }
        return JSONElements(document: document, first: index + 1, end: Int(document.nodes[index].b), count: count)
    }

    /// The members of an object with their keys, in document order (empty for other types).
    public var members: [(key: String, value: JSONNode)] {
        guard kind == .object else { return [] }
        var out: [(key: String, value: JSONNode)] = []
        var k = index + 1
        let end = Int(document.nodes[index].b)
        while k < end {
            out.append((document.string(k), JSONNode(document: document, index: k + 1)))
            k = Int(document.nodes[k].c)
        }
        return out
    }

    /// Calls `body` with each member of an object in document order: its key's bytes (escapes decoded, valid
    /// while the document is) and its value. Unlike `members`, makes no string and no array.
    @inlinable
    public func forEachMember(_ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: JSONNode) -> Void) {
        guard kind == .object else { return }
        var k = index + 1
        let end = Int(document.nodes[index].b)
        while k < end {
            body(document.textBytes(k), JSONNode(document: document, index: k + 1))
            k = Int(document.nodes[k].c)
        }
    }

    /// The value of member `key` of an object (nil when absent or not an object); keys match by bytes.
    public func member(_ key: StaticString) -> JSONNode? {
        guard kind == .object, let found = document.member(of: index, key) else { return nil }
        return JSONNode(document: document, index: found.value)
    }

    /// The value tree of this node.
    public var value: JSONValue { document.value(index) }
}

/// The elements of an array node, in order.
public struct JSONElements: Sequence {
    @usableFromInline let document: JSONDocument
    @usableFromInline let first: Int
    @usableFromInline let end: Int
    public let count: Int

    @usableFromInline
    init(document: JSONDocument, first: Int, end: Int, count: Int) {
        self.document = document
        self.first = first
        self.end = end
        self.count = count
    }

    public var isEmpty: Bool { count == 0 }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let document: JSONDocument
        @usableFromInline var position: Int
        @usableFromInline let end: Int

        @usableFromInline
        init(document: JSONDocument, position: Int, end: Int) {
            self.document = document
            self.position = position
            self.end = end
        }

        @inlinable
        public mutating func next() -> JSONNode? {
            guard position < end else { return nil }
            let node = JSONNode(document: document, index: position)
            position = document.next(position)
            return node
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(document: document, position: first, end: end) }
    public var underestimatedCount: Int { count }
}
