import HTTPServer
import JSON

/// RFC 9457 problem details as `application/problem+json`, written by the deterministic JSON writer.
/// Extension members: `errors` (every violation with its JSON pointer, for 422), `line`/`column`/`offset`
/// (where a body stopped being JSON, for 400).
enum Problem {
    static func response(
        status: HTTPStatus, detail: String, title: String? = nil, extra: [JSONMember] = [], headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var o = JSONObject([
            JSONMember("type", "about:blank"),
            JSONMember("title", .string(title ?? status.reasonPhrase)),
            JSONMember("status", .number(Double(status.code))),
            JSONMember("detail", .string(detail)),
        ])
        o.members.append(contentsOf: extra)
        var h = headers
        h.set("Content-Type", "application/problem+json")
        return HTTPResponse(status: status, headers: h, body: JSONWriter.encode(.object(o)))
    }

    /// 422 listing every violation (docs/api.md#problem-invalid) and, beside them, the members no rule read (`unknownFields`,
    /// when there are any): a misspelt member is often why a required one is missing.
    static func invalid(
        _ errors: [JSONIssue], what: String = "scene", unknownFields: JSONUnknownFields = JSONUnknownFields()
    ) -> HTTPResponse {
        var extra = [JSONMember("errors", issuesJSON(errors))]
        if unknownFields.total > 0 { extra.append(JSONMember("unknownFields", unknownFields.json)) }
        let unknown = unknownFields.total
        return response(
            status: .unprocessableContent,
            detail: "The \(what) is valid JSON but breaks \(errors.count) rule\(errors.count == 1 ? "" : "s"): "
                + "see errors, each with the JSON pointer of the offending value"
                + (unknown == 0
                    ? "." : "; \(unknown) unknown field\(unknown == 1 ? " is" : "s are") listed in unknownFields."),
            extra: extra)
    }

    static func issuesJSON(_ errors: [JSONIssue]) -> JSONValue {
        .array(errors.map { .object(["path": .string($0.path.description), "message": .string($0.message)]) })
    }

    /// 400 for a body that is not JSON, saying where it broke. A repeated key is valid JSON grammar
    /// (RFC 8259 only says names SHOULD be unique) that Hinge refuses — a 422, like any other rule.
    static func notJSON(_ error: JSONParseError) -> HTTPResponse {
        if case .duplicateKey(let key) = error.reason {
            return response(
                status: .unprocessableContent,
                detail:
                    "The body repeats the key \"\(key)\" in one object (line \(error.line), column \(error.column)): "
                    + "keep one, so that no value is silently dropped.",
                extra: [
                    JSONMember(
                        "errors",
                        .array([.object(["path": "", "message": .string(error.message)])])),
                    JSONMember("line", .number(Double(error.line))),
                    JSONMember("column", .number(Double(error.column))),
                    JSONMember("offset", .number(Double(error.offset))),
                ])
        }
        return response(
            status: .badRequest, detail: "The body is not valid JSON: \(error.message)",
            extra: [
                JSONMember("line", .number(Double(error.line))), JSONMember("column", .number(Double(error.column))),
                JSONMember("offset", .number(Double(error.offset))),
            ])
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
