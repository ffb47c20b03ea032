/// Path-aware mapping from a `JSONValue` tree to typed values.
///
/// Unlike Codable it never stops at the first problem: every violation is collected with its JSON
/// pointer, and every member that no one read is reported as an unknown field, so one 422 can list
/// everything that is wrong with a request and a typo never passes silently.
public struct JSONIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: JSONPointer
    public var message: String
    public init(path: JSONPointer, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path.description.isEmpty ? "/" : path.description): \(message)" }
}

/// Where a value sits in the document, without building its `JSONPointer` yet: a handle into the mapper
/// that handed it out, which records the location's parent location, key and (for an element of an array
/// member) index. Decoding takes dozens of locations per request and almost never reports one, so a
/// location costs an append to an array and becomes a pointer (an array of tokens) only when an error or an
/// unknown field is recorded. A location is meaningful only to the mapper that made it.
public struct JSONLocation: Sendable, Equatable {
    @usableFromInline let id: Int32

    @usableFromInline
    init(id: Int32) { self.id = id }
    /// The document root: location 0 of every mapper (`mapper.location(.root)`).
    static let documentRoot = JSONLocation(id: 0)
}

/// A list of plain values the mapper appends to on every lookup: a buffer it owns and frees, so that an append
/// is a store and an increment (no uniqueness check or reference counting as on an `Array` property of a
/// class).
@usableFromInline
struct ScratchList<Element: BitwiseCopyable> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline private(set) var count = 0
    @usableFromInline var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = PlainMemory.allocate(Element.self, capacity: capacity)
    }

    @inlinable @inline(__always)
    mutating func append(_ e: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: e)
        count += 1
    }

    @usableFromInline
    mutating func grow() {
        let bigger = PlainMemory.allocate(Element.self, capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        PlainMemory.free(base)
        base = bigger
        capacity *= 2
    }

    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "ScratchList index out of range")
        return base[i]
    }

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Frees the buffer (the owner's deinit).
    func free() { PlainMemory.free(base) }
}

/// Keys asked of objects and missing from them, by the object's location (`JSONMapper.suggestion`).
@usableFromInline typealias AskedKeys = ScratchList<(reader: Int32, key: StaticString)>

/// Collects the violations and unknown fields of one mapping pass.
public final class JSONMapper {
    // Decoders read `errors.count` around each object; only the mapper's methods write the two lists, never
    // with another access in progress, so the dynamic exclusivity check is left out.
    @exclusivity(unchecked) public private(set) var errors: [JSONIssue] = []
    /// Capped at `JSONUnknownFields.limit`; the rest are counted.
    @exclusivity(unchecked) public private(set) var unknownFields = JSONUnknownFields()

    /// The number of errors recorded so far (decoders compare it before and after an object): read here, in
    /// the module that declares `errors`, so that no caller checks exclusivity dynamically.
    public var errorCount: Int { errors.count }
    /// Every key asked of an object and missing from it, by the object's location: with the members that were
    /// read, the known members a typo is compared with.
    @exclusivity(unchecked) @usableFromInline var askedKeys = AskedKeys(capacity: 128)

    /// The locations handed out: `parent < 0` is the root (`index` −1) or a location given by a pointer
    /// (`fixed[index]`).
    @usableFromInline
    struct Entry: BitwiseCopyable {
        @usableFromInline var parent: Int32
        @usableFromInline var index: Int32
        @usableFromInline var key: StaticString

        @inlinable
        init(parent: Int32, index: Int32, key: StaticString) {
            self.parent = parent
            self.index = index
            self.key = key
        }
    }
    // A typical request takes about 30 locations: one allocation, no growth. Entry 0 is the root. Exclusivity
    // is not checked dynamically on the two lists: only the mapper's own methods touch them, never with an
    // access in progress, and the check cost more than the append it guarded.
    @exclusivity(unchecked) @usableFromInline var entries = ScratchList<Entry>(capacity: 64)
    private var fixed: [JSONPointer] = []

    public init() {
        entries.append(Entry(parent: -1, index: -1, key: ""))
    }

    deinit {
        entries.free()
        askedKeys.free()
    }

    /// A location given by a ready pointer.
    public func location(_ pointer: JSONPointer) -> JSONLocation {
        if pointer.tokens.isEmpty { return .documentRoot }
        fixed.append(pointer)
        entries.append(Entry(parent: -1, index: Int32(fixed.count - 1), key: ""))
        return JSONLocation(id: Int32(entries.count - 1))
    }

    /// Member `key` of the object at `parent`, or element `index` of that member when `index >= 0`.
    @inlinable @inline(__always)
    public func location(_ parent: JSONLocation, _ key: StaticString, index: Int = -1) -> JSONLocation {
        entries.append(Entry(parent: parent.id, index: Int32(truncatingIfNeeded: index), key: key))
        return JSONLocation(id: Int32(entries.count - 1))
    }

    /// The pointer of `location`, built now.
    public func pointer(_ location: JSONLocation) -> JSONPointer {
        let e = entries[Int(location.id)]
        if e.parent < 0 { return e.index < 0 ? .root : fixed[Int(e.index)] }
        var p = pointer(JSONLocation(id: e.parent)).appending(e.key.description)
        if e.index >= 0 { p = p.appending(Int(e.index)) }
        return p
    }

    public func error(_ path: JSONPointer, _ message: String) {
        errors.append(JSONIssue(path: path, message: message))
    }

    public func error(_ location: JSONLocation, _ message: String) { error(pointer(location), message) }

    /// An error at member `key` of the value at `location`.
    public func error(_ location: JSONLocation, member key: String, _ message: String) {
        error(pointer(location).appending(key), message)
    }

    /// Notes that `key` was asked of the object at `reader` and is not in it.
    @inlinable @inline(__always)
    func asked(_ key: StaticString, of reader: JSONLocation) { askedKeys.append((reader.id, key)) }

    public func unknown(_ path: JSONPointer, suggestion: String? = nil) {
        unknownFields.append(JSONUnknownField(path: path, suggestion: suggestion))
    }

    /// A known member of the object at `reader` that `name` is one edit away from: one asked of it and missing
    /// (`askedKeys`) or one that was read (`read`).
    func suggestion(for name: String, in reader: JSONLocation, read: [String]) -> String? {
        NameSuggestion.suggestion(
            for: name,
            among: askedKeys.elements.lazy.filter { $0.reader == reader.id }.map { $0.key.description } + read)
    }

    /// Records an unknown member `name` of the object at `reader` (whose pointer is `base`; `read`: the names of
    /// its members that were read).
    func unknown(_ name: String, of reader: JSONLocation, base: JSONPointer, read: [String] = []) {
        if unknownFields.listed.count >= JSONUnknownFields.limit {
            unknownFields.append(JSONUnknownField(path: .root))  // only counted: no pointer, no suggestion
            return
        }
        unknown(base.appending(name), suggestion: suggestion(for: name, in: reader, read: read))
    }

    /// A reader over `value` when it is an object; otherwise records "expected an object" and returns nil.
    public func object(_ value: JSONNode, at path: JSONPointer) -> ObjectReader? {
        object(value, at: location(path))
    }

    /// A reader over a value tree (flattened first: for callers that hold a `JSONValue`, off the hot path).
    public func object(_ value: JSONValue, at path: JSONPointer) -> ObjectReader? {
        object(JSONDocument(value).root, at: location(path))
    }

    /// A reader over `value` when it is an object; otherwise records "expected an object" at `location` and
    /// returns nil. The reader builds its pointer only if it reports something.
    @inlinable
    public func object(_ value: JSONNode, at location: JSONLocation) -> ObjectReader? {
        guard value.document.nodes[value.index].kind == .object else {
            objectExpected(value, at: location)
            return nil
        }
        return ObjectReader(mapper: self, document: value.document, index: value.index, location: location)
    }

    /// The error path of `object(_:at:)`.
    @usableFromInline
    func objectExpected(_ value: JSONNode, at location: JSONLocation) {
        error(location, "expected an object, found \(value.typeName)")
    }
}

/// Reads the members of one object. Members that are read are marked; `finish()` reports the rest as
/// unknown fields. Keys are matched by their bytes (code units), so a key is found only as written.
///
/// A value type (reading marks members, so readers are `var`s): a request has a dozen objects, and a class
/// instance for each cost more than the reading itself.
///
/// The look-ups and typed getters are `@inlinable`: the decoders live in other modules, and a call across the
/// module boundary (about 100 instructions a look-up) could neither fold the constant arguments (the key and its
/// length, `required`, the range) nor skip the call. Their error paths stay out of line (`typeMismatch`,
/// `numberProblem`, `lengthProblem`, `countProblem`, `reportUnread`), so what is copied into each decoder is the
/// valid case only.
public struct ObjectReader {
    public let mapper: JSONMapper
    /// Where the object sits; its pointer is built only when asked for (`path`), i.e. when reporting.
    public let location: JSONLocation
    @usableFromInline let document: JSONDocument
    @usableFromInline let start: Int
    @usableFromInline let memberCount: Int
    /// Members read so far: one bit per member for the first 64, `readBeyond` for the rest.
    @usableFromInline var readMask: UInt64 = 0
    @usableFromInline var readBeyond: [Bool]

    public init(mapper: JSONMapper, node: JSONNode, location: JSONLocation) {
        precondition(node.isObject, "ObjectReader reads objects")
        self.init(mapper: mapper, document: node.document, index: node.index, location: location)
    }

    /// A reader over object node `index` of `document`.
    @usableFromInline
    init(mapper: JSONMapper, document: JSONDocument, index: Int, location: JSONLocation) {
        self.mapper = mapper
        self.location = location
        self.document = document
        start = index
        memberCount = Int(document.nodes[index].a)
        readBeyond = memberCount > 64 ? Array(repeating: false, count: memberCount - 64) : []
    }

    /// The object read.
    public var node: JSONNode { JSONNode(document: document, index: start) }

    /// The object's JSON pointer (built on each call).
    public var path: JSONPointer { mapper.pointer(location) }

    /// Number of members of the object.
    public var count: Int { memberCount }

    @inlinable @inline(__always) mutating func markRead(_ i: Int) {
        if i < 64 { readMask |= 1 << UInt64(i) } else { readBeyond[i - 64] = true }
    }

    @inline(__always) private func wasRead(_ i: Int) -> Bool {
        i < 64 ? readMask & (1 << UInt64(i)) != 0 : readBeyond[i - 64]
    }

    /// The index of member `key`'s value node, marking the member read; nil when absent or `null`.
    @inlinable @inline(__always) mutating func valueIndex(_ key: StaticString) -> Int? {
        guard let found = document.member(of: start, key) else {
            // A known key the object lacks: what a misspelt member may have meant. Keys that are present are
            // found again at `finish` (they are the members read), so they need no note here.
            mapper.asked(key, of: location)
            return nil
        }
        markRead(found.ordinal)
        return document.nodes[found.value].kind == .null ? nil : found.value
    }

    /// The raw member, marking it read. `null` counts as absent.
    @inlinable @inline(__always)
    public mutating func value(_ key: StaticString) -> JSONNode? {
        guard let i = valueIndex(key) else { return nil }
        return JSONNode(document: document, index: i)
    }

    public mutating func contains(_ key: StaticString) -> Bool { valueIndex(key) != nil }

    public func pointer(_ key: StaticString) -> JSONPointer { path.appending(key.description) }

    /// The location of member `key` (or of its element `index`), for nested readers and later errors.
    @inlinable @inline(__always)
    public func location(_ key: StaticString, index: Int = -1) -> JSONLocation {
        mapper.location(location, key, index: index)
    }

    public func error(_ key: StaticString, _ message: String) { mapper.error(pointer(key), message) }

    @inlinable @inline(__always) func missing(_ key: StaticString, _ required: Bool) {
        if required { mapper.error(pointer(key), "is required") }
    }

    // The typed getters read the valid case straight from the node and make the member's location (and a
    // `JSONNode`) only to report a problem.

    /// A string; with `length`, its number of characters must lie in the range.
    @inlinable @inline(__always)
    public mutating func string(_ key: StaticString, required: Bool = false, length: ClosedRange<Int> = 0...Int.max)
        -> String?
    {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        let kind = document.nodes[i].kind
        guard kind == .string || kind == .escapedString else {
            typeMismatch(key, expected: "a string", i)
            return nil
        }
        let s = document.string(i)
        if !characterCount(of: s, isIn: length) {
            lengthProblem(key, s, length)
            return nil
        }
        return s
    }

    /// The error path of `string`: `s`, member `key`, has a number of characters outside `length`.
    @usableFromInline
    func lengthProblem(_ key: StaticString, _ s: String, _ length: ClosedRange<Int>) {
        error(key, "must be \(length.lowerBound) to \(length.upperBound) characters long, is \(s.count)")
    }

    @inlinable @inline(__always)
    public mutating func bool(_ key: StaticString, required: Bool = false) -> Bool? {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        switch document.nodes[i].kind {
        case .true: return true
        case .false: return false
        default:
            typeMismatch(key, expected: "a boolean", i)
            return nil
        }
    }

    /// A finite number, optionally inside `range` (message names the range).
    @inlinable @inline(__always)
    public mutating func number(
        _ key: StaticString, required: Bool = false, range: ClosedRange<Double>? = nil, positive: Bool = false
    ) -> Double? {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        let n = document.nodes[i]
        if n.kind == .number, n.number.isFinite, !positive || n.number > 0 {
            if let range {
                if range.contains(n.number) { return n.number }
            } else {
                return n.number
            }
        }
        return numberProblem(key, i, range: range, positive: positive)
    }

    /// Records that member `key` (node `i`) is not of the type expected (the error path of the typed getters).
    @usableFromInline
    func typeMismatch(_ key: StaticString, expected: String, _ i: Int) {
        error(key, "expected \(expected), found \(JSONNode(document: document, index: i).typeName)")
    }

    /// The error path of `number`: records why member `key` (node `i`) is not an accepted number.
    @usableFromInline
    func numberProblem(_ key: StaticString, _ i: Int, range: ClosedRange<Double>?, positive: Bool) -> Double? {
        JSONMapper.number(
            JSONNode(document: document, index: i), at: location(key), mapper: mapper, range: range, positive: positive)
    }

    /// One of the raw values of `E`; the message lists the accepted values. The member's bytes are looked up
    /// in `E.jsonNames`, without making a `String` of them or of a candidate. Inlinable so that it is
    /// specialised for `E` where it is called: a generic call across modules looks up type metadata at run time.
    @inlinable
    public mutating func enumeration<E: JSONStringEnumeration>(_ key: StaticString, required: Bool = false) -> E? {
        guard let i = enumerationValue(key, required: required) else { return nil }
        if let bytes = stringBytes(i), let k = E.jsonNames.ordinal(of: bytes) {
            let cases = E.allCases
            return cases[cases.index(cases.startIndex, offsetBy: k)]
        }
        return reportEnumeration(key, E.self)
    }

    /// The bytes of string node `index` (nil for other types), valid while the document is.
    @inlinable @inline(__always)
    func stringBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let kind = document.nodes[index].kind
        return kind == .string || kind == .escapedString ? document.textBytes(index) : nil
    }

    /// For `enumeration`: the index of member `key`'s value, marking it read; nil when it is absent (then "is
    /// required" is recorded if it is).
    @inlinable @inline(__always)
    mutating func enumerationValue(_ key: StaticString, required: Bool) -> Int? {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        return i
    }

    /// Records why member `key` is not one of `E`'s raw values (the error path of `enumeration`).
    public mutating func reportEnumeration<E: RawRepresentable & CaseIterable>(_ key: StaticString, _: E.Type) -> E?
    where E.RawValue == String {
        guard let i = valueIndex(key) else { return nil }
        return JSONMapper.enumeration(JSONNode(document: document, index: i), at: location(key), mapper: mapper)
    }

    @inlinable @inline(__always)
    public mutating func object(_ key: StaticString, required: Bool = false) -> ObjectReader? {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        // The nested reader is made here, from the index, without a `JSONNode` in between (one reference
        // count less per object).
        guard document.nodes[i].kind == .object else {
            typeMismatch(key, expected: "an object", i)
            return nil
        }
        return ObjectReader(mapper: mapper, document: document, index: i, location: location(key))
    }

    /// The elements of an array member with their pointers.
    public mutating func array(_ key: StaticString, required: Bool = false, maxCount: Int? = nil) -> [(
        JSONNode, JSONPointer
    )]? {
        guard let a = elements(key, required: required, maxCount: maxCount) else { return nil }
        let base = pointer(key)
        return a.enumerated().map { ($0.element, base.appending($0.offset)) }
    }

    /// The elements of an array member; `location(key, index: i)` is where element `i` sits.
    @inlinable @inline(__always)
    public mutating func elements(_ key: StaticString, required: Bool = false, maxCount: Int? = nil) -> JSONElements? {
        guard let i = valueIndex(key) else {
            missing(key, required)
            return nil
        }
        let n = document.nodes[i]
        guard n.kind == .array else {
            typeMismatch(key, expected: "an array", i)
            return nil
        }
        if let maxCount, Int(n.a) > maxCount {
            countProblem(key, Int(n.a), maxCount)
            return nil
        }
        return JSONElements(document: document, first: i + 1, end: Int(n.b), count: Int(n.a))
    }

    /// The error path of `elements`: array member `key` has `count` elements, more than `maxCount`.
    @usableFromInline
    func countProblem(_ key: StaticString, _ count: Int, _ maxCount: Int) {
        error(key, "has \(count) elements, at most \(maxCount) are allowed")
    }

    /// Reports every member not read so far as an unknown field.
    @inlinable @inline(__always)
    public func finish() {
        let n = memberCount
        guard n > 0, n > 64 || readMask != (n == 64 ? UInt64.max : (1 << UInt64(n)) - 1) else { return }
        reportUnread()
    }

    /// The members not read, as unknown fields (the path of `finish()` that has some).
    @usableFromInline
    func reportUnread() {
        let n = memberCount
        let base = path
        // The known keys a typo is compared with: those asked and missing, and the members that were read.
        var read: [String] = []
        var k = start + 1
        for m in 0..<n {
            if wasRead(m) { read.append(document.string(k)) }
            k = Int(document.nodes[k].c)
        }
        k = start + 1
        for m in 0..<n {
            if !wasRead(m) { mapper.unknown(document.string(k), of: location, base: base, read: read) }
            k = Int(document.nodes[k].c)
        }
    }
}

/// Whether the number of characters of `s` lies in `range`, counting characters (grapheme clusters, slow) only
/// when the UTF-8 length does not decide: a string has at most as many characters as bytes, and at least one
/// when it has any byte.
@inlinable @inline(__always)
func characterCount(of s: String, isIn range: ClosedRange<Int>) -> Bool {
    let bytes = s.utf8.count
    if bytes <= range.upperBound, range.lowerBound <= min(bytes, 1) { return true }
    return range.contains(s.count)
}

extension JSONMapper {
    public static func number(
        _ v: JSONNode, at path: JSONPointer, mapper: JSONMapper, range: ClosedRange<Double>? = nil,
        positive: Bool = false
    ) -> Double? {
        number(v, at: mapper.location(path), mapper: mapper, range: range, positive: positive)
    }

    public static func number(
        _ v: JSONNode, at path: JSONLocation, mapper: JSONMapper, range: ClosedRange<Double>? = nil,
        positive: Bool = false
    ) -> Double? {
        guard let d = v.numberValue else {
            mapper.error(path, "expected a number, found \(v.typeName)")
            return nil
        }
        guard d.isFinite else {
            mapper.error(path, "must be finite")
            return nil
        }
        if positive && !(d > 0) {
            mapper.error(path, "must be greater than 0, is \(JSONWriter.formatNumber(d))")
            return nil
        }
        if let range, !range.contains(d) {
            mapper.error(
                path,
                "must be between \(JSONWriter.formatNumber(range.lowerBound)) and "
                    + "\(JSONWriter.formatNumber(range.upperBound)), is \(JSONWriter.formatNumber(d))")
            return nil
        }
        return d
    }

    public static func enumeration<E: RawRepresentable & CaseIterable>(
        _ v: JSONNode, at path: JSONPointer, mapper: JSONMapper
    ) -> E? where E.RawValue == String {
        enumeration(v, at: mapper.location(path), mapper: mapper)
    }

    /// A value tree's enumeration (flattened first).
    public static func enumeration<E: RawRepresentable & CaseIterable>(
        _ v: JSONValue, at path: JSONPointer, mapper: JSONMapper
    ) -> E? where E.RawValue == String {
        enumeration(JSONDocument(v).root, at: mapper.location(path), mapper: mapper)
    }

    public static func enumeration<E: RawRepresentable & CaseIterable>(
        _ v: JSONNode, at path: JSONLocation, mapper: JSONMapper
    ) -> E? where E.RawValue == String {
        guard let s = v.stringValue else {
            mapper.error(path, "expected a string, found \(v.typeName)")
            return nil
        }
        if let e = E(rawValue: s) { return e }
        let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        mapper.error(path, "\"\(s)\" is not one of \(allowed)")
        return nil
    }
}
