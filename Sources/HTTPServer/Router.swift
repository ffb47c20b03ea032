/// What the server calls for every request. Respond exactly once through `responder`, right away or
/// later from any thread. See `HTTPResponder`.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Method + path routing with `{name}` parameters.
///
/// ```swift
/// var router = Router()
/// router.add(.GET, "/healthz") { _ in .json("{\"status\":\"ok\"}") }
/// router.add(.GET, "/v1/devices/{id}") { request in .text(request.pathParameters["id"]!) }
/// router.add(.POST, "/v1/resolve", responding: { request, responder in
///     queue.enqueue { responder.respond(.json(work(request.body))) }   // any thread, later
/// })
/// ```
/// An unknown path is answered 404, a known path with another method 405 with `Allow`, both as
/// `application/problem+json`. `HEAD` falls back to the `GET` route (the server drops the body).
/// Parameters match one non-empty segment and are percent-decoded.
public struct Router: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct Route: Sendable {
        var method: HTTPMethod
        var pattern: String
        var segments: [Segment]
        var handler: HTTPHandler
        /// No `{parameter}` segment: the route matches exactly the path equal to `pattern`.
        var isLiteral: Bool
    }

    private(set) var routes: [Route] = []

    public init() {}

    /// Adds a route whose handler answers synchronously with a response.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        add(method, pattern, responding: { request, responder in responder.respond(handler(request)) })
    }

    /// Adds a route whose handler responds through the responder, now or later from any thread.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, responding handler: @escaping HTTPHandler) {
        let segments = Router.segments(pattern)
        let isLiteral = segments.allSatisfy { if case .literal = $0 { true } else { false } }
        routes.append(
            Route(method: method, pattern: pattern, segments: segments, handler: handler, isLiteral: isLiteral))
    }

    static func segments(_ pattern: String) -> [Segment] {
        pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { s in
            if s.hasPrefix("{") && s.hasSuffix("}") && s.count > 2 {
                return .parameter(String(s.dropFirst().dropLast()))
            }
            return .literal(String(s))
        }
    }

    /// The result of looking a request up.
    public enum Match {
        case found(HTTPHandler, parameters: [String: String])
        /// The path exists for other methods, listed for `Allow`.
        case methodNotAllowed(allow: [String])
        case notFound
    }

    public func match(method: HTTPMethod, path: String) -> Match {
        // Routes are tried in order; a route without parameters matches exactly when its pattern equals the
        // path, so the path is split into segments only when a route with parameters is tried.
        var parts: ArraySlice<Substring>? = nil
        var allowed: [HTTPMethod] = []
        var getFallback: (HTTPHandler, [String: String])? = nil
        for route in routes {
            let params: [String: String]
            if route.isLiteral {
                guard route.pattern == path else { continue }
                params = [:]
            } else {
                if parts == nil { parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() }
                guard let bound = Router.bind(route.segments, parts!) else { continue }
                params = bound
            }
            if route.method == method { return .found(route.handler, parameters: params) }
            if method == .HEAD && route.method == .GET && getFallback == nil { getFallback = (route.handler, params) }
            allowed.append(route.method)
        }
        if let (h, p) = getFallback { return .found(h, parameters: p) }
        if allowed.isEmpty { return .notFound }
        var names = Set(allowed.map(\.rawValue))
        if names.contains("GET") { names.insert("HEAD") }
        return .methodNotAllowed(allow: names.sorted())
    }

    private static func bind(_ segments: [Segment], _ parts: ArraySlice<Substring>) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var params: [String: String] = [:]
        for (seg, part) in zip(segments, parts) {
            switch seg {
            case .literal(let l):
                if l != part { return nil }
            case .parameter(let name):
                if part.isEmpty { return nil }
                params[name] = part.contains("%") ? percentDecode(String(part)) : String(part)
            }
        }
        return params
    }

    /// Routes a request: calls the matching handler with `pathParameters` filled, or answers 404/405.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        switch match(method: request.method, path: request.path) {
        case .found(let handler, let parameters):
            if parameters.isEmpty {
                handler(request, responder)  // no copy of the request for a route without parameters
            } else {
                var request = request
                request.pathParameters = parameters
                handler(request, responder)
            }
        case .methodNotAllowed(let allow): responder.respond(Router.methodNotAllowed(request, allow: allow))
        case .notFound: responder.respond(Router.notFound(request))
        }
    }

    /// The one 404 of a path no route matches (`Cache-Control: no-store`, as every problem).
    public static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        .problem(status: .notFound, detail: "No resource at \(request.path).")
    }

    /// The one 405 of a method a path does not answer, with `Allow` listing `allow`.
    public static func methodNotAllowed(_ request: HTTPRequest, allow: [String]) -> HTTPResponse {
        let methods = allow.joined(separator: ", ")
        return .problem(
            status: .methodNotAllowed,
            detail: "\(request.method) is not allowed on \(request.path); allowed: \(methods).",
            headers: ["Allow": methods])
    }

    /// This router as a server handler.
    public var handler: HTTPHandler {
        let router = self
        return { request, responder in router.handle(request, responder) }
    }
}
