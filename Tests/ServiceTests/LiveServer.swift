import Glibc
import HTTPServer
import JSON
import Store
import Testing
import TestSupport

@testable import Service

/// One HTTP response as the client saw it.
struct HTTPReply {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONParser.parse(body) }
    var contentType: String { header("Content-Type") ?? "" }
}

/// A minimal blocking HTTP/1.1 client over a real socket (`Connection: close`, read to EOF).
enum HTTPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func send(
        port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPReply {
        let fd: Int32
        do { fd = try connectLoopback(port: port, receiveTimeoutSeconds: 10) } catch {
            throw Failure(description: error.description)
        }
        defer { close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var request = Array(head.utf8)
        if let body { request += body }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buf[0..<n])
        }
        return try parse(data)
    }

    static func parse(_ data: [UInt8]) throws -> HTTPReply {
        let crlf2: [UInt8] = [13, 10, 13, 10]
        var end: Int? = nil
        if data.count >= 4 {
            for i in 0...(data.count - 4) where data[i..<i + 4].elementsEqual(crlf2) {
                end = i
                break
            }
        }
        guard let end else { throw Failure(description: "no response head in \(data.count) bytes") }
        let lines = String(decoding: data[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(description: "bad status line") }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingASCIISpaces()))
        }
        return HTTPReply(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> String { self[...].trimmingASCIISpaces() }
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
        apiKey: String? = nil, noRecord: Bool = false, corsOrigins: [String] = [],
        configure: (inout Store.Configuration) -> Void = { _ in }) throws {
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
        app = ServiceApp(options: options, store: store)
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

/// Polls `condition` until it holds or `seconds` pass (never a fixed sleep).
func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    while true {
        if try condition() { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 > seconds { return false }
        sched_yield()
        usleep(2000)
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
