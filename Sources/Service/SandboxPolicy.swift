import HTTPServer

/// What a page whose origin is `null` may do (docs/http.md#sandboxed-pages).
///
/// `null` is the origin of every sandboxed iframe and `data:` document on the web, not of one plugin: a grant
/// to `null` is a grant to any page that frames itself in a sandbox. So such a request reaches only the
/// stateless routes a design-tool panel needs — resolve, the matrix, pictures of its own scene, the device and
/// constant-set catalogues — unless it carries a credential a stranger's page cannot have: the API key, or the
/// pairing token `hinge serve` prints at start (`Authorization: Bearer …`). The request log, record pictures,
/// replays, impact reports and every write stay closed to it.
struct SandboxPolicy: Sendable {
    /// `METHOD pattern` of each route open to a `null` origin without a credential.
    static let statelessRoutes: Set<String> = [
        "POST /v1/resolve", "POST /v1/resolve/svg", "POST /v1/resolve/matrix",
        "GET /v1/devices", "GET /v1/devices/{id}", "GET /v1/constants",
        "GET /v1/constant-sets", "GET /v1/constant-sets/{name}", "GET /v1/constant-sets/{name}/versions/{n}",
        "GET /healthz", "POST /v1/scenes/from-swift", "POST /v1/swiftui",
    ]

    /// The bearer tokens that open the other routes to a sandboxed page: the API key and the pairing token.
    let credentials: [[UInt8]]

    init(apiKey: String?, pairingToken: String?) {
        credentials = [apiKey, pairingToken].compactMap { $0.map { Array($0.utf8) } }
    }

    /// Whether `request` comes from an opaque origin (`Origin: null`).
    static func isOpaque(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"] else { return false }
        return origin.utf8.count == 4 && origin.lowercased() == "null"
    }

    /// Whether `request` carries `Authorization: Bearer` with one of the credentials.
    func isCredentialed(_ request: HTTPRequest) -> Bool {
        guard let token = WriteAuthorization.bearerToken(request) else { return false }
        var matched = false
        for c in credentials where WriteAuthorization.constantTimeEquals(token, c) { matched = true }
        return matched
    }

    /// The 403 for a sandboxed page on a route it may not call without a credential.
    static func refusal(_ request: HTTPRequest) -> RouteError {
        RouteError(
            status: .forbidden,
            detail: "A sandboxed page (Origin: null) may call only resolve, the matrix and the device and "
                + "constant-set lists; \(request.method) \(request.path.prefix(200)) needs 'Authorization: Bearer' "
                + "with the API key or the pairing token hinge serve printed at start."
        )
    }
}

extension SandboxPolicy {
    /// 32 hexadecimal digits from the system's generator (`getrandom(2)` on Linux: cryptographically secure).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for _ in 0..<32 { out.append(digits[Int(generator.next() & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
