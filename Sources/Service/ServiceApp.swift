import CLinux
import HTTPServer
import LayoutEngine
import Resolving
import Store
import Synchronization
import Threads

/// What every route shares: the device catalog, the store (nil in tests that need none), the recorder,
/// write authorization and metrics.
final class ServiceContext: Sendable {
    /// The catalog for callers off the event loops (replays on the store's read threads).
    let catalog: any DeviceCatalog
    /// The catalog per shard: with a store, each shard's own copy of the device profiles (docs/store.md).
    private let shardCatalogs: [any DeviceCatalog]
    let store: Store?
    /// Where resolves find the constant sets scenes name (the store's), built once.
    let constantSets: ConstantSetContext
    let recorder: Recorder
    let authorization: WriteAuthorization
    /// What sandboxed pages (`Origin: null`) may call, and the credentials that open the rest to them.
    let sandbox: SandboxPolicy
    let metrics: ServiceMetrics
    /// `error` lines: store failures with the details a problem never shows.
    let errorLog: ErrorLog
    let cors: CORSPolicy
    /// Threads for requests too heavy for an event loop (`HeavyWork`).
    let work: WorkPool
    /// The lane for reports that read the whole request log (`LongWorkLane`).
    let longWork: LongWorkLane
    /// `--max-matrix-work` and `--max-response-bytes`.
    let matrixLimits: Matrix.Limits
    /// The server's connection counters, known once the server exists (the router is built first).
    let serverMetrics = Mutex<ServerMetrics?>(nil)

    init(
        catalog: any DeviceCatalog, store: Store?, record: Bool, apiKey: String?, pairingToken: String? = nil,
        errorLog: ErrorLog, corsOrigins: [String] = [], work: WorkPool = HeavyWork.makePool(),
        longWork: LongWorkLane = LongWorkLane(), matrixLimits: Matrix.Limits = Matrix.Limits()
    ) {
        self.longWork = longWork
        self.catalog = catalog
        self.shardCatalogs = (0..<DeviceProfileStore.shardCount).map { shard in
            store?.devices.reader(shard: shard) ?? catalog
        }
        self.cors = CORSPolicy(origins: corsOrigins)
        self.work = work
        self.matrixLimits = matrixLimits
        self.store = store
        self.constantSets = ConstantSetContext(catalog: store?.constantSets)
        self.metrics = ServiceMetrics()
        self.errorLog = errorLog
        self.recorder = Recorder(log: record ? store?.requestLog : nil, metrics: metrics, errorLog: errorLog)
        self.authorization = WriteAuthorization(apiKey: apiKey)
        self.sandbox = SandboxPolicy(apiKey: apiKey, pairingToken: pairingToken)
    }

    /// The catalog of the loop that read `request` (`HTTPRequest.loopIndex`), so that event loops resolving at
    /// once never share a lock or a cache line to read their devices.
    func catalog(for request: HTTPRequest) -> any DeviceCatalog {
        shardCatalogs[ServiceContext.shard(request) & (DeviceProfileStore.shardCount - 1)]
    }

    /// The device-snapshot shard of the loop that read `request`: its index + 1 (0 is for other threads).
    static func shard(_ request: HTTPRequest) -> Int { request.loopIndex + 1 }
}

/// Wires `hinge serve`: configuration from `ServeOptions`, the store, every route, readiness.
public struct ServiceApp: Sendable {
    public var options: ServeOptions
    public let store: Store?
    /// What `/readyz` answers: by default the store's readiness (open, its files in place and writable —
    /// checked on each call — and its last commit succeeded); nil means ready.
    public let readiness: @Sendable () -> Readiness
    let context: ServiceContext
    /// The pairing token in force: `--pairing-token`, or one made at random when the app was built.
    public let pairingToken: String

    /// `store` nil serves the API without devices or the request log (resolving then knows only the
    /// built-in profiles) — for tests of the HTTP layer. `work` and `longWork` replace the default worker pool
    /// and long-work lane (tests gate their jobs).
    init(
        options: ServeOptions, store: Store? = nil, readiness: (@Sendable () -> Readiness)? = nil,
        logFileDescriptor: Int32 = 2, work: WorkPool? = nil, longWork: LongWorkLane?
    ) {
        self.options = options
        self.store = store
        self.readiness = readiness ?? { Readiness(store) }
        let pairingToken = options.pairingToken ?? SandboxPolicy.randomToken()
        self.pairingToken = pairingToken
        self.context = ServiceContext(
            catalog: store ?? StaticDeviceCatalog(BuiltInDevices.all), store: store, record: !options.noRecord,
            apiKey: options.apiKey, pairingToken: pairingToken, errorLog: ErrorLog(fileDescriptor: logFileDescriptor),
            corsOrigins: options.corsOrigins, work: work ?? HeavyWork.makePool(), longWork: longWork ?? LongWorkLane(),
            matrixLimits: Matrix.Limits(maxWork: options.maxMatrixWork, maxResponseBytes: options.maxResponseBytes))
    }

    /// `store` nil serves the API without devices or the request log (resolving then knows only the
    /// built-in profiles) — for tests of the HTTP layer. `work` replaces the default worker pool (tests gate
    /// its jobs).
    public init(
        options: ServeOptions, store: Store? = nil, readiness: (@Sendable () -> Readiness)? = nil,
        logFileDescriptor: Int32 = 2, work: WorkPool? = nil
    ) {
        self.init(
            options: options, store: store, readiness: readiness, logFileDescriptor: logFileDescriptor, work: work,
            longWork: nil)
    }

    /// Opens the store named by `--db` (creating and migrating it as needed), holding its lock file: a
    /// second server on the same database refuses to start (`StoreError.locked`). A change of the files
    /// under the store (deleted, replaced, not writable) is logged at `error`.
    public static func open(options: ServeOptions, logFileDescriptor: Int32 = 2) throws(StoreError) -> ServiceApp {
        let log = ErrorLog(fileDescriptor: logFileDescriptor)
        let store = try Store.open(
            Store.Configuration(
                path: options.db, maxRecords: options.maxRecords, maxLogBytes: options.maxLogBytes, exclusive: true,
                onStorageChange: { problem in
                    if let problem {
                        log.error(
                            "store: \(problem): writes are refused and /readyz answers 503 until it is fixed (a deleted or replaced file: restart hinge)"
                        )
                    } else {
                        log.error("store: the database files are usable again: writes resume")
                    }
                }, replicaID: options.replicaID, retryConnection: true, log: { line in log.error(line) },
                commitGatherMicroseconds: options.commitGatherMicroseconds))
        return ServiceApp(options: options, store: store, logFileDescriptor: logFileDescriptor)
    }

    /// The start-up line: where it listens, the database and the recording mode.
    public func startupLine(port: Int, threads: Int) -> String {
        let bodiesDescription: String
        switch (store, store?.bodyCodec) {
        case (nil, _): bodiesDescription = "bodies uncompressed"
        case (.some, nil): bodiesDescription = "bodies in lz4-compressed columns"
        case (.some(let s), .some): bodiesDescription = s.configuration.bodyCodec.startupDescription
        }
        let recording =
            options.noRecord
            ? "not recording"
            : "recording (max \(options.maxRecords) records, max \(options.maxLogBytes) bytes, "
                + "\(bodiesDescription))"
        return "hinge \(hingeVersion) listening on http://\(options.host):\(port) (\(threads) threads); "
            + "database \(store?.path ?? options.db)\(store.map { " (\($0.engineKind))" } ?? ""), "
            + "replica \(options.replicaID), \(store == nil ? "not recording" : recording)"
    }

    /// The line that gives the pairing token, when sandboxed pages may call the server at all (`--cors-origin`
    /// `null` or `*`); nil otherwise.
    public var pairingLine: String? {
        let cors = context.cors
        guard cors.allowsAnyOrigin || cors.origins.contains("null") else { return nil }
        return "pairing token for sandboxed pages such as the Figma plugin (Origin: null): \(pairingToken) "
            + "(a plugin's settings hold it to read the request log; docs/http.md#sandboxed-pages)"
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
        c.maxBufferedResponseBytes = options.maxBufferedBytes
        return c
    }

    func makeServiceRouter() -> ServiceRouter {
        var router = ServiceRouter(
            metrics: context.metrics, cors: context.cors,
            hosts: HostPolicy(bindHost: options.host, publicHosts: options.publicHosts, port: options.port),
            sandbox: context.sandbox, failures: FailureLog(errorLog: context.errorLog, store: context.store))
        HealthRoutes.register(on: &router, readiness: readiness)
        ResolveRoutes.register(on: &router, context: context)
        DeviceRoutes.register(on: &router, context: context)
        ConstantSetRoutes.register(on: &router, context: context)
        RequestRoutes.register(on: &router, context: context)
        #if HINGE_SWIFTUI
            SwiftUIRoutes.register(on: &router, context: context)
        #endif
        let context = self.context
        OperationsRoutes.register(on: &router, context: context, server: { context.serverMetrics.withLock { $0 } })
        StudioRoutes.register(on: &router, writesNeedKey: context.authorization.key != nil)
        return router
    }

    /// Every `METHOD /pattern` the service answers (the contract test compares them with openapi.yaml).
    public var routes: [String] { makeServiceRouter().answered }

    /// The query parameters each route declares, by `METHOD pattern`.
    var acceptedQuery: [String: [String]] { makeServiceRouter().acceptedQuery }

    /// The server's handler: the routes plus `OPTIONS` and CORS on each (see `ServiceRouter.handler`).
    public func makeHandler() -> HTTPHandler { makeServiceRouter().handler }

    /// The server, with the store's flush and close as shutdown hooks (after in-flight requests finish).
    public func makeServer() -> HTTPServer {
        // Buffers of 256 KiB and more (large responses, large request bodies) are mapped on their own and
        // unmapped when freed: after a burst of large matrices RSS returns to its baseline (Benchmarks/
        // hostile.sh). A typical request allocates nothing that large.
        _ = hinge_malloc_set_mmap_threshold(256 * 1024)
        let server = HTTPServer(configuration: configuration, handler: makeHandler())
        let metrics = server.metrics
        context.serverMetrics.withLock { $0 = metrics }
        let work = context.work
        let longWork = context.longWork
        server.onShutdown {
            work.close()
            longWork.close()
        }
        if let store {
            server.onShutdown { store.close() }
        }
        return server
    }
}
