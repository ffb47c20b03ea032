import HTTPServer
import JSON
import Resolving

/// RFC 9457 problem details as `application/problem+json` responses. The document itself is built by the
/// core's one builder (`ProblemDocument`); a core problem (`ResolveProblem`) is answered with the status its
/// kind maps to here.
enum Problem {
    static func response(
        status: HTTPStatus, detail: String, title: String? = nil, extra: [JSONMember] = [], headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var h = headers
        h.set("Content-Type", "application/problem+json")
        let body = ProblemDocument.encode(
            status: status.code, title: title ?? status.reasonPhrase, detail: detail, members: extra)
        return HTTPResponse(status: status, headers: h, body: body)
    }

    /// A core problem as its response.
    static func response(_ problem: ResolveProblem) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(problem.kind), headers: ["Content-Type": "application/problem+json"],
            body: problem.document)
    }

    /// docs/api.md#content-types: any content type is accepted when the body is JSON, except explicitly non-JSON ones.
    static func unsupportedMediaType(_ request: HTTPRequest) -> HTTPResponse? {
        guard let raw = request.headers["Content-Type"] else { return nil }
        if isPlainJSONMediaType(raw) { return nil }  // the common case, without splitting or lowercasing
        let type = raw.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIISpaces().lowercased() } ?? ""
        if type.hasPrefix("multipart/") || type == "application/xml" || type == "text/xml" || type.hasSuffix("+xml") {
            return response(
                status: .unsupportedMediaType,
                detail: "Content-Type \(type) is not JSON: send the scene as JSON (any other content type is accepted, "
                    + "so plain `curl -d @scene.json` works).")
        }
        return nil
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

extension HTTPStatus {
    /// The status a core problem is answered with: 400 for a body that is not JSON, 422 for the rest (the
    /// status its document states).
    init(_ kind: ResolveProblem.Kind) {
        switch kind {
        case .notJSON: self = .badRequest
        case .invalid, .tooMuchWork, .responseTooLarge: self = .unprocessableContent
        }
    }

    /// The status of a core answer: 200, or its problem's.
    init(_ output: borrowing ResolveOutput) { self = output.problemKind.map { HTTPStatus($0) } ?? .ok }
}
