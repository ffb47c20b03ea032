import ArgumentScanning
import Glibc
import LayoutEngine
import Resolving
import Synchronization
import Testing

@testable import HingeCLI
@testable import Store

/// `hinge devices` and `hinge replay` with `--db postgres://…` (when `HINGE_TEST_POSTGRES_URL` is set): they
/// read what a server wrote, and never create Hinge's tables in a database without them.
@Suite(.enabled(if: getenv("HINGE_TEST_POSTGRES_URL") != nil))
struct PostgresCLITests {
    /// A fresh schema in the test database, and the URL that puts it on the search path (libpq's `options`).
    final class Schema {
        let name = "hinge_cli_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let base = getenv("HINGE_TEST_POSTGRES_URL").map { String(cString: $0) } ?? ""
        var url: String { base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + name }

        init() throws {
            let db = try PGConnection(url: base, applicationName: "hinge-tests", schema: nil)
            defer { db.close() }
            if let quoted = db.escapeIdentifier(name) { try db.exec("CREATE SCHEMA " + quoted) }
        }

        deinit {
            guard let db = try? PGConnection(url: base, applicationName: "hinge-tests", schema: nil) else { return }
            if let quoted = db.escapeIdentifier(name) { _ = try? db.exec("DROP SCHEMA " + quoted + " CASCADE") }
            db.close()
        }
    }

    @Test func devicesAndReplayReadWhatAServerWrote() throws {
        let schema = try Schema()
        // Nothing there yet: refused, and nothing created.
        var devices = DevicesCommandOptions()
        devices.db = schema.url
        #expect(DevicesCommandRunner.run(options: devices).exitCode == 1)
        var replay = ReplayCommandOptions()
        replay.db = schema.url
        #expect(ReplayCommandRunner.run(options: replay).exitCode == 1)
        let check = try PGConnection(url: schema.base, applicationName: "hinge-tests", schema: schema.name)
        #expect(try check.exec("SELECT to_regclass('schema_migrations') IS NULL").bool(0, 0))
        check.close()

        let store = try Store.open(.init(path: schema.url, replicaID: "cli-test"))
        var profile = try #require(BuiltInDevices.all.first)
        profile.id = "from-postgres"
        profile.name = "From PostgreSQL"
        _ = try store.devices.put(profile)
        let scene = Array(#"{"device": "from-postgres", "presentations": [{"id": "s", "kind": "sheet"}]}"#.utf8)
        let out = Resolver.resolve(body: scene, catalog: store)
        #expect(out.status == 200)
        try store.requestLog.clear()
        let done = Mutex<Bool>(false)
        store.requestLog.append(
            RequestRecord(
                receivedAt: .now(), durationMicros: 1, device: RecordFacts(resolve: out, request: scene).device,
                status: out.status, codes: RecordFacts(resolve: out, request: scene).codes,
                requestBody: scene, responseBody: out.json, engineVersion: LayoutEngine.version)
        ) { if case .success = $0 { done.withLock { $0 = true } } }
        store.requestLog.flush()
        #expect(done.withLock { $0 })
        store.close()

        let listed = DevicesCommandRunner.run(options: devices)
        #expect(listed.exitCode == 0)
        #expect(String(decoding: listed.stdout, as: UTF8.self).contains("from-postgres"))
        let replayed = ReplayCommandRunner.run(options: replay)
        #expect(replayed.exitCode == 0)
        #expect(String(decoding: replayed.stdout, as: UTF8.self).hasPrefix("replayed 1, unchanged 1"))
    }
}
