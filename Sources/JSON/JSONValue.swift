/// A parsed JSON document: the tree every other module reads scenes and profiles from.
///
/// Objects keep their members in document order (the parser rejects duplicate keys); the writer
/// sorts keys on output so that the same value always serialises to the same bytes.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Every JSON number is a Double; `exactInteger` says when it is an integer that fits exactly.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the JSON type, for error messages ("expected a number, found a string").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var exactInteger: Int? {
        guard case .number(let d) = self, d.isFinite, d == d.rounded(.towardZero),
            abs(d) <= 9_007_199_254_740_992
        else { return nil }
        return Int(d)
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object: members in insertion order, looked up by linear scan (objects here are small, and a
/// scan over a few keys beats hashing them).
///
/// Equality ignores member order (RFC 8259 objects are unordered, and the writer sorts keys anyway): two
/// objects are equal when they have the same keys (compared by Unicode scalars) with equal values.
public struct JSONObject: Sendable, Equatable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    public subscript(key: String) -> JSONValue? {
        get {
            for m in members where m.key == key { return m.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        // Fast path: same order.
        var inOrder = true
        for (l, r) in zip(lhs.members, rhs.members) where !(l.key.utf8.elementsEqual(r.key.utf8)) {
            inOrder = false
            break
        }
        if inOrder { return zip(lhs.members, rhs.members).allSatisfy { $0.value == $1.value } }
        let l = lhs.members.sortedByKey()
        let r = rhs.members.sortedByKey()
        return zip(l, r).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
    }
}

extension [JSONMember] {
    /// Stable sort by the UTF-8 bytes of the keys (the writer's order).
    func sortedByKey() -> [JSONMember] {
        enumerated().sorted { a, b in
            if JSONWriter.keyPrecedes(a.element.key, b.element.key) { return true }
            if JSONWriter.keyPrecedes(b.element.key, a.element.key) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { JSONMember($0.0, $0.1) }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONMember($0.0, $0.1) }))
    }
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var doubleValue: Double? { if case .number(let d) = self { return d } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
}
