import Synchronization
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// A read-only bind mount of a directory over itself: paths under it become read-only for everyone, root
/// included (`EROFS`), while descriptors already open keep writing to the mount below. Needs
/// `CAP_SYS_ADMIN`; nil (with the reason printed) where mounting is not allowed.
final class ReadOnlyOverlay {
    let directory: String

    private init(directory: String) { self.directory = directory }

    static func make(over directory: String) -> ReadOnlyOverlay? {
        guard mount(directory, directory, nil, UInt(MS_BIND), nil) == 0 else {
            print("skipped: cannot bind-mount \(directory) read-only (\(String(cString: strerror(errno))))")
            return nil
        }
        guard mount(nil, directory, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0 else {
            print("skipped: cannot remount \(directory) read-only (\(String(cString: strerror(errno))))")
            umount2(directory, 0)
            return nil
        }
        return ReadOnlyOverlay(directory: directory)
    }

    func remove() { umount2(directory, Int32(MNT_DETACH)) }
}

/// The problems reported through `onStorageChange`, in order.
final class StorageChanges: Sendable {
    let list = Mutex<[String?]>([])
    var all: [String?] { list.withLock { $0 } }
    var handler: @Sendable (String?) -> Void { { [self] p in list.withLock { $0.append(p) } } }
}

@Suite struct StorageWatchTests {
    func openStore(_ dir: TemporaryDirectory, changes: StorageChanges = StorageChanges()) throws -> Store {
        try Store.open(
            Store.Configuration(
                path: dir.file("hinge.sqlite"), storageCheckMillis: 60_000, onStorageChange: changes.handler))
    }

    func appendOne(_ store: Store) -> Result<RecordID, StoreError> {
        let result = Mutex<Result<RecordID, StoreError>?>(nil)
        store.requestLog.append(record()) { r in result.withLock { $0 = r } }
        store.requestLog.flush()
        return result.withLock { $0 } ?? .failure(.closed)
    }

    @Test(arguments: ["hinge.sqlite", "hinge.sqlite-wal"])
    func aDeletedFileFailsReadinessAndEveryWrite(_ name: String) throws {
        let dir = TemporaryDirectory()
        let changes = StorageChanges()
        let store = try openStore(dir, changes: changes)
        defer { store.close() }
        #expect(store.checkReadiness() == .ready)
        #expect(throws: Never.self) { try appendOne(store).get() }
        #expect(unlink(dir.file(name)) == 0)
        guard case .storageUnusable(let problem) = store.checkReadiness() else {
            Issue.record("still ready with \(name) deleted")
            return
        }
        #expect(problem.contains(dir.file(name)))
        #expect(problem.contains("deleted"))
        #expect(!store.isHealthy)
        #expect(changes.all == [problem])
        guard case .failure(.storageUnusable(let detail)) = appendOne(store) else {
            Issue.record("a record was acknowledged into a deleted file")
            return
        }
        #expect(detail == problem)
        // A job's write (a device profile) hits the writer's query_only guard.
        #expect(throws: StoreError.self) { try store.devices.put(customProfile()) }
        #expect(throws: StoreError.self) { try store.requestLog.clear() }
    }

    @Test func aReplacedDatabaseFileIsNoticed() throws {
        let dir = TemporaryDirectory()
        let store = try openStore(dir)
        defer { store.close() }
        writeFile(dir.file("other"), Array("x".utf8))
        #expect(rename(dir.file("other"), dir.file("hinge.sqlite")) == 0)
        guard case .storageUnusable(let problem) = store.checkReadiness() else {
            Issue.record("a replaced database file went unnoticed")
            return
        }
        #expect(problem.contains("replaced"))
    }

    /// The watchdog thread finds the problem by itself (no `/readyz` needed), within its interval.
    @Test func theBackgroundCheckFindsADeletedFile() throws {
        let dir = TemporaryDirectory()
        let changes = StorageChanges()
        let store = try Store.open(
            Store.Configuration(
                path: dir.file("hinge.sqlite"), storageCheckMillis: 20, onStorageChange: changes.handler))
        defer { store.close() }
        #expect(unlink(dir.file("hinge.sqlite")) == 0)
        var waited = 0
        while changes.all.isEmpty && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(changes.all.count == 1)
        #expect(store.storageProblem != nil)
    }

    /// Not writable: as root permission bits do not apply (root may write a 0444 file), so a read-only
    /// bind mount stands in; as another user, `chmod` does it.
    @Test func aFileThatTurnsUnwritableFailsReadinessUntilItIsWritableAgain() throws {
        let dir = TemporaryDirectory()
        let store = try openStore(dir)
        defer { store.close() }
        let restore: () -> Void
        if geteuid() == 0 {
            guard let overlay = ReadOnlyOverlay.make(over: dir.path) else { return }
            restore = { overlay.remove() }
        } else {
            #expect(chmod(dir.file("hinge.sqlite"), 0o444) == 0)
            restore = { _ = chmod(dir.file("hinge.sqlite"), 0o644) }
        }
        guard case .storageUnusable(let problem) = store.checkReadiness() else {
            restore()
            Issue.record("an unwritable database file went unnoticed")
            return
        }
        #expect(problem.contains("not writable"))
        guard case .failure(.storageUnusable) = appendOne(store) else {
            restore()
            Issue.record("a write was accepted while the file is not writable")
            return
        }
        restore()
        // Usable again; the failed write keeps /readyz at 503 until a commit succeeds.
        #expect(store.storageProblem != nil)
        #expect(store.checkReadiness() != .ready)
        #expect(store.storageProblem == nil)
        #expect(throws: Never.self) { try appendOne(store).get() }
        #expect(store.checkReadiness() == .ready)
        #expect(throws: Never.self) { try store.devices.put(customProfile()) }
        #expect(store.isHealthy)
    }
}

@Suite struct ReadOnlyAtStartTests {
    /// SQLite opens a database it may not write read-only, without an error; the store refuses it.
    @Test func aDatabaseOpenedReadOnlyIsRefused() throws {
        let dir = TemporaryDirectory()
        try Store.open(Store.Configuration(path: dir.file("hinge.sqlite"))).close()
        #expect(throws: StoreError.readOnly(path: "file:\(dir.file("hinge.sqlite"))?mode=ro")) {
            try Store.open(Store.Configuration(path: "file:\(dir.file("hinge.sqlite"))?mode=ro"))
        }
    }

    @Test func aReadOnlyFileOrMountIsRefusedWithAClearMessage() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        try Store.open(Store.Configuration(path: path)).close()
        let restore: () -> Void
        if geteuid() == 0 {
            guard let overlay = ReadOnlyOverlay.make(over: dir.path) else { return }
            restore = { overlay.remove() }
        } else {
            #expect(chmod(path, 0o444) == 0)
            restore = { _ = chmod(path, 0o644) }
        }
        defer { restore() }
        // A server (exclusive) is refused the same way, whether the lock file or the database says so first.
        #expect(throws: StoreError.readOnly(path: path)) {
            try Store.open(Store.Configuration(path: path, exclusive: true))
        }
        do {
            let store = try Store.open(Store.Configuration(path: path))
            store.close()
            Issue.record("a read-only database was opened for writing")
        } catch {
            #expect(error == .readOnly(path: path))
            #expect(error.description.contains("read-only"))
            #expect(error.description.contains(path))
            #expect(!error.description.contains("\n"))
        }
    }
}

@Suite struct DatabaseLockTests {
    @Test func aSecondExclusiveOpenIsRefusedWhileReadersStillWork() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let first = try Store.open(Store.Configuration(path: path, exclusive: true))
        do {
            let second = try Store.open(Store.Configuration(path: path, exclusive: true))
            second.close()
            Issue.record("two exclusive stores on one database")
        } catch {
            #expect(error == .locked(path: path, lockPath: path + ".lock", owner: Int(getpid())))
            #expect(error.description.contains("in use by another hinge serve"))
        }
        // The CLI opens without the lock, beside the running server.
        let reader = try Store.open(Store.Configuration(path: path, maxReaders: 1))
        #expect(reader.allProfiles().count == first.allProfiles().count)
        reader.close()
        first.close()
        // Closing releases the lock.
        let again = try Store.open(Store.Configuration(path: path, exclusive: true))
        again.close()
    }
}

@Suite struct LogByteBudgetTests {
    /// 600 records of 8 KiB against a 1 MiB budget (and a record bound far away): the oldest go, the
    /// pages in use stay within the budget after every batch, the newest record is kept.
    @Test func theOldestRecordsArePrunedToTheByteBudget() throws {
        let dir = TemporaryDirectory()
        let budget = 1 << 20
        let store = try Store.open(
            Store.Configuration(path: dir.file("hinge.sqlite"), maxRecords: 1_000_000, maxLogBytes: budget))
        defer { store.close() }
        let body = incompressible(4096)
        var maxSeen = 0
        var lastID: RecordID?
        for round in 0..<30 {
            let counter = CompletionCounter()
            counter.expect(20)
            for i in 0..<20 {
                store.requestLog.append(
                    record(at: Int64(round * 20 + i), body: body, response: body), completion: counter.completion)
            }
            #expect(counter.wait())
            store.requestLog.flush()  // the prune after the batch's commit has run
            lastID = counter.successes.withLock { $0.max() }
            maxSeen = max(maxSeen, store.counters.logBytes)
        }
        let c = store.counters
        #expect(c.recordsWritten == 600)
        #expect(c.recordsPruned > 300)
        #expect(maxSeen <= budget)
        #expect(c.logBytes <= budget)
        #expect(c.logBytes > budget / 2)
        let count = try store.requestLog.count()
        #expect(count == 600 - c.recordsPruned)
        let newest = try #require(try store.requestLog.list(RecordQuery(limit: 1)).items.first)
        #expect(newest.id == lastID)
        // The file itself stays near the budget: freed pages are reused.
        #expect(fileSize(dir.file("hinge.sqlite")) <= budget + (1 << 20))
        try expectBodiesMatchRecords(store)
    }

    /// The bound holds across a restart with a smaller budget: the first commit prunes the older records.
    @Test func aSmallerBudgetAfterARestartPrunesAtTheFirstCommit() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let body = incompressible(8192)
        do {
            let store = try Store.open(Store.Configuration(path: path))
            let counter = CompletionCounter()
            counter.expect(400)
            for i in 0..<400 {
                store.requestLog.append(record(at: Int64(i), body: body), completion: counter.completion)
            }
            #expect(counter.wait())
            store.requestLog.flush()
            #expect(store.counters.logBytes > 3 << 20)
            store.close()
        }
        let store = try Store.open(Store.Configuration(path: path, maxLogBytes: 2 << 20))
        defer { store.close() }
        #expect(store.counters.logBytes > 3 << 20)
        let counter = CompletionCounter()
        counter.expect(1)
        store.requestLog.append(record(body: body), completion: counter.completion)
        #expect(counter.wait())
        store.requestLog.flush()
        #expect(store.counters.logBytes <= 2 << 20)
        #expect(try store.requestLog.count() < 300)
    }

    @Test func aBudgetBelowOneMebibyteIsRefused() {
        #expect(throws: StoreError.invalidConfiguration("maxLogBytes must be at least 1 MiB")) {
            try Store.open(Store.Configuration(path: ":memory:", maxLogBytes: 1000))
        }
    }
}

/// After pruning (which deletes both tables by id range with foreign keys off): every record has its body and
/// every body its record, and the writer connection has foreign keys on again.
func expectBodiesMatchRecords(_ store: Store) throws {
    let (records, bodies, orphans, foreignKeys) = try store.performOnSQLiteWriter { db in
        Result { () throws(StoreError) in
            (
                try db.scalarInt("SELECT count(*) FROM requests") ?? -1,
                try db.scalarInt("SELECT count(*) FROM request_bodies") ?? -1,
                try db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check") ?? -1,
                try db.scalarInt("PRAGMA foreign_keys") ?? -1
            )
        }
    }.get()
    #expect(records > 0)
    #expect(bodies == records)
    #expect(orphans == 0)
    #expect(foreignKeys == 1)
}
