import HTTPServer

/// `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the store is usable).
public enum HealthRoutes {
    static let ok: [UInt8] = Array("{\"status\":\"ok\"}".utf8)
    static let ready: [UInt8] = Array("{\"status\":\"ready\"}".utf8)

    /// Adds both routes. `readiness` is called on every `/readyz` (keep it cheap and non-blocking).
    public static func register(on router: inout Router, readiness: @escaping @Sendable () -> Bool) {
        router.add(.GET, "/healthz") { _ in .json(ok) }
        router.add(.GET, "/readyz") { _ in
            if readiness() { return .json(ready) }
            return .problem(status: 503, detail: "The store is not usable.")
        }
    }
}
