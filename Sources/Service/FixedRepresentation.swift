import HTTPServer
import Store

/// A representation that stays the same for the life of the process (the contract, the engine's constants):
/// served with a strong `ETag` (a hash of the bytes) and `Cache-Control: max-age=3600`, and answered 304 when
/// `If-None-Match` names it. An upgraded server changes the bytes and so the tag, and an hour bounds how long
/// a cache keeps the old ones without asking.
struct FixedRepresentation: Sendable {
    static let cacheControl = "max-age=3600"

    let body: [UInt8]
    let contentType: String
    let etag: EntityTag

    init(body: [UInt8], contentType: String) {
        self.body = body
        self.contentType = contentType
        etag = EntityTag(canonicalBytes: body)
    }

    func response(to request: HTTPRequest) -> HTTPResponse {
        if let inm = request.headers["If-None-Match"], ConditionalRequest.ifNoneMatch(inm, current: etag) {
            return HTTPResponse(
                status: .notModified, headers: ["ETag": etag.quoted, "Cache-Control": FixedRepresentation.cacheControl])
        }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": contentType, "ETag": etag.quoted, "Cache-Control": FixedRepresentation.cacheControl,
            ],
            body: body)
    }
}
