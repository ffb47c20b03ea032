import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Opening, pragmas and migrations")
struct OpeningTests {
    @Test func freshDatabaseIsMigratedWithWALAndForeignKeys() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path))
        let (mode, fk, sync) = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                (
                    try db.scalarText("PRAGMA journal_mode"), try db.scalarInt("PRAGMA foreign_keys"),
                    try db.scalarInt("PRAGMA synchronous")
                )
            }
        }.get()
        #expect(mode == "wal")
        #expect(fk == 1)
        #expect(sync == 1)  // NORMAL
        store.close()
        let db = try rawConnection(path)
        #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == Int64(Schema.latestVersion))
        #expect(
            try db.scalarText("SELECT name FROM schema_migrations WHERE version = 1") == "device profiles, request log")
        #expect(try db.scalarInt("PRAGMA application_id") == Schema.applicationID)
        db.close()
        // Reopening an up-to-date database applies nothing and works.
        let again = try Store.open(.init(path: path))
        #expect(again.devices.count == BuiltInDevices.all.count)
        again.close()
    }

    @Test func garbageFileIsRefusedAndLeftUntouched() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let garbage = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        writeFile(path, garbage)
        #expect {
            _ = try Store.open(.init(path: path))
        } throws: { error in
            guard case .notADatabase(let p, _) = error as? StoreError else { return false }
            return p == path && "\(error)".contains("not a SQLite database")
        }
        #expect(readFile(path) == garbage)
        #expect(!fileExists(path + "-wal"))
    }

    @Test func databaseWithNewerSchemaIsRefusedAndLeftUntouched() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        try Store.open(.init(path: path)).close()
        let db = try rawConnection(path)
        try db.run(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", .int(99), .text("future"),
            .text("2030-01-01T00:00:00.000Z"))
        db.close()
        let before = readFile(path)
        #expect {
            _ = try Store.open(.init(path: path))
        } throws: { error in
            guard case .schemaTooNew(_, let found, let supported) = error as? StoreError else { return false }
            return found == 99 && supported == Schema.latestVersion && "\(error)".contains("newer Hinge")
        }
        #expect(readFile(path) == before)
    }

    @Test func foreignSQLiteDatabaseIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("other.sqlite")
        let db = try rawConnection(path)
        try db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        db.close()
        #expect {
            _ = try Store.open(.init(path: path))
        } throws: { error in
            if case .foreignDatabase = error as? StoreError { return true }
            return false
        }
    }

    @Test func inMemoryDatabaseServesReadsThroughTheWriterConnection() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        #expect(store.devices.count == BuiltInDevices.all.count)
        _ = try store.devices.put(customProfile())
        let counter = CompletionCounter()
        counter.expect(3)
        for _ in 0..<3 { store.requestLog.append(record(), completion: counter.completion) }
        #expect(counter.wait())
        #expect(try store.requestLog.list(RecordQuery()).items.count == 3)
    }

    @Test func invalidConfigurationIsRefused() {
        #expect(throws: StoreError.self) { _ = try Store.open(.init(path: ":memory:", maxRecords: 0)) }
    }
}

@Suite("Device profiles")
struct DeviceProfileTests {
    @Test func builtInsAreSeededValidAndCited() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        let ids = store.allProfiles().map(\.id)
        #expect(
            ids == [
                "iphone-se-3", "iphone-16", "iphone-16-pro-max", "ipad-mini", "ipad-pro-11", "ipad-pro-13",
                "iphone-duo",
            ])
        for p in store.allProfiles() {
            #expect(p.builtIn)
            // docs/rules.md#device-profiles: validation holds for every built-in: a round trip through JSON gives the
            // same profile.
            let mapper = JSONMapper()
            var decoded = DeviceProfile.decode(p.json, mapper: mapper)
            decoded?.builtIn = true
            #expect(mapper.errors.isEmpty, "\(p.id): \(mapper.errors)")
            #expect(decoded == p)
        }
        let duo = try #require(store.profile(id: "iphone-duo"))
        #expect(duo.kind == .foldable && duo.illustrative && duo.folds)
        let inner = try #require(duo.display(id: "inner"))
        #expect(inner.fold == Fold(orientation: .vertical, position: inner.width / 2, thickness: 0))
        #expect(duo.display(id: "outer")?.fold == nil)
        let max = try #require(store.profile(id: "iphone-16-pro-max")?.displays.first)
        #expect(max.landscapeSizeClass == SizeClassPair(horizontal: .regular, vertical: .compact))
        let sixteen = try #require(store.profile(id: "iphone-16")?.displays.first)
        #expect(sixteen.landscapeSizeClass == SizeClassPair(horizontal: .compact, vertical: .compact))
        #expect(sixteen.safeArea == Insets(top: 59, bottom: 34))
        let pad = try #require(store.profile(id: "ipad-pro-11")?.displays.first)
        #expect(pad.portraitSizeClass == pad.landscapeSizeClass)
        #expect(pad.safeArea == Insets(top: 24, bottom: 20))
        #expect(store.devices.list(kind: .tablet).map(\.profile.id) == ["ipad-mini", "ipad-pro-11", "ipad-pro-13"])
        #expect(store.devices.list(kind: .foldable).count == 1)
        #expect(store.devices.list(kind: .desktop).isEmpty)
    }

    /// The snapshot is kept per shard (one per event loop): a write must reach every shard's copy.
    @Test(arguments: EngineTarget.all) func writesReachTheSnapshotOfEveryThreadShard(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        _ = try store.devices.put(customProfile())
        for shard in 0..<10 {
            #expect(store.devices.reader(shard: shard).profile(id: "my-phone")?.name == "My Phone", "shard \(shard)")
        }
        try store.devices.delete(id: "my-phone")
        for shard in 0..<10 {
            #expect(store.devices.reader(shard: shard).profile(id: "my-phone") == nil, "shard \(shard)")
            #expect(store.devices.reader(shard: shard).profile(id: "iphone-16") != nil, "shard \(shard)")
        }
    }

    @Test(arguments: EngineTarget.all) func putCreatesThenReplacesWithETagsAndIfMatch(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let created = try store.devices.put(customProfile())
        #expect(created.created)
        #expect(
            created.stored.etag.quoted.hasPrefix("\"") && created.stored.etag.quoted.hasSuffix("\"")
                && created.stored.etag.quoted.count == 18)
        #expect(store.devices.stored(id: "my-phone")?.etag == created.stored.etag)
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        #expect(store.devices.count == BuiltInDevices.all.count + 1)

        // Same content → same tag; changed content → new tag.
        let same = try store.devices.put(customProfile())
        #expect(!same.created && same.stored.etag == created.stored.etag)
        #expect {
            _ = try store.devices.put(
                customProfile(name: "Stale"), precondition: .matching([EntityTag(quoted: "\"0000000000000000\"")]))
        } throws: { error in
            guard case .preconditionFailed(let id, let current) = error as? StoreError else { return false }
            return id == "my-phone" && current == created.stored.etag
        }
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        let replaced = try store.devices.put(
            customProfile(name: "Renamed"), precondition: .matching([created.stored.etag]))
        #expect(!replaced.created && replaced.stored.etag != created.stored.etag)
        #expect(store.profile(id: "my-phone")?.name == "Renamed")
        // No tag (what a weak If-Match leaves) never matches; `.anyCurrent` (`*`) matches any existing profile
        // but not a missing one.
        #expect(throws: StoreError.self) { _ = try store.devices.put(customProfile(), precondition: .matching([])) }
        _ = try store.devices.put(customProfile(name: "Star"), precondition: .anyCurrent)
        #expect(throws: StoreError.preconditionFailed(id: "new-one", current: nil)) {
            _ = try store.devices.put(customProfile("new-one"), precondition: .anyCurrent)
        }
        // builtIn in the body is ignored: a PUT always stores a custom profile.
        var claimsBuiltIn = customProfile("sneaky")
        claimsBuiltIn.builtIn = true
        _ = try store.devices.put(claimsBuiltIn)
        #expect(store.profile(id: "sneaky")?.builtIn == false)
    }

    /// `If-None-Match: *` semantics: create only; a second create of the same id fails with the current tag.
    @Test(arguments: EngineTarget.all) func absentCreatesOnlyOnce(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let first = try store.devices.put(customProfile(), precondition: .absent)
        #expect(first.created)
        #expect(throws: StoreError.preconditionFailed(id: "my-phone", current: first.stored.etag)) {
            _ = try store.devices.put(customProfile(name: "Second"), precondition: .absent)
        }
        #expect(store.profile(id: "my-phone")?.name == "My Phone")
        #expect(throws: StoreError.builtInReadOnly(id: "ipad-mini")) {
            _ = try store.devices.put(customProfile("ipad-mini"), precondition: .absent)
        }
    }

    @Test(arguments: EngineTarget.all) func customProfilesSurviveAReopen(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let put = try store.devices.put(customProfile(width: 420))
        store.close()
        let reopened = try database.open()
        defer { reopened.close() }
        #expect(reopened.devices.stored(id: "my-phone") == put.stored)
        #expect(reopened.devices.count == BuiltInDevices.all.count + 1)
    }

    @Test(arguments: EngineTarget.all) func builtInsAreReadOnly(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        #expect(throws: StoreError.builtInReadOnly(id: "iphone-16")) {
            _ = try store.devices.put(customProfile("iphone-16"))
        }
        #expect(throws: StoreError.builtInReadOnly(id: "iphone-16")) { try store.devices.delete(id: "iphone-16") }
        #expect(throws: StoreError.notFound(id: "nope")) { try store.devices.delete(id: "nope") }
        #expect(store.profile(id: "iphone-16")?.name == "iPhone 16")
    }

    @Test(arguments: EngineTarget.all) func deleteRemovesCustomProfilesAndHonoursIfMatch(_ engine: EngineTarget) throws
    {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let put = try store.devices.put(customProfile())
        #expect(throws: StoreError.preconditionFailed(id: "my-phone", current: put.stored.etag)) {
            try store.devices.delete(
                id: "my-phone", precondition: .matching([EntityTag(quoted: "\"deadbeefdeadbeef\"")]))
        }
        try store.devices.delete(id: "my-phone", precondition: .matching([put.stored.etag]))
        #expect(store.profile(id: "my-phone") == nil)
        #expect(throws: StoreError.notFound(id: "my-phone")) { try store.devices.delete(id: "my-phone") }
    }

    @Test(arguments: EngineTarget.all) func completionAPIsReportOnTheWriterThread(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<PutResult, StoreError>?>(nil)
        store.devices.put(customProfile()) { r in
            outcome.withLock { $0 = r }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try outcome.withLock { try $0?.get().created } == true)
    }

    @Test func customProfilesPersistAndBuiltInsAreUpsertedByCatalogVersion() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let first = try Store.open(.init(path: path))
        let put = try first.devices.put(customProfile())
        first.close()

        // Simulate a database seeded by an older catalog whose iPhone 16 had other numbers.
        var old = try #require(BuiltInDevices.all.first { $0.id == "iphone-16" })
        old.name = "iPhone 16 (old catalog)"
        let db = try rawConnection(path)
        try SQLiteProfiles.upsert(DeviceProfileStore.stored(old), into: db, now: .now())
        try db.run("UPDATE meta SET value = ? WHERE key = ?", .text("0"), .text(DeviceProfileStore.catalogVersionKey))
        try db.run(
            "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) SELECT ?, kind, 1, body, etag, 0 "
                + "FROM device_profiles WHERE id = ?", .text("iphone-retired"), .text("iphone-se-3"))
        db.close()

        let second = try Store.open(.init(path: path))
        defer { second.close() }
        #expect(second.profile(id: "iphone-16")?.name == "iPhone 16")
        #expect(second.profile(id: "iphone-retired") == nil)  // dropped from the catalog
        #expect(second.devices.stored(id: "my-phone") == put.stored)  // custom profile untouched
        #expect(second.warnings.isEmpty)
    }

    @Test func aCustomProfileShadowingANewBuiltInIdIsKeptWithAWarning() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        try Store.open(.init(path: path)).close()
        let db = try rawConnection(path)
        try db.run("DELETE FROM device_profiles WHERE id = ?", .text("ipad-mini"))
        try SQLiteProfiles.upsert(
            DeviceProfileStore.stored(customProfile("ipad-mini", name: "Mine")), into: db, now: .now())
        try db.run("UPDATE meta SET value = ? WHERE key = ?", .text("0"), .text(DeviceProfileStore.catalogVersionKey))
        db.close()
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        #expect(store.profile(id: "ipad-mini")?.name == "Mine")
        #expect(store.warnings.count == 1)
    }
}

@Suite("Request log")
struct RequestLogTests {
    @Test(arguments: EngineTarget.all) func appendThenListGetAndFilter(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.maxBodyBytes = 16 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(6)
        let base: Int64 = 1_738_314_307_042
        store.requestLog.append(
            record(device: "iphone-16", status: 200, codes: ["a", "b", "a"], at: base), completion: counter.completion)
        store.requestLog.append(
            record(device: "ipad-mini", status: 200, codes: ["b"], at: base + 1000), completion: counter.completion)
        store.requestLog.append(
            record(device: nil, status: 422, codes: [], at: base + 2000), completion: counter.completion)
        store.requestLog.append(
            record(device: "iphone-16", status: 200, codes: ["c"], at: base + 3000), completion: counter.completion)
        store.requestLog.append(
            record(device: "iphone-16", status: 400, at: base + 4000, body: Array(repeating: 0x41, count: 100)),
            completion: counter.completion)
        store.requestLog.append(
            record(device: "", status: 200, at: base + 5000, body: []), completion: counter.completion)
        #expect(counter.wait())
        #expect(counter.failures.withLock { $0.isEmpty })
        let ids = counter.successes.withLock { $0 }
        #expect(Set(ids).count == 6)

        let all = try store.requestLog.list(RecordQuery())
        #expect(all.items.count == 6 && all.next == nil)
        #expect(all.items.map(\.id) == ids.sorted(by: >))  // newest first
        let first = try #require(all.items.last)
        #expect(first.codes == ["a", "b", "a"] && first.device == "iphone-16")
        #expect(all.items.allSatisfy { $0.replicaID == "test-replica" })
        #expect(first.receivedAt.iso8601 == "2025-01-31T09:05:07.042Z")
        #expect(all.items.first?.device == "")  // empty string is not NULL
        #expect(all.items[3].device == nil)

        #expect(try store.requestLog.list(RecordQuery(device: "iphone-16")).items.count == 3)
        #expect(try store.requestLog.list(RecordQuery(status: 200)).items.count == 4)
        #expect(try store.requestLog.list(RecordQuery(code: "b")).items.count == 2)
        #expect(try store.requestLog.list(RecordQuery(code: "a")).items.count == 1)
        #expect(try store.requestLog.list(RecordQuery(code: "zzz")).items.isEmpty)
        let window = RecordQuery(
            since: Timestamp(millisecondsSinceEpoch: base + 1000), until: Timestamp(millisecondsSinceEpoch: base + 3000)
        )
        #expect(try store.requestLog.list(window).items.count == 3)
        #expect(try store.requestLog.list(RecordQuery(device: "iphone-16", status: 200, code: "c")).items.count == 1)

        let truncated = try #require(try store.requestLog.record(id: all.items[1].id))
        #expect(truncated.requestBody == Array(repeating: 0x41, count: 16))
        #expect(truncated.summary.requestTruncated && truncated.summary.requestSize == 100)
        #expect(!truncated.summary.responseTruncated)
        let detail = try #require(try store.requestLog.record(id: first.id))
        #expect(detail.requestBody == Array(#"{"device":"iphone-16"}"#.utf8).prefix(16).map { $0 })
        #expect(detail.responseBody == Array(#"{"ok":true}"#.utf8))
        #expect(try store.requestLog.record(id: RecordID(rawValue: 9999)) == nil)
        #expect(try store.requestLog.record(id: all.items[0].id)?.requestBody == [])
    }

    @Test(arguments: EngineTarget.all) func cursorPagingVisitsEveryRecordOnceNewestFirst(_ engine: EngineTarget) throws
    {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(23)
        for i in 0..<23 {
            store.requestLog.append(record(status: i % 2 == 0 ? 200 : 422), completion: counter.completion)
        }
        #expect(counter.wait())
        var seen: [RecordID] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try store.requestLog.list(RecordQuery(limit: 5, cursor: cursor))
            seen += page.items.map(\.id)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages == 5)
        #expect(seen == counter.successes.withLock { $0 }.sorted(by: >))
        // Filters and cursor together.
        let evens = try store.requestLog.list(RecordQuery(status: 200, limit: 10))
        #expect(evens.items.count == 10 && evens.next != nil)
        let rest = try store.requestLog.list(RecordQuery(status: 200, limit: 10, cursor: evens.next))
        #expect(rest.items.count == 2 && rest.next == nil)
        #expect(throws: StoreError.self) { _ = try store.requestLog.list(RecordQuery(cursor: "bogus")) }
    }

    @Test(arguments: EngineTarget.all) func clearDeletesEverythingAndIdsAreNeverReused(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(5)
        for _ in 0..<5 { store.requestLog.append(record(codes: ["x"]), completion: counter.completion) }
        #expect(counter.wait())
        try store.requestLog.clear()
        #expect(try store.requestLog.count() == 0)
        #expect(try store.requestLog.list(RecordQuery(code: "x")).items.isEmpty)
        let after = CompletionCounter()
        after.expect(1)
        store.requestLog.append(record(), completion: after.completion)
        #expect(after.wait())
        let maxBefore = counter.successes.withLock { $0.max() }!
        #expect(after.successes.withLock { $0 }.first! > maxBefore)
    }

    @Test(arguments: EngineTarget.all) func pruningKeepsTheNewestMaxRecords(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.maxRecords = 10 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(200)
        for i in 0..<200 {
            store.requestLog.append(record(status: 200 + i % 3), completion: counter.completion)
            if i % 20 == 19 { store.requestLog.flush() }  // several batches, so several prunes
        }
        #expect(counter.wait())
        store.requestLog.flush()
        let slack = 1  // max(1, min(1024, 10 / 64))
        let count = try store.requestLog.count()
        #expect(count >= 10 && count <= 10 + slack)
        let newest = counter.successes.withLock { $0 }.sorted(by: >).prefix(10)
        #expect(Array(try store.requestLog.list(RecordQuery()).items.map(\.id).prefix(10)) == Array(newest))
        #expect(store.counters.recordsPruned == 200 - count)
    }
}

@Suite("Request log faults and concurrency")
struct RequestLogFaultTests {
    @Test(arguments: EngineTarget.all) func concurrentAppendsAreAllCommittedExactlyOnce(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let threads = 8
        let perThread = 1500
        let counter = CompletionCounter()
        counter.expect(threads * perThread)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<perThread {
                store.requestLog.append(
                    record(device: "t\(t)", status: 200, codes: ["i\(i % 7)"]), completion: counter.completion)
            }
        }
        #expect(counter.wait(seconds: 60))
        #expect(counter.failures.withLock { $0.isEmpty })
        let ids = counter.successes.withLock { $0 }
        #expect(ids.count == threads * perThread)
        #expect(Set(ids).count == ids.count)
        #expect(try store.requestLog.count() == threads * perThread)
        for t in 0..<threads {
            #expect(try store.requestLog.list(RecordQuery(device: "t\(t)", limit: 500)).items.count == 500)
        }
        let c = store.counters
        #expect(c.recordsWritten == threads * perThread && c.commitFailures == 0 && c.queueDepth == 0)
        #expect(c.commits <= c.recordsWritten)
        store.close()
    }

    @Test(arguments: EngineTarget.all) func closeDrainsAndCommitsEverythingPending(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let n = 3000
        let counter = CompletionCounter()
        counter.expect(n)
        for i in 0..<n { store.requestLog.append(record(status: 200 + i % 5), completion: counter.completion) }
        store.close()  // no flush first: close must drain
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0.count } == n)
        // After close: refused at once, completion called synchronously.
        let late = CompletionCounter()
        late.expect(1)
        store.requestLog.append(record(), completion: late.completion)
        #expect(late.wait(seconds: 1))
        #expect(late.failures.withLock { $0 } == [.closed])
        #expect(!store.isHealthy)
        let reopened = try database.open()
        defer { reopened.close() }
        #expect(try reopened.requestLog.count() == n)
    }

    @Test func diskFullFailsCompletionsTurnsUnhealthyAndRecovers() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let ok = CompletionCounter()
        ok.expect(1)
        store.requestLog.append(record(), completion: ok.completion)
        #expect(ok.wait())
        #expect(store.isHealthy)

        try store.simulateDiskFull(true)
        let big = incompressible(200_000)
        let failing = CompletionCounter()
        failing.expect(5)
        for _ in 0..<5 { store.requestLog.append(record(body: big), completion: failing.completion) }
        #expect(failing.wait())
        let errors = failing.failures.withLock { $0 }
        #expect(errors.count == 5)
        #expect(
            errors.allSatisfy { e in
                if case .sqlite(let f) = e { return f.primaryCode == SQLITE_FULL && f.operation.contains("INSERT") }
                return false
            })
        #expect(!store.isHealthy && !store.requestLog.isHealthy)
        #expect(store.counters.commitFailures >= 1 && store.counters.recordsFailed == 5)
        #expect(try store.requestLog.count() == 1)  // nothing half-written

        try store.simulateDiskFull(false)
        let recovered = CompletionCounter()
        recovered.expect(1)
        store.requestLog.append(record(body: big), completion: recovered.completion)
        #expect(recovered.wait())
        #expect(recovered.successes.withLock { $0.count } == 1)
        #expect(store.isHealthy)
        #expect(try store.requestLog.count() == 2)
    }

    @Test(arguments: EngineTarget.all) func aFullQueueRefusesAtOnceWithoutBlocking(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.queueCapacity = 4 }
        defer { store.close() }
        // Hold the writer thread in a job so that nothing drains, deterministically.
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let counter = CompletionCounter()
        counter.expect(6)
        for _ in 0..<6 { store.requestLog.append(record(), completion: counter.completion) }
        #expect(counter.failures.withLock { $0 } == [.queueFull(capacity: 4), .queueFull(capacity: 4)])
        #expect(store.counters.queueDepth == 4 && store.counters.recordsRejected == 2)
        release.signal()
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0.count } == 4)
        #expect(store.counters.maxBatchSize == 4)  // the four waited and went in one transaction
    }

    @Test(arguments: EngineTarget.all) func theQueueIsAlsoBoundedInBytes(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open {
            $0.queueCapacity = 100
            $0.queueCapacityBytes = 10_000
        }
        defer { store.close() }
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let counter = CompletionCounter()
        counter.expect(4)
        let body = incompressible(4_000)  // + ~14 bytes of frames and response each
        for _ in 0..<4 { store.requestLog.append(record(body: body), completion: counter.completion) }
        #expect(counter.failures.withLock { $0 } == [.queueFull(capacity: 100), .queueFull(capacity: 100)])
        release.signal()
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0.count } == 2)
    }
}

@Suite("Timestamps, entity tags, SQL hygiene")
struct SupportTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_738_314_307_042, "2025-01-31T09:05:07.042Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func iso8601RoundTrips(ms: Int64, text: String) {
        #expect(Timestamp(millisecondsSinceEpoch: ms).iso8601 == text)
        #expect(Timestamp(iso8601: text)?.millisecondsSinceEpoch == ms)
    }

    @Test func iso8601ParsingAcceptsZonesAndRejectsNonsense() {
        #expect(Timestamp(iso8601: "2025-01-31")?.iso8601 == "2025-01-31T00:00:00.000Z")
        #expect(Timestamp(iso8601: "2025-01-31T10:05+01:00")?.iso8601 == "2025-01-31T09:05:00.000Z")
        #expect(Timestamp(iso8601: "2025-01-31T09:05:07.123456Z")?.iso8601 == "2025-01-31T09:05:07.123Z")
        for bad in [
            "", "2025-02-30", "2025-13-01", "2025-01-31T09:05:07", "2025-01-31T25:00Z", "2025-01-31T09:05:07.Z", "x",
        ] {
            #expect(Timestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func entityTagsAndWritePreconditions() {
        let b = EntityTag(quoted: "\"b\"")
        #expect(WritePrecondition.matching([EntityTag(quoted: "\"a\""), b]).holds(current: b))
        #expect(!WritePrecondition.matching([]).holds(current: b))
        #expect(!WritePrecondition.matching([b]).holds(current: nil))
        #expect(WritePrecondition.anyCurrent.holds(current: EntityTag(quoted: "\"x\"")))
        #expect(!WritePrecondition.anyCurrent.holds(current: nil))
        #expect(WritePrecondition.unconditional.holds(current: nil))
        #expect(EntityTag(canonicalBytes: []).quoted == "\"cbf29ce484222325\"")
    }

    @Test func recordIDsParseOnlyPositiveDecimals() {
        #expect(RecordID("42")?.rawValue == 42)
        for bad in ["", "0", "-1", "4x", "+4", "99999999999999999999"] { #expect(RecordID(bad) == nil, "\(bad)") }
    }

    /// Security: values only ever travel as bound parameters. No SQL text in the Store's sources is built
    /// by interpolation; the only concatenations are of constant fragments (SQLiteRecords.listSQL) and, for an
    /// integer PRAGMA computed at run time, of a `StaticString` name and an `Int` (`Connection.setPragma`).
    @Test func sqlIsNeverBuiltByInterpolation() throws {
        let sources = String(#filePath.dropLast("Tests/StoreTests/StoreTests.swift".count)) + "Sources/Store/"
        let keywords = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", "CREATE ", "WHERE "]
        var checked = 0
        for name in [
            "Connection.swift", "DatabasePool.swift", "DeviceProfileStore.swift", "RequestLog.swift", "Schema.swift",
            "Store.swift", "StoreWriter.swift", "SQLiteEngine.swift", "SQLiteRecords.swift", "SQLiteProfiles.swift",
            "PostgresEngine.swift", "PostgresRecords.swift", "PostgresProfiles.swift", "PostgresSchema.swift",
            "PostgresListener.swift", "PostgresConnection.swift",
        ] {
            let text = try #require(readFile(sources + name).map { String(decoding: $0, as: UTF8.self) })
            for line in text.split(separator: "\n") where keywords.contains(where: { line.contains($0) }) {
                #expect(!line.contains("\\("), "\(name): \(line)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test func integerPragmasAreSetAndReadBack() throws {
        let db = try Connection(path: ":memory:", readOnly: false, busyTimeoutMillis: 100)
        defer { db.close() }
        try db.setPragma("journal_size_limit", to: 3 << 20)
        #expect(try db.scalarInt("PRAGMA journal_size_limit") == 3 << 20)
    }
}

@Suite("WAL size under sustained writes")
struct WALBoundTests {
    /// Under writes that never pause, the background checkpoints never catch up with the writer; the WAL
    /// restarts only after the writer's own pass at `walMaxPages`. Without that bound the WAL would hold
    /// everything written (here ~17 MB); with it, it stays near 16 pages plus a wave of records.
    @Test func walStaysNearItsBoundWhileRecordsKeepComing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path, walCheckpointPages: 4, walMaxPages: 16))
        let pageSize = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in Int(try db.scalarInt("PRAGMA page_size") ?? 0) }
        }.get()
        #expect(pageSize == 16384)
        let response = incompressible(3600)
        let waves = 80
        let perWave = 50
        var largestWAL = 0
        for w in 0..<waves {
            let counter = CompletionCounter()
            counter.expect(perWave)
            for i in 0..<perWave {
                store.requestLog.append(
                    record(at: Int64(w * perWave + i), response: response), completion: counter.completion)
            }
            #expect(counter.wait())
            #expect(counter.failures.withLock { $0.isEmpty })
            largestWAL = max(largestWAL, fileSize(path + "-wal"))
        }
        let written = waves * perWave * (response.count + 600)
        #expect(written > 16_000_000)
        // 16 pages (256 KiB) + a wave (~210 KB of rows) + what came while a background pass held the
        // checkpoint lock (the writer's own pass then returns BUSY and is retried at the next commit): seen
        // up to ~3 MB on a loaded machine, against the ~17 MB an unbounded WAL reaches here.
        #expect(largestWAL > 0)
        #expect(largestWAL <= 5 << 20, "WAL reached \(largestWAL) bytes")
        store.close()
        let db = try rawConnection(path)
        defer { db.close() }
        #expect(try db.scalarInt("SELECT count(*) FROM requests") == Int64(waves * perWave))
        #expect(try db.scalarText("PRAGMA integrity_check") == "ok")
    }

    /// A burst larger than the bound (one transaction of 800 records) grows the WAL file past it; after the
    /// next restart `journal_size_limit` cuts the file back instead of keeping the burst's size until close.
    @Test func walFileShrinksBackAfterABurst() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path, walCheckpointPages: 4, walMaxPages: 16))
        let response = incompressible(3600)
        let burst = CompletionCounter()
        burst.expect(800)
        let release = try #require(holdWriter(store))
        for i in 0..<800 {
            store.requestLog.append(record(at: Int64(i), response: response), completion: burst.completion)
        }
        release.signal()
        #expect(burst.wait())
        let afterBurst = fileSize(path + "-wal")
        #expect(afterBurst > 2 << 20, "the burst's transaction alone is ~3.4 MB of frames")
        // Small waves until the WAL restarts and is cut back. On a busy machine a background checkpoint pass
        // can still hold the WAL when a wave commits, so the restart may come a few waves later; 60 waves
        // (~4 MB of frames) is far more than any restart needs, and an unbounded file never shrinks.
        var settled = afterBurst
        for w in 0..<60 where settled > 1 << 20 {
            let counter = CompletionCounter()
            counter.expect(20)
            for i in 0..<20 {
                store.requestLog.append(
                    record(at: Int64(1000 + w * 20 + i), response: response), completion: counter.completion)
            }
            #expect(counter.wait())
            settled = fileSize(path + "-wal")
        }
        #expect(settled <= 1 << 20, "WAL file still \(settled) bytes after the burst's \(afterBurst)")
        store.close()
    }

    @Test func walLimitsAreValidated() {
        for (soft, hard) in [(0, 10), (10, 5), (1, Int(Int32.max) + 1)] {
            #expect {
                _ = try Store.open(.init(path: ":memory:", walCheckpointPages: soft, walMaxPages: hard))
            } throws: { error in
                guard case .invalidConfiguration = error as? StoreError else { return false }
                return true
            }
        }
    }
}

@Suite("Read workers (request-log reads off the event loops)")
struct ReadWorkersTests {
    /// Holds the workers' only thread in a job until the returned semaphore is signalled.
    static func holdThread(_ workers: ReadWorkers) -> DispatchSemaphore? {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        guard
            workers.submit({
                entered.signal()
                release.wait()
            })
        else { return nil }
        return entered.wait(timeout: .now() + 10) == .success ? release : nil
    }

    @Test func jobsRunOnNamedReadThreadsNotTheCaller() throws {
        let workers = ReadWorkers(maxThreads: 2, capacity: 8)
        defer { workers.close() }
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            #expect(
                workers.submit {
                    names.withLock { $0.append(currentThreadName()) }
                    done.signal()
                })
        }
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(names.withLock { $0 } == Array(repeating: "hinge-db-read", count: 4))
        #expect(currentThreadName() != "hinge-db-read")
    }

    @Test func queueIsBoundedFIFOAndRefusesAtOnceWhenFull() throws {
        let workers = ReadWorkers(maxThreads: 1, capacity: 2)
        defer { workers.close() }
        let release = try #require(ReadWorkersTests.holdThread(workers))
        let order = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        #expect(
            workers.submit {
                order.withLock { $0.append(1) }
                done.signal()
            })
        #expect(
            workers.submit {
                order.withLock { $0.append(2) }
                done.signal()
            })
        #expect(workers.waiting == 2)
        #expect(!workers.submit { order.withLock { $0.append(3) } })  // full: refused, never runs
        release.signal()
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(order.withLock { $0 } == [1, 2])
        // Room again once the queue drained.
        #expect(workers.submit { done.signal() })
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func closeRunsWhatIsQueuedThenRefuses() throws {
        let workers = ReadWorkers(maxThreads: 1, capacity: 4)
        let release = try #require(ReadWorkersTests.holdThread(workers))
        let ran = Atomic<Int>(0)
        for _ in 0..<3 { #expect(workers.submit { ran.add(1, ordering: .relaxed) }) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { release.signal() }
        workers.close()  // returns after the held job and the three queued ones ran
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(!workers.submit { ran.add(1, ordering: .relaxed) })
        #expect(workers.waiting == 0)
    }

    @Test func concurrentSubmitsEachRunExactlyOnceOnAtMostMaxThreads() throws {
        let workers = ReadWorkers(maxThreads: 3, capacity: 10_000)
        let runs = Mutex<[Int: Int]>([:])
        let threads = Mutex<Set<UInt>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<500 {
                let key = t * 1000 + i
                #expect(
                    workers.submit {
                        runs.withLock { $0[key, default: 0] += 1 }
                        threads.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                    })
            }
        }
        workers.close()
        let counts = runs.withLock { $0 }
        #expect(counts.count == 4000)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect((1...3).contains(threads.withLock { $0.count }))
    }

    @Test func storeReadsThroughItsWorkersAndClosesThem() throws {
        let store = try Store.open(.init(path: ":memory:", maxReaders: 2, readQueueCapacity: 3))
        #expect(store.readWorkers.maxThreads == 2)
        #expect(store.readWorkers.capacity == 3)
        let done = DispatchSemaphore(value: 0)
        let count = Mutex<Int?>(nil)
        #expect(
            store.readWorkers.submit {
                count.withLock { $0 = (try? store.requestLog.list(RecordQuery()))?.items.count }
                done.signal()
            })
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(count.withLock { $0 } == 0)
        store.close()
        #expect(!store.readWorkers.submit {})
    }
}
