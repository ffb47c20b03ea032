import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store

/// `GET /v1/devices`, `GET/PUT/DELETE /v1/devices/{id}` (docs/api.md#devices).
enum DeviceRoutes {
    static func register(on router: inout ServiceRouter, context: ServiceContext) {
        guard let store = context.store else { return }
        let devices = store.devices
        // Reads go to the copy of the profiles kept for the calling event loop's shard (docs/store.md).
        router.add(
            .GET, "/v1/devices", query: ["kind"],
            sync: { request in
                var kind: DeviceProfile.Kind?
                if let k = request.queryParameter("kind") {
                    guard let parsed = DeviceProfile.Kind(rawValue: k) else {
                        let allowed = DeviceProfile.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                        return Problem.response(
                            status: .badRequest, detail: "kind must be one of \(allowed), not \"\(k)\"")
                    }
                    kind = parsed
                }
                let items = devices.reader(shard: ServiceContext.shard(request)).list(kind: kind).map {
                    $0.profile.json
                }
                return .json(JSONWriter.encode(.object(["items": .array(items)])))
            })
        router.add(
            .GET, "/v1/devices/{id}",
            sync: { request in
                let id = request.pathParameters["id"] ?? ""
                guard let stored = devices.reader(shard: ServiceContext.shard(request)).stored(id: id) else {
                    return notFound(id)
                }
                let etag = stored.etag.quoted
                if let inm = request.headers["If-None-Match"], ConditionalRequest.ifNoneMatch(inm, current: stored.etag)
                {
                    return HTTPResponse(status: .notModified, headers: ["ETag": etag, "Cache-Control": "no-cache"])
                }
                // A profile can be replaced at any time: a cache keeps it but asks (If-None-Match) before each use.
                return .json(
                    JSONWriter.encode(stored.profile.json), headers: ["ETag": etag, "Cache-Control": "no-cache"])
            })
        router.add(.PUT, "/v1/devices/{id}") { request, reply in
            // A large body is read and checked where a large scene is: on the worker pool (shard 0 there).
            context.readingBody(of: request, reply) { onLoop in
                put(request, reply, devices, context, shard: onLoop ? ServiceContext.shard(request) : 0)
            }
        }
        router.add(.DELETE, "/v1/devices/{id}") { request, reply in
            if let refused = context.authorization.refusal(request) { return reply.send(refused) }
            let id = request.pathParameters["id"] ?? ""
            let precondition = ConditionalRequest.writePrecondition(ifMatch: request.headers["If-Match"])
            devices.delete(id: id, precondition: precondition) { result in
                reply.onLoop {
                    switch result {
                    case .success: reply.send(HTTPResponse(status: .noContent))
                    case .failure(let error):
                        reply.send(problem(for: error, id: id, request: request, context: context))
                    }
                }
            }
        }
    }

    static func notFound(_ id: String) -> HTTPResponse {
        Problem.response(
            status: .notFound, detail: "No device profile has the id \"\(id)\" (GET /v1/devices lists them).")
    }

    /// StoreError → HTTP (docs/store.md). A failure of the store itself is a 503 whose detail names no
    /// SQL, path or SQLite message (those go to the log, under the problem's `requestId`).
    /// `PUT /v1/devices/{id}`: checks the profile, then writes it (the writer thread hands back to the loop).
    static func put(
        _ request: HTTPRequest, _ reply: Reply, _ devices: DeviceProfileStore, _ context: ServiceContext, shard: Int
    ) {
        if let refused = context.authorization.refusal(request) { return reply.send(refused) }
        if let refused = Problem.unsupportedMediaType(request) { return reply.send(refused) }
        let id = request.pathParameters["id"] ?? ""
        // A built-in is read-only whatever the body says (checked again, atomically, by the writer).
        if devices.reader(shard: shard).stored(id: id)?.profile.builtIn == true {
            return reply.send(problem(for: .builtInReadOnly(id: id), id: id))
        }
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONParser.parse(request.body) } catch {
            return reply.send(Problem.response(.notJSON(error)))
        }
        // The id in the path names the profile; a body may repeat it but not contradict it.
        var body = value
        if case .object(var o) = value {
            if let bodyID = o["id"], bodyID != .string(id) {
                return reply.send(
                    Problem.response(
                        ResolveProblem.invalid(
                            [
                                JSONIssue(
                                    path: JSONPointer(["id"]), message: "must equal the id in the path (\"\(id)\")"
                                )
                            ],
                            what: "device profile")))
            }
            o["id"] = .string(id)
            body = .object(o)
        }
        let mapper = JSONMapper()
        guard let profile = DeviceProfile.decode(body, mapper: mapper) else {
            return reply.send(
                Problem.response(
                    ResolveProblem.invalid(
                        mapper.errors, what: "device profile", unknownFields: mapper.unknownFields)))
        }
        let precondition = ConditionalRequest.writePrecondition(
            ifMatch: request.headers["If-Match"], ifNoneMatch: request.headers["If-None-Match"])
        // The completion runs on the store's writer thread; the response is built on the request's loop.
        devices.put(profile, precondition: precondition) { result in
            reply.onLoop {
                switch result {
                case .success(let put):
                    var headers: HTTPHeaders = ["ETag": put.stored.etag.quoted]
                    // A created profile names its URL (ids are letters, digits, `.`, `_`, `-`: nothing to escape).
                    if put.created { headers.add("Location", "/v1/devices/\(put.stored.profile.id)") }
                    reply.send(
                        .json(
                            JSONWriter.encode(put.stored.profile.json), status: put.created ? .created : .ok,
                            headers: headers))
                case .failure(let error):
                    reply.send(problem(for: error, id: id, request: request, context: context))
                }
            }
        }
    }

    static func problem(for error: StoreError, id: String, request: HTTPRequest? = nil, context: ServiceContext? = nil)
        -> HTTPResponse
    {
        switch error {
        case .builtInReadOnly:
            return Problem.response(
                status: .forbidden,
                detail: "\"\(id)\" is a built-in profile and read-only: PUT a profile with another id.")
        case .notFound: return notFound(id)
        case .preconditionFailed(_, let current):
            if let current, request?.headers["If-Match"] == nil {
                return Problem.response(
                    status: .preconditionFailed,
                    detail: "If-None-Match: * asks to create, but the profile exists (\(current.quoted)): "
                        + "GET it and replace it with If-Match.")
            }
            return Problem.response(
                status: .preconditionFailed,
                detail: "If-Match does not match the profile's current ETag"
                    + (current.map { " (\($0.quoted))" } ?? " (the profile does not exist)")
                    + ": GET it again and retry.")
        default:
            guard let request, let context else {
                return Problem.response(
                    status: .serviceUnavailable,
                    detail: "The device profile could not be written: \(StoreProblem.reason(error)).")
            }
            return StoreProblem.response(
                error, operation: .write, what: "the device profile", request: request, log: context.errorLog,
                store: context.store)
        }
    }
}
