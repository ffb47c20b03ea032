import HTTPServer

/// Which browser pages on other origins may call the API (`--cors-origin`), and the CORS headers that say so.
///
/// - A request without `Origin` (curl, a server, a design tool's native side) is not a CORS request: no
///   CORS headers, nothing refused.
/// - The server's own origin (`http://` or `https://` followed by the `Host` header) always works, with or
///   without `--cors-origin`: it needs no CORS headers.
/// - An allowed origin (`*` allows every one; `null` the opaque origins of sandboxed iframes and `data:`
///   pages) gets `Access-Control-Allow-Origin` and the headers it may read.
/// - Any other origin gets no CORS headers, so its page cannot read an answer; and every method but GET,
///   HEAD and OPTIONS is refused with 403 before any work, so a page the operator did not allow can neither
///   change the store nor add to the request log with a "simple" request that a browser sends unasked.
struct CORSPolicy: Sendable, Equatable {
    /// Allowed origins as compared: lower-case, no trailing `/`.
    let origins: Set<String>
    let allowsAnyOrigin: Bool

    static let allowHeaders =
        "Content-Type, Authorization, If-Match, If-None-Match, Accept, Hinge-Client, Hinge-Record"
    static let exposeHeaders = "ETag, Hinge-Record-Id, Location"
    /// Seconds a browser may reuse a preflight answer.
    static let maxAge = "600"

    /// `origins` as configured: `*`, `null` or `scheme://host[:port]` (checked with
    /// `ServeOptions.corsOriginProblem` when `hinge serve` reads them).
    init(origins: [String]) {
        let normalized = origins.map(CORSPolicy.normalize)
        allowsAnyOrigin = normalized.contains("*")
        self.origins = Set(normalized.filter { $0 != "*" })
    }

    /// Whether any cross-origin caller is allowed (then every answer varies by `Origin`).
    var isEnabled: Bool { allowsAnyOrigin || !origins.isEmpty }

    static func normalize(_ origin: String) -> String {
        var o = origin.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// Why `origin` cannot be configured, or nil when it can.
    static func problem(with origin: String) -> String? {
        let o = normalize(origin)
        if o == "*" || o == "null" { return nil }
        let parts = o.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return "'\(origin)' is not an origin: expected scheme://host[:port], * or null"
        }
        let scheme = parts[0]
        let authority = parts[1]
        if scheme.isEmpty || authority.isEmpty || authority.contains("/") || authority.contains("?")
            || authority.contains("#") || authority.contains(" ")
        {
            return "'\(origin)' is not an origin: expected scheme://host[:port] without a path, * or null"
        }
        return nil
    }

    /// What a request's `Origin` means here.
    enum Verdict: Equatable, Sendable {
        /// No `Origin`: not a CORS request.
        case noOrigin
        /// The server's own origin.
        case sameOrigin
        /// An allowed origin; the value is `Access-Control-Allow-Origin`'s.
        case allowed(String)
        /// Neither allowed nor the server's own.
        case refused
    }

    func verdict(_ request: HTTPRequest) -> Verdict {
        guard let origin = request.headers["Origin"] else { return .noOrigin }
        if let host = request.headers["Host"], CORSPolicy.isOwnOrigin(origin, host: host) { return .sameOrigin }
        if allowsAnyOrigin { return .allowed("*") }
        if origins.contains(CORSPolicy.normalize(origin)) { return .allowed(origin) }
        return .refused
    }

    static func isOwnOrigin(_ origin: String, host: String) -> Bool {
        let o = origin.lowercased()
        let h = host.lowercased()
        return o == "http://" + h || o == "https://" + h
    }

    /// Whether the request must be refused before any work: a method other than GET, HEAD or OPTIONS from
    /// an origin that is not allowed.
    static func refuses(_ verdict: Verdict, _ method: HTTPMethod) -> Bool {
        verdict == .refused && method != .GET && method != .HEAD && method != .OPTIONS
    }

    /// The 403 for `refuses`.
    static func refusal(_ request: HTTPRequest) -> RouteError {
        RouteError(
            status: .forbidden,
            detail: "Origin \(request.headers["Origin"] ?? "") may not \(request.method) here: it is neither this "
                + "server's origin nor one allowed with --cors-origin."
        )
    }

    /// Adds the headers of an actual (non-preflight) response.
    func decorate(_ headers: inout HTTPHeaders, _ verdict: Verdict) {
        if isEnabled { headers.add("Vary", "Origin") }
        guard case .allowed(let value) = verdict else { return }
        headers.add("Access-Control-Allow-Origin", value)
        headers.add("Access-Control-Expose-Headers", CORSPolicy.exposeHeaders)
    }

    /// The answer to `OPTIONS` on a route whose methods are `methods`: 204 with `Allow`, and for a preflight
    /// from an allowed origin (`Access-Control-Request-Method` present) the CORS grant, unless `grant` is false
    /// (a sandboxed page asking for a route it may not call: `SandboxPolicy`).
    func preflight(_ request: HTTPRequest, methods: [String], grant: Bool = true) -> HTTPResponse {
        var headers: HTTPHeaders = ["Allow": (methods + ["OPTIONS"]).joined(separator: ", ")]
        let verdict = verdict(request)
        if isEnabled { headers.add("Vary", "Origin") }
        if grant, case .allowed(let value) = verdict, request.headers.contains("Access-Control-Request-Method") {
            headers.add("Access-Control-Allow-Origin", value)
            headers.add("Access-Control-Allow-Methods", methods.joined(separator: ", "))
            headers.add("Access-Control-Allow-Headers", CORSPolicy.allowHeaders)
            headers.add("Access-Control-Max-Age", CORSPolicy.maxAge)
            // Chromium's local-network-access preflight: a public page calling a server on this machine.
            if request.headers["Access-Control-Request-Private-Network"]?.lowercased() == "true" {
                headers.add("Access-Control-Allow-Private-Network", "true")
            }
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }
}
