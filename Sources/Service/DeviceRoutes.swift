import HTTPServer
import JSON
import Resolving
import Store

/// `GET /v1/devices`, `GET/PUT/DELETE /v1/devices/{id}` (docs/api.md#devices): read the request, call the core's
/// `DeviceProfiles`, write the answer. Reads go to the copy of the profiles kept for the calling event loop's shard
/// (docs/store.md).
enum DeviceRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let devices = DeviceProfiles(store.devices)
        router.add(
            .GET, "/v1/devices", query: ["kind"],
            sync: { request throws(RouteError) in
                let list = try core(
                    try devices.list(kind: request.queryParameter("kind"), shard: ServiceContext.shard(request)))
                return .json(JSONWriter.encode(list))
            })
        router.add(.GET, "/v1/devices/{id}", sync: { request throws(RouteError) in try read(request, devices) })
        router.add(.PUT, "/v1/devices/{id}") { request, reply throws(RouteError) in
            try put(request, reply, devices, context)
        }
        router.add(.DELETE, "/v1/devices/{id}") { request, reply throws(RouteError) in
            try context.authorization.require(request)
            let precondition = ConditionalRequest.writePrecondition(ifMatch: request.headers["If-Match"])
            devices.delete(id: request.pathParameters["id"] ?? "", precondition: precondition) { result in
                reply.complete { () throws(RouteError) in try result.answered(.noContent) }
            }
        }
    }

    /// One profile, with its `ETag`: a profile can be replaced at any time, so a cache keeps it but asks
    /// (If-None-Match) before each use.
    static func read(_ request: HTTPRequest, _ devices: DeviceProfiles) throws(RouteError) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        let stored = try core(try devices.read(id: id, shard: ServiceContext.shard(request)))
        let headers: HTTPHeaders = ["ETag": stored.etag.quoted, "Cache-Control": "no-cache"]
        if let inm = request.headers["If-None-Match"], ConditionalRequest.ifNoneMatch(inm, current: stored.etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return .json(JSONWriter.encode(stored.profile.json), headers: headers)
    }

    /// `PUT /v1/devices/{id}`: the profile is checked where its body is read (a large one on the worker pool,
    /// shard 0 there), then written by the store's writer.
    static func put(
        _ request: HTTPRequest, _ reply: Reply, _ devices: DeviceProfiles, _ context: ServiceContext
    ) throws(RouteError) {
        try context.authorization.require(request)
        try RouteError.requireJSON(request)
        try context.readingBody(of: request, reply) { onLoop throws(RouteError) in
            let id = request.pathParameters["id"] ?? ""
            let shard = onLoop ? ServiceContext.shard(request) : 0
            let profile = try core(try devices.checked(id: id, body: request.body, shard: shard))
            let precondition = ConditionalRequest.writePrecondition(
                ifMatch: request.headers["If-Match"], ifNoneMatch: request.headers["If-None-Match"])
            devices.put(profile, precondition: precondition) { result in
                reply.complete { () throws(RouteError) in written(try core(result)) }
            }
        }
    }

    /// 201 with its `Location` for a created profile (ids are letters, digits, `.`, `_`, `-`: nothing to escape),
    /// 200 for a replaced one; the `ETag` either way.
    static func written(_ put: PutResult) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": put.stored.etag.quoted]
        if put.created { headers.add("Location", "/v1/devices/\(put.stored.profile.id)") }
        return .json(
            JSONWriter.encode(put.stored.profile.json), status: put.created ? .created : .ok, headers: headers)
    }
}
