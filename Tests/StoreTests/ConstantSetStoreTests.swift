import LayoutEngine
import TestSupport
import Testing

@testable import Store

/// Constant sets in the store (docs/api.md#constant-sets, docs/store.md#constant-sets): numbered immutable
/// versions with a digest, retirement, the record's constant set and its filter, on both engines; the
/// migration from the previous schema; a version created on one PostgreSQL replica seen by another.
@Suite("Constant sets in the store")
struct ConstantSetStoreTests {
    static func draft(_ pairs: [(String, Double)], basedOn: String? = nil, note: String? = nil) -> ConstantSetDraft {
        ConstantSetDraft(
            basedOn: basedOn.flatMap(ConstantSetReference.init),
            overrides: pairs.map { key, v in (Constants.definitions.firstIndex { $0.key == key }!, v) }, note: note,
            sources: [:])
    }

    @Test(arguments: EngineTarget.all)
    func versionsAreNumberedImmutableAndSurviveAReopen(_ target: EngineTarget) throws {
        let database = try TestDatabase(target)
        let first: ConstantSetVersion
        let second: ConstantSetVersion
        do {
            let store = try database.open()
            defer { store.close() }
            let sets = store.constantSets
            first = try sets.create(name: "acme", draft: Self.draft([("sheet.topGap", 12)], note: "measured"))
            second = try sets.create(
                name: "acme", draft: Self.draft([("popover.margin", 14)], basedOn: "acme@1", note: "iOS 27"))
            #expect(first.version == 1 && second.version == 2)
            #expect(first.constants.sheetTopGap == 12 && first.constants.popoverMargin == 10)
            // Based on acme@1: its value stays, with its source; the new one takes the note.
            #expect(second.constants.sheetTopGap == 12 && second.constants.popoverMargin == 14)
            #expect(second.sources[0] == "measured" && second.sources[9] == "iOS 27" && second.sources[1] == "default")
            #expect(second.basedOn == "acme@1" && first.basedOn == "default")
            #expect(first.digest != second.digest)
            #expect(sets.lookup(ConstantSetReference("acme")!) == .found(second))
            #expect(sets.lookup(ConstantSetReference("acme@1")!) == .found(first))
            #expect(sets.lookup(ConstantSetReference("acme@3")!) == .unknownVersion(latest: 2))
            #expect(sets.lookup(ConstantSetReference("other")!) == .unknownSet)
            #expect(throws: StoreError.notFound(id: "acme@9")) {
                try sets.create(name: "b", draft: Self.draft([], basedOn: "acme@9"))
            }
        }
        // Reopened: the same versions, byte for byte (the digest covers every member).
        let store = try database.open()
        defer { store.close() }
        let set = try #require(store.constantSets.set("acme"))
        #expect(set.versions == [first, second])
        #expect(set.versions.map(\.digest) == [first.digest, second.digest])
        try store.constantSets.retire(name: "acme")
        #expect(store.constantSets.lookup(ConstantSetReference("acme")!) == .retired)
        #expect(store.constantSets.lookup(ConstantSetReference("acme@1")!, includeRetired: true) == .found(first))
        #expect(throws: StoreError.retired(name: "acme")) {
            try store.constantSets.create(name: "acme", draft: Self.draft([]))
        }
        #expect(throws: StoreError.notFound(id: "acme")) { try store.constantSets.retire(name: "acme") }
        #expect(store.constantSets.list().isEmpty && store.constantSets.list(includeRetired: true).count == 1)
    }

    @Test(arguments: EngineTarget.all)
    func theRecordKeepsItsConstantSetAndTheLogFiltersByIt(_ target: EngineTarget) throws {
        let database = try TestDatabase(target)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(3)
        var pinned = record(at: 1000)
        pinned.constantSet = "acme@3"
        var other = record(at: 1001)
        other.constantSet = "acme@4"
        store.requestLog.append(pinned, completion: counter.completion)
        store.requestLog.append(other, completion: counter.completion)
        store.requestLog.append(record(at: 1002), completion: counter.completion)
        #expect(counter.wait())
        let all = try store.requestLog.list(RecordQuery()).items
        #expect(all.map(\.constantSet) == [nil, "acme@4", "acme@3"])
        #expect(try store.requestLog.list(RecordQuery(constantSet: "acme@3")).items.map(\.id) == [all[2].id])
        #expect(try store.requestLog.list(RecordQuery(constantSet: "default")).items.map(\.id) == [all[0].id])
        #expect(try store.requestLog.record(id: all[1].id)?.summary.constantSet == "acme@4")
    }

    /// A file as schema 6 leaves it (the migrations up to 6, a record written with the columns of 6): opening
    /// it applies migration 7; the record reads back without a constant set, and sets can be stored.
    @Test func aSchema6FileMigrates() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        do {
            let db = try rawConnection(path)
            defer { db.close() }
            try Schema.migrate(db, from: 0, to: 6, now: Timestamp(millisecondsSinceEpoch: 0))
            try db.run(
                "INSERT INTO requests (id, received_at, duration_us, device, status, codes, engine_version, path, "
                    + "request_size, response_size, request_truncated, response_truncated, replica_id, client, posture) "
                    + "VALUES (1, 1000, 5, 'iphone-16', 200, '', 'old', '/v1/resolve', 2, 2, 0, 0, 'r', 'studio', NULL)"
            )
            try db.run(
                "INSERT INTO request_bodies (request_id, request, response, body_format) VALUES (1, X'7B7D', X'7B7D', 0)"
            )
            #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == 6)
        }
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        let version = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in try db.scalarInt("SELECT max(version) FROM schema_migrations") }
        }.get()
        #expect(version == 7)
        let old = try #require(try store.requestLog.list(RecordQuery()).items.first)
        #expect(old.client == "studio" && old.constantSet == nil)
        #expect(try store.requestLog.record(id: old.id)?.requestBody == Array("{}".utf8))
        let v = try store.constantSets.create(name: "acme", draft: Self.draft([("panel.breakpoint", 680)]))
        #expect(v.reference == "acme@1" && v.constants.panelBreakpoint == 680)
    }

    /// PostgreSQL at schema 2 (migrations 1 and 2): opening applies 3.
    @Test(.enabled(if: EngineTarget.postgresURL != nil))
    func aPostgresDatabaseOfSchema2Migrates() throws {
        let database = try TestDatabase(.postgres)
        do {
            let db = try database.connection()
            defer { db.close() }
            try db.execScript(
                """
                CREATE TABLE schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            for m in PostgresSchema.migrations.prefix(2) {
                try db.execScript(m.sql("pglz"))
                try db.exec(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    [.int(Int64(m.version)), .text(m.name)])
            }
            try db.exec(
                "INSERT INTO requests (received_at, duration_us, device, status, codes, path, engine_version, "
                    + "replica_id, request_size, response_size, request_truncated, response_truncated, client, request, "
                    + "response) VALUES (1000, 5, 'iphone-duo', 200, '', '/v1/resolve', 'old', 'r1', 2, 2, false, "
                    + "false, 'studio', $1, $2)",
                [.bytes(Array("{}".utf8)), .bytes(Array("{}".utf8))])
        }
        let store = try database.open()
        defer { store.close() }
        let db = try database.connection()
        defer { db.close() }
        #expect(try db.exec("SELECT max(version) FROM schema_migrations").int64(0, 0) == 3)
        let old = try #require(try store.requestLog.list(RecordQuery()).items.first)
        #expect(old.client == "studio" && old.constantSet == nil)
        #expect(try store.constantSets.create(name: "acme", draft: Self.draft([("sheet.margin", 16)])).version == 1)
    }

    /// Two replicas on one database: a version created on one is used by the other once its listener had the
    /// notification; numbers are given by the database, so the other replica's next version is 2.
    @Test(.enabled(if: EngineTarget.postgresURL != nil))
    func aVersionCreatedOnOneReplicaIsSeenByAnother() throws {
        let database = try TestDatabase(.postgres)
        let a = try database.open { $0.replicaID = "a" }
        defer { a.close() }
        let b = try database.open { $0.replicaID = "b" }
        defer { b.close() }
        let v1 = try a.constantSets.create(name: "fleet", draft: Self.draft([("sheet.topGap", 8)]))
        #expect(eventually { b.constantSets.lookup(ConstantSetReference("fleet")!) == .found(v1) })
        let v2 = try b.constantSets.create(name: "fleet", draft: Self.draft([("sheet.topGap", 9)], basedOn: "fleet@1"))
        #expect(v2.version == 2)
        #expect(eventually { a.constantSets.lookup(ConstantSetReference("fleet")!) == .found(v2) })
        try a.constantSets.retire(name: "fleet")
        #expect(eventually { b.constantSets.lookup(ConstantSetReference("fleet")!) == .retired })
    }
}
