import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store

/// `POST /v1/resolve`, `POST /v1/resolve/svg`, `POST /v1/resolve/matrix`, `GET /v1/constants` (docs/api.md#resolve,
/// docs/api.md#resolve-svg, docs/api.md#matrix, docs/api.md#constants-route): read the request, call the core's
/// `Resolver`, `Matrix` and `Picture`, write the answer (after its record is committed: `Recorder`).
enum ResolveRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        router.add(.POST, "/v1/resolve", query: ["format", "width"]) { request, reply throws(RouteError) in
            try RouteError.requireJSON(request)
            try answer(request, reply, svg: try wantsSVG(request), context: context)
        }
        // The picture under its own operation: one media type per answer, which a generated client can type.
        router.add(.POST, "/v1/resolve/svg", query: ["width"]) { request, reply throws(RouteError) in
            try RouteError.requireJSON(request)
            try answer(request, reply, svg: true, context: context)
        }
        router.add(.POST, "/v1/resolve/matrix", query: ["pictures", "width"]) { request, reply throws(RouteError) in
            try RouteError.requireJSON(request)
            try matrix(request, reply, context: context)
        }
        let constants = FixedRepresentation(body: JSONWriter.encode(Constants.json), contentType: "application/json")
        router.add(.GET, "/v1/constants", sync: { request in constants.response(to: request) })
    }

    /// When a recorded route's request arrived, and what it asked of its record.
    struct Recording: Sendable {
        var receivedAt: Timestamp
        var headers: RecordingHeaders

        init(_ request: HTTPRequest) throws(RouteError) {
            headers = try RecordingHeaders.read(request)
            receivedAt = Timestamp.now()
        }
    }

    /// Resolves the scene and answers its resolution, or its picture when `svg`; a record either way, unless
    /// the request says `Hinge-Record: off`. A typical scene (a few KB) resolves faster than a hand-off to a
    /// worker would take; a picture is always drawn on the pool: its cost follows the text it holds, not the
    /// body's size.
    private static func answer(_ request: HTTPRequest, _ reply: Reply, svg: Bool, context: ServiceContext)
        throws(RouteError)
    {
        let width = request.queryItems.isEmpty ? nil : try core(try Picture.width(request.queryParameter("width")))
        let recording = try Recording(request)
        if request.body.count <= HeavyWork.inlineBodyBytes && !svg {
            return resolveScene(request, reply, svg: svg, width: width, recording: recording, context: context)
        }
        try context.offload(reply) {
            resolveScene(request, reply, svg: svg, width: width, recording: recording, context: context)
        }
    }

    /// The record holds the JSON resolution (or problem) under `/v1/resolve` whichever form was answered, so
    /// `GET /v1/requests/{id}/svg` and replay work from it.
    private static func resolveScene(
        _ request: HTTPRequest, _ reply: Reply, svg: Bool, width: Int?, recording: Recording, context: ServiceContext
    ) {
        var out = Resolver.resolve(
            body: request.body, catalog: context.catalog(for: request), constantSets: context.constantSets)
        let limit = context.matrixLimits.maxResponseBytes
        if out.json.count > limit {
            out = ResolveOutput(problem: .responseTooLarge(written: out.json.count, done: 1, of: 1, limit: limit))
        }
        var response = jsonResponse(out, recorded: context.recorder.log != nil && recording.headers.record)
        if svg, let resolution = out.resolution {  // (the copy only when it is drawn)
            switch Picture.answer(resolution, body: request.body, width: width, limit: limit) {
            case .success(let picture): response = svgResponse(picture)
            case .failure(let problem):
                out = ResolveOutput(problem: problem)
                response = jsonResponse(out, recorded: true)
            }
        }
        context.recorder.record(
            path: Replay.Operation.resolvePath, recording: recording, request: request, status: HTTPStatus(out).code,
            facts: RecordFacts(resolve: out, request: request.body), reply: reply, response: response)
    }

    /// A core answer as JSON. Without recording, a resolution's headers are the ones `Reply.send` would arrive
    /// at (`Cache-Control: no-store` after the type): one shared list instead of a copy per request. A recorded
    /// response gets `Hinge-Record-Id` first, then `Cache-Control` from `Reply.send`.
    static func jsonResponse(_ out: borrowing ResolveOutput, recorded: Bool) -> HTTPResponse {
        let headers = out.isProblem ? problemJSON : recorded ? jsonOnly : jsonNoStore
        return HTTPResponse(status: HTTPStatus(out), headers: headers, body: out.json)
    }

    private static let jsonNoStore: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-store"]
    private static let jsonOnly: HTTPHeaders = ["Content-Type": "application/json"]
    private static let problemJSON: HTTPHeaders = ["Content-Type": "application/problem+json"]

    /// `POST /v1/resolve/matrix` (docs/api.md#matrix), with its pictures when asked (docs/api.md#matrix-pictures).
    /// Planning is cheap and refuses what is too much before any of it is done; a large body, a plan with more
    /// work than the loop should do, or any picture runs on the worker pool.
    private static func matrix(_ request: HTTPRequest, _ reply: Reply, context: ServiceContext) throws(RouteError) {
        let pictures = try matrixPictures(request)
        let recording = try Recording(request)
        let send = { @Sendable (out: MatrixOutput) in
            context.recorder.record(
                path: Replay.Operation.matrixPath, recording: recording, request: request,
                status: HTTPStatus(out.output).code, facts: RecordFacts(matrix: out), reply: reply,
                response: jsonResponse(out.output, recorded: true))
        }
        let catalog = context.catalog(for: request)
        if request.body.count > HeavyWork.inlineMatrixBodyBytes {
            return try context.offload(reply) {
                send(
                    Matrix.resolve(
                        body: request.body, catalog: catalog, limits: context.matrixLimits, pictures: pictures,
                        constantSets: context.constantSets))
            }
        }
        switch Matrix.plan(body: request.body, catalog: catalog, limits: context.matrixLimits, pictures: pictures) {
        case .refused(let out): send(out)
        case .plan(var plan):
            plan.constantSets = context.constantSets
            let (planned, limit) = (plan, context.matrixLimits.maxResponseBytes)
            if plan.work <= HeavyWork.inlineMatrixWork && plan.pictures == nil {
                return send(Matrix.run(planned, catalog: catalog, maxResponseBytes: limit))
            }
            try context.offload(reply) { send(Matrix.run(planned, catalog: catalog, maxResponseBytes: limit)) }
        }
    }

    /// The matrix's `?pictures=svg[&width=N]` (docs/api.md#matrix-pictures): nil without `pictures`; `svg` is
    /// the one value; `width` as for `POST /v1/resolve?format=svg`, and only beside `pictures`.
    static func matrixPictures(_ request: HTTPRequest) throws(RouteError) -> Matrix.Pictures? {
        let width = try core(try Picture.width(request.queryParameter("width")))
        guard let kind = request.queryParameter("pictures") else {
            if width == nil { return nil }
            throw RouteError.badQuery("width", "the width of the pictures, given only with pictures=svg")
        }
        guard kind == "svg" else { throw RouteError.badQuery("pictures", "expected svg, got \"\(kind)\"") }
        return Matrix.Pictures(width: width)
    }

    /// SVG when asked with `?format=svg` or an `Accept` that names `image/svg+xml` (docs/api.md#resolve);
    /// `?format=json` wins over `Accept`; any other format is a 400 rather than a silent JSON answer.
    static func wantsSVG(_ request: HTTPRequest) throws(RouteError) -> Bool {
        guard let f = request.queryParameter("format") else {
            return request.headers["Accept"]?.lowercased().contains("image/svg+xml") ?? false
        }
        let format = f.lowercased()
        guard format == "json" || format == "svg" else {
            throw RouteError.badQuery("format", "expected json or svg, got \"\(f)\"")
        }
        return format == "svg"
    }

    static func svgResponse(_ svg: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "image/svg+xml; charset=utf-8"], body: svg)
    }

    static func svgResponse(_ svg: String) -> HTTPResponse { svgResponse(Array(svg.utf8)) }
}
