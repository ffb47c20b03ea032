import HTTPServer
import Store

/// What `/readyz` reports (`Store.checkReadiness`; `.ready` without a store).
public typealias Readiness = Store.ReadinessCheck

extension Store.ReadinessCheck {
    init(_ store: Store?) { self = store?.checkReadiness() ?? .ready }
}

/// `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the store is usable).
enum HealthRoutes {
    static let ok: [UInt8] = Array("{\"status\":\"ok\"}".utf8)
    static let ready: [UInt8] = Array("{\"status\":\"ready\"}".utf8)

    /// Adds both routes. `readiness` is called on every `/readyz` (a few `stat` calls; never blocks).
    static func register(on router: inout ServiceRouter, readiness: @escaping @Sendable () -> Readiness) {
        router.add(.GET, "/healthz", sync: { _ in .json(ok) })
        router.add(
            .GET, "/readyz",
            sync: { _ in
                // The details name paths: they are in the log (written when the state changed), not here.
                let detail: String
                switch readiness() {
                case .ready: return .json(ready)
                case .storageUnusable:
                    detail =
                        "The store is not usable: its database file or WAL was deleted, replaced or made "
                        + "unwritable while the server runs; writes are refused (the server log names the file)."
                case .commitFailed:
                    detail =
                        "The store is not usable: the last request-log commit failed (see /metrics and the server log)."
                case .databaseUnavailable:
                    detail =
                        "The store is not usable: the database does not answer or its schema is not ready; the "
                        + "server reconnects with backoff (the server log has each attempt)."
                case .closed:
                    detail = "The store is shutting down."
                }
                return RouteError(status: .serviceUnavailable, detail: detail).response()
            })
    }
}
