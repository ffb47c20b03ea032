/// Path-aware mapping from a `JSONValue` tree to typed values.
///
/// Unlike Codable it never stops at the first problem: every violation is collected with its JSON
/// pointer, and every member that no one read is reported as an unknown field, so one 422 can list
/// everything that is wrong with a request and a typo never passes silently.
public struct JSONIssue: Sendable, Equatable, CustomStringConvertible {
    /// At most this many violations are listed in one answer; the rest are counted (`omitted(_:)`).
    public static let listLimit = 100

    public var path: JSONPointer
    public var message: String
    /// For the last entry of a capped list: how many violations it stands for (0 for an ordinary entry).
    public var omittedCount = 0
    public init(path: JSONPointer, message: String) {
        self.path = path
        self.message = message
    }

    /// The entry at the root that stands for `count` violations not listed.
    public static func omitted(_ count: Int) -> JSONIssue {
        var issue = JSONIssue(
            path: .root,
            message: "\(count) more violation\(count == 1 ? " is" : "s are") not listed (only the first "
                + "\(listLimit) are)")
        issue.omittedCount = count
        return issue
    }

    /// `issues` with at most `listLimit` listed, the rest counted in one last `omitted` entry.
    public static func capped(_ issues: [JSONIssue]) -> [JSONIssue] {
        guard issues.count > listLimit else { return issues }
        let rest = issues.dropFirst(listLimit).reduce(0) { $0 + max(1, $1.omittedCount) }
        return Array(issues.prefix(listLimit)) + [omitted(rest)]
    }

    /// How many violations `issues` stand for, those counted in an `omitted` entry included.
    public static func total(_ issues: [JSONIssue]) -> Int { issues.reduce(0) { $0 + max(1, $1.omittedCount) } }
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

    /// A list with room for `capacity` elements; with 0, no buffer is taken until the first append.
    init(capacity: Int) {
        self.capacity = capacity
        base =
            capacity > 0
            ? PlainMemory.allocate(Element.self, capacity: capacity)
            : UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
    }

    @inlinable @inline(__always)
    mutating func append(_ e: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: e)
        count += 1
    }

    @usableFromInline
    mutating func grow() {
        let larger = max(capacity * 2, 16)
        let bigger = PlainMemory.allocate(Element.self, capacity: larger)
        bigger.moveInitialize(from: base, count: count)
        free()
        base = bigger
        capacity = larger
    }

    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "ScratchList index out of range")
        return base[i]
    }

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Frees the buffer (the owner's deinit).
    func free() { if capacity > 0 { PlainMemory.free(base) } }
}

/// Keys asked of objects and missing from them, by the object's location (`JSONMapper.suggestion`).
@usableFromInline typealias AskedKeys = ScratchList<(reader: Int32, key: StaticString)>

/// Collects the violations and unknown fields of one mapping pass.
///
/// A quiet mapper (`JSONMapper(recording: false)`) only counts them: it keeps no location, notes no key asked,
/// and builds no pointer. A decoder that expects most inputs to be valid runs a quiet pass first and, only when
/// it counted a problem (`problemCount`), decodes again with a recording mapper, which finds the same problems
/// and records them; a valid request pays for no bookkeeping it would never read.
public final class JSONMapper {
    // Only the mapper's methods write the two lists and the two counts below, never with another access in
    // progress, so the dynamic exclusivity check is left out.
    /// The first `JSONIssue.listLimit` errors, then one entry that counts the rest.
    public var errors: [JSONIssue] {
        errorTally > recordedErrors.count && recording
            ? recordedErrors + [.omitted(errorTally - recordedErrors.count)] : recordedErrors
    }
    @exclusivity(unchecked) private var recordedErrors: [JSONIssue] = []
    /// Capped at `JSONUnknownFields.limit`; the rest are counted.
    @exclusivity(unchecked) public private(set) var unknownFields = JSONUnknownFields()

    /// The number of errors found so far (decoders compare it before and after an object), counted by quiet
    /// mappers too. Read through this getter, in the module that declares the count, so that no caller checks
    /// exclusivity dynamically.
    public var errorCount: Int { errorTally }
    /// The number of unknown fields found so far, counted by quiet mappers too.
    public var unknownCount: Int { unknownTally }
    @exclusivity(unchecked) private var errorTally = 0
    @exclusivity(unchecked) private var unknownTally = 0
    /// Errors and unknown fields found so far.
    public var problemCount: Int { errorCount + unknownCount }
    /// False for a quiet mapper (see the type's description).
    public let recording: Bool
    /// Every key asked of an object and missing from it, by the object's location: with the members that were
    /// read, the known members a typo is compared with.
    @exclusivity(unchecked) @usableFromInline var askedKeys: AskedKeys

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
    @exclusivity(unchecked) @usableFromInline var entries: ScratchList<Entry>
    private var fixed: [JSONPointer] = []

    /// A mapper that records what it finds; with `recording: false`, a quiet one that counts it.
    public init(recording: Bool = true) {
        self.recording = recording
        askedKeys = AskedKeys(capacity: recording ? 128 : 0)
        entries = ScratchList<Entry>(capacity: recording ? 64 : 0)
        if recording { entries.append(Entry(parent: -1, index: -1, key: "")) }
    }

    deinit {
        entries.free()
        askedKeys.free()
    }

    /// A location given by a ready pointer.
    public func location(_ pointer: JSONPointer) -> JSONLocation {
        if pointer.tokens.isEmpty || !recording { return .documentRoot }
        fixed.append(pointer)
        entries.append(Entry(parent: -1, index: Int32(fixed.count - 1), key: ""))
        return JSONLocation(id: Int32(entries.count - 1))
    }

    /// Member `key` of the object at `parent`, or element `index` of that member when `index >= 0`.
    @inlinable @inline(__always)
    public func location(_ parent: JSONLocation, _ key: StaticString, index: Int = -1) -> JSONLocation {
        guard recording else { return JSONLocation(id: 0) }
        entries.append(Entry(parent: parent.id, index: Int32(truncatingIfNeeded: index), key: key))
        return JSONLocation(id: Int32(entries.count - 1))
    }

    /// The pointer of `location`, built now.
    public func pointer(_ location: JSONLocation) -> JSONPointer {
        guard recording else { return .root }
        let e = entries[Int(location.id)]
        if e.parent < 0 { return e.index < 0 ? .root : fixed[Int(e.index)] }
        var p = pointer(JSONLocation(id: e.parent)).appending(e.key.description)
        if e.index >= 0 { p = p.appending(Int(e.index)) }
        return p
    }

    /// Records an error (the first `JSONIssue.listLimit`; the rest are counted, their path and message never
    /// built).
    public func error(_ path: @autoclosure () -> JSONPointer, _ message: @autoclosure () -> String) {
        errorTally += 1
        if recording && recordedErrors.count < JSONIssue.listLimit {
            recordedErrors.append(JSONIssue(path: path(), message: message()))
        }
    }

    public func error(_ location: JSONLocation, _ message: @autoclosure () -> String) {
        error(pointer(location), message())
    }

    /// An error at member `key` of the value at `location`.
    public func error(_ location: JSONLocation, member key: String, _ message: @autoclosure () -> String) {
        error(pointer(location).appending(key), message())
    }

    /// Notes that `key` was asked of the object at `reader` and is not in it.
    @inlinable @inline(__always)
    func asked(_ key: StaticString, of reader: JSONLocation) { if recording { askedKeys.append((reader.id, key)) } }

    public func unknown(_ path: JSONPointer, suggestion: String? = nil) {
        unknownTally += 1
        if recording { unknownFields.append(JSONUnknownField(path: path, suggestion: suggestion)) }
    }

    /// Counts `n` unknown fields without recording them (a quiet mapper's `ObjectReader.finish`).
    func countUnknown(_ n: Int) { unknownTally += n }

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
        guard recording else {
            unknownTally += 1
            return
        }
        if unknownFields.listed.count >= JSONUnknownFields.limit {
            unknownTally += 1
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
        guard value.isObject else {
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
        let guess = NameSuggestion.suggestion(for: s, among: E.allCases.lazy.map(\.rawValue))
        mapper.error(path, "\"\(s)\" is not one of \(allowed)" + (guess.map { ": did you mean \"\($0)\"?" } ?? ""))
        return nil
    }
}
