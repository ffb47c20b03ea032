import HTTPServer
import LayoutEngine
import Store
import Synchronization

/// The version reported by `hinge --version` and in the `Server` header.
public let hingeVersion = "0.1.0"

/// What every route shares: the device catalog, the store (nil in tests that need none), the recorder,
/// write authorization and metrics.
final class ServiceContext: Sendable {
    let catalog: any DeviceCatalog
    let store: Store?
    let recorder: Recorder
    let authorization: WriteAuthorization
    let metrics: ServiceMetrics
    let cors: CORSPolicy
    /// The server's connection counters, known once the server exists (the router is built first).
    let serverMetrics = Mutex<ServerMetrics?>(nil)

    init(catalog: any DeviceCatalog, store: Store?, record: Bool, apiKey: String?, corsOrigins: [String] = []) {
        self.catalog = catalog
        self.cors = CORSPolicy(origins: corsOrigins)
        self.store = store
        self.metrics = ServiceMetrics()
        self.recorder = Recorder(log: record ? store?.requestLog : nil, metrics: metrics)
        self.authorization = WriteAuthorization(apiKey: apiKey)
    }
}

/// Wires `hinge serve`: configuration from `ServeOptions`, the store, every route, readiness.
public struct ServiceApp: Sendable {
    public var options: ServeOptions
    public let store: Store?
    /// Whether `/readyz` answers 200: by default the store's health (open, last commit succeeded).
    public let readiness: @Sendable () -> Bool
    let context: ServiceContext

    /// `store` nil serves the API without devices or the request log (resolving then knows only the
    /// built-in profiles) — for tests of the HTTP layer.
    public init(options: ServeOptions, store: Store? = nil, readiness: (@Sendable () -> Bool)? = nil) {
        self.options = options
        self.store = store
        self.readiness = readiness ?? { store?.isHealthy ?? true }
        self.context = ServiceContext(
            catalog: store ?? StaticDeviceCatalog(BuiltInDevices.all), store: store, record: !options.noRecord,
            apiKey: options.apiKey, corsOrigins: options.corsOrigins)
    }

    /// Opens the store named by `--db` (creating and migrating it as needed).
    public static func open(options: ServeOptions) throws(StoreError) -> ServiceApp {
        let store = try Store.open(Store.Configuration(path: options.db, maxRecords: options.maxRecords))
        return ServiceApp(options: options, store: store)
    }

    /// Server configuration from the options (every other limit keeps its documented default).
    public var configuration: Configuration {
        var c = Configuration()
        c.host = options.host
        c.port = options.port
        c.threads = options.threads
        c.maxBodyBytes = options.maxBody
        c.serverName = "hinge/\(hingeVersion)"
        c.logRequests = options.logLevel == .info
        c.acceptStrategy = options.acceptStrategy
        return c
    }

    func makeServiceRouter() -> ServiceRouter {
        var router = ServiceRouter(metrics: context.metrics, cors: context.cors)
        HealthRoutes.register(on: &router, readiness: readiness)
        ResolveRoutes.register(on: &router, context: context)
        DeviceRoutes.register(on: &router, context: context)
        RequestRoutes.register(on: &router, context: context)
        let context = self.context
        OperationsRoutes.register(on: &router, context: context, server: { context.serverMetrics.withLock { $0 } })
        StudioRoutes.register(on: &router)
        return router
    }

    /// Every `METHOD /pattern` the service answers (the contract test compares them with openapi.yaml).
    public var routes: [String] { makeServiceRouter().answered }

    /// The server's handler: the routes plus `OPTIONS` and CORS on each (see `ServiceRouter.handler`).
    public func makeHandler() -> HTTPHandler { makeServiceRouter().handler }

    /// The server, with the store's flush and close as shutdown hooks (after in-flight requests finish).
    public func makeServer() -> HTTPServer {
        let server = HTTPServer(configuration: configuration, handler: makeHandler())
        let metrics = server.metrics
        context.serverMetrics.withLock { $0 = metrics }
        if let store {
            server.onShutdown { store.close() }
        }
        return server
    }
}
