import Dispatch
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

/// What only PostgreSQL has: several replicas on one database, migrations raced by several opens, connection
/// loss. Runs when `HINGE_TEST_POSTGRES_URL` is set; each test uses a fresh schema (`TestDatabase`).
@Suite("PostgreSQL engine: replicas, migrations, faults", .enabled(if: EngineTarget.postgresURL != nil))
struct PostgresEngineTests {
    @Test func aProfileWrittenOnOneReplicaReachesTheOtherByNotification() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open { $0.replicaID = "a" }
        defer { a.close() }
        let b = try database.open { $0.replicaID = "b" }
        defer { b.close() }
        let put = try a.devices.put(customProfile(name: "From A"))
        #expect(eventually(within: 10) { b.devices.stored(id: "my-phone") == put.stored })
        for shard in 0..<4 { #expect(b.devices.reader(shard: shard).profile(id: "my-phone")?.name == "From A") }
        // An If-Match write on B with the tag it learnt from the notification, then a delete on A.
        let replaced = try b.devices.put(customProfile(name: "From B"), precondition: .matching([put.stored.etag]))
        #expect(eventually(within: 10) { a.devices.stored(id: "my-phone") == replaced.stored })
        try a.devices.delete(id: "my-phone", precondition: .matching([replaced.stored.etag]))
        #expect(eventually(within: 10) { b.devices.stored(id: "my-phone") == nil })
    }

    /// A replica reads its own write as soon as the write answers, even while its listener keeps reloading
    /// (another replica writing all along): a reload read before the write committed never replaces the
    /// snapshot after it (`DeviceProfileStore.replaceAll(_:ifGeneration:)`).
    @Test func aReplicaReadsItsOwnWritesWhileItsListenerReloads() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open { $0.replicaID = "a" }
        defer { a.close() }
        let b = try database.open { $0.replicaID = "b" }
        defer { b.close() }
        // A's listener holds what it read for 5 ms before publishing: A's writes land in that window.
        (a.engine as? PostgresEngine)?.reloadPauseMicros.store(5_000, ordering: .relaxed)
        let stop = Mutex(false)
        let noise = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var i = 0
            while !stop.withLock({ $0 }) {
                _ = try? b.devices.put(customProfile("noise", name: "noise \(i)"))
                i += 1
            }
            noise.signal()
        }
        var misses = 0
        for i in 0..<60 {
            _ = try a.devices.put(customProfile("own", name: "own \(i)"))
            if a.profile(id: "own")?.name != "own \(i)" { misses += 1 }
        }
        stop.withLock { $0 = true }
        noise.wait()
        #expect(misses == 0)
    }

    /// The precondition is decided by the database: of many writes carrying the same ETag, on two replicas at
    /// once, exactly one is accepted, whatever the replicas' snapshots say.
    @Test func concurrentConditionalWritesWithTheSameETagAcceptExactlyOne() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open { $0.replicaID = "a" }
        defer { a.close() }
        let b = try database.open { $0.replicaID = "b" }
        defer { b.close() }
        let base = try a.devices.put(customProfile())
        #expect(eventually(within: 10) { b.devices.stored(id: "my-phone") == base.stored })
        let accepted = Mutex<[String]>([])
        let refused = Mutex<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let store = i % 2 == 0 ? a : b
            do {
                _ = try store.devices.put(
                    customProfile(name: "writer \(i)"), precondition: .matching([base.stored.etag]))
                accepted.withLock { $0.append("writer \(i)") }
            } catch StoreError.preconditionFailed {
                refused.withLock { $0 += 1 }
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        let winners = accepted.withLock { $0 }
        #expect(winners.count == 1 && refused.withLock { $0 } == 15)
        #expect(
            eventually(within: 10) {
                a.profile(id: "my-phone")?.name == winners.first && b.profile(id: "my-phone")?.name == winners.first
            })
        // Creating the same new id on both replicas at once: one creates, the other is refused.
        let created = Mutex<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if (try? (i == 0 ? a : b).devices.put(customProfile("fresh"), precondition: .absent)) != nil {
                created.withLock { $0 += 1 }
            }
        }
        #expect(created.withLock { $0 } == 1)
    }

    /// One id sequence: a cursor from one replica continues on the other, and every record of both is
    /// visited once, newest first; each record names its replica.
    @Test func cursorsWorkAcrossReplicas() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open { $0.replicaID = "a" }
        defer { a.close() }
        let b = try database.open { $0.replicaID = "b" }
        defer { b.close() }
        let counter = CompletionCounter()
        counter.expect(30)
        for i in 0..<30 {
            (i % 2 == 0 ? a : b).requestLog.append(record(status: 200 + i), completion: counter.completion)
        }
        #expect(counter.wait())
        var seen: [RecordSummary] = []
        var cursor: String?
        var turn = 0
        repeat {
            let page = try (turn % 2 == 0 ? a : b).requestLog.list(RecordQuery(limit: 4, cursor: cursor))
            seen += page.items
            cursor = page.next
            turn += 1
        } while cursor != nil && turn < 100
        #expect(seen.map(\.id) == counter.successes.withLock { $0 }.sorted(by: >))
        #expect(Set(seen.map(\.replicaID)) == ["a", "b"])
        #expect(seen.filter { $0.replicaID == "a" }.allSatisfy { ($0.status - 200) % 2 == 0 })
    }

    /// Several replicas starting at once on an empty schema: the advisory lock makes one migrate while the
    /// others wait, and all of them open.
    @Test func concurrentOpensMigrateOnce() throws {
        let database = try TestDatabase(.postgres)
        let stores = Mutex<[Store]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                let s = try database.open { $0.replicaID = "r\(i)" }
                stores.withLock { $0.append(s) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        defer { for s in stores.withLock({ $0 }) { s.close() } }
        #expect(failures.withLock { $0 } == [])
        let db = try database.connection()
        defer { db.close() }
        let versions = try db.exec("SELECT count(*), max(version) FROM schema_migrations")
        #expect(versions.int64(0, 0) == Int64(PostgresSchema.latestVersion))
        #expect(versions.int64(0, 1) == Int64(PostgresSchema.latestVersion))
        #expect(
            try db.exec("SELECT count(*) FROM device_profiles WHERE built_in").int64(0, 0)
                == Int64(BuiltInDevices.all.count))
    }

    @Test func aSchemaNewerThanTheBinaryIsRefused() throws {
        let database = try TestDatabase(.postgres)
        try database.open().close()
        let db = try database.connection()
        try db.exec("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [.int(99), .text("future")])
        db.close()
        #expect {
            _ = try database.open { $0.retryConnection = true }
        } throws: { error in
            guard case .schemaTooNew(_, let found, let supported) = error as? StoreError else { return false }
            return found == 99 && supported == PostgresSchema.latestVersion && "\(error)".contains("newer Hinge")
        }
    }

    @Test func theCLIRefusesADatabaseWithoutHingeTablesAndCreatesNothing() throws {
        let database = try TestDatabase(.postgres)
        #expect(throws: StoreError.self) { _ = try database.open { $0.requireWritable = false } }
        let db = try database.connection()
        defer { db.close() }
        #expect(try db.exec("SELECT to_regclass('requests') IS NULL").bool(0, 0))
    }

    @Test(arguments: [
        "postgres://hinge:s3cret@127.0.0.1:5432/hinge", "postgresql://u:@h/db", "postgres://u@h/db?password=s3cret",
        "postgres://u@h/db?sslmode=disable&PASSWORD=s3cret",
    ])
    func aURLWithAPasswordIsRefusedWithoutEchoingIt(_ url: String) {
        #expect {
            _ = try Store.open(.init(path: url, retryConnection: true))
        } throws: { error in
            let text = "\(error)"
            return text.contains("PGPASSWORD") && !text.contains("s3cret") && !text.contains(url)
        }
    }

    /// Unreachable at start: the store opens (a server starts), logs each attempt, is not ready, answers
    /// records without ids and reads with an error.
    @Test func anUnreachableDatabaseAtStartIsRetriedAndReportedNotReady() throws {
        let lines = Mutex<[String]>([])
        let store = try Store.open(
            .init(
                path: "postgres://hinge@127.0.0.1:1/hinge", replicaID: "lonely", retryConnection: true,
                reconnectMillis: 20, log: { line in lines.withLock { $0.append(line) } }))
        defer { store.close() }
        guard case .databaseUnavailable = store.checkReadiness() else {
            Issue.record("ready without a database: \(store.checkReadiness())")
            return
        }
        #expect(!store.isHealthy)
        #expect(
            eventually(within: 10) { lines.withLock { $0.filter { $0.contains("connection attempt") }.count } >= 3 })
        let counter = CompletionCounter()
        counter.expect(1)
        store.requestLog.append(record(), completion: counter.completion)
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0 }.isEmpty)
        #expect(throws: StoreError.self) { _ = try store.requestLog.list(RecordQuery()) }
        #expect(store.profile(id: "iphone-16") != nil)  // the built-ins serve meanwhile
    }

    /// Every connection of the store killed by the server: the next commit fails (no id: nothing
    /// acknowledged is lost), a read on a terminated connection runs again on a new one, readiness reports it; the
    /// connections come back with backoff and every acknowledged record is there.
    @Test func lostConnectionsAreReportedAndReestablished() throws {
        let database = try TestDatabase(.postgres)
        let store = try database.open {
            $0.replicaID = "victim-" + (database.schema ?? "")
            $0.reconnectMillis = 20
        }
        defer { store.close() }
        let before = CompletionCounter()
        before.expect(5)
        for _ in 0..<5 { store.requestLog.append(record(), completion: before.completion) }
        #expect(before.wait())
        #expect(try store.requestLog.list(RecordQuery()).items.count == 5)  // a read connection exists now
        // A record queued behind a job that holds the writer, so that it meets the killed connection (the
        // listener's reconnection would otherwise let the writer reconnect first).
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let during = CompletionCounter()
        during.expect(1)
        store.requestLog.append(record(), completion: during.completion)
        let admin = try TestDatabase.adminConnection()
        defer { admin.close() }
        let victims = try admin.exec(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1", [.text("hinge " + store.replicaID)])
        let pids = "{" + (0..<victims.rows).map { String(victims.int64($0, 0)) }.joined(separator: ",") + "}"
        #expect(victims.rows >= 3)  // writer, listener, reader
        try admin.exec("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [.text(pids)])
        // pg_terminate_backend only signals: wait until the backends are gone.
        #expect(
            try eventually(within: 10) {
                try admin.exec("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", [.text(pids)])
                    .int64(0, 0) == 0
            })
        release.signal()
        #expect(during.wait())
        #expect(during.failures.withLock { $0.count } == 1)  // answered without an id: nothing acknowledged
        // The idle read connection was terminated too: the read notices, connects again and answers.
        #expect(try store.requestLog.list(RecordQuery()).items.count == 5)
        #expect(eventually(within: 10) { store.checkReadiness() == .ready && store.isHealthy })
        let after = CompletionCounter()
        after.expect(1)
        store.requestLog.append(record(), completion: after.completion)
        #expect(after.wait())
        #expect(after.successes.withLock { $0.count } == 1)
        let acknowledged = Set(before.successes.withLock { $0 } + after.successes.withLock { $0 })
        let stored = Set(try store.requestLog.list(RecordQuery(limit: 500)).items.map(\.id))
        #expect(acknowledged.isSubset(of: stored))
    }

    /// Two replicas pruning the same log: they take turns (`pg_try_advisory_xact_lock`) and the log ends at
    /// the bound, the newest records kept.
    @Test func twoReplicasPruneToTheBound() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open {
            $0.replicaID = "a"
            $0.maxRecords = 20
        }
        defer { a.close() }
        let b = try database.open {
            $0.replicaID = "b"
            $0.maxRecords = 20
        }
        defer { b.close() }
        let counter = CompletionCounter()
        counter.expect(200)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            for _ in 0..<100 { (i == 0 ? a : b).requestLog.append(record(), completion: counter.completion) }
        }
        #expect(counter.wait())
        a.requestLog.flush()
        b.requestLog.flush()
        // A last commit on one replica after both finished: its prune sees every record.
        let last = CompletionCounter()
        last.expect(1)
        a.requestLog.append(record(), completion: last.completion)
        #expect(last.wait())
        a.requestLog.flush()
        let newest = (counter.successes.withLock { $0 } + last.successes.withLock { $0 }).sorted(by: >).prefix(20)
        #expect(try a.requestLog.list(RecordQuery(limit: 100)).items.map(\.id) == Array(newest))
        #expect(a.counters.recordsPruned + b.counters.recordsPruned == 181)
    }
}
