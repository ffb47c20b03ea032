import Glibc
import HTTPServer
import JSON
import Store
import TestSupport
import Testing
import Threads

@testable import Service

extension HTTPReply {
    /// The body parsed as JSON, nil when it is not.
    var json: JSONValue? { try? JSONParser.parse(body) }
}

/// A real `ServiceApp` server on port 0 over a `Store` on a temporary file. Each test gets its own, so
/// tests never share state. `stop()` shuts the server down (which closes the store).
final class LiveServer {
    let directory = TemporaryDirectory()
    let store: Store
    let app: ServiceApp
    let server: HTTPServer
    var port: Int { server.port }
    var dbPath: String { directory.file("hinge.sqlite") }
    private var stopped = false

    init(
        apiKey: String? = nil, noRecord: Bool = false, logFileDescriptor: Int32 = 2, corsOrigins: [String] = [],
        work: WorkPool? = nil, maxMatrixWork: Int? = nil, maxResponseBytes: Int? = nil, pairingToken: String? = nil,
        longWork: LongWorkLane? = nil, configure: (inout Store.Configuration) -> Void = { _ in }
    ) throws {
        var configuration = Store.Configuration(path: directory.file("hinge.sqlite"))
        configure(&configuration)
        store = try Store.open(configuration)
        var options = ServeOptions()
        options.port = 0
        options.threads = 1
        options.logLevel = .warn
        options.db = configuration.path
        options.apiKey = apiKey
        options.noRecord = noRecord
        options.corsOrigins = corsOrigins
        options.pairingToken = pairingToken
        if let maxMatrixWork { options.maxMatrixWork = maxMatrixWork }
        if let maxResponseBytes { options.maxResponseBytes = maxResponseBytes }
        app = ServiceApp(
            options: options, store: store, logFileDescriptor: logFileDescriptor, work: work, longWork: longWork)
        server = app.makeServer()
        do { try server.start() } catch {
            store.close()
            throw error
        }
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        server.shutdown()
        server.wait()
        store.close()
    }

    deinit { stop() }

    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPReply {
        try HTTPClient.send(port: port, method, target, headers: headers, body: body)
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPReply {
        try send("GET", target, headers: headers)
    }

    func post(_ target: String, _ body: String, headers: [(String, String)] = []) throws -> HTTPReply {
        try send("POST", target, headers: headers, body: Array(body.utf8))
    }

    func put(_ target: String, _ body: String, headers: [(String, String)] = []) throws -> HTTPReply {
        try send("PUT", target, headers: headers, body: Array(body.utf8))
    }

    func delete(_ target: String, headers: [(String, String)] = []) throws -> HTTPReply {
        try send("DELETE", target, headers: headers)
    }

    /// The request-log items of `GET /v1/requests` with `query`.
    func records(_ query: String = "") throws -> [JSONValue] {
        let reply = try get("/v1/requests" + query)
        return reply.json?["items"]?.arrayValue ?? []
    }
}

/// JSON object keys in the order the body has them, at every level: checks the writer sorted them.
func keysAreSortedEverywhere(_ value: JSONValue) -> Bool {
    switch value {
    case .object(let o):
        let keys = o.keys
        guard keys == keys.sorted() else { return false }
        return o.members.allSatisfy { keysAreSortedEverywhere($0.value) }
    case .array(let a): return a.allSatisfy(keysAreSortedEverywhere)
    default: return true
    }
}
