import TestSupport
import Testing

@testable import Store

/// Schema 6 (SQLite) and 2 (PostgreSQL): `requests.client` and `requests.posture`. A database written by the
/// previous schema migrates without a rewrite: its records read back as they were, with neither value, and
/// new records carry both beside them.
@Suite("Schema 6: the client and posture of each record")
struct SchemaV6Tests {
    static let fixture = String(#filePath.dropLast("SchemaV6Tests.swift".utf8.count)) + "Fixtures/schema-v5.sqlite"

    /// The fixture's records, oldest first: (device, status, path); Tests/StoreTests/Fixtures/README.md.
    static let records: [(String?, Int, String)] = [
        ("iphone-duo", 200, "/v1/resolve"), ("iphone-16", 200, "/v1/resolve"), ("iphone-duo", 200, "/v1/resolve"),
        ("iphone-16", 422, "/v1/resolve"), (nil, 400, "/v1/resolve"), (nil, 200, "/v1/resolve/matrix"),
        ("ipad-pro-13", 200, "/v1/resolve"),
    ]

    /// A copy of the fixture, with each record's bodies decoded from the frames the old release stored and its time.
    static func copyFixture(_ dir: TemporaryDirectory) throws -> (
        path: String, bodies: [Int64: ([UInt8], [UInt8])], newest: Int64
    ) {
        let bytes = try #require(readFile(fixture), "missing \(fixture)")
        let path = dir.file("hinge.sqlite")
        writeFile(path, bytes)
        let db = try rawConnection(path)
        defer { db.close() }
        #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == 5)
        var stored: [(Int64, [UInt8], [UInt8], Int64)] = []
        try db.withStatement("SELECT request_id, request, response, body_format FROM request_bodies") {
            (s) throws(StoreError) in
            while try s.step() { stored.append((s.int64(0), s.blob(1), s.blob(2), s.int64(3))) }
        }
        var bodies: [Int64: ([UInt8], [UInt8])] = [:]
        for (id, request, response, formatValue) in stored {
            let format = try #require(BodyFormat(rawValue: formatValue))
            #expect(format == .framed, "the release of schema 5 stored every body as a frame")
            bodies[id] = (
                try BodyCodec.decode(request, format: format).get(),
                try BodyCodec.decode(response, format: format).get()
            )
        }
        let newest = try #require(try db.scalarInt("SELECT received_at FROM requests ORDER BY id DESC LIMIT 1"))
        return (path, bodies, newest)
    }

    @Test func aSchema5FileWrittenByThePreviousReleaseMigrates() throws {
        let dir = TemporaryDirectory()
        let (path, bodies, newest) = try Self.copyFixture(dir)
        #expect(bodies.count == Self.records.count)
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        let (version, columns) = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                let version = try db.scalarInt("SELECT max(version) FROM schema_migrations")
                let columns = try db.withStatement("SELECT name FROM pragma_table_info('requests') ORDER BY cid") {
                    (s) throws(StoreError) -> [String] in
                    var names: [String] = []
                    while try s.step() { names.append(s.text(0) ?? "") }
                    return names
                }
                return (version, columns)
            }
        }.get()
        #expect(version == Int64(Schema.latestVersion))
        #expect(columns.suffix(4) == ["replica_id", "client", "posture", "constant_set"])
        let log = store.requestLog
        let old = try log.list(RecordQuery(limit: 50)).items
        #expect(old.map(\.id.rawValue) == Array((1...7).reversed()))
        for (item, expected) in zip(old.reversed(), Self.records) {
            #expect(item.device == expected.0 && item.status == expected.1 && item.path == expected.2)
            #expect(item.client == nil && item.posture == nil)
            let detail = try #require(try log.record(id: item.id))
            let (request, response) = try #require(bodies[item.id.rawValue])
            #expect(detail.requestBody == request && detail.responseBody == response, "record \(item.id)")
        }
        // New records beside the old ones, with a client and a posture; the filter finds only them.
        let counter = CompletionCounter()
        counter.expect(2)
        var studio = record(device: "iphone-duo", at: newest - 60_000)
        studio.client = "studio"
        studio.posture = "halfOpened"
        log.append(studio, completion: counter.completion)
        log.append(record(device: "iphone-16", at: newest + 1), completion: counter.completion)
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0 }.map(\.rawValue) == [8, 9])
        let page = try log.list(RecordQuery(limit: 3))
        #expect(page.items.map(\.client) == [nil, "studio", nil])
        #expect(page.items.map(\.posture) == [nil, "halfOpened", nil])
        #expect(try log.list(RecordQuery(client: "studio")).items.map(\.id.rawValue) == [8])
        #expect(try log.list(RecordQuery(device: "iphone-duo", client: "studio")).items.map(\.id.rawValue) == [8])
        #expect(try log.list(RecordQuery(status: 422, client: "studio")).items.isEmpty)
        // The new record arrived "before" the newest stored one: its time is raised to it (docs/store.md#record-time).
        #expect(page.items[1].receivedAt.millisecondsSinceEpoch == newest)
        #expect(page.items[0].receivedAt.millisecondsSinceEpoch == newest + 1)
    }

    @Test func aFreshFileHasTheLatestSchema() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let version = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in try db.scalarInt("SELECT max(version) FROM schema_migrations") }
        }.get()
        #expect(version == Int64(Schema.latestVersion) && Schema.latestVersion == 7)
    }

    /// A PostgreSQL database as the previous binary left it: the tables of migration 1 only, with a record in
    /// them. Opening it applies migration 2; the record reads back without a client, new ones carry theirs.
    @Test(.enabled(if: EngineTarget.postgresURL != nil))
    func aPostgresDatabaseOfSchema1Migrates() throws {
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
            try db.execScript(PostgresSchema.migrations[0].sql("pglz"))
            try db.exec(
                "INSERT INTO schema_migrations (version, name) VALUES (1, $1)",
                [.text(PostgresSchema.migrations[0].name)])
            try db.exec(
                "INSERT INTO requests (received_at, duration_us, device, status, codes, path, engine_version, "
                    + "replica_id, request_size, response_size, request_truncated, response_truncated, request, "
                    + "response) VALUES (1000, 5, 'iphone-duo', 200, '', '/v1/resolve', 'old', 'r1', 2, 2, false, "
                    + "false, $1, $2)",
                [.bytes(Array("{}".utf8)), .bytes(Array("{}".utf8))])
        }
        let store = try database.open()
        defer { store.close() }
        let db = try database.connection()
        defer { db.close() }
        #expect(
            try db.exec("SELECT max(version) FROM schema_migrations").int64(0, 0) == Int64(PostgresSchema.latestVersion)
        )
        let log = store.requestLog
        let old = try #require(try log.list(RecordQuery()).items.first)
        #expect(old.device == "iphone-duo" && old.engineVersion == "old" && old.client == nil && old.posture == nil)
        #expect(try log.record(id: old.id)?.requestBody == Array("{}".utf8))
        let counter = CompletionCounter()
        counter.expect(1)
        var new = record(at: 500)
        new.client = "plugin-figma"
        new.posture = "closed"
        log.append(new, completion: counter.completion)
        #expect(counter.wait())
        let items = try log.list(RecordQuery()).items
        #expect(items.map(\.client) == ["plugin-figma", nil] && items.map(\.posture) == ["closed", nil])
        #expect(items[0].receivedAt.millisecondsSinceEpoch == 1000)  // raised to the stored record's time
        #expect(try log.list(RecordQuery(client: "plugin-figma")).items.map(\.id) == [items[0].id])
    }
}
