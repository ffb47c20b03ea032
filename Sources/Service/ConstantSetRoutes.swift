import HTTPServer
import JSON
import Resolving
import Store

/// `/v1/constant-sets` (docs/api.md#constant-sets): read the request, call the core's `ConstantSets`, write the
/// answer. Reads come from the store's snapshot (memory); writes complete on the writer thread and finish on the
/// loop (`Reply.complete`); an impact report runs on the long-work lane.
enum ConstantSetRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let sets = ConstantSets(store.constantSets)
        router.add(.GET, "/v1/constant-sets", sync: { _ in .json(JSONWriter.encode(sets.list())) })
        router.add(
            .GET, "/v1/constant-sets/{name}",
            sync: { request throws(RouteError) in
                .json(JSONWriter.encode(try core(try sets.set(request.pathParameters["name"] ?? ""))))
            })
        router.add(.DELETE, "/v1/constant-sets/{name}") { request, reply throws(RouteError) in
            try context.authorization.require(request)
            sets.retire(request.pathParameters["name"] ?? "") { result in
                reply.complete { () throws(RouteError) in try result.answered(.noContent) }
            }
        }
        router.add(
            .GET, "/v1/constant-sets/{name}/versions/{n}", query: ["format"],
            sync: { request throws(RouteError) in try version(request, sets) })
        router.add(.POST, "/v1/constant-sets/{name}/versions") { request, reply throws(RouteError) in
            try create(request, reply, sets, context)
        }
        router.add(.POST, "/v1/constant-sets/{name}/versions/{n}/impact") { request, reply throws(RouteError) in
            try impact(request, reply, sets, store, context)
        }
    }

    /// The version the path names.
    static func stored(_ request: HTTPRequest, _ sets: ConstantSets) throws(RouteError) -> ConstantSetVersion {
        try core(try sets.version(request.pathParameters["name"] ?? "", number: request.pathParameters["n"] ?? ""))
    }

    /// One version: immutable, so its digest is a strong `ETag` and caches may keep it for a year. One tag per
    /// representation: the design tokens document is another body.
    static func version(_ request: HTTPRequest, _ sets: ConstantSets) throws(RouteError) -> HTTPResponse {
        let v = try stored(request, sets)
        let tokens = try core(
            try ConstantSets.wantsTokens(format: request.queryParameter("format"), accept: request.headers["Accept"]))
        let etag = tokens ? "\"" + v.digest.quoted.dropFirst().dropLast() + "-dtcg\"" : v.digest.quoted
        var headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept",
        ]
        if let inm = request.headers["If-None-Match"],
            ConditionalRequest.ifNoneMatch(inm, current: EntityTag(quoted: etag))
        {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        let body = JSONWriter.encode(ConstantSets.document(v, tokens: tokens))
        guard tokens else { return .json(body, headers: headers) }
        headers.set("Content-Type", ConstantSetTokens.mediaType)
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    /// A new version: checked where its body is read (a large one on the worker pool), stored by the writer.
    static func create(
        _ request: HTTPRequest, _ reply: Reply, _ sets: ConstantSets, _ context: ServiceContext
    ) throws(RouteError) {
        try context.authorization.require(request)
        try RouteError.requireJSON(request)
        let name = request.pathParameters["name"] ?? ""
        try core(try ConstantSets.checkName(name))
        try context.readingBody(of: request, reply) { _ throws(RouteError) in
            let tokens = request.headers["Content-Type"]?.contains(ConstantSetTokens.mediaType) ?? false
            let draft = try core(try sets.draft(name, body: request.body, tokens: tokens))
            sets.create(name, draft) { result in
                reply.complete { () throws(RouteError) in
                    let v = try core(result)
                    return .json(
                        JSONWriter.encode(ConstantSetJSON.version(v)), status: .created,
                        headers: [
                            "Location": "/v1/constant-sets/\(v.name)/versions/\(v.version)", "ETag": v.digest.quoted,
                        ])
                }
            }
        }
    }

    /// The impact report: on the long-work lane (it reads and resolves up to 100 000 records), never on a loop
    /// or the worker pool, its options read there too (a body may be large); it reads the whole log, so it needs
    /// the API key when the server has one.
    static func impact(
        _ request: HTTPRequest, _ reply: Reply, _ sets: ConstantSets, _ store: Store, _ context: ServiceContext
    ) throws(RouteError) {
        try context.authorization.require(request)
        let v = try stored(request, sets)
        let lane = context.longWork
        try lane.run(reply) { () throws(RouteError) in
            let report = try core(
                try sets.impact(
                    v, options: request.body, log: store.requestLog, devices: context.catalog,
                    stop: { lane.cancelled(reply) }))
            return report.map { .json(JSONWriter.encode($0)) }
        }
    }
}
