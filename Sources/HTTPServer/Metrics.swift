import Synchronization

/// Cheap counters the server keeps (relaxed atomics); a `/metrics` route reads them.
public final class ServerMetrics: Sendable {
    /// Connections open now.
    public let openConnections = Atomic<Int>(0)
    /// Connections accepted since start (refused ones included).
    public let acceptedConnections = Atomic<Int>(0)
    /// Connections refused with 503 because `maxConnections` were open.
    public let refusedConnections = Atomic<Int>(0)
    /// Requests handed to the handler.
    public let requests = Atomic<Int>(0)
    /// Requests refused by the parser (4xx/5xx before any handler ran).
    public let parseErrors = Atomic<Int>(0)
    /// Connections answered 408 (header or body read timeout).
    public let timeouts = Atomic<Int>(0)
    public let responses1xx = Atomic<Int>(0)
    public let responses2xx = Atomic<Int>(0)
    public let responses3xx = Atomic<Int>(0)
    public let responses4xx = Atomic<Int>(0)
    public let responses5xx = Atomic<Int>(0)

    public init() {}

    func countResponse(status: Int) {
        switch status {
        case ..<200: responses1xx.add(1, ordering: .relaxed)
        case 200..<300: responses2xx.add(1, ordering: .relaxed)
        case 300..<400: responses3xx.add(1, ordering: .relaxed)
        case 400..<500: responses4xx.add(1, ordering: .relaxed)
        default: responses5xx.add(1, ordering: .relaxed)
        }
    }
}
