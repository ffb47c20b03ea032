import HTTPServer

/// The version reported by `hinge --version` and in the `Server` header.
public let hingeVersion = "0.1.0"

/// Wires the HTTP server for `hinge serve`: configuration from `ServeOptions`, routes, readiness.
public struct ServiceApp: Sendable {
    public var options: ServeOptions
    /// Whether the store is usable; `/readyz` answers 503 while it returns false. The Store issue
    /// plugs the real check in.
    public var readiness: @Sendable () -> Bool

    public init(options: ServeOptions, readiness: @escaping @Sendable () -> Bool = { true }) {
        self.options = options
        self.readiness = readiness
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

    /// Every route of the service. Later issues add theirs here.
    public func makeRouter() -> Router {
        var router = Router()
        HealthRoutes.register(on: &router, readiness: readiness)
        return router
    }

    public func makeServer() -> HTTPServer {
        HTTPServer(configuration: configuration, router: makeRouter())
    }
}
