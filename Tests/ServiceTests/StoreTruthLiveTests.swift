import Glibc
import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store
import TestSupport
import Testing

@testable import Service

/// A pipe standing in for the server's log: what the service wrote, read without blocking.
final class LogPipe {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HTTPClient.Failure(description: "pipe: errno \(errno)") }
        readFD = fds[0]
        writeFD = fds[1]
        _ = fcntl(readFD, F_SETFL, fcntl(readFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Everything written so far.
    func text() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A valid custom profile without an `id` member (the path names it).
let phoneProfile = "{" + customProfile().dropFirst(#"{"id":"my-phone","#.utf8.count)

/// The store tells the truth over HTTP: a deleted database fails `/readyz`, writes answer 503 problems
/// without SQL or paths but with a `requestId` that names the `error` line in the log.
@Suite struct StoreTruthLiveTests {
    @Test func aDeletedDatabaseFailsReadinessAndWritesAnswer503WithARequestID() throws {
        let log = try LogPipe()
        let s = try LiveServer(logFileDescriptor: log.writeFD)
        #expect(try s.put("/v1/devices/before", phoneProfile).status == 201)
        #expect(unlink(s.dbPath) == 0)

        let ready = try s.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains("deleted, replaced or made unwritable"))
        #expect(!ready.text.contains(s.dbPath))

        var logged = ""
        for (reply, what) in [
            (try s.put("/v1/devices/after", phoneProfile), "The device profile could not be written"),
            (try s.delete("/v1/requests"), "The request log could not be cleared"),
        ] {
            #expect(reply.status == 503)
            #expect(reply.contentType == "application/problem+json")
            let detail = reply.json?["detail"]?.stringValue ?? ""
            #expect(detail.hasPrefix(what))
            for secret in [s.dbPath, "SQL", "INSERT", "BEGIN", "sqlite", "readonly database"] {
                #expect(!reply.text.contains(secret), "the problem shows \(secret): \(reply.text)")
            }
            let id = try #require(reply.json?["requestId"]?.stringValue)
            #expect(id.utf8.count == 16)
            logged += log.text()
            #expect(logged.contains("error: request \(id): "))
            #expect(logged.contains(s.dbPath))  // the log line has the details
        }
        // A resolution still answers; its record fails loudly in the log.
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        #expect(log.text().contains("was not written: the store refuses writes"))
        s.stop()
    }

    @Test(arguments: ["%2e%2e", "%2E", "..", "..."])
    func dotOnlyDeviceIDsAreRefused(_ id: String) throws {
        let s = try LiveServer()
        let r = try s.put("/v1/devices/\(id)", phoneProfile)
        #expect(r.status == 422 || r.status == 404)
        if r.status == 422 {
            #expect(r.text.contains("must not consist of dots only"))
        }
        #expect(try s.get("/v1/devices").text.contains("\"id\":\"..\"") == false)
        s.stop()
    }

    @Test func percentEncodedDotsReachTheValidation() throws {
        let s = try LiveServer()
        let r = try s.put("/v1/devices/%2e%2e", phoneProfile)
        #expect(r.status == 422)
        #expect(r.json?["errors"]?[0]?["path"] == "/id")
        s.stop()
    }
}

@Suite struct StoreFailureProblemTests {
    @Test func causesAreToldInAClientsTerms() {
        let full = StoreError.sqlite(
            SQLiteFailure(extendedCode: 13, message: "database or disk is full", operation: "DELETE FROM requests"))
        #expect(Problem.reason(full) == "the storage is full")
        let io = StoreError.sqlite(
            SQLiteFailure(extendedCode: 10 | (4 << 8), message: "disk I/O error", operation: "COMMIT"))
        #expect(Problem.reason(io) == "the storage reported an I/O error")
        #expect(
            Problem.reason(.storageUnusable("/x was deleted"))
                == "the database files were deleted, replaced or made unwritable")
    }

    /// Under a full disk a clear says it could not clear, and why — not "could not be read".
    @Test func aClearThatFailsOnAFullDiskSaysSo() throws {
        let log = try LogPipe()
        let full = StoreError.sqlite(
            SQLiteFailure(extendedCode: 13, message: "database or disk is full", operation: "DELETE FROM requests"))
        let failures = FailureLog(errorLog: ErrorLog(fileDescriptor: log.writeFD), store: nil)
        let response = RouteError(Problem.store(full, .clear, what: "the request log")).response(
            failures, method: .DELETE, path: "/v1/requests")
        #expect(response.status == .serviceUnavailable)
        let body = try JSONParser.parse(response.body)
        #expect(
            body["detail"]?.stringValue?.hasPrefix("The request log could not be cleared: the storage is full.") == true
        )
        let id = try #require(body["requestId"]?.stringValue)
        #expect(
            log.text().contains(
                "error: request \(id): DELETE /v1/requests: the request log could not be cleared: SQLite error 13"))
    }
}

@Suite struct StartupAndOptionsTests {
    @Test func theStartupLineNamesTheDatabaseAndTheRecordingMode() throws {
        let dir = TemporaryDirectory()
        var options = ServeOptions()
        options.db = dir.file("hinge.sqlite")
        options.maxRecords = 500
        options.maxLogBytes = 2 << 20
        options.replicaID = "replica-7"
        let app = try ServiceApp.open(options: options)
        defer { app.store?.close() }
        let line = app.startupLine(port: 8080, threads: 2)
        #expect(line.contains("database \(dir.file("hinge.sqlite")) (sqlite), replica replica-7, "))
        #expect(
            line.contains("recording (max 500 records, max 2097152 bytes, bodies lz4 with dictionary 2, liblz4.so.1 1.")
        )
        options.noRecord = true
        #expect(
            ServiceApp(options: options, store: app.store).startupLine(port: 1, threads: 1).contains("not recording"))
        // The server's lock: a second server on the same database refuses to start.
        #expect(throws: StoreError.locked(path: options.db, lockPath: options.db + ".lock", owner: Int(getpid()))) {
            try ServiceApp.open(options: options)
        }
    }
}
