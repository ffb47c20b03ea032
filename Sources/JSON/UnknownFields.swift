/// A member no rule read, with the known member of the same object it is probably a typo of.
public struct JSONUnknownField: Sendable, Equatable, CustomStringConvertible {
    public var path: JSONPointer
    /// A known member of the same object one edit away (`did you mean`), or nil.
    public var suggestion: String?

    public init(path: JSONPointer, suggestion: String? = nil) {
        self.path = path
        self.suggestion = suggestion
    }

    /// The member's name (the pointer's last token).
    public var name: String { path.tokens.last ?? "" }

    public var description: String { path.description }

    /// The sentence a client sees, in a 422's `unknownFields` and in a 200's `unknown-field` warning.
    public var message: String {
        "unknown field \"\(name)\" is ignored: "
            + (suggestion.map { "did you mean \"\($0)\"?" } ?? "check its spelling and where it is nested")
    }
}

/// The unknown fields of one request: the first `JSONUnknownFields.limit` in document order, and how many
/// more there were. A request with thousands of stray members gets a bounded answer.
public struct JSONUnknownFields: Sendable, Equatable, RandomAccessCollection {
    public static let limit = 100

    public private(set) var listed: [JSONUnknownField] = []
    /// Unknown fields found beyond the first `limit`.
    public private(set) var omitted = 0

    public init() {}

    public init(_ fields: [JSONUnknownField], omitted: Int = 0) {
        listed = Array(fields.prefix(JSONUnknownFields.limit))
        self.omitted = omitted + Swift.max(0, fields.count - JSONUnknownFields.limit)
    }

    public var startIndex: Int { listed.startIndex }
    public var endIndex: Int { listed.endIndex }
    public subscript(i: Int) -> JSONUnknownField { listed[i] }

    /// Every unknown field, listed or not.
    public var total: Int { listed.count + omitted }

    /// Keeps `field` while fewer than `limit` are listed; counts it otherwise.
    public mutating func append(_ field: JSONUnknownField) {
        if listed.count < JSONUnknownFields.limit { listed.append(field) } else { omitted += 1 }
    }

    /// `other` after these, still capped (the matrix: its own members, then the scene's).
    public mutating func append(contentsOf other: JSONUnknownFields) {
        for f in other.listed { append(f) }
        omitted += other.omitted
    }

    /// The same fields with `prefix` put before each path (a scene nested in a matrix request).
    public func nested(under prefix: JSONPointer) -> JSONUnknownFields {
        var out = self
        out.listed = listed.map {
            JSONUnknownField(path: JSONPointer(prefix.tokens + $0.path.tokens), suggestion: $0.suggestion)
        }
        return out
    }

    /// The sentence for the fields beyond the limit.
    public var omittedMessage: String {
        "\(omitted) more unknown field\(omitted == 1 ? " is" : "s are") ignored and not listed "
            + "(only the first \(JSONUnknownFields.limit) are)"
    }

    /// `[{"path","message"}]`: each listed field, then one entry at the root with the count of the rest.
    public var json: JSONValue {
        var items: [JSONValue] = listed.map {
            .object(["path": .string($0.path.description), "message": .string($0.message)])
        }
        if omitted > 0 { items.append(.object(["path": "", "message": .string(omittedMessage)])) }
        return .array(items)
    }
}

/// "Did you mean": a known name one edit away from an unknown one.
public enum NameSuggestion {
    /// The first of `candidates` that `name` is a typo of: equal ignoring case, or one insertion, deletion,
    /// substitution or swap of two adjacent characters away (Damerau–Levenshtein distance 1), compared
    /// case-insensitively. nil when none is, or when `name` is itself a candidate.
    public static func suggestion<S: Sequence>(for name: String, among candidates: S) -> String?
    where S.Element == String {
        let lowered = Array(name.lowercased().unicodeScalars)
        var oneEdit: String? = nil
        var caseOnly: String? = nil
        for candidate in candidates {
            if candidate == name { return nil }
            let c = Array(candidate.lowercased().unicodeScalars)
            if c == lowered {
                if caseOnly == nil { caseOnly = candidate }
                continue
            }
            if oneEdit == nil, withinOneEdit(lowered, c) { oneEdit = candidate }
        }
        return caseOnly ?? oneEdit
    }

    /// Damerau–Levenshtein (optimal string alignment) distance ≤ 1.
    static func withinOneEdit(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        let m = a.count
        let n = b.count
        if Swift.abs(m - n) > 1 { return false }
        var i = 0
        while i < min(m, n), a[i] == b[i] { i += 1 }
        if i == min(m, n) { return true }  // equal, or one extra character at the end
        if m == n {
            if a[(i + 1)...] == b[(i + 1)...] { return true }  // one substitution
            return i + 1 < m && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]  // one swap
        }
        let (long, short) = m > n ? (a, b) : (b, a)
        return long[(i + 1)...] == short[i...]  // one insertion or deletion
    }
}
