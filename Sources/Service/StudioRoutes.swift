import HTTPServer
import Store

/// Hinge Studio: `GET /` (the page) and `GET /studio/{asset}` (its modules, styles and icon), compiled
/// into the binary from `Sources/Service/Studio/`.
///
/// Assets are served only under names that carry a hash of their content (`app.0123456789abcdef.js`), so
/// a browser may keep them forever (`immutable`); the page itself is revalidated on every load
/// (`no-cache` + `ETag`), so a new binary's page names new assets.
enum StudioRoutes {
    /// No inline script or style, nothing from another origin; pictures may be `blob:` URLs (the server's
    /// SVG, shown through `<img>`, where scripts never run) or `data:`.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    static let immutable = "max-age=31536000, immutable"

    /// `writesNeedKey`: the server runs with an API key; the page says so (`<meta name="hinge-writes">`), so
    /// that the studio asks for a key only where one is needed.
    static func register(on router: inout ServiceRouter, writesNeedKey: Bool) {
        let built = StudioAssets.embedded
        router.add(
            .GET, "/",
            sync: { request in
                switch built {
                case .success(let assets):
                    return respond(
                        writesNeedKey ? assets.keyedPage : assets.page, to: request, cacheControl: "no-cache")
                case .failure(let error):
                    return RouteError(
                        status: .internalServerError, detail: "Hinge Studio could not be assembled: \(error)"
                    ).response()
                }
            })
        router.add(
            .GET, "/studio/{asset}",
            sync: { request in
                let name = request.pathParameters["asset"] ?? ""
                guard case .success(let assets) = built, let asset = assets.byHashedName[name] else {
                    return RouteError(status: .notFound, detail: "No studio asset named \"\(name)\".").response()
                }
                return respond(asset, to: request, cacheControl: immutable)
            })
    }

    static func respond(_ asset: StudioAssets.Asset, to request: HTTPRequest, cacheControl: String) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "Content-Type": asset.contentType, "Cache-Control": cacheControl, "ETag": asset.etag,
            "X-Content-Type-Options": "nosniff", "Content-Security-Policy": contentSecurityPolicy,
        ]
        if let inm = request.headers["If-None-Match"],
            ConditionalRequest.ifNoneMatch(inm, current: EntityTag(quoted: asset.etag))
        {
            headers.remove("Content-Type")
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: asset.body)
    }
}
