// Reading one object of a parsed document: its members by key, typed, each marked read; the rest reported
// as unknown fields (`ObjectReader.finish`). The mapper it reports to is in JSONMapping.swift.

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
        if required { missingRequired(key) }
    }

    /// "is required" — or, when a member not read so far is one edit away from `key`, an error at that
    /// member that leads with the likely typo (`unknown field "knid": did you mean "kind"?`).
    @usableFromInline func missingRequired(_ key: StaticString) {
        guard mapper.recording, let typo = unreadMember(typoOf: key.description) else {
            mapper.error(pointer(key), "is required")
            return
        }
        mapper.error(path.appending(typo), "unknown field \"\(typo)\": did you mean \"\(key)\"? \"\(key)\" is required")
    }

    /// The first member not read so far whose name is a typo of `name` (`NameSuggestion`), if any.
    public func unreadMember(typoOf name: String) -> String? {
        var k = start + 1
        for m in 0..<memberCount {
            if !wasRead(m) {
                let member = document.string(k)
                if NameSuggestion.suggestion(for: member, among: CollectionOfOne(name)) != nil { return member }
            }
            k = Int(document.nodes[k].c)
        }
        return nil
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
        guard mapper.recording else {
            // A quiet mapper only counts them: no names, pointers or suggestions to make.
            var unread = 0
            for m in 0..<n where !wasRead(m) { unread += 1 }
            mapper.countUnknown(unread)
            return
        }
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
