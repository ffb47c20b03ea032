import Threads

/// An HTTP method token (`GET`, `POST`…). Any RFC 9110 token is accepted by the parser; the common
/// ones are constants so that parsing them allocates nothing.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let GET = HTTPMethod("GET")
    public static let HEAD = HTTPMethod("HEAD")
    public static let POST = HTTPMethod("POST")
    public static let PUT = HTTPMethod("PUT")
    public static let DELETE = HTTPMethod("DELETE")
    public static let PATCH = HTTPMethod("PATCH")
    public static let OPTIONS = HTTPMethod("OPTIONS")
}

/// HTTP/1.0 or HTTP/1.1 (the parser answers 505 to anything else).
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// Header fields in arrival order, looked up case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }
    /// Empty, with room for `capacity` fields (the parser's request heads: one allocation, no growth).
    public init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    public var count: Int { fields.count }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        // By index, lengths first: no field is copied (with its two strings retained and released) to be
        // looked at, and most names differ in length.
        let length = name.utf8.count
        for k in fields.indices
        where fields[k].name.utf8.count == length && asciiCaseInsensitiveEquals(fields[k].name, name) {
            return fields[k].value
        }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { asciiCaseInsensitiveEquals($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Whether a field's name starts with `lowercasePrefix` (ASCII, any case in the field): one pass over the
    /// names' first bytes, so that a handler can skip looking up several rare headers one by one.
    public func containsName(withPrefix lowercasePrefix: StaticString) -> Bool {
        let n = lowercasePrefix.utf8CodeUnitCount
        let p = lowercasePrefix.utf8Start
        for k in fields.indices {
            var name = fields[k].name
            let found = name.withUTF8 { b -> Bool in
                guard n > 0, b.count >= n, b[0] | 0x20 == p[0] else { return false }
                for i in 1..<n where b[i] | 0x20 != p[i] { return false }  // `-` | 0x20 is `-`
                return true
            }
            if found { return true }
        }
        return false
    }

    /// Appends a field (keeps existing ones of the same name).
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field of `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) { fields.removeAll { asciiCaseInsensitiveEquals($0.name, name) } }
}

@inline(__always)
func asciiLower(_ b: UInt8) -> UInt8 { (b >= 65 && b <= 90) ? b | 0x20 : b }

func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }  // most names differ in length: no copy, no loop
    if a == b { return true }  // names as written in the code and by most clients: one comparison
    var a = a
    var b = b
    return a.withUTF8 { ua in
        b.withUTF8 { ub in
            guard ua.count == ub.count else { return false }
            for i in 0..<ua.count where asciiLower(ua[i]) != asciiLower(ub[i]) { return false }
            return true
        }
    }
}

/// One parsed request, complete with its body (chunked bodies are already decoded).
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The path of the request target, still percent-encoded (`/v1/devices/pixel-9`).
    public var path: String
    /// The part after `?`, without it; nil when the target has no `?`.
    public var query: String? { didSet { queryItems = QueryItem.parse(query) } }
    /// The query's `name=value` pairs, decoded (`+` and `%XX`), in order: split once, when the request is made.
    public private(set) var queryItems: [QueryItem]
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values of the `{name}` segments of the route that matched (filled by `Router`).
    public var pathParameters: [String: String] = [:]
    /// Whether the connection stays open after this request (HTTP/1.1 default, HTTP/1.0 only with
    /// `Connection: keep-alive`, never with `Connection: close`).
    public var keepAlive: Bool
    /// The event loop that read the request (0-based, set before the handler runs): a handler that keeps
    /// state per loop (a snapshot, a cache) chooses it by this index, on whatever thread it finishes.
    public var loopIndex = 0
    /// The shard of the loop that read the request: what work done for it adds to or reads from (counters,
    /// snapshots kept per loop), on whatever thread it runs.
    public var shard: LoopShard { LoopShard(loopIndex: loopIndex) }

    public init(
        method: HTTPMethod, path: String, query: String? = nil, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = [:], body: [UInt8] = [], keepAlive: Bool = true
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.queryItems = QueryItem.parse(query)
        self.version = version
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }

    /// The decoded value of the first query parameter named `name`, or nil.
    public func queryParameter(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}

/// One `name=value` pair of a query, both decoded; a pair without `=` has the value `""`.
public struct QueryItem: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The pairs of `query`, in order (empty ones skipped); none without a query.
    static func parse(_ query: String?) -> [QueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return QueryItem(
                name: percentDecode(String(kv[0])), value: kv.count > 1 ? percentDecode(String(kv[1])) : "")
        }
    }
}

/// `%XX` and `+` decoding; invalid escapes are kept as they are.
public func percentDecode(_ s: String) -> String {
    var bytes: [UInt8] = []
    let u = Array(s.utf8)
    bytes.reserveCapacity(u.count)
    var i = 0
    while i < u.count {
        let c = u[i]
        if c == UInt8(ascii: "%"), i + 2 < u.count, let h = hexValue(u[i + 1]), let l = hexValue(u[i + 2]) {
            bytes.append(h << 4 | l)
            i += 3
        } else {
            bytes.append(c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i += 1
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

@inline(__always)
func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 48...57: return c - 48
    case 65...70: return c - 55
    case 97...102: return c - 87
    default: return nil
    }
}

/// A response: status, headers, body. `Date`, `Server`, `Content-Length` and `Connection` are added
/// by the server; do not set them here.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is already-encoded JSON bytes (`application/json`).
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        // Without extra headers every response shares one header list (no allocation per response).
        if headers.count == 0 { return HTTPResponse(status: status, headers: jsonHeaders, body: body) }
        var h = headers
        h.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: h, body: body)
    }

    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

    /// A response whose body is already-encoded JSON text (`application/json`).
    public static func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        json(Array(text.utf8), status: status, headers: headers)
    }

    public static func text(_ text: String, status: HTTPStatus = .ok, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// An RFC 9457 problem: `{"detail","status","title","type"}` as `application/problem+json`.
    /// `title` defaults to the status's reason phrase, `type` to `about:blank`. `Cache-Control: no-store`
    /// unless `headers` say otherwise: some error statuses (404, 405, 414, 501) are cacheable by default.
    public static func problem(
        status: HTTPStatus, title: String? = nil, detail: String, type: String = "about:blank",
        headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var h = headers
        h.set("Content-Type", "application/problem+json")
        if !h.contains("Cache-Control") { h.add("Cache-Control", "no-store") }
        var out = "{\"detail\":"
        appendJSONString(detail, to: &out)
        out += ",\"status\":\(status.code),\"title\":"
        appendJSONString(title ?? status.reasonPhrase, to: &out)
        out += ",\"type\":"
        appendJSONString(type, to: &out)
        out += "}"
        return HTTPResponse(status: status, headers: h, body: Array(out.utf8))
    }
}

/// A JSON string literal (quotes and escapes) appended to `out`; enough for problem details.
func appendJSONString(_ s: String, to out: inout String) {
    out.append("\"")
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out.append("\\\"")
        case "\\": out.append("\\\\")
        case "\n": out.append("\\n")
        case "\r": out.append("\\r")
        case "\t": out.append("\\t")
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    out.append("\"")
}
