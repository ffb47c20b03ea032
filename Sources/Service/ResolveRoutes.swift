import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store
import Wireframe

/// `POST /v1/resolve`, `POST /v1/resolve/svg`, `POST /v1/resolve/matrix`, `GET /v1/constants` (docs/api.md#resolve,
/// docs/api.md#resolve-svg, docs/api.md#matrix, docs/api.md#constants-route).
enum ResolveRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        router.add(.POST, "/v1/resolve", query: ["format", "width"]) { request, reply in
            if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
            if let refused = badFormat(request) { return reply.send(refused) }
            answer(request, reply, svg: wantsSVG(request), context: context)
        }
        // The picture under its own operation: one media type per answer, which a generated client can type.
        router.add(.POST, "/v1/resolve/svg", query: ["width"]) { request, reply in
            if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
            answer(request, reply, svg: true, context: context)
        }
        router.add(.POST, "/v1/resolve/matrix", query: ["pictures", "width"]) { request, reply in
            matrix(request, reply, context: context)
        }
        let constants = FixedRepresentation(body: JSONWriter.encode(Constants.json), contentType: "application/json")
        router.add(.GET, "/v1/constants", sync: { request in constants.response(to: request) })
    }

    /// Resolves the scene and answers its resolution, or its picture when `svg`; a record either way, unless
    /// the request says `Hinge-Record: off`.
    private static func answer(_ request: HTTPRequest, _ reply: Reply, svg: Bool, context: ServiceContext) {
        let width: Int?
        switch svgWidth(request) {
        case .failure(let refused): return reply.send(refused.response)
        case .success(let w): width = w
        }
        let headers: RecordingHeaders
        switch RecordingHeaders.read(request) {
        case .failure(let refused): return reply.send(refused.response)
        case .success(let h): headers = h
        }
        let recording = Recording(receivedAt: Timestamp.now(), headers: headers)
        // A typical scene (a few KB) resolves faster than a hand-off to a worker would take. A picture is
        // always drawn on the pool: its cost follows the text it holds, not the body's size.
        if request.body.count <= HeavyWork.inlineBodyBytes && !svg {
            return resolveScene(request, reply, svg: svg, width: width, recording: recording, context: context)
        }
        context.offload(reply) {
            resolveScene(request, reply, svg: svg, width: width, recording: recording, context: context)
        }
    }

    /// `POST /v1/resolve/matrix` (docs/api.md#matrix), with its pictures when asked (docs/api.md#matrix-pictures).
    private static func matrix(_ request: HTTPRequest, _ reply: Reply, context: ServiceContext) {
        if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
        let pictures: Matrix.Pictures?
        switch matrixPictures(request) {
        case .failure(let refused): return reply.send(refused.response)
        case .success(let p): pictures = p
        }
        let headers: RecordingHeaders
        switch RecordingHeaders.read(request) {
        case .failure(let refused): return reply.send(refused.response)
        case .success(let h): headers = h
        }
        let recording = Recording(receivedAt: Timestamp.now(), headers: headers)
        if request.body.count > HeavyWork.inlineMatrixBodyBytes {
            return context.offload(reply) {
                let out = Matrix.resolve(
                    body: request.body, catalog: context.catalog(for: request), limits: context.matrixLimits,
                    pictures: pictures, constantSets: context.constantSets)
                sendMatrix(out, request, reply, recording: recording, context: context)
            }
        }
        // Planning is cheap and refuses what is too much before any of it is done; a plan with more work than the
        // loop should do, or any picture, runs on the worker pool.
        switch Matrix.plan(
            body: request.body, catalog: context.catalog(for: request), limits: context.matrixLimits,
            pictures: pictures)
        {
        case .refused(let out): sendMatrix(out, request, reply, recording: recording, context: context)
        case .plan(var plan):
            plan.constantSets = context.constantSets
            let limit = context.matrixLimits.maxResponseBytes
            if plan.work <= HeavyWork.inlineMatrixWork && plan.pictures == nil {
                let out = Matrix.run(plan, catalog: context.catalog(for: request), maxResponseBytes: limit)
                return sendMatrix(out, request, reply, recording: recording, context: context)
            }
            let planned = plan
            context.offload(reply) {
                let out = Matrix.run(planned, catalog: context.catalog(for: request), maxResponseBytes: limit)
                sendMatrix(out, request, reply, recording: recording, context: context)
            }
        }
    }

    /// When a recorded route's request arrived, and what it asked of its record.
    struct Recording: Sendable {
        var receivedAt: Timestamp
        var headers: RecordingHeaders
    }

    /// The record holds the JSON resolution (or problem) under `/v1/resolve` whichever form was answered, so
    /// `GET /v1/requests/{id}/svg` and replay work from it.
    private static func resolveScene(
        _ request: HTTPRequest, _ reply: Reply, svg: Bool, width: Int?, recording: Recording, context: ServiceContext
    ) {
        var out = Resolver.resolve(
            body: request.body, catalog: context.catalog(for: request),
            constantSets: context.constantSets)
        let limit = context.matrixLimits.maxResponseBytes
        if out.json.count > limit {
            out = ResolveOutput(
                problem: .responseTooLarge(written: out.json.count, done: 1, of: 1, limit: limit),
                device: out.device)
        }
        // Without recording, a resolution's headers are the ones `Reply.send` would arrive at (`Cache-Control:
        // no-store` after the type): one shared list instead of a copy per request. A recorded response gets
        // `Hinge-Record-Id` first, then `Cache-Control` from `Reply.send`.
        let headers = context.recorder.log == nil || !recording.headers.record ? jsonNoStore : jsonOnly
        var response = HTTPResponse(status: HTTPStatus(out), headers: headers, body: out.json)
        if out.isProblem {
            response.headers = ["Content-Type": "application/problem+json"]
        } else if svg, let resolution = out.resolution {  // (the copy only when it is drawn)
            // The scene supplies the toolbar items the response does not repeat.
            let scene = try? JSONParser.parse(request.body)
            response = svgResponse(SVGRenderer.render(resolution, scene: scene, width: width))
            if response.body.count > limit {
                out = ResolveOutput(
                    problem: .responseTooLarge(written: response.body.count, done: 1, of: 1, limit: limit),
                    device: out.device)
                response = HTTPResponse.json(out.json, status: HTTPStatus(out))
                response.headers.set("Content-Type", "application/problem+json")
            }
        }
        context.recorder.record(
            path: Replay.Operation.resolvePath, recording: recording, request: request, output: out, reply: reply,
            response: response)
    }

    private static let jsonNoStore: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-store"]
    private static let jsonOnly: HTTPHeaders = ["Content-Type": "application/json"]

    private static func sendMatrix(
        _ out: ResolveOutput, _ request: HTTPRequest, _ reply: Reply, recording: Recording, context: ServiceContext
    ) {
        var response = HTTPResponse.json(out.json, status: HTTPStatus(out))
        if out.isProblem { response.headers.set("Content-Type", "application/problem+json") }
        context.recorder.record(
            path: Replay.Operation.matrixPath, recording: recording, request: request, output: out, reply: reply,
            response: response)
    }

    /// The matrix's `?pictures=svg[&width=N]` (docs/api.md#matrix-pictures): nil without `pictures`; `svg` is
    /// the one value; `width` as for `POST /v1/resolve?format=svg`, and only beside `pictures`.
    static func matrixPictures(_ request: HTTPRequest) -> Result<Matrix.Pictures?, RefusedRequest> {
        let width: Int?
        switch svgWidth(request) {
        case .failure(let refused): return .failure(refused)
        case .success(let w): width = w
        }
        guard let kind = request.queryParameter("pictures") else {
            if width == nil { return .success(nil) }
            return .failure(
                RefusedRequest(
                    response: Problem.response(
                        status: .badRequest,
                        detail: "Query parameter width: the width of the pictures, given only with pictures=svg")))
        }
        guard kind == "svg" else {
            return .failure(
                RefusedRequest(
                    response: Problem.response(
                        status: .badRequest, detail: "Query parameter pictures: expected svg, got \"\(kind)\"")))
        }
        return .success(Matrix.Pictures(width: width))
    }

    /// `?format=` is `json` or `svg`; anything else is a 400 rather than a silent JSON answer (openapi.yaml).
    static func badFormat(_ request: HTTPRequest) -> HTTPResponse? {
        guard let f = request.queryParameter("format"), f.lowercased() != "json", f.lowercased() != "svg" else {
            return nil
        }
        return Problem.response(
            status: .badRequest, detail: "Query parameter format: expected json or svg, got \"\(f)\"")
    }

    /// `?width=N`: the picture's width in pixels (`SVGRenderer.widthRange`); absent, the picture has no
    /// pixel size and takes its container's width.
    static func svgWidth(_ request: HTTPRequest) -> Result<Int?, RefusedRequest> {
        guard let text = request.queryParameter("width") else { return .success(nil) }
        guard let width = SVGRenderer.width(parsing: text) else {
            return .failure(
                RefusedRequest(
                    response: Problem.response(
                        status: .badRequest, detail: "Query parameter width: \(SVGRenderer.widthProblem(text))")))
        }
        return .success(width)
    }

    /// SVG when asked with `?format=svg` or an `Accept` that names `image/svg+xml` (docs/api.md#resolve);
    /// `?format=json` wins over `Accept`.
    static func wantsSVG(_ request: HTTPRequest) -> Bool {
        if let f = request.queryParameter("format") { return f.lowercased() == "svg" }
        return request.headers["Accept"]?.lowercased().contains("image/svg+xml") ?? false
    }

    static func svgResponse(_ svg: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "image/svg+xml; charset=utf-8"], body: Array(svg.utf8))
    }
}

/// A request answered with a problem before any work.
struct RefusedRequest: Error { let response: HTTPResponse }
