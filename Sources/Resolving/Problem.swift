import JSON

/// Why an operation of the core cannot answer, as a value: what went wrong (`Kind`), the sentence that says so,
/// and the members its problem document (RFC 9457) carries beside it — `errors` with the JSON pointer of every
/// violation, `unknownFields`, `line`/`column`/`offset`, `work`/`maxWork`, `maxResponseBytes`.
///
/// Every operation of the core (resolve, the matrix, devices, constant sets, the request log) fails with this one
/// type. The kind decides the document's `status` (`Kind.status`, the one table of it); the service answers with
/// that status, the request log stores the document and the CLI prints it.
public struct Problem: Error, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The body does not parse as JSON (docs/api.md#problem-not-json).
        case notJSON
        /// Valid JSON that breaks a rule, a repeated key included: every violation listed
        /// (docs/api.md#problem-invalid).
        case invalid
        /// A matrix past its work budget (docs/api.md#matrix-limit).
        case tooMuchWork
        /// An answer past the response budget.
        case responseTooLarge
        /// A parameter of the request (a query item, a name in the path) that the operation cannot take.
        case badParameter
        /// What the request names does not exist (a device, a set or version, a record).
        case notFound
        /// The operation is never allowed on what it names (a built-in device profile).
        case forbidden
        /// The operation conflicts with what is stored (a retired set, a record stored truncated).
        case conflict
        /// The caller's precondition (`If-Match`, `If-None-Match: *`) does not hold.
        case preconditionFailed
        /// The store could not do its part (`cause` says why, for the server's log).
        case unavailable

        /// The document's `status`: what the service answers with. 400 for a body that is not JSON or a bad
        /// parameter; 422 for a content that breaks a rule or asks too much (the same request always gets the
        /// same answer, and asking for less is the fix); 503 when the store failed.
        public var status: Int {
            switch self {
            case .notJSON, .badParameter: return 400
            case .invalid, .tooMuchWork, .responseTooLarge: return 422
            case .notFound: return 404
            case .forbidden: return 403
            case .conflict: return 409
            case .preconditionFailed: return 412
            case .unavailable: return 503
            }
        }

        /// The document's `title`: the reason phrase of `status` (RFC 9110), as the status line says it.
        public var title: String {
            switch self {
            case .notJSON, .badParameter: return "Bad Request"
            case .invalid, .tooMuchWork, .responseTooLarge: return "Unprocessable Content"
            case .notFound: return "Not Found"
            case .forbidden: return "Forbidden"
            case .conflict: return "Conflict"
            case .preconditionFailed: return "Precondition Failed"
            case .unavailable: return "Service Unavailable"
            }
        }
    }

    public var kind: Kind
    public var detail: String
    /// Members after `type`, `title`, `status` and `detail`, in order.
    public var members: [JSONMember]
    /// The failure behind an `unavailable` problem (the store's): for the server's log only, never in the document.
    public var cause: (any Error & Sendable)?

    public init(_ kind: Kind, detail: String, members: [JSONMember] = [], cause: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.detail = detail
        self.members = members
        self.cause = cause
    }

    /// The problem document's bytes.
    public var document: [UInt8] {
        ProblemDocument.encode(status: kind.status, title: kind.title, detail: detail, members: members)
    }
}

/// The one builder of `application/problem+json` documents (RFC 9457): the core's problems and the service's
/// own (404, 405, 409, 503…) alike.
public enum ProblemDocument {
    public static func encode(status: Int, title: String, detail: String, members: [JSONMember] = []) -> [UInt8] {
        var o = JSONObject([
            JSONMember("type", "about:blank"),
            JSONMember("title", .string(title)),
            JSONMember("status", .number(Double(status))),
            JSONMember("detail", .string(detail)),
        ])
        o.members.append(contentsOf: members)
        return JSONWriter.encode(.object(o))
    }

    /// `[{"path", "message"}…]`: each violation with the JSON pointer of the offending value.
    public static func issues(_ errors: [JSONIssue]) -> JSONValue {
        .array(errors.map { .object(["path": .string($0.path.description), "message": .string($0.message)]) })
    }
}

extension Problem {
    /// 422 listing every violation (docs/api.md#problem-invalid) and, beside them, the members no rule read
    /// (`unknownFields`, when there are any): a misspelt member is often why a required one is missing.
    public static func invalid(
        _ errors: [JSONIssue], what: String = "scene", unknownFields: JSONUnknownFields = JSONUnknownFields()
    ) -> Problem {
        let listed = JSONIssue.capped(errors)
        let total = JSONIssue.total(listed)
        var members = [JSONMember("errors", ProblemDocument.issues(listed))]
        if unknownFields.total > 0 { members.append(JSONMember("unknownFields", unknownFields.json)) }
        let unknown = unknownFields.total
        return Problem(
            .invalid,
            detail: "The \(what) is valid JSON but breaks \(total) rule\(total == 1 ? "" : "s"): "
                + (total > JSONIssue.listLimit ? "see errors, the first \(JSONIssue.listLimit) listed" : "see errors")
                + ", each with the JSON pointer of the offending value"
                + (unknown == 0
                    ? "." : "; \(unknown) unknown field\(unknown == 1 ? " is" : "s are") listed in unknownFields."),
            members: members)
    }

    /// `body` parsed as JSON, or the problem that says where it broke (`notJSON`).
    public static func parse(_ body: [UInt8]) -> Result<JSONValue, Problem> {
        do throws(JSONParseError) { return .success(try JSONParser.parse(body)) } catch {
            return .failure(.notJSON(error))
        }
    }

    /// 400 for a body that is not JSON, saying where it broke. A repeated key is valid JSON grammar
    /// (RFC 8259 only says names SHOULD be unique) that Hinge refuses — a 422, like any other rule.
    public static func notJSON(_ error: JSONParseError) -> Problem {
        let position = [
            JSONMember("line", .number(Double(error.line))), JSONMember("column", .number(Double(error.column))),
            JSONMember("offset", .number(Double(error.offset))),
        ]
        if case .duplicateKey(let key) = error.reason {
            return Problem(
                .invalid,
                detail:
                    "The body repeats the key \"\(key)\" in one object (line \(error.line), column \(error.column)): "
                    + "keep one, so that no value is silently dropped.",
                members: [JSONMember("errors", .array([.object(["path": "", "message": .string(error.message)])]))]
                    + position)
        }
        return Problem(.notJSON, detail: "The body is not valid JSON: \(error.message)", members: position)
    }

    /// The response would pass `limit` bytes (`--max-response-bytes`). Not 413, which is about the request's
    /// own content, nor a 5xx: asking for less (fewer combinations, a smaller scene) is the fix. `done` of
    /// `total` parts were written when it stopped.
    public static func responseTooLarge(written: Int, done: Int, of total: Int, limit: Int) -> Problem {
        let message =
            done < total
            ? "the response would exceed \(limit) bytes: \(written) bytes after \(done) of \(total) combinations "
                + "(about \(written / max(done, 1) * total) in all); ask for fewer combinations or send a smaller scene"
            : "the response would be \(written) bytes, more than the \(limit) allowed; ask for less or send a "
                + "smaller scene"
        return Problem(
            .responseTooLarge, detail: "The response is too large: \(message).",
            members: [
                JSONMember("errors", ProblemDocument.issues([JSONIssue(path: .root, message: message)])),
                JSONMember("maxResponseBytes", .number(Double(limit))),
            ])
    }
}

extension Problem {
    /// 404: nothing has the name the request gives.
    public static func notFound(_ detail: String) -> Problem { Problem(.notFound, detail: detail) }

    /// 400: a parameter the operation cannot take, named in the detail.
    public static func badParameter(_ detail: String) -> Problem { Problem(.badParameter, detail: detail) }
}
