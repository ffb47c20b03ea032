import HTTPServer
import Store
import Synchronization
import Threads

/// A router whose handlers get a `Reply` (metrics by route pattern, CORS and caching headers) instead of the
/// bare responder. Each route declares the query parameters it reads where it is registered (`query:`).
/// Before a handler runs, a request for a host the server does not answer for is refused (421), a write
/// from an origin that is not allowed (403), a sandboxed page (`Origin: null`) without a credential on a
/// route that is not stateless (403, `SandboxPolicy`), and a query parameter the route does not declare (400).
struct ServiceRouter {
    var router = Router()
    let metrics: ServiceMetrics
    let cors: CORSPolicy
    let hosts: HostPolicy
    let sandbox: SandboxPolicy
    /// Where a store failure behind a route's error is logged.
    let failures: FailureLog
    /// The routes open to sandboxed pages, for preflights (their handlers are never called).
    var sandboxRoutes = Router()
    /// Every `METHOD pattern` registered, for the contract test against openapi.yaml.
    var registered: [String] = []
    /// The query parameters each `METHOD pattern` declares.
    var acceptedQuery: [String: [String]] = [:]

    init(
        metrics: ServiceMetrics, cors: CORSPolicy = CORSPolicy(origins: []),
        hosts: HostPolicy = HostPolicy(bindHost: "127.0.0.1", publicHosts: []),
        sandbox: SandboxPolicy = SandboxPolicy(apiKey: nil, pairingToken: nil),
        failures: FailureLog = FailureLog(errorLog: ErrorLog(), store: nil)
    ) {
        self.failures = failures
        self.metrics = metrics
        self.cors = cors
        self.hosts = hosts
        self.sandbox = sandbox
    }

    /// A route: `handler` answers through the `Reply` (at once, or later from another thread), or throws the
    /// `RouteError` that is answered instead.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, query accepted: [String] = [],
        _ handler: @escaping @Sendable (HTTPRequest, Reply) throws(RouteError) -> Void
    ) {
        let label = "\(method.rawValue) \(pattern)"
        registered.append(label)
        acceptedQuery[label] = accepted
        let counters = metrics.counters(route: label)
        let cors = self.cors
        let sandbox = self.sandbox
        let failures = self.failures
        let stateless = SandboxPolicy.statelessRoutes.contains(label)
        if stateless { sandboxRoutes.add(method, pattern, { _ in HTTPResponse(status: .noContent) }) }
        router.add(
            method, pattern,
            responding: { request, responder in
                let origin = cors.verdict(request)
                let reply = Reply(
                    responder: responder, counters: counters, shard: request.shard,
                    startNanos: MonotonicClock.nanoseconds(), cors: cors, origin: origin, failures: failures,
                    method: request.method, path: request.path)
                if CORSPolicy.refuses(origin, request.method) { return reply.send(CORSPolicy.refusal(request)) }
                if !stateless, case .allowed = origin, SandboxPolicy.isOpaque(request),
                    !sandbox.isCredentialed(request)
                {
                    return reply.send(SandboxPolicy.refusal(request))
                }
                if !request.queryItems.isEmpty,
                    let refused = QueryParameters.refusal(request.queryItems, accepted: accepted, route: label)
                {
                    return reply.send(refused)
                }
                do throws(RouteError) { try handler(request, reply) } catch { reply.send(error) }
            })
    }

    /// Every `METHOD pattern` answered: those registered, then `OPTIONS` on each pattern (see `handler`).
    var answered: [String] {
        var patterns: [Substring] = []
        for label in registered {
            let pattern = label.split(separator: " ", maxSplits: 1)[1]
            if !patterns.contains(pattern) { patterns.append(pattern) }
        }
        return registered + patterns.map { "OPTIONS \($0)" }
    }

    /// The server's handler: the routes, `OPTIONS` on every route (`CORSPolicy.preflight`), and 404/405
    /// problems that carry the CORS headers too, so a browser page can read why its call failed.
    var handler: HTTPHandler {
        let router = self.router
        let cors = self.cors
        let hosts = self.hosts
        let sandboxRoutes = self.sandboxRoutes
        return { request, responder in
            // Before any route, CORS decision or work: a name the server does not answer for (DNS rebinding).
            if !hosts.accepts(request.headers["Host"]) { return responder.respond(HostPolicy.refusal(request)) }
            switch router.match(method: request.method, path: request.path) {
            case .found(let handler, let parameters):
                if parameters.isEmpty { return handler(request, responder) }
                var request = request
                request.pathParameters = parameters
                handler(request, responder)
            case .methodNotAllowed(let allow):
                if request.method == .OPTIONS {
                    let granted = ServiceRouter.sandboxMayCall(request, sandboxRoutes)
                    return responder.respond(cors.preflight(request, methods: allow, grant: granted))
                }
                // The server's own 405 (every route also answers OPTIONS), with the CORS headers a page needs
                // to read why its call failed.
                var response = Router.methodNotAllowed(request, allow: allow + ["OPTIONS"])
                cors.decorate(&response.headers, cors.verdict(request))
                responder.respond(response)
            case .notFound:
                var response = Router.notFound(request)
                cors.decorate(&response.headers, cors.verdict(request))
                responder.respond(response)
            }
        }
    }

    /// Whether a preflight may be granted as far as sandboxed pages go: any origin but `null`; for `null`, a
    /// request that will carry `Authorization` (checked when it comes) or a stateless route.
    static func sandboxMayCall(_ request: HTTPRequest, _ sandboxRoutes: Router) -> Bool {
        guard SandboxPolicy.isOpaque(request) else { return true }
        if let asked = request.headers["Access-Control-Request-Headers"],
            asked.lowercased().split(separator: ",").contains(where: { $0.trimmingASCIISpaces() == "authorization" })
        {
            return true
        }
        guard let method = request.headers["Access-Control-Request-Method"].map(HTTPMethod.init(rawValue:))
        else { return false }
        if case .found = sandboxRoutes.match(method: method, path: request.path) { return true }
        return false
    }

    /// A handler that reads the database: it runs on `workers` (`Store.readWorkers`), never on the event
    /// loop, and its answer is finished on the loop (`Reply.complete`). When `workers` refuse the job (their queue
    /// is full, or the store is closing) the answer is an immediate 503 with `Retry-After: 1`.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, query: [String] = [], reading workers: ReadWorkers,
        _ handler: @escaping @Sendable (HTTPRequest) throws(RouteError) -> HTTPResponse
    ) {
        add(method, pattern, query: query, reading: workers) { request, reply throws(RouteError) in
            let response = try handler(request)
            reply.complete { response }
        }
    }

    /// A handler that starts on `workers` (`Store.readWorkers`) and answers through its `Reply`, from there or
    /// from wherever it hands the work on (an error it throws is finished on the loop); a full queue answers 503
    /// as above.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, query: [String] = [], reading workers: ReadWorkers,
        _ handler: @escaping @Sendable (HTTPRequest, Reply) throws(RouteError) -> Void
    ) {
        add(method, pattern, query: query) { request, reply throws(RouteError) in
            let submitted = workers.submit {
                do throws(RouteError) { try handler(request, reply) } catch {
                    reply.complete { () throws(RouteError) in throw error }
                }
            }
            guard submitted else { throw Self.readersBusy(workers) }
        }
    }

    static func readersBusy(_ workers: ReadWorkers) -> RouteError {
        RouteError(
            status: .serviceUnavailable,
            detail: "Too many request-log reads are waiting (\(workers.capacity)); retry shortly.",
            headers: ["Retry-After": "1"])
    }

    /// A handler that answers at once, on the loop.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, query: [String] = [],
        sync handler: @escaping @Sendable (HTTPRequest) throws(RouteError) -> HTTPResponse
    ) {
        add(method, pattern, query: query) { request, reply throws(RouteError) in reply.send(try handler(request)) }
    }
}
