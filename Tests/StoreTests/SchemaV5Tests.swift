import TestSupport
import Testing

@testable import Store

/// Schema 5: `requests` without `AUTOINCREMENT`. The migration rebuilds `requests` on files of earlier
/// versions without touching `request_bodies`, and carries `sqlite_sequence`'s counter over to
/// `meta.request_ids_used`; ids stay increasing and are never reused, whatever was deleted, across restarts.
@Suite("Schema 5: request ids without AUTOINCREMENT, never reused")
struct SchemaV5Tests {
    /// Appends `n` records and returns their ids in commit order.
    static func append(_ store: Store, _ n: Int) throws -> [Int64] {
        var ids: [Int64] = []
        for _ in 0..<n {
            let counter = CompletionCounter()
            counter.expect(1)
            store.requestLog.append(record(), completion: counter.completion)
            #expect(counter.wait())
            ids += counter.successes.withLock { $0 }.map(\.rawValue)
        }
        return ids
    }

    /// A schema-4 file (the fixture migrated to 4, as the previous release left it) whose two newest records
    /// were deleted: its `sqlite_sequence` (12) is above its largest id (10). After migration 5 the bodies are
    /// all there, the schema has no `AUTOINCREMENT`, and the next record gets 13, not 11.
    @Test func aSchema4FileKeepsItsRecordsAndItsCounter() throws {
        let dir = TemporaryDirectory()
        let (path, bodies) = try SchemaV3Tests.copyFixture(dir)
        do {
            let db = try rawConnection(path)
            defer { db.close() }
            try db.execute("PRAGMA foreign_keys = ON")
            try Schema.migrate(db, from: 2, to: 4, now: .now())
            try db.execute("DELETE FROM requests WHERE id > 10")
            #expect(try db.scalarInt("SELECT count(*) FROM request_bodies") == 10)
            #expect(try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'requests'") == 12)
        }
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        let (version, sql, sequences, bodyCount, orphans, integrity, foreignKeys) = try store.performOnSQLiteWriter {
            db in
            Result { () throws(StoreError) in
                (
                    try db.scalarInt("SELECT max(version) FROM schema_migrations"),
                    try db.scalarText("SELECT sql FROM sqlite_schema WHERE name = 'requests'") ?? "",
                    try db.scalarInt("SELECT count(*) FROM sqlite_sequence WHERE name = 'requests'"),
                    try db.scalarInt("SELECT count(*) FROM request_bodies"),
                    try db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check"),
                    try db.scalarText("PRAGMA integrity_check"),
                    try db.scalarInt("PRAGMA foreign_keys")
                )
            }
        }.get()
        #expect(
            version == Int64(Schema.latestVersion) && integrity == "ok" && orphans == 0 && sequences == 0
                && foreignKeys == 1)
        #expect(!sql.uppercased().contains("AUTOINCREMENT"), "\(sql)")
        #expect(bodyCount == 10, "the rebuild of requests must not cascade to request_bodies")
        let log = store.requestLog
        #expect(try log.list(RecordQuery(limit: 50)).items.map(\.id.rawValue) == Array((1...10).reversed()))
        for id in 1...10 {
            let detail = try #require(try log.record(id: RecordID(rawValue: Int64(id))))
            let (request, response) = try #require(bodies[Int64(id)])
            #expect(detail.requestBody == request && detail.responseBody == response, "record \(id)")
        }
        #expect(try SchemaV5Tests.append(store, 2) == [13, 14])
        #expect(try log.list(RecordQuery(limit: 3)).items.map(\.id.rawValue) == [14, 13, 10])
        // Deleting a record also deletes its body (ON DELETE CASCADE still refers to the rebuilt table).
        try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in try db.execute("DELETE FROM requests WHERE id = 13") }
        }.get()
        let left = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                try db.scalarInt("SELECT count(*) FROM request_bodies WHERE request_id = 13")
            }
        }.get()
        #expect(left == 0)
    }

    /// Clearing the log deletes the newest records: the next id is still above every id given before, in the
    /// same process and after a restart (including a restart right after the clear, with an empty table).
    @Test func idsAreNeverReusedAfterTheNewestRecordsWereDeleted() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        var store = try Store.open(.init(path: path))
        #expect(try SchemaV5Tests.append(store, 3) == [1, 2, 3])
        try store.requestLog.clear()
        #expect(try SchemaV5Tests.append(store, 1) == [4])
        store.close()

        store = try Store.open(.init(path: path))
        #expect(try SchemaV5Tests.append(store, 1) == [5])
        try store.requestLog.clear()
        store.close()

        store = try Store.open(.init(path: path))
        #expect(try store.requestLog.count() == 0)
        #expect(try SchemaV5Tests.append(store, 2) == [6, 7])
        store.close()

        // `--max-log-bytes` below one record: every commit prunes every record, the newest included.
        // Pruning (`--max-records`) deletes in transactions that remember the largest id, too.
        store = try Store.open(.init(path: path, maxRecords: 1))
        defer { store.close() }
        #expect(try SchemaV5Tests.append(store, 3) == [8, 9, 10])
        let used = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                try db.scalarText("SELECT value FROM meta WHERE key = 'request_ids_used'")
            }
        }.get()
        #expect(used.flatMap { Int($0) }.map { $0 >= 7 } == true, "\(used ?? "nil")")
    }
}
