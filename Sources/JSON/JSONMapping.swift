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

/// Collects the violations and unknown fields of one mapping pass.
public final class JSONMapper {
    public private(set) var errors: [JSONIssue] = []
    public private(set) var unknownFields: [JSONPointer] = []

    public init() {}

    public func error(_ path: JSONPointer, _ message: String) {
        errors.append(JSONIssue(path: path, message: message))
    }

    public func unknown(_ path: JSONPointer) { unknownFields.append(path) }

    /// A reader over `value` when it is an object; otherwise records "expected an object" and returns nil.
    public func object(_ value: JSONValue, at path: JSONPointer) -> ObjectReader? {
        guard case .object(let o) = value else {
            error(path, "expected an object, found \(value.typeName)")
            return nil
        }
        return ObjectReader(mapper: self, object: o, path: path)
    }
}

/// Reads the members of one object. Members that are read are marked; `finish()` reports the rest as
/// unknown fields.
public final class ObjectReader {
    public let mapper: JSONMapper
    public let object: JSONObject
    public let path: JSONPointer
    private var read: [Bool]

    public init(mapper: JSONMapper, object: JSONObject, path: JSONPointer) {
        self.mapper = mapper
        self.object = object
        self.path = path
        self.read = Array(repeating: false, count: object.members.count)
    }

    /// The raw member, marking it read. `null` counts as absent.
    public func value(_ key: String) -> JSONValue? {
        for i in object.members.indices where object.members[i].key == key {
            read[i] = true
            if case .null = object.members[i].value { return nil }
            return object.members[i].value
        }
        return nil
    }

    public func contains(_ key: String) -> Bool { value(key) != nil }

    public func pointer(_ key: String) -> JSONPointer { path.appending(key) }

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
        return JSONMapper.number(v, at: path.appending(key), mapper: mapper, range: range, positive: positive)
    }

    /// One of the raw values of `E`; the message lists the accepted values.
    public func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, required: Bool = false) -> E?
    where E.RawValue == String {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        return JSONMapper.enumeration(v, at: path.appending(key), mapper: mapper)
    }

    public func object(_ key: String, required: Bool = false) -> ObjectReader? {
        guard let v = value(key) else {
            missing(key, required)
            return nil
        }
        return mapper.object(v, at: path.appending(key))
    }

    /// The elements of an array member with their pointers.
    public func array(_ key: String, required: Bool = false, maxCount: Int? = nil) -> [(JSONValue, JSONPointer)]? {
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
        let base = path.appending(key)
        return a.enumerated().map { ($0.element, base.appending($0.offset)) }
    }

    /// Reports every member not read so far as an unknown field.
    public func finish() {
        for i in object.members.indices where !read[i] {
            mapper.unknown(path.appending(object.members[i].key))
        }
    }
}

extension JSONMapper {
    public static func number(
        _ v: JSONValue, at path: JSONPointer, mapper: JSONMapper, range: ClosedRange<Double>? = nil,
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
