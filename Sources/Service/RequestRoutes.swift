import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store
import Wireframe

/// The request log (docs/api.md#request-log): list, one record, its picture, replay, clear.
enum RequestRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let log = store.requestLog
        // Reads (and the replay and picture computed from them) run on the store's read threads.
        let readers = store.readWorkers
        router.add(
            .GET, "/v1/requests", query: RecordQueryMapping.parameters, reading: readers,
            { request in
                let query: RecordQuery
                do throws(RecordQueryMapping.InvalidParameter) {
                    query = try RecordQueryMapping.query(from: request.queryItems)
                } catch {
                    return Problem.response(
                        status: .badRequest, detail: "Query parameter \(error.parameter): \(error.detail)")
                }
                do throws(StoreError) {
                    return .json(JSONWriter.encode(RecordQueryMapping.json(try log.list(query))))
                } catch {
                    return storeProblem(error, request, context)
                }
            })
        router.add(
            .GET, "/v1/requests/{id}", reading: readers,
            { request in
                switch detail(request, log, context) {
                case .failure(let p): return p.response
                case .success(let d):
                    var o = RecordQueryMapping.json(d.summary).objectValue ?? JSONObject()
                    o["request"] = bodyJSON(d.requestBody, truncated: d.summary.requestTruncated)
                    o["response"] = bodyJSON(d.responseBody, truncated: d.summary.responseTruncated)
                    return .json(JSONWriter.encode(.object(o)))
                }
            })
        // The record is read on a read thread; its picture is drawn on the worker pool, so that pictures
        // (however many are asked for at once) never hold the read threads that listings need.
        router.add(
            .GET, "/v1/requests/{id}/svg", query: ["width"], reading: readers,
            { request, reply in
                let width: Int?
                switch ResolveRoutes.svgWidth(request) {
                case .failure(let refused): return reply.send(refused.response)
                case .success(let w): width = w
                }
                switch detail(request, log, context) {
                case .failure(let p): reply.send(p.response)
                case .success(let d):
                    context.offload(reply) { reply.send(recordPicture(d, width: width, catalog: context.catalog)) }
                }
            })
        router.add(
            .POST, "/v1/requests/{id}/replay", reading: readers,
            { request in
                switch detail(request, log, context) {
                case .failure(let p): return p.response
                case .success(let d):
                    let differences: [Replay.Difference]
                    switch Replay.outcome(of: d, catalog: context.catalog, constantSets: context.store?.constantSets) {
                    case .skipped:
                        return Problem.response(
                            status: .conflict,
                            detail:
                                "Record \(d.summary.id) was stored truncated (bodies are capped): it cannot be replayed."
                        )
                    case .unchanged: differences = []
                    case .changed(let list): differences = list
                    }
                    return .json(
                        JSONWriter.encode(
                            .object([
                                "unchanged": .bool(differences.isEmpty),
                                "differences": .array(
                                    differences.map {
                                        .object([
                                            "path": .string($0.path.description), "before": $0.before,
                                            "after": $0.after,
                                        ])
                                    }),
                            ])))
                }
            })
        router.add(.DELETE, "/v1/requests") { request, reply in
            if let refused = context.authorization.refusal(request) { return reply.send(refused) }
            log.clear { result in
                reply.onLoop {
                    switch result {
                    case .success: reply.send(HTTPResponse(status: .noContent))
                    case .failure(let e): reply.send(storeProblem(e, request, context, operation: .clear))
                    }
                }
            }
        }
    }

    struct RouteProblem: Error { let response: HTTPResponse }

    /// A record's picture title, for a designer: the device (its profile's name while it has one) · the posture
    /// (foldables) · when it was recorded, to the second, in UTC (`2025-01-31 09:05:07 UTC`).
    static func title(_ s: RecordSummary, catalog: any DeviceCatalog) -> String {
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

    /// The wireframe of a recorded resolution; 409 when the record holds none: a 400/422 answer, a matrix,
    /// or a body stored truncated (docs/api.md#request-log).
    static func recordPicture(_ d: RecordDetail, width: Int?, catalog: any DeviceCatalog) -> HTTPResponse {
        let truncated = d.summary.requestTruncated || d.summary.responseTruncated
        guard !truncated, let value = try? JSONParser.parse(d.responseBody),
            let svg = SVGRenderer.render(
                resolutionJSON: value, scene: try? JSONParser.parse(d.requestBody),
                title: title(d.summary, catalog: catalog), width: width)
        else {
            return Problem.response(
                status: .conflict,
                detail:
                    "Record \(d.summary.id) holds no picturable resolution (status \(d.summary.status), "
                    + "path \(d.summary.path)\(truncated ? ", stored truncated" : ""))."
            )
        }
        return ResolveRoutes.svgResponse(svg)
    }

    static func detail(_ request: HTTPRequest, _ log: RequestLog, _ context: ServiceContext) -> Result<
        RecordDetail, RouteProblem
    > {
        let text = request.pathParameters["id"] ?? ""
        let missing = RouteProblem(
            response: Problem.response(status: .notFound, detail: "No recorded request has the id \"\(text)\"."))
        guard let id = RecordID(text) else { return .failure(missing) }
        do throws(StoreError) {
            guard let d = try log.record(id: id) else { return .failure(missing) }
            return .success(d)
        } catch {
            return .failure(RouteProblem(response: storeProblem(error, request, context)))
        }
    }

    /// A stored body as JSON when it parses (the usual case), else as a string; truncated bodies are strings.
    static func bodyJSON(_ bytes: [UInt8], truncated: Bool) -> JSONValue {
        if !truncated, let v = try? JSONParser.parse(bytes) { return v }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// A 400 for a bad query parameter; otherwise a 503 that says what could not be done (read, cleared)
    /// and why in a client's terms, with the `requestId` of the log line that has the details.
    static func storeProblem(
        _ error: StoreError, _ request: HTTPRequest, _ context: ServiceContext,
        operation: StoreProblem.Operation = .read
    ) -> HTTPResponse {
        switch error {
        case .invalidQuery(let parameter, let detail):
            return Problem.response(status: .badRequest, detail: "Query parameter \(parameter): \(detail)")
        default:
            return StoreProblem.response(
                error, operation: operation, what: "the request log", request: request, log: context.errorLog,
                store: context.store)
        }
    }
}
