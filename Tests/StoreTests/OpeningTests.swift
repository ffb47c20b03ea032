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
