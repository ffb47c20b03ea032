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

/// Where a value sits in the document, without building its `JSONPointer` yet: the reader of the object that
/// holds it, the member's key and (for an element of an array member) the index. Decoding reads dozens of
/// members per request and almost never reports one, so the pointer (an array of tokens) is materialised
/// only when an error or an unknown field is recorded.
public struct JSONLocation {
    private let parent: ObjectReader?
    private let fixed: JSONPointer
    private let key: String
    private let index: Int

    /// A location given by a ready pointer.
    public init(_ pointer: JSONPointer) {
        parent = nil
        fixed = pointer
        key = ""
        index = -1
    }

    /// Member `key` of the object `parent` reads, or element `index` of that member when `index >= 0`.
    public init(_ parent: ObjectReader, _ key: String, index: Int = -1) {
        self.parent = parent
        fixed = .root
        self.key = key
        self.index = index
    }

    /// The pointer, built now.
    public var pointer: JSONPointer {
        guard let parent else { return fixed }
        var p = parent.path.appending(key)
        if index >= 0 { p = p.appending(index) }
        return p
    }

    /// The location of member `key` of the object at this location (built now: only for error paths).
    public func appending(_ key: String) -> JSONLocation { JSONLocation(pointer.appending(key)) }
}

/// Collects the violations and unknown fields of one mapping pass.
public final class JSONMapper {
    public private(set) var errors: [JSONIssue] = []
    public private(set) var unknownFields: [JSONPointer] = []

    public init() {}

    public func error(_ path: JSONPointer, _ message: String) {
        errors.append(JSONIssue(path: path, message: message))
    }

    public func error(_ location: JSONLocation, _ message: String) { error(location.pointer, message) }

    public func unknown(_ path: JSONPointer) { unknownFields.append(path) }

    /// A reader over `value` when it is an object; otherwise records "expected an object" and returns nil.
    public func object(_ value: JSONValue, at path: JSONPointer) -> ObjectReader? {
        object(value, at: JSONLocation(path))
    }

    /// A reader over `value` when it is an object; otherwise records "expected an object" at `location` and
    /// returns nil. The reader builds its pointer only if it reports something.
    public func object(_ value: JSONValue, at location: JSONLocation) -> ObjectReader? {
        guard case .object(let o) = value else {
            error(location, "expected an object, found \(value.typeName)")
            return nil
        }
        return ObjectReader(mapper: self, object: o, location: location)
    }
}

/// Reads the members of one object. Members that are read are marked; `finish()` reports the rest as
/// unknown fields.
public final class ObjectReader {
    public let mapper: JSONMapper
    public let object: JSONObject
    /// Where the object sits; its pointer is built only when asked for (`path`), i.e. when reporting.
    public let location: JSONLocation
    /// Members read so far: one bit per member for the first 64, `readBeyond` for the rest.
    private var readMask: UInt64 = 0
    private var readBeyond: [Bool]

    public convenience init(mapper: JSONMapper, object: JSONObject, path: JSONPointer) {
        self.init(mapper: mapper, object: object, location: JSONLocation(path))
    }

    public init(mapper: JSONMapper, object: JSONObject, location: JSONLocation) {
        self.mapper = mapper
        self.object = object
        self.location = location
        let n = object.members.count
        self.readBeyond = n > 64 ? Array(repeating: false, count: n - 64) : []
    }

    /// The object's JSON pointer (built on each call).
    public var path: JSONPointer { location.pointer }

    @inline(__always) private func markRead(_ i: Int) {
        if i < 64 { readMask |= 1 << UInt64(i) } else { readBeyond[i - 64] = true }
    }

    @inline(__always) private func wasRead(_ i: Int) -> Bool {
        i < 64 ? readMask & (1 << UInt64(i)) != 0 : readBeyond[i - 64]
    }

    /// The raw member, marking it read. `null` counts as absent.
    public func value(_ key: String) -> JSONValue? {
        // Keys of different lengths cannot be equal: most members are rejected by a length check, without a
        // string comparison.
        let length = key.utf8.count
        return object.members.withUnsafeBufferPointer { members in
            for i in members.indices where members[i].key.utf8.count == length && members[i].key == key {
                markRead(i)
                if case .null = members[i].value { return nil }
                return members[i].value
            }
            return nil
        }
    }

    public func contains(_ key: String) -> Bool { value(key) != nil }

    public func pointer(_ key: String) -> JSONPointer { path.appending(key) }

    /// The location of member `key` (or of its element `index`), for nested readers and later errors.
    public func location(_ key: String, index: Int = -1) -> JSONLocation { JSONLocation(self, key, index: index) }

    public func error(_ key: String, _ message: String) { mapper.error(path.appending(key), message) }

    private func missing(_ key: String, _ required: Bool) {
        if required { mapper.error(path.appending(key), "is required") }
    }

    public func string(_ key: String, required: Bool = false, length: ClosedRange<Int>? = nil) -> String? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        guard case .string(let s) = v else {
            error(key, "expected a string, found \(v.typeName)")
            return nil
        }
        if let length, !length.contains(s.count) {
            error(key, "must be \(length.lowerBound) to \(length.upperBound) characters long, is \(s.count)")
            return nil
        }
        return s
    }

    public func bool(_ key: String, required: Bool = false) -> Bool? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        guard case .bool(let b) = v else {
            error(key, "expected a boolean, found \(v.typeName)")
            return nil
        }
        return b
    }

    /// A finite number, optionally inside `range` (message names the range).
    public func number(
        _ key: String, required: Bool = false, range: ClosedRange<Double>? = nil, positive: Bool = false
    ) -> Double? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        return JSONMapper.number(v, at: location(key), mapper: mapper, range: range, positive: positive)
    }

    /// One of the raw values of `E`; the message lists the accepted values.
    public func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, required: Bool = false) -> E?
    where E.RawValue == String {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        return JSONMapper.enumeration(v, at: location(key), mapper: mapper)
    }

    public func object(_ key: String, required: Bool = false) -> ObjectReader? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        return mapper.object(v, at: location(key))
    }

    /// The elements of an array member with their pointers.
    public func array(_ key: String, required: Bool = false, maxCount: Int? = nil) -> [(JSONValue, JSONPointer)]? {
        guard let a = elements(key, required: required, maxCount: maxCount) else { return nil }
        let base = path.appending(key)
        return a.enumerated().map { ($0.element, base.appending($0.offset)) }
    }

    /// The elements of an array member; `location(key, index: i)` is where element `i` sits.
    public func elements(_ key: String, required: Bool = false, maxCount: Int? = nil) -> [JSONValue]? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        guard case .array(let a) = v else {
            error(key, "expected an array, found \(v.typeName)")
            return nil
        }
        if let maxCount, a.count > maxCount {
            error(key, "has \(a.count) elements, at most \(maxCount) are allowed")
            return nil
        }
        return a
    }

    /// Reports every member not read so far as an unknown field.
    public func finish() {
        let n = object.members.count
        guard n > 0, n > 64 || readMask != (n == 64 ? UInt64.max : (1 << UInt64(n)) - 1) else { return }
        let base = path
        for i in object.members.indices where !wasRead(i) {
            mapper.unknown(base.appending(object.members[i].key))
        }
    }
}

extension JSONMapper {
    public static func number(
        _ v: JSONValue, at path: JSONPointer, mapper: JSONMapper, range: ClosedRange<Double>? = nil,
        positive: Bool = false
    ) -> Double? {
        number(v, at: JSONLocation(path), mapper: mapper, range: range, positive: positive)
    }

    public static func number(
        _ v: JSONValue, at path: JSONLocation, mapper: JSONMapper, range: ClosedRange<Double>? = nil,
        positive: Bool = false
    ) -> Double? {
        guard case .number(let d) = v else {
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
        _ v: JSONValue, at path: JSONPointer, mapper: JSONMapper
    ) -> E? where E.RawValue == String {
        enumeration(v, at: JSONLocation(path), mapper: mapper)
    }

    public static func enumeration<E: RawRepresentable & CaseIterable>(
        _ v: JSONValue, at path: JSONLocation, mapper: JSONMapper
    ) -> E? where E.RawValue == String {
        guard case .string(let s) = v else {
            mapper.error(path, "expected a string, found \(v.typeName)")
            return nil
        }
        if let e = E(rawValue: s) { return e }
        let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        mapper.error(path, "\"\(s)\" is not one of \(allowed)")
        return nil
    }
}
