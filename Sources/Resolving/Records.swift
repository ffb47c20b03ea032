import JSON
import LayoutEngine
import Store

/// The request log as the API offers it (docs/api.md#request-log): listings, one record, its picture, its
/// replay, clearing. Each answers a domain value or a `Problem`; the reads block (callers run them on the store's
/// read threads), the clearing completes on the writer thread.
public struct Records: Sendable {
    let log: RequestLog
    let catalog: any DeviceCatalog
    let constantSets: (any ConstantSetCatalog)?

    public init(_ log: RequestLog, catalog: any DeviceCatalog, constantSets: (any ConstantSetCatalog)?) {
        self.log = log
        self.catalog = catalog
        self.constantSets = constantSets
    }

    /// One page of the log: `{"items": [...], "next": cursor or null}`; 400 for a filter the store refuses.
    public func list(_ query: RecordQuery) throws(Problem) -> JSONValue {
        do throws(StoreError) { return Self.json(try log.list(query)) } catch { throw Self.problem(error) }
    }

    /// The record `id` names; 404 when there is none.
    public func detail(_ text: String) throws(Problem) -> RecordDetail {
        let missing = Problem.notFound("No recorded request has the id \"\(text)\".")
        guard let id = RecordID(text) else { throw missing }
        let found: RecordDetail?
        do throws(StoreError) { found = try log.record(id: id) } catch { throw Self.problem(error) }
        guard let found else { throw missing }
        return found
    }

    /// One record: its summary, then its request and response (JSON when they parse, else strings).
    public static func json(_ d: RecordDetail) -> JSONValue {
        var o = json(d.summary).objectValue ?? JSONObject()
        o["request"] = body(d.requestBody, truncated: d.summary.requestTruncated)
        o["response"] = body(d.responseBody, truncated: d.summary.responseTruncated)
        return .object(o)
    }

    /// The wireframe of a recorded resolution; 409 when the record holds none: a 400/422 answer, a matrix, or a
    /// body stored truncated (docs/api.md#request-log).
    public func picture(_ d: RecordDetail, width: Int?) throws(Problem) -> String {
        let truncated = d.summary.requestTruncated || d.summary.responseTruncated
        guard !truncated, let value = try? JSONParser.parse(d.responseBody),
            let svg = Picture.draw(
                resolutionJSON: value, scene: try? JSONParser.parse(d.requestBody), title: title(d.summary),
                width: width)
        else {
            throw Problem(
                .conflict,
                detail: "Record \(d.summary.id) holds no picturable resolution (status \(d.summary.status), "
                    + "path \(d.summary.path)\(truncated ? ", stored truncated" : ""))."
            )
        }
        return svg
    }

    /// The record resolved again and compared with what was answered: `{"unchanged", "differences"}`; 409 for a
    /// record stored truncated.
    public func replay(_ d: RecordDetail) throws(Problem) -> JSONValue {
        let differences: [Replay.Difference]
        switch Replay.outcome(of: d, catalog: catalog, constantSets: constantSets) {
        case .skipped:
            throw Problem(
                .conflict,
                detail: "Record \(d.summary.id) was stored truncated (bodies are capped): it cannot be replayed.")
        case .unchanged: differences = []
        case .changed(let list): differences = list
        }
        return .object([
            "unchanged": .bool(differences.isEmpty),
            "differences": .array(
                differences.map {
                    .object(["path": .string($0.path.description), "before": $0.before, "after": $0.after])
                }),
        ])
    }

    /// Deletes every record on the writer thread; `done` is called there.
    public func clear(_ done: @escaping @Sendable (Result<Void, Problem>) -> Void) {
        log.clear { result in done(result.mapError { .store($0, .clear, what: "the request log") }) }
    }

    /// A record's picture title, for a designer: the device (its profile's name while it has one) · the posture
    /// (foldables) · when it was recorded, to the second, in UTC (`2025-01-31 09:05:07 UTC`).
    public func title(_ s: RecordSummary) -> String {
        var parts: [String] = []
        if let device = s.device { parts.append(catalog.profile(id: device)?.name ?? device) }
        if let posture = s.posture { parts.append(posture) }
        let iso = s.receivedAt.iso8601.utf8  // YYYY-MM-DDTHH:MM:SS.mmmZ
        if iso.count == 24 {
            parts.append(
                String(decoding: iso.prefix(10), as: UTF8.self) + " "
                    + String(decoding: iso.dropFirst(11).prefix(8), as: UTF8.self) + " UTC")
        } else {
            parts.append(s.receivedAt.iso8601)  // a year beyond 9999 or before 0
        }
        return parts.joined(separator: " · ")
    }

    /// A stored body as JSON when it parses (the usual case), else as a string; truncated bodies are strings.
    static func body(_ bytes: [UInt8], truncated: Bool) -> JSONValue {
        if !truncated, let v = try? JSONParser.parse(bytes) { return v }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// A 400 for a query the store refuses; otherwise the store's failure to read.
    static func problem(_ error: StoreError) -> Problem {
        if case .invalidQuery(let parameter, let detail) = error {
            return .badParameter("Query parameter \(parameter): \(detail)")
        }
        return .store(error, .read, what: "the request log")
    }

    /// The list item of `GET /v1/requests`, and the start of `GET /v1/requests/{id}`.
    public static func json(_ s: RecordSummary) -> JSONValue {
        .object([
            "id": .string(s.id.description), "receivedAt": .string(s.receivedAt.iso8601),
            "durationMicros": .number(Double(s.durationMicros)), "device": s.device.map { .string($0) } ?? .null,
            "status": .number(Double(s.status)), "codes": .array(s.codes.map { .string($0) }), "path": .string(s.path),
            "engineVersion": .string(s.engineVersion), "requestSize": .number(Double(s.requestSize)),
            "responseSize": .number(Double(s.responseSize)), "requestTruncated": .bool(s.requestTruncated),
            "responseTruncated": .bool(s.responseTruncated), "replica": .string(s.replicaID),
            "client": s.client.map { .string($0) } ?? .null, "posture": s.posture.map { .string($0) } ?? .null,
            "constantSet": .string(s.constantSet ?? ConstantSetReference.defaultName),
        ])
    }

    /// `{"items": [...], "next": cursor or null}`.
    public static func json(_ page: RecordPage) -> JSONValue {
        .object(["items": .array(page.items.map { json($0) }), "next": page.next.map { .string($0) } ?? .null])
    }
}
