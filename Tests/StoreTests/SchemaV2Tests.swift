import CSQLite
import Dispatch
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Schema v2: no `request_codes`, no secondary indexes on `requests`; every filter of
/// `GET /v1/requests` is a condition checked while walking `requests` newest first by rowid.
@Suite("Schema v2: migration and filters without indexes")
struct SchemaV2Tests {
    /// A record as the fixtures describe it; `codes` as `GET /v1/requests` returns them.
    struct Row {
        var device: String?
        var status: Int
        var codes: [String]
        var at: Int64
    }

    static let base: Int64 = 1_738_314_307_000

    /// Covers every filter: NULL and empty devices, codes that are prefixes/suffixes of others, duplicate and
    /// non-ASCII codes, codes first, middle and last in the list; then filler so that paging takes pages.
    static let rows: [Row] = {
        var rows = [
            Row(device: "iphone-16", status: 200, codes: [], at: base),
            Row(device: "iphone-16", status: 422, codes: ["detents-ignored"], at: base + 1000),
            Row(device: "ipad-mini", status: 200, codes: ["detents"], at: base + 2000),
            Row(device: nil, status: 400, codes: [], at: base + 3000),
            Row(
                device: "ipad-mini", status: 422, codes: ["prefer-sheet", "detents-ignored", "chained-modal"],
                at: base + 4000),
            Row(device: "iphone-16", status: 200, codes: ["x-detents"], at: base + 5000),
            Row(device: "", status: 200, codes: ["chained-modal", "chained-modal"], at: base + 6000),
            Row(device: "iphone-16-pro-max", status: 422, codes: ["detents", "prefer-sheet"], at: base + 7000),
            Row(device: "iphone-16", status: 200, codes: ["détente"], at: base + 8000),
            Row(device: "ipad-mini", status: 200, codes: ["a", "detents", "b"], at: base + 9000),
        ]
        let devices: [String?] = ["iphone-16", "ipad-mini", nil]
        let codeSets: [[String]] = [[], ["detents-ignored"], ["detents"], ["chained-modal", "detents"]]
        for i in 0..<30 {
            // Not in time order: received_at is not the id order (a slow request commits after a fast one).
            rows.append(
                Row(
                    device: devices[i % 3], status: i % 4 == 0 ? 422 : 200, codes: codeSets[i % 4],
                    at: base + 10_000 + Int64((i * 7) % 30) * 100))
        }
        return rows
    }()

    /// Builds a v1 database as a v1 binary left it: migration 1 only, and records written the v1 way
    /// (`requests`, `request_bodies`, one `request_codes` row per distinct code). Returns the ids, in `rows` order.
    static func makeV1Database(_ path: String, rows: [Row]) throws -> [Int64] {
        let db = try rawConnection(path)
        defer { db.close() }
        try db.execute("PRAGMA page_size = 16384")
        _ = try db.scalarText("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA foreign_keys = ON")
        try Schema.migrate(db, from: 0, to: 1, now: .now())
        #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == 1)
        var ids: [Int64] = []
        try db.transaction { () throws(StoreError) in
            for (i, row) in rows.enumerated() {
                try db.run(
                    "INSERT INTO requests (received_at, duration_us, device, status, codes, path, engine_version, "
                        + "request_size, response_size, request_truncated, response_truncated) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    .int(row.at), .int(100 + Int64(i)), .optional(row.device), .int(Int64(row.status)),
                    .text(row.codes.joined(separator: "\u{1F}")), .text("/v1/resolve"), .text("v1-engine"),
                    .int(Int64(requestBody(i).count)), .int(Int64(responseBody(i).count)), .int(0), .int(0))
                let id = db.lastInsertRowID
                try db.run(
                    "INSERT INTO request_bodies (request_id, request, response) VALUES (?, ?, ?)", .int(id),
                    .blob(requestBody(i)), .blob(responseBody(i)))
                var seen: Set<String> = []
                for code in row.codes where seen.insert(code).inserted {
                    try db.run("INSERT INTO request_codes (request_id, code) VALUES (?, ?)", .int(id), .text(code))
                }
                ids.append(id)
            }
        }
        #expect(
            try db.scalarInt("SELECT count(*) FROM request_codes")
                == Int64(rows.map { Set($0.codes).count }.reduce(0, +)))
        return ids
    }

    static func requestBody(_ i: Int) -> [UInt8] { Array(#"{"device":"iphone-16","n":\#(i)}"#.utf8) }
    static func responseBody(_ i: Int) -> [UInt8] { Array(repeating: UInt8(0x61 + i % 26), count: 3_000 + i) }

    /// What a filter must return, computed from the fixtures: ids newest first.
    static func expected(_ q: RecordQuery, rows: [Row], ids: [Int64]) -> [Int64] {
        zip(rows, ids).filter { row, _ in
            if let d = q.device, row.device != d { return false }
            if let s = q.status, row.status != s { return false }
            if let c = q.code, !row.codes.contains(c) { return false }
            if let s = q.since, row.at < s.millisecondsSinceEpoch { return false }
            if let u = q.until, row.at > u.millisecondsSinceEpoch { return false }
            return true
        }.map(\.1).sorted(by: >)
    }

    /// Every page of `q` (pages of 3), concatenated.
    static func allPages(_ log: RequestLog, _ q: RecordQuery) throws -> [Int64] {
        var q = q
        q.limit = 3
        var out: [Int64] = []
        var pages = 0
        repeat {
            let page = try log.list(q)
            #expect(page.items.count <= 3)
            out += page.items.map(\.id.rawValue)
            q.cursor = page.next
            pages += 1
        } while q.cursor != nil && pages < 100
        return out
    }

    static let queries: [RecordQuery] = {
        let t = { (ms: Int64) in Timestamp(millisecondsSinceEpoch: base + ms) }
        var out: [RecordQuery] = []
        for device in [nil, "iphone-16", "ipad-mini", "", "no-such-device"] as [String?] {
            for status in [nil, 200, 422] as [Int?] {
                for code in [nil, "detents", "detents-ignored", "chained-modal", "ignored", "x-detents", "détente", ""]
                    as [String?]
                {
                    for (since, until) in [
                        (nil, nil), (t(1000), t(5000)), (t(4000), nil), (nil, t(2000)), (t(10_500), t(12_000)),
                    ]
                        as [(Timestamp?, Timestamp?)]
                    {
                        out.append(RecordQuery(device: device, status: status, code: code, since: since, until: until))
                    }
                }
            }
        }
        return out
    }()

    @Test func aV1DatabaseWithRecordsMigratesKeepingEveryRecordAndEveryFilterWorks() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let rows = SchemaV2Tests.rows
        let ids = try SchemaV2Tests.makeV1Database(path, rows: rows)

        let store = try Store.open(.init(path: path))
        defer { store.close() }
        let log = store.requestLog
        #expect(try log.count() == rows.count)
        // Every record unchanged, bodies included.
        for (i, (row, id)) in zip(rows, ids).enumerated() {
            let detail = try #require(try log.record(id: RecordID(rawValue: id)))
            #expect(detail.summary.device == row.device && detail.summary.status == row.status)
            #expect(detail.summary.codes == row.codes && detail.summary.receivedAt.millisecondsSinceEpoch == row.at)
            #expect(detail.summary.durationMicros == 100 + Int64(i) && detail.summary.engineVersion == "v1-engine")
            #expect(
                detail.requestBody == SchemaV2Tests.requestBody(i)
                    && detail.responseBody == SchemaV2Tests.responseBody(i))
        }
        // The prefix/suffix cases, spelled out (not only against the reference filter below).
        #expect(
            try log.list(RecordQuery(code: "detents", limit: 3)).items.map(\.id.rawValue) == [
                ids[37], ids[36], ids[33],
            ])
        #expect(
            try SchemaV2Tests.allPages(log, RecordQuery(code: "detents")).filter { $0 <= ids[9] } == [
                ids[9], ids[7], ids[2],
            ])
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "x-detents")) == [ids[5]])
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "detents-")).isEmpty)
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "ignored")).isEmpty)
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "a")) == [ids[9]])
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "b")) == [ids[9]])
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "détente")) == [ids[8]])
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "")).isEmpty)
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(code: "a\u{1F}detents")).isEmpty)
        #expect(try SchemaV2Tests.allPages(log, RecordQuery(device: "")) == [ids[6]])
        // Every combination of filters, through every page.
        for q in SchemaV2Tests.queries {
            #expect(try SchemaV2Tests.allPages(log, q) == SchemaV2Tests.expected(q, rows: rows, ids: ids), "\(q)")
        }
        // The file is at the latest version (v1 went through every later migration), consistent, and new
        // records continue the ids.
        let (versions, integrity, orphans, bodies) = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                (
                    try db.scalarInt("SELECT count(*) FROM schema_migrations"),
                    try db.scalarText("PRAGMA integrity_check"),
                    try db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check"),
                    try db.scalarInt("SELECT count(*) FROM request_bodies")
                )
            }
        }.get()
        #expect(
            versions == Int64(Schema.latestVersion) && integrity == "ok" && orphans == 0 && bodies == Int64(rows.count))
        let counter = CompletionCounter()
        counter.expect(1)
        log.append(record(device: "ipad-mini", codes: ["detents"]), completion: counter.completion)
        #expect(counter.wait())
        let newID = try #require(counter.successes.withLock { $0.first })
        #expect(newID.rawValue > ids.max()!)
        #expect(try log.list(RecordQuery(device: "ipad-mini", code: "detents", limit: 1)).items.map(\.id) == [newID])
    }

    @Test func theMigrationDropsTheCodeRowsAndTheSecondaryIndexes() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        _ = try SchemaV2Tests.makeV1Database(path, rows: Array(SchemaV2Tests.rows.prefix(5)))
        let before = try SchemaV2Tests.schemaObjects(path)
        #expect(before.contains("table request_codes") && before.contains("index requests_by_device"))
        try Store.open(.init(path: path)).close()
        let after = try SchemaV2Tests.schemaObjects(path)
        // Schema 7 adds the constant sets' tables.
        let constantSets: Set<String> = [
            "table constant_sets", "table constant_set_versions", "index sqlite_autoindex_constant_sets_1",
            "index sqlite_autoindex_constant_set_versions_1",
        ]
        #expect(after == before.subtracting(SchemaV2Tests.dropped).union(constantSets))
        let db = try rawConnection(path)
        defer { db.close() }
        #expect(
            try db.scalarText(
                "SELECT group_concat(version || ' ' || name, '; ') FROM schema_migrations ORDER BY version")
                == "1 device profiles, request log; 2 request log without per-code rows and secondary indexes; "
                + "3 replica id of each record; 4 request bodies as codec frames; 5 request ids without AUTOINCREMENT; "
                + "6 client and posture of each record; 7 constant sets, the constant set of each record")
    }

    @Test func aFreshDatabaseReachesTheLatestVersionWithTheSameSchemaAsAMigratedOne() throws {
        let dir = TemporaryDirectory()
        let fresh = dir.file("fresh.sqlite")
        try Store.open(.init(path: fresh)).close()
        let db = try rawConnection(fresh)
        #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == 7)
        #expect(Schema.latestVersion == 7)
        db.close()
        let objects = try SchemaV2Tests.schemaObjects(fresh)
        #expect(objects.isDisjoint(with: SchemaV2Tests.dropped))
        #expect(objects.contains("table requests") && objects.contains("table request_bodies"))
        // No index on the request log at all: its only keys are the rowids.
        #expect(!objects.contains { $0.hasPrefix("index request") })

        let migrated = dir.file("migrated.sqlite")
        _ = try SchemaV2Tests.makeV1Database(migrated, rows: [])
        try Store.open(.init(path: migrated)).close()
        #expect(try SchemaV2Tests.schemaSQL(migrated) == SchemaV2Tests.schemaSQL(fresh))
    }

    @Test func pruningAndClearWorkOnAMigratedDatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let rows = SchemaV2Tests.rows
        let ids = try SchemaV2Tests.makeV1Database(path, rows: rows)
        let store = try Store.open(.init(path: path, maxRecords: 10))
        defer { store.close() }
        // Over maxRecords + slack (1) after the next commit: the oldest go, with their bodies.
        let counter = CompletionCounter()
        counter.expect(1)
        store.requestLog.append(
            record(device: "ipad-mini", status: 422, codes: ["detents"]), completion: counter.completion)
        #expect(counter.wait())
        store.requestLog.flush()
        let newID = try #require(counter.successes.withLock { $0.first }).rawValue
        #expect(try store.requestLog.count() == 10)
        let kept = Array(ids.suffix(9)) + [newID]
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery()) == kept.reversed())
        // The new record's time is raised to the newest stored one's when it is older (docs/store.md#record-time).
        let newAt = max(rows.map(\.at).max() ?? 0, 1_738_314_307_042)
        let keptRows = Array(rows.suffix(9)) + [Row(device: "ipad-mini", status: 422, codes: ["detents"], at: newAt)]
        for q in SchemaV2Tests.queries {
            #expect(
                try SchemaV2Tests.allPages(store.requestLog, q) == SchemaV2Tests.expected(q, rows: keptRows, ids: kept),
                "\(q)")
        }
        let bodies = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in try db.scalarInt("SELECT count(*) FROM request_bodies") }
        }.get()
        #expect(bodies == 10)

        try store.requestLog.clear()
        #expect(try store.requestLog.count() == 0)
        #expect(try store.requestLog.list(RecordQuery(code: "detents")).items.isEmpty)
        let remaining = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in try db.scalarInt("SELECT count(*) FROM request_bodies") }
        }.get()
        #expect(remaining == 0)
        let after = CompletionCounter()
        after.expect(1)
        store.requestLog.append(record(), completion: after.completion)
        #expect(after.wait())
        #expect(try #require(after.successes.withLock { $0.first }).rawValue > newID)
    }

    @Test func codesMatchAsWholeElementsOnAFreshDatabase() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        let sets: [[String]] = [
            ["detents-ignored"], ["detents"], ["x-detents"], ["prefer-sheet", "detents", "chained-modal"], [],
            ["a\u{1F}b"], ["", "z"], ["DETENTS"],
        ]
        let counter = CompletionCounter()
        counter.expect(sets.count)
        for codes in sets {
            store.requestLog.append(record(codes: codes), completion: counter.completion)
            store.requestLog.flush()  // ids in `sets` order
        }
        #expect(counter.wait())
        let ids = counter.successes.withLock { $0 }.map(\.rawValue).sorted()
        func find(_ code: String) throws -> [Int64] {
            try SchemaV2Tests.allPages(store.requestLog, RecordQuery(code: code))
        }
        #expect(try find("detents") == [ids[3], ids[1]])
        #expect(try find("detents-ignored") == [ids[0]])
        #expect(try find("chained-modal") == [ids[3]])
        #expect(try find("detent").isEmpty && find("ignored").isEmpty && find("sheet").isEmpty)
        #expect(try find("DETENTS") == [ids[7]])  // case-sensitive, like the v1 index
        // A separator inside a code is dropped when stored (as before): "a\u{1F}b" is stored and listed as "ab".
        #expect(try find("ab") == [ids[5]])
        #expect(try find("a\u{1F}b").isEmpty && find("a").isEmpty)
        #expect(try store.requestLog.record(id: RecordID(rawValue: ids[5]))?.summary.codes == ["ab"])
        // An empty code matches a record whose list holds an empty code, not the records without codes.
        #expect(try find("") == [ids[6]])
        #expect(try find("z") == [ids[6]])
    }

    /// The writer binds a row's text columns straight from one reused buffer (`RowText`): every value, in
    /// every position and after longer or shorter neighbours in the same batch, must come back as it went in.
    @Test func textColumnsRoundTripThroughTheBatchBuffer() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let long = String(repeating: "long-code-", count: 200)
        let cases: [(device: String?, codes: [String], path: String, engine: String)] = [
            (nil, [], "/v1/resolve", "1.0"),
            ("", [""], "", ""),
            ("iPhone 16 “Pro” 📱", ["détente", "日本語", long], "/v1/resolve", "1.0-β"),
            ("x", ["", "z", ""], "/v1/matrix", "2"),
            (long, ["a\u{1F}b", "\u{1F}", "c\u{1F}"], "/v1/resolve", long),
            ("iphone-16", ["detents-ignored", "prefer-sheet", "chained-modal"], "/v1/resolve", "1.0"),
        ]
        let counter = CompletionCounter()
        counter.expect(cases.count * 2)
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        for (i, c) in (cases + cases.reversed()).enumerated() {
            store.requestLog.append(
                RequestRecord(
                    receivedAt: Timestamp(millisecondsSinceEpoch: SchemaV2Tests.base + Int64(i)), durationMicros: 1,
                    device: c.device, status: 200, codes: c.codes, path: c.path, requestBody: [], responseBody: [0],
                    engineVersion: c.engine),
                completion: counter.completion)
        }
        release.signal()  // all of them in one transaction
        #expect(counter.wait())
        #expect(store.counters.maxBatchSize == cases.count * 2)
        let listed = try store.requestLog.list(RecordQuery(limit: 100)).items.reversed().map { $0 }
        #expect(listed.count == cases.count * 2)
        for (item, c) in zip(listed, cases + cases.reversed()) {
            // Codes as the list returns them: the separator dropped inside a code, and a list of one empty
            // code is indistinguishable from no codes (both are stored as '').
            let codes = c.codes.map { $0.filter { $0 != "\u{1F}" } }
            #expect(item.device == c.device && item.path == c.path && item.engineVersion == c.engine)
            #expect(item.codes == (codes == [""] ? [] : codes), "\(c.codes)")
        }
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery(code: "日本語")).count == 2)
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery(code: long)).count == 2)
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery(device: long, code: "ab")).count == 2)
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery(device: "", code: "")).isEmpty)
        #expect(try SchemaV2Tests.allPages(store.requestLog, RecordQuery(device: "x", code: "")).count == 2)
    }

    /// Listings never sort and never use an index: `requests` is walked by rowid, newest first (the bytecode
    /// steps the cursor with `Prev`), whatever the filters, with or without a cursor.
    @Test func everyListingWalksRequestsByRowidDescendingWithoutASort() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        try Store.open(.init(path: path)).close()
        let db = try rawConnection(path)
        defer { db.close() }
        let t = Timestamp(millisecondsSinceEpoch: SchemaV2Tests.base)
        for q in [
            RecordQuery(), RecordQuery(device: "iphone-16"), RecordQuery(status: 422), RecordQuery(code: "detents"),
            RecordQuery(since: t), RecordQuery(until: t), RecordQuery(since: t, until: t),
            RecordQuery(client: "studio"),
            RecordQuery(device: "ipad-mini", status: 200, code: "x", since: t, until: t, client: "studio"),
        ] {
            for after in [nil, 42] as [Int64?] {
                let (sql, values) = SQLiteRecords.listSQL(q, after: after, limit: 50)
                let plan = try db.withStatement("EXPLAIN QUERY PLAN " + sql) { (s) throws(StoreError) -> [String] in
                    try s.bind(values)
                    var details: [String] = []
                    while try s.step() { details.append(s.text(3) ?? "") }
                    return details
                }
                #expect(
                    plan == [after == nil ? "SCAN requests" : "SEARCH requests USING INTEGER PRIMARY KEY (rowid<?)"],
                    "\(sql)")
                let opcodes = try db.withStatement("EXPLAIN " + sql) { (s) throws(StoreError) -> [String] in
                    try s.bind(values)
                    var ops: [String] = []
                    while try s.step() { ops.append(s.text(1) ?? "") }
                    return ops
                }
                #expect(opcodes.contains("Prev") && !opcodes.contains("Next"), "\(sql)")
                #expect(!opcodes.contains("SorterOpen") && !opcodes.contains("OpenEphemeral"), "\(sql)")
            }
        }
    }

    /// Only the migrations may name what migration 2 dropped: a statement anywhere else would fail at run time
    /// on a v2 database (SQL is text, the compiler cannot see it).
    @Test func noSourceOutsideTheMigrationsNamesADroppedTableOrIndex() throws {
        let sources = String(#filePath.dropLast("Tests/StoreTests/SchemaV2Tests.swift".count)) + "Sources/"
        var checked = 0
        for module in ["Store", "Service", "hinge"] {
            for file in SchemaV2Tests.swiftFiles(sources + module) where !file.hasSuffix("/Store/Schema.swift") {
                let text = try #require(readFile(file).map { String(decoding: $0, as: UTF8.self) })
                for name in ["request_codes", "requests_by_device", "requests_by_status", "requests_by_received_at"] {
                    #expect(!text.contains(name), "\(file) names \(name)")
                }
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    /// The `.swift` files under `dir`, recursively.
    static func swiftFiles(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            if name.hasSuffix(".swift") {
                out.append(dir + "/" + name)
            } else if entry.pointee.d_type == UInt8(DT_DIR) {
                out += swiftFiles(dir + "/" + name)
            }
        }
        return out
    }

    static let dropped: Set<String> = [
        "table request_codes", "index request_codes_by_code", "index requests_by_device", "index requests_by_status",
        "index requests_by_received_at",
    ]

    /// "type name" of every table and index of a database file.
    static func schemaObjects(_ path: String) throws -> Set<String> {
        let db = try rawConnection(path)
        defer { db.close() }
        return try db.withStatement("SELECT type || ' ' || name FROM sqlite_schema WHERE type IN ('table', 'index')") {
            (s) throws(StoreError) -> Set<String> in
            var out: Set<String> = []
            while try s.step() { out.insert(s.text(0) ?? "") }
            return out
        }
    }

    /// The SQL of every table and index, by name (what `sqlite_schema` keeps of the CREATE statements).
    static func schemaSQL(_ path: String) throws -> [String: String] {
        let db = try rawConnection(path)
        defer { db.close() }
        return try db.withStatement("SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL") {
            (s) throws(StoreError) -> [String: String] in
            var out: [String: String] = [:]
            while try s.step() { out[s.text(0) ?? ""] = s.text(1) ?? "" }
            return out
        }
    }
}
