import HTTPServer
import JSON
import Resolving
import Store

/// The request log (docs/api.md#request-log): list, one record, its picture, replay, clear. Read the request,
/// call the core's `Records`, write the answer. Reads (and the replay computed from them) run on the store's read
/// threads; a picture is drawn on the worker pool, so that pictures (however many are asked for at once) never
/// hold the read threads that listings need.
enum RequestRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let records = Records(store.requestLog, catalog: context.catalog, constantSets: store.constantSets)
        let readers = store.readWorkers
        router.add(
            .GET, "/v1/requests", query: RecordQueryMapping.parameters, reading: readers,
            { request throws(RouteError) in
                let query = try RecordQueryMapping.query(request.queryItems)
                return .json(JSONWriter.encode(try core(try records.list(query))))
            })
        router.add(
            .GET, "/v1/requests/{id}", reading: readers,
            { request throws(RouteError) in
                let d = try core(try records.detail(request.pathParameters["id"] ?? ""))
                return .json(JSONWriter.encode(Records.json(d)))
            })
        router.add(
            .GET, "/v1/requests/{id}/svg", query: ["width"], reading: readers,
            { request, reply throws(RouteError) in try picture(request, reply, records, context) })
        router.add(
            .POST, "/v1/requests/{id}/replay", reading: readers,
            { request throws(RouteError) in
                let d = try core(try records.detail(request.pathParameters["id"] ?? ""))
                return .json(JSONWriter.encode(try core(try records.replay(d))))
            })
        router.add(.DELETE, "/v1/requests") { request, reply throws(RouteError) in
            try context.authorization.require(request)
            records.clear { result in reply.complete { () throws(RouteError) in try result.answered(.noContent) } }
        }
    }

    /// A record's picture: the record is read on a read thread, its picture drawn on the worker pool.
    static func picture(
        _ request: HTTPRequest, _ reply: Reply, _ records: Records, _ context: ServiceContext
    ) throws(RouteError) {
        let width = try core(try Picture.width(request.queryParameter("width")))
        let d = try core(try records.detail(request.pathParameters["id"] ?? ""))
        try context.offload(reply) { () throws(RouteError) in
            reply.send(ResolveRoutes.svgResponse(try core(try records.picture(d, width: width))))
        }
    }
}
