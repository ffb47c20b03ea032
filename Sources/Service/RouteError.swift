import HTTPServer
import JSON
import Resolving
import Store

/// The one error a route handler throws (as Hummingbird's `HTTPResponseError` is): a problem (RFC 9457) with
/// the status it is answered with and any headers it needs (`Retry-After`, `WWW-Authenticate`). It becomes an
/// `application/problem+json` response in one place, `response`. A core `Problem` becomes one with the status
/// its kind states (`Problem.Kind.status`, the one table of it); a store failure behind it is logged, in full,
/// under a new `requestId` that the document carries (`ErrorLog`).
struct RouteError: Error, Sendable {
    var status: HTTPStatus
    var detail: String
    var title: String?
    var members: [JSONMember]
    var headers: HTTPHeaders
    /// The store's failure, logged when the response is built.
    var cause: (any Error & Sendable)?

    init(
        status: HTTPStatus, detail: String, title: String? = nil, members: [JSONMember] = [],
        headers: HTTPHeaders = [:]
    ) {
        self.status = status
        self.detail = detail
        self.title = title
        self.members = members
        self.headers = headers
    }

    /// A core problem, answered with its kind's status.
    init(_ problem: Problem, headers: HTTPHeaders = [:]) {
        self.init(
            status: HTTPStatus(problem.kind.status), detail: problem.detail, members: problem.members,
            headers: headers)
        title = problem.kind.title
        cause = problem.cause
    }

    /// The problem document's response. `failures` logs a store failure (and gives the document its
    /// `requestId`); without it (a refusal before any store work) there is nothing to log.
    func response(_ failures: FailureLog? = nil, method: HTTPMethod = .GET, path: String = "") -> HTTPResponse {
        var members = self.members
        if let cause {
            let id = ErrorLog.newRequestID()
            failures?.log(cause, id: id, method: method, path: path, detail: detail)
            members.append(JSONMember("requestId", .string(id)))
        }
        var h = headers
        h.set("Content-Type", "application/problem+json")
        let body = ProblemDocument.encode(
            status: status.code, title: title ?? status.reasonPhrase, detail: detail, members: members)
        return HTTPResponse(status: status, headers: h, body: body)
    }

    /// docs/api.md#content-types: any content type is accepted when the body is JSON, except explicitly non-JSON
    /// ones (415).
    static func requireJSON(_ request: HTTPRequest) throws(RouteError) {
        guard let raw = request.headers["Content-Type"] else { return }
        if isPlainJSONMediaType(raw) { return }  // the common case, without splitting or lowercasing
        let type = mediaType(raw)
        if type.hasPrefix("multipart/") || type == "application/xml" || type == "text/xml" || type.hasSuffix("+xml") {
            throw RouteError(
                status: .unsupportedMediaType,
                detail: "Content-Type \(type) is not JSON: send the scene as JSON (any other content type is accepted, "
                    + "so plain `curl -d @scene.json` works).")
        }
    }

    /// A `Content-Type` value's media type, without parameters, in lower case (`text/x-swift; charset=utf-8` →
    /// `text/x-swift`).
    static func mediaType(_ header: String) -> String {
        header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIISpaces().lowercased() } ?? ""
    }

    /// A query parameter the route cannot take (400).
    static func badQuery(_ name: String, _ detail: String) -> RouteError {
        RouteError(status: .badRequest, detail: "Query parameter \(name): \(detail)")
    }
}

/// Where store failures are logged (`ErrorLog`), with what the store says of its storage.
struct FailureLog: Sendable {
    let errorLog: ErrorLog
    let store: Store?

    func log(_ error: any Error & Sendable, id: String, method: HTTPMethod, path: String, detail: String) {
        // The detail's first clause ("The request log could not be cleared"), then everything the store said.
        let clause = detail.prefix { $0 != ":" }
        var line =
            "request \(id): \(method.rawValue) \(path): \(clause.prefix(1).lowercased() + clause.dropFirst()): \(error)"
        if let problem = store?.storageProblem, !"\(error)".contains(problem) { line += " (storage: \(problem))" }
        errorLog.error(line)
    }
}

/// Whether `value` is `application/json`, alone or directly followed by parameters (`;charset=utf-8`,
/// `; charset=utf-8`), in any case: a byte comparison that accepts only what the general check accepts too.
func isPlainJSONMediaType(_ value: String) -> Bool {
    let expected: StaticString = "application/json"
    let n = expected.utf8CodeUnitCount
    var value = value
    return value.withUTF8 { bytes in
        guard bytes.count >= n else { return false }
        // Anything else after the type (even a space) goes to the general check.
        if bytes.count > n && bytes[n] != UInt8(ascii: ";") { return false }
        var i = 0
        while i < n {
            let b = bytes[i]
            if ((b >= 65 && b <= 90) ? b | 0x20 : b) != expected.utf8Start[i] { return false }
            i += 1
        }
        return true
    }
}

extension Substring {
    func trimmingASCIISpaces() -> String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// Runs an operation of the core; its problem becomes the route's error.
@inline(__always)
func core<T>(_ operation: @autoclosure () throws(Problem) -> T) throws(RouteError) -> T {
    do throws(Problem) { return try operation() } catch { throw RouteError(error) }
}

/// The value of a core operation's completion, or its problem as the route's error.
func core<T>(_ result: Result<T, Problem>) throws(RouteError) -> T {
    switch result {
    case .success(let value): return value
    case .failure(let problem): throw RouteError(problem)
    }
}

extension HTTPStatus {
    /// The status of a core answer: 200, or its problem's (`Problem.Kind.status`).
    init(_ output: borrowing ResolveOutput) { self.init(output.problemKind?.status ?? 200) }
}

extension Result where Success == Void, Failure == Problem {
    /// A write's completion: `status` (204) once it is done, or its problem as the route's error.
    func answered(_ status: HTTPStatus) throws(RouteError) -> HTTPResponse {
        try core(self)
        return HTTPResponse(status: status)
    }
}
