import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store

/// `/v1/constant-sets` (docs/api.md#constant-sets): the sets and their immutable versions, their design
/// tokens documents and the impact report. Reads come from the store's snapshot (memory); writes complete on the
/// writer thread and hand back to the loop; an impact report runs on the worker pool.
enum ConstantSetRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let sets = store.constantSets
        router.add(
            .GET, "/v1/constant-sets",
            sync: { _ in .json(JSONWriter.encode(ConstantSetJSON.list(sets.list()))) })
        router.add(
            .GET, "/v1/constant-sets/{name}",
            sync: { request in
                let name = request.pathParameters["name"] ?? ""
                guard let set = sets.set(name) else { return setNotFound(name) }
                return .json(JSONWriter.encode(ConstantSetJSON.set(set)))
            })
        router.add(
            .DELETE, "/v1/constant-sets/{name}",
            { request, reply in
                if let refused = context.authorization.refusal(request) { return reply.send(refused) }
                let name = request.pathParameters["name"] ?? ""
                sets.retire(name: name) { result in
                    reply.onLoop {
                        switch result {
                        case .success: reply.send(HTTPResponse(status: .noContent))
                        case .failure(.notFound): reply.send(setNotFound(name))
                        case .failure(let error): reply.send(storeProblem(error, request, context))
                        }
                    }
                }
            })
        router.add(
            .GET, "/v1/constant-sets/{name}/versions/{n}", query: ["format"],
            sync: { request in version(request, sets) })
        router.add(.POST, "/v1/constant-sets/{name}/versions") { request, reply in
            create(request, reply, sets, context)
        }
        router.add(.POST, "/v1/constant-sets/{name}/versions/{n}/impact") { request, reply in
            impact(request, reply, store, context)
        }
    }

    static func setNotFound(_ name: String) -> HTTPResponse {
        Problem.response(
            status: .notFound, detail: "No constant set is named \"\(name)\" (GET /v1/constant-sets lists them).")
    }

    /// A response that ends a handler early.
    struct Refusal: Error {
        var response: HTTPResponse
        init(_ response: HTTPResponse) { self.response = response }
    }

    /// The version the path names (a retired set's too: its history stays readable), or the 404 that says why.
    static func stored(_ request: HTTPRequest, _ sets: ConstantSetStore) -> Result<ConstantSetVersion, Refusal> {
        let name = request.pathParameters["name"] ?? ""
        let text = request.pathParameters["n"] ?? ""
        guard let set = sets.set(name) else { return .failure(Refusal(setNotFound(name))) }
        // A version is written as the API writes it: digits, no sign, no leading zero (`+1` and `01` are not 1).
        guard text.utf8.count <= 9, text.utf8.first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let n = Int(text), let v = set.version(n)
        else {
            return .failure(
                Refusal(
                    Problem.response(
                        status: .notFound,
                        detail: "Constant set \"\(name)\" has no version \"\(text)\" (its latest is "
                            + "\(set.latest?.version ?? 0)).")))
        }
        return .success(v)
    }

    /// Whether the request asks for the design tokens document (`?format=dtcg` or the media type in `Accept`).
    static func wantsTokens(_ request: HTTPRequest) -> Result<Bool, Refusal> {
        if let format = request.queryParameter("format") {
            guard format == "dtcg" || format == "json" else {
                return .failure(
                    Refusal(
                        Problem.response(
                            status: .badRequest, detail: "format must be json or dtcg, not \"\(format.prefix(40))\"")))
            }
            return .success(format == "dtcg")
        }
        return .success(request.headers["Accept"]?.contains(ConstantSetTokens.mediaType) ?? false)
    }

    /// One version: immutable, so its digest is a strong `ETag` and caches may keep it for a year.
    static func version(_ request: HTTPRequest, _ sets: ConstantSetStore) -> HTTPResponse {
        let v: ConstantSetVersion
        switch stored(request, sets) {
        case .failure(let r): return r.response
        case .success(let found): v = found
        }
        let tokens: Bool
        switch wantsTokens(request) {
        case .failure(let r): return r.response
        case .success(let t): tokens = t
        }
        // One tag per representation: the design tokens document is another body.
        let etag = tokens ? "\"" + v.digest.quoted.dropFirst().dropLast() + "-dtcg\"" : v.digest.quoted
        var headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept",
        ]
        if let inm = request.headers["If-None-Match"],
            ConditionalRequest.ifNoneMatch(inm, current: EntityTag(quoted: etag))
        {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        guard tokens else { return .json(JSONWriter.encode(ConstantSetJSON.version(v)), headers: headers) }
        headers.set("Content-Type", ConstantSetTokens.mediaType)
        return HTTPResponse(status: .ok, headers: headers, body: JSONWriter.encode(ConstantSetTokens.document(v)))
    }

    static func create(_ request: HTTPRequest, _ reply: Reply, _ sets: ConstantSetStore, _ context: ServiceContext) {
        if let refused = context.authorization.refusal(request) { return reply.send(refused) }
        if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
        let name = request.pathParameters["name"] ?? ""
        if let problem = ConstantSetDrafts.nameProblem(name) {
            return reply.send(Problem.response(status: .badRequest, detail: "Constant set name: \(problem)."))
        }
        // A large body is read and checked where a large scene is: on the worker pool, never on the loop.
        context.readingBody(of: request, reply) { _ in validateAndCreate(name, request, reply, sets, context) }
    }

    static func validateAndCreate(
        _ name: String, _ request: HTTPRequest, _ reply: Reply, _ sets: ConstantSetStore, _ context: ServiceContext
    ) {
        let tokens = request.headers["Content-Type"]?.contains(ConstantSetTokens.mediaType) ?? false
        let parsed =
            tokens
            ? ConstantSetTokens.draft(tokens: request.body, name: name, catalog: sets)
            : ConstantSetDrafts.draft(json: request.body, catalog: sets)
        let draft: ConstantSetDraft
        switch parsed {
        case .failure(let problem): return reply.send(Problem.response(problem))
        case .success(let d): draft = d
        }
        sets.create(name: name, draft: draft) { result in
            reply.onLoop {
                switch result {
                case .success(let v):
                    reply.send(
                        .json(
                            JSONWriter.encode(ConstantSetJSON.version(v)), status: .created,
                            headers: [
                                "Location": "/v1/constant-sets/\(v.name)/versions/\(v.version)",
                                "ETag": v.digest.quoted,
                            ]))
                case .failure(.retired):
                    reply.send(
                        Problem.response(
                            status: .conflict,
                            detail: "Constant set \"\(name)\" was retired: it takes no new version; use another name."))
                case .failure(.invalidQuery(_, let detail)):
                    reply.send(Problem.response(status: .conflict, detail: "Constant set \"\(name)\": \(detail)."))
                case .failure(.notFound(let id)):
                    reply.send(
                        Problem.response(
                            ResolveProblem.invalid(
                                [JSONIssue(path: JSONPointer(["basedOn"]), message: "no stored version \(id)")],
                                what: "version")))
                case .failure(let error): reply.send(storeProblem(error, request, context))
                }
            }
        }
    }

    /// The impact report: on the long-work lane (it reads and resolves up to 100 000 records), never on a loop
    /// or the worker pool; it reads the whole log, so it needs the API key when the server has one.
    static func impact(_ request: HTTPRequest, _ reply: Reply, _ store: Store, _ context: ServiceContext) {
        if let refused = context.authorization.refusal(request) { return reply.send(refused) }
        let v: ConstantSetVersion
        switch stored(request, store.constantSets) {
        case .failure(let r): return reply.send(r.response)
        case .success(let found): v = found
        }
        let lane = context.longWork
        lane.run(reply) { finish in
            // One thread, one core: the lane's. The options are read there too: a body may be large.
            let options: ConstantSetImpact.Options
            switch ConstantSetImpact.Options.decode(request.body) {
            case .failure(let problem): return finish(Problem.response(problem))
            case .success(let o): options = o
            }
            do throws(StoreError) {
                guard
                    let report = try ConstantSetImpact.run(
                        v, options: options, log: store.requestLog, devices: context.catalog, sets: store.constantSets,
                        stop: { lane.cancelled(reply) })
                else { return lane.stop(finish) }
                finish(.json(JSONWriter.encode(ConstantSetImpact.json(report))))
            } catch {
                finish(storeProblem(error, request, context))
            }
        }
    }

    static func storeProblem(_ error: StoreError, _ request: HTTPRequest, _ context: ServiceContext) -> HTTPResponse {
        StoreProblem.response(
            error, operation: .write, what: "the constant set", request: request, log: context.errorLog,
            store: context.store)
    }
}
