import HTTPServer
import JSON
import LayoutEngine
import Store

/// `POST /v1/resolve`, `POST /v1/resolve/matrix`, `GET /v1/constants` (SPEC §5–§7, §9).
enum ResolveRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        router.add(.POST, "/v1/resolve") { request, reply in
            if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
            if let refused = badFormat(request) { return reply.send(refused) }
            let receivedAt = Timestamp.now()
            // A typical scene (a few KB) resolves faster than a hand-off to a worker would take.
            if request.body.count <= HeavyWork.inlineBodyBytes {
                return resolveScene(request, reply, receivedAt: receivedAt, context: context)
            }
            context.offload(reply) { resolveScene(request, reply, receivedAt: receivedAt, context: context) }
        }
        router.add(.POST, "/v1/resolve/matrix") { request, reply in
            if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
            let receivedAt = Timestamp.now()
            if request.body.count > HeavyWork.inlineBodyBytes {
                return context.offload(reply) {
                    let out = Matrix.resolve(body: request.body, catalog: context.catalog, limits: context.matrixLimits)
                    sendMatrix(out, request, reply, receivedAt: receivedAt, context: context)
                }
            }
            // Planning is cheap and refuses what is too much before any of it is done; a plan with more work
            // than the loop should do runs on the worker pool.
            switch Matrix.plan(body: request.body, catalog: context.catalog, limits: context.matrixLimits) {
            case .refused(let out): sendMatrix(out, request, reply, receivedAt: receivedAt, context: context)
            case .plan(let plan):
                let limit = context.matrixLimits.maxResponseBytes
                if plan.work <= HeavyWork.inlineMatrixWork {
                    let out = Matrix.run(plan, catalog: context.catalog, maxResponseBytes: limit)
                    return sendMatrix(out, request, reply, receivedAt: receivedAt, context: context)
                }
                context.offload(reply) {
                    let out = Matrix.run(plan, catalog: context.catalog, maxResponseBytes: limit)
                    sendMatrix(out, request, reply, receivedAt: receivedAt, context: context)
                }
            }
        }
        let constants = JSONWriter.encode(Constants.json)
        router.add(.GET, "/v1/constants", sync: { _ in .json(constants) })
    }

    private static func resolveScene(_ request: HTTPRequest, _ reply: Reply, receivedAt: Timestamp, context: ServiceContext) {
        var out = Resolver.resolve(body: request.body, catalog: context.catalog)
        let limit = context.matrixLimits.maxResponseBytes
        if out.json.count > limit {
            out = ResolveOutput(
                problem: Problem.responseTooLarge(written: out.json.count, done: 1, of: 1, limit: limit), device: out.device)
        }
        var response = HTTPResponse.json(out.json, status: out.status)
        if out.isProblem {
            response.headers.set("Content-Type", "application/problem+json")
        } else if let resolution = out.resolution, wantsSVG(request) {
            response = svgResponse(SVGRenderer.render(resolution))
            if response.body.count > limit {
                out = ResolveOutput(
                    problem: Problem.responseTooLarge(written: response.body.count, done: 1, of: 1, limit: limit),
                    device: out.device)
                response = HTTPResponse.json(out.json, status: out.status)
                response.headers.set("Content-Type", "application/problem+json")
            }
        }
        context.recorder.record(
            path: "/v1/resolve", receivedAt: receivedAt, request: request, output: out, reply: reply, response: response)
    }

    private static func sendMatrix(
        _ out: ResolveOutput, _ request: HTTPRequest, _ reply: Reply, receivedAt: Timestamp, context: ServiceContext
    ) {
        var response = HTTPResponse.json(out.json, status: out.status)
        if out.isProblem { response.headers.set("Content-Type", "application/problem+json") }
        context.recorder.record(
            path: "/v1/resolve/matrix", receivedAt: receivedAt, request: request, output: out, reply: reply,
            response: response)
    }

    /// `?format=` is `json` or `svg`; anything else is a 400 rather than a silent JSON answer (openapi.yaml).
    static func badFormat(_ request: HTTPRequest) -> HTTPResponse? {
        guard let f = request.queryParameter("format"), f.lowercased() != "json", f.lowercased() != "svg" else {
            return nil
        }
        return Problem.response(status: 400, detail: "Query parameter format: expected json or svg, got \"\(f)\"")
    }

    /// SVG when asked with `?format=svg` or an `Accept` that names `image/svg+xml` (SPEC §9); `?format=json`
    /// wins over `Accept`.
    static func wantsSVG(_ request: HTTPRequest) -> Bool {
        if let f = request.queryParameter("format") { return f.lowercased() == "svg" }
        return request.headers["Accept"]?.lowercased().contains("image/svg+xml") ?? false
    }

    static func svgResponse(_ svg: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "image/svg+xml; charset=utf-8"], body: Array(svg.utf8))
    }
}

/// Sends a resolution only after its record is committed (issue #4: no acknowledged request is lost).
/// With `--no-record` or without a store the response leaves at once.
struct Recorder: Sendable {
    let log: RequestLog?
    let metrics: ServiceMetrics

    func record(
        path: String, receivedAt: Timestamp, request: HTTPRequest, output: ResolveOutput, reply: Reply,
        response: HTTPResponse
    ) {
        guard let log else { return reply.send(response) }
        let record = RequestRecord(
            receivedAt: receivedAt, durationMicros: reply.elapsedMicros, device: output.device, status: output.status,
            codes: output.codes, path: path, requestBody: request.body, responseBody: output.json,
            engineVersion: LayoutEngine.version)
        let metrics = self.metrics
        log.append(record) { result in
            // On the writer thread, after the commit. A failed commit is counted and shows in /readyz and
            // /metrics; the client still gets its result.
            if case .failure = result { metrics.recordFailures.add(1, ordering: .relaxed) }
            reply.send(response)
        }
    }
}
