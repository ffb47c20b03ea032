import HTTPServer

/// `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the store is usable).
enum HealthRoutes {
    static let ok: [UInt8] = Array("{\"status\":\"ok\"}".utf8)
    static let ready: [UInt8] = Array("{\"status\":\"ready\"}".utf8)

    /// Adds both routes. `readiness` is called on every `/readyz` (keep it cheap and non-blocking).
    static func register(on router: inout ServiceRouter, readiness: @escaping @Sendable () -> Bool) {
        router.add(.GET, "/healthz", sync: { _ in .json(ok) })
        router.add(.GET, "/readyz", sync: { _ in
            if readiness() { return .json(ready) }
            return Problem.response(
                status: 503,
                detail: "The store is not usable: the last request-log commit failed (see /metrics and the log).")
        })
    }
}
