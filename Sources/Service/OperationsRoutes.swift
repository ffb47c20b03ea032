import HTTPServer
import Store

/// `GET /metrics` (Prometheus text format 0.0.4) and `GET /openapi.yaml` (the contract, compiled in).
enum OperationsRoutes {
    static func register(
        on router: inout ServiceRouter, context: ServiceContext, server: @escaping @Sendable () -> ServerMetrics?
    ) {
        let openapi = FixedRepresentation(body: PackageResources.openapi_yaml, contentType: "application/yaml")
        router.add(.GET, "/openapi.yaml", sync: { request in openapi.response(to: request) })
        router.add(
            .GET, "/metrics",
            sync: { _ in
                HTTPResponse(
                    status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                    body: Array(MetricsText.render(context: context, server: server()).utf8))
            })
    }
}
