import HTTPServer

/// Writes (`PUT`, `POST` of a constant-set version, `DELETE`) and impact reports, which read the whole request
/// log, need `Authorization: Bearer <key>` when the server has an API key (docs/api.md#authorization). Other
/// reads stay open.
struct WriteAuthorization: Sendable {
    let key: [UInt8]?

    init(apiKey: String?) { key = apiKey.map { Array($0.utf8) } }

    /// Returns when the request may write; otherwise throws the 401.
    func require(_ request: HTTPRequest) throws(RouteError) {
        guard let key else { return }
        if let token = WriteAuthorization.bearerToken(request), WriteAuthorization.constantTimeEquals(token, key) {
            return
        }
        throw RouteError(
            status: .unauthorized,
            detail: "This server requires 'Authorization: Bearer <key>' for writes and impact reports (the key given "
                + "with --api-key).",
            headers: ["WWW-Authenticate": "Bearer realm=\"hinge\""])
    }

    /// The token of `Authorization: Bearer <token>`, or nil.
    static func bearerToken(_ request: HTTPRequest) -> [UInt8]? {
        guard let header = request.headers["Authorization"], header.utf8.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else { return nil }
        return Array(header.utf8.dropFirst(7))
    }

    /// Compares every byte whatever the first difference, so the time taken does not tell how much of a
    /// guessed key was right. (The length is not secret: it only bounds the loop.)
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var diff = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let n = max(a.count, b.count)
        var i = 0
        while i < n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            diff |= x ^ y
            i += 1
        }
        return diff == 0 && a.count == b.count
    }
}
