import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store

/// What a request asks of its record (docs/api.md#recording-headers): `Hinge-Client: <name>`, stored with the
/// record as its client (a filter of the log), and `Hinge-Record: off`, which leaves the request unrecorded.
/// Read on the resolve and matrix routes before any work; a malformed header is a 400 that names it.
struct RecordingHeaders: Sendable, Equatable {
    /// The `Hinge-Client` value, nil without the header.
    var client: String?
    /// False with `Hinge-Record: off`.
    var record = true

    static let clientHeader = "Hinge-Client"
    static let recordHeader = "Hinge-Record"
    static let maxClientLength = 64

    /// The headers of `request`, or the 400 for the first malformed one (given twice, or a bad value).
    static func read(_ request: HTTPRequest) throws(RouteError) -> RecordingHeaders {
        var out = RecordingHeaders()
        // The usual request carries neither header: one pass over the names' first bytes says so.
        guard request.headers.containsName(withPrefix: "hinge-") else { return out }
        if let client = request.headers[clientHeader] {
            if request.headers.values(clientHeader).count > 1 { throw repeated(clientHeader) }
            guard isClientName(client) else {
                throw refusal(
                    clientHeader,
                    "expected a name of 1 to \(maxClientLength) characters among A–Z, a–z, 0–9, '.', '_' and '-', "
                        + "got \(quoted(client))")
            }
            out.client = client
        }
        if let record = request.headers[recordHeader] {
            if request.headers.values(recordHeader).count > 1 { throw repeated(recordHeader) }
            guard record == "off" else {
                throw refusal(recordHeader, "the one accepted value is \"off\" (do not record), got \(quoted(record))")
            }
            out.record = false
        }
        return out
    }

    /// 1 to 64 characters of `[A-Za-z0-9._-]`: also what `GET /v1/requests?client=` accepts.
    static func isClientName(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxClientLength else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F
                || b == 0x2D
        }
    }

    /// A header value in a problem's detail: quoted, and cut after 64 characters (a header may be kilobytes).
    private static func quoted(_ value: String) -> String {
        value.count <= maxClientLength
            ? "\"\(value)\"" : "\"\(value.prefix(maxClientLength))…\" (\(value.utf8.count) bytes)"
    }

    private static func repeated(_ name: String) -> RouteError {
        refusal(name, "given more than once; send it once")
    }

    private static func refusal(_ name: String, _ detail: String) -> RouteError {
        RouteError(
            status: .badRequest, detail: "Header \(name): \(detail).", members: [JSONMember("header", .string(name))])
    }
}

/// Sends a resolution only after its record is committed (no acknowledged request is lost), with the
/// record's id in `Hinge-Record-Id`. With `--no-record`, without a store or with `Hinge-Record: off`, the
/// response leaves at once, without that header; so does one whose record could not be written.
struct Recorder: Sendable {
    let log: RequestLog?
    let metrics: ServiceMetrics
    let errorLog: ErrorLog

    /// Records the request (its `facts` read only when it is recorded) and sends `response` once the record is
    /// committed. `status` is the answer's, whatever `response` became (a picture's answer is recorded as the
    /// resolution it draws).
    func record(
        path: String, recording: ResolveRoutes.Recording, request: HTTPRequest, status: Int,
        facts: @autoclosure () -> RecordFacts, reply: Reply, response: HTTPResponse
    ) {
        guard let log, recording.headers.record else { return reply.send(response) }
        let facts = facts()
        let record = RequestRecord(
            receivedAt: recording.receivedAt, durationMicros: reply.elapsedMicros, device: facts.device,
            status: status, codes: facts.codes, path: path, requestBody: request.body, responseBody: facts.body,
            engineVersion: LayoutEngine.version, client: recording.headers.client, posture: facts.posture,
            constantSet: facts.constantSet)
        let metrics = self.metrics
        let errorLog = self.errorLog
        log.append(record) { result in
            // On the writer thread, after the commit: only the result crosses back; the response is finished
            // and sent on the request's event loop. A failed commit is counted, shows in /readyz and /metrics,
            // and is logged (rate-limited); the client still gets its result.
            reply.onLoop {
                switch result {
                case .success(let id):
                    // The record exists now: the client may link to /v1/requests/{id} (and its picture).
                    var response = response
                    response.headers.add("Hinge-Record-Id", id.description)
                    reply.send(response)
                case .failure(let error):
                    metrics.recordFailures.add(1, ordering: .relaxed)
                    errorLog.error(
                        "request \(ErrorLog.newRequestID()): POST \(path): answered \(response.status) but its "
                            + "record was not written: \(error)")
                    reply.send(response)
                }
            }
        }
    }
}
