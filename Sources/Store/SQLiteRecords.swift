import CSQLite
import LayoutEngine

/// The request log in SQLite: every statement that writes or reads records, in one place. `SQLiteEngine`
/// runs them: the batch insert on the writer thread (`insert`, the hot path), the listing and the record
/// on read connections, pruning and clear on the writer thread.
extension SQLiteEngine {
    // MARK: Writer thread

    /// Inserts the records in one transaction. The first batch after an open or a deletion takes its first id
    /// from `SQLiteRecords.nextIDSQL` (above every id ever given); the others let SQLite give the largest id
    /// + 1. The pages in use (`--max-log-bytes`) are read inside the same transaction, before `COMMIT`:
    /// reading them after it would be one more read transaction, with its locks, per commit.
    func insertRecords(_ records: ArraySlice<StoreWriter.PendingRecord>, ids: inout [Int64]) throws(StoreError) {
        if let storage, storage.isUnusable {
            throw .storageUnusable(storage.problem ?? "the database files are unusable")
        }
        let bytes = try pool.write { (db) throws(StoreError) -> Int in
            try db.transaction { () throws(StoreError) -> Int in
                let firstID =
                    idsAfterDeletion.load(ordering: .relaxed)
                    ? try db.scalarInt(SQLiteRecords.nextIDSQL) : nil
                try SQLiteRecords.insert(records, firstID: firstID, replicaID: replicaID, into: db, ids: &ids)
                // A failed measurement does not fail the records: the last value stands until the next commit.
                return (try? PageUsage.bytesInUse(db, pageSize: pageSize)) ?? committedBytes.load(ordering: .relaxed)
            }
        }
        idsAfterDeletion.store(false, ordering: .relaxed)
        committedBytes.store(bytes, ordering: .relaxed)
    }

    func newestRecordTime() throws(StoreError) -> Timestamp? {
        try pool.write { (db) throws(StoreError) -> Timestamp? in
            try db.scalarInt("SELECT received_at FROM requests ORDER BY id DESC LIMIT 1").map {
                Timestamp(millisecondsSinceEpoch: $0)
            }
        }
    }

    /// Counts the rows, publishes the pages in use and prunes past either bound.
    func didCommit(records count: Int) {
        let rows = rowCount.wrappingAdd(count, ordering: .relaxed).newValue
        let bytes = committedBytes.load(ordering: .relaxed)
        metrics.logBytes.store(bytes, ordering: .relaxed)
        if rows > bounds.maxRecords + bounds.pruneSlack || bytes > bounds.maxLogBytes { prune() }
    }

    /// Deletes the oldest records beyond `maxRecords`, then the oldest records while the pages in use exceed
    /// `maxLogBytes - byteSlack`, each deletion in its own small transaction (`SQLiteRecords.delete`).
    private func prune() {
        do {
            let deleted = try pool.write { (db) throws(StoreError) -> Int in
                var deleted = 0
                defer { if deleted > 0 { idsAfterDeletion.store(true, ordering: .relaxed) } }
                if rowCount.load(ordering: .relaxed) > bounds.maxRecords,
                    let cutoff = try db.scalarInt(
                        "SELECT id FROM requests ORDER BY id DESC LIMIT 1 OFFSET ?", .int(Int64(bounds.maxRecords)))
                {
                    deleted += try SQLiteRecords.delete(upTo: cutoff, in: db)
                }
                let target = bounds.maxLogBytes - bounds.byteSlack
                var used = try PageUsage.bytesInUse(db, pageSize: pageSize)
                // Each round deletes at least one record; the estimate of what a round frees is close, so
                // one round is the rule and the bound caps a pathological file.
                for _ in 0..<8 where used > target {
                    guard let cutoff = try PageUsage.oldestRecords(db, freeing: used - target) else { break }
                    deleted += try SQLiteRecords.delete(upTo: cutoff, in: db)
                    used = try PageUsage.bytesInUse(db, pageSize: pageSize)
                }
                metrics.logBytes.store(used, ordering: .relaxed)
                return deleted
            }
            metrics.recordsPruned.wrappingAdd(deleted, ordering: .relaxed)
            rowCount.wrappingSubtract(deleted, ordering: .relaxed)
        } catch {
            metrics.pruneFailures.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func clearRecords() throws(StoreError) {
        try pool.write { (db) throws(StoreError) in
            _ = try SQLiteRecords.delete(upTo: Int64.max, in: db)
            idsAfterDeletion.store(true, ordering: .relaxed)
            rowCount.store(0, ordering: .relaxed)
            if let bytes = try? PageUsage.bytesInUse(db, pageSize: pageSize) {
                committedBytes.store(bytes, ordering: .relaxed)
                metrics.logBytes.store(bytes, ordering: .relaxed)
            }
        }
    }

    // MARK: Reads (read connections; never wait for the writer under WAL)

    func listRecords(_ query: RecordQuery, after: Int64?, limit: Int) throws(StoreError) -> [RecordSummary] {
        let (sql, values) = SQLiteRecords.listSQL(query, after: after, limit: limit)
        return try pool.read { (db) throws(StoreError) -> [RecordSummary] in
            try db.withStatement(sql) { (s) throws(StoreError) -> [RecordSummary] in
                try s.bind(values)
                var out: [RecordSummary] = []
                while try s.step() { out.append(SQLiteRecords.summary(s)) }
                return out
            }
        }
    }

    /// One record with its bodies decoded (`BodyCodec`); a body that cannot be decoded (a damaged frame, or a
    /// compressor this process could not load) is `.corruptRow`.
    func record(id: RecordID) throws(StoreError) -> RecordDetail? {
        let stored = try pool.read { (db) throws(StoreError) -> (RecordSummary, [UInt8], [UInt8], Int64)? in
            try db.withStatement(
                "SELECT " + SQLiteRecords.summaryColumns + ", b.request, b.response, b.body_format FROM requests "
                    + "LEFT JOIN request_bodies b ON b.request_id = requests.id WHERE requests.id = ?"
            ) { (s) throws(StoreError) -> (RecordSummary, [UInt8], [UInt8], Int64)? in
                try s.bind([.int(id.rawValue)])
                guard try s.step() else { return nil }
                return (SQLiteRecords.summary(s), s.blob(16), s.blob(17), s.int64(18))
            }
        }
        // Decoded after the read connection went back to the pool.
        guard let (summary, request, response, formatValue) = stored else { return nil }
        guard let format = BodyFormat(rawValue: formatValue) else {
            throw .corruptRow(table: "request_bodies", id: id.description, detail: "body_format \(formatValue)")
        }
        switch (BodyCodec.decode(request, format: format), BodyCodec.decode(response, format: format)) {
        case (.success(let requestBody), .success(let responseBody)):
            return RecordDetail(summary: summary, requestBody: requestBody, responseBody: responseBody)
        case (.failure(let failure), _), (_, .failure(let failure)):
            throw .corruptRow(table: "request_bodies", id: id.description, detail: failure.description)
        }
    }

    func countRecords() throws(StoreError) -> Int {
        try pool.read { (db) throws(StoreError) -> Int in Int(try db.scalarInt("SELECT count(*) FROM requests") ?? 0) }
    }
}

/// The SQL of the request log's rows in SQLite and the code that binds and reads them.
enum SQLiteRecords {
    /// The query of a listing: records after the cursor `after` (exclusive), newest first, at most `limit`
    /// rows (`RequestLog.list` asks for one more than a page, to know whether there is a next page).
    ///
    /// The SQL is assembled from constant fragments only; every value is a bound parameter. No filter has an
    /// index (schema v2, docs/store.md): every listing walks `requests` newest first by rowid, without a
    /// sort, and stops after `limit` matches, so a filter that matches little scans the whole table.
    static func listSQL(_ query: RecordQuery, after: Int64?, limit: Int) -> (sql: String, values: [SQLValue]) {
        var sql = "SELECT " + SQLiteRecords.summaryColumns + " FROM requests WHERE 1"
        var values: [SQLValue] = []
        if let d = query.device {
            sql += " AND device = ?"
            values.append(.text(d))
        }
        if let s = query.status {
            sql += " AND status = ?"
            values.append(.int(Int64(s)))
        }
        if let c = query.code {
            if c.utf8.contains(0x1F) {
                // No stored code contains the separator (`insert` drops it): nothing can match.
                sql += " AND 0"
            } else {
                // A whole element of the separated list, never a prefix or suffix of another code (the last
                // condition). The first two are cheap pre-checks that reject a row without the concatenation (a
                // scan that matches nothing took half the time with them): a record without codes fails at once,
                // and is not matched by `code=` (empty); one whose codes do not contain the text anywhere, next.
                sql += " AND codes <> '' AND instr(codes, ?) > 0"
                sql += " AND instr(char(31) || codes || char(31), char(31) || ? || char(31)) > 0"
                values.append(.text(c))
                values.append(.text(c))
            }
        }
        if let c = query.client {
            sql += " AND client = ?"
            values.append(.text(c))
        }
        if let c = query.constantSet {
            if c == ConstantSetReference.defaultName {
                sql += " AND constant_set IS NULL"
            } else {
                sql += " AND constant_set = ?"
                values.append(.text(c))
            }
        }
        if let s = query.since {
            sql += " AND received_at >= ?"
            values.append(.int(s.millisecondsSinceEpoch))
        }
        if let u = query.until {
            sql += " AND received_at <= ?"
            values.append(.int(u.millisecondsSinceEpoch))
        }
        if let after {
            sql += " AND id < ?"
            values.append(.int(after))
        }
        sql += " ORDER BY id DESC LIMIT ?"
        values.append(.int(Int64(limit)))
        return (sql, values)
    }

    static let summaryColumns =
        "requests.id, requests.received_at, requests.duration_us, requests.device, requests.status, requests.codes, "
        + "requests.path, requests.engine_version, requests.request_size, requests.response_size, "
        + "requests.request_truncated, requests.response_truncated, requests.replica_id, requests.client, "
        + "requests.posture, requests.constant_set"

    static func summary(_ s: Statement) -> RecordSummary {
        let codes = s.text(5) ?? ""
        return RecordSummary(
            id: RecordID(rawValue: s.int64(0)), receivedAt: Timestamp(millisecondsSinceEpoch: s.int64(1)),
            durationMicros: s.int64(2), device: s.isNull(3) ? nil : s.text(3), status: s.int(4),
            codes: codes.isEmpty
                ? []
                : codes.split(separator: RequestLog.codeSeparator, omittingEmptySubsequences: false).map(String.init),
            path: s.text(6) ?? "", engineVersion: s.text(7) ?? "", requestSize: s.int(8), responseSize: s.int(9),
            requestTruncated: s.bool(10), responseTruncated: s.bool(11), replicaID: s.text(12) ?? "",
            client: s.isNull(13) ? nil : s.text(13), posture: s.isNull(14) ? nil : s.text(14),
            constantSet: s.isNull(15) ? nil : s.text(15))
    }

    /// `id` is bound only for the first row after an open or a deletion (`nextIDSQL`); NULL gives the
    /// largest id + 1.
    static let insertRequestSQL =
        "INSERT INTO requests (received_at, duration_us, device, status, codes, path, engine_version, "
        + "request_size, response_size, request_truncated, response_truncated, replica_id, client, posture, constant_set, "
        + "id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// The id of the next record: above every record's id and above `request_ids_used`, the largest id given
    /// before records were deleted (schema 5: `requests` has no `AUTOINCREMENT`, docs/store.md). Ids are thus
    /// never reused, even after the newest records were pruned or the log cleared.
    static let nextIDSQL =
        "SELECT max(coalesce((SELECT max(id) FROM requests), 0), "
        + "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'request_ids_used'), 0)) + 1"

    /// Deletes the records with ids up to `cutoff` and their bodies in one transaction, and returns how many
    /// records it deleted. Both tables go by id range, with foreign keys off for the transaction (the pragma
    /// is a no-op inside one): with them on, deleting from `requests` runs the `ON DELETE CASCADE` action once
    /// per record, a look-up in `request_bodies` that finds nothing once its rows are gone. By range, the writer
    /// spends about 15 % less CPU per pruned record (BENCHMARKS.md, "Request log"). The `defer` turns foreign
    /// keys on again on every path out.
    static func delete(upTo cutoff: Int64, in db: Connection) throws(StoreError) -> Int {
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = ON") }
        return try db.transaction { () throws(StoreError) -> Int in
            try db.run(keepIDsUsedSQL)
            try db.run("DELETE FROM request_bodies WHERE request_id <= ?", .int(cutoff))
            try db.run("DELETE FROM requests WHERE id <= ?", .int(cutoff))
            return db.changes
        }
    }

    /// Run first in every transaction that deletes records: remembers the largest id given so far.
    static let keepIDsUsedSQL =
        "INSERT INTO meta (key, value) VALUES ('request_ids_used', CAST(max("
        + "coalesce((SELECT max(id) FROM requests), 0), "
        + "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'request_ids_used'), 0)) AS TEXT)) "
        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    /// The bodies of a new record are always `BodyCodec` frames (`BodyFormat.framed`).
    static let insertBodiesSQL =
        "INSERT INTO request_bodies (request_id, request, response, body_format) VALUES (?, ?, ?, 1)"

    /// Inserts a run of records (a range of the writer's batch, cut by `StoreWriter.process`) on the writer
    /// thread, inside the batch transaction, appending their ids to `ids`. The hot path of the log, so it
    /// allocates nothing of its own per row: the records are read in place where they were queued; the two
    /// statements are looked up once per batch; a row's text columns are copied into one buffer reused for
    /// the whole batch (`RowText`) and, like the bodies, bound `SQLITE_STATIC` for the length of the step,
    /// then unbound (`SQLITE_TRANSIENT` makes SQLite malloc, copy and free each value).
    static func insert(
        _ records: ArraySlice<StoreWriter.PendingRecord>, firstID: Int64?, replicaID: String, into db: Connection,
        ids: inout [Int64]
    )
        throws(StoreError)
    {
        try db.withStatement(insertRequestSQL) { (row) throws(StoreError) in
            try db.withStatement(insertBodiesSQL) { (bodies) throws(StoreError) in
                var text = RowText()
                // Through the buffer, each record is read in place: binding a copy of it (`let p = records[i]`)
                // retained and released every array and string it holds.
                try records.withUnsafeBufferPointer { (pending) throws(StoreError) in
                    for n in pending.indices {
                        let id = try insertOne(
                            pending[n], firstID: n == 0 ? firstID : nil, replicaID: replicaID, text: &text, row: row,
                            bodies: bodies, db: db)
                        ids.append(id)
                    }
                }
            }
        }
    }

    /// One record's two rows; returns its id. `firstID` is bound on the batch's first record only.
    private static func insertOne(
        _ p: borrowing StoreWriter.PendingRecord, firstID: Int64?, replicaID: String, text: inout RowText,
        row: Statement, bodies: Statement, db: Connection
    ) throws(StoreError) -> Int64 {
        text.removeAll()
        let device = p.record.device.map { text.append($0) }
        let codes = text.appendCodes(p.record.codes)
        let path = text.append(p.record.path)
        let engineVersion = text.append(p.record.engineVersion)
        let replica = text.append(replicaID)
        let client = p.record.client.map { text.append($0) }
        let posture = p.record.posture.map { text.append($0) }
        let constantSet = p.record.constantSet.map { text.append($0) }
        try text.withBytes { (t) throws(StoreError) in
            try row.bindInt(p.record.receivedAt.millisecondsSinceEpoch, at: 1)
            try row.bindInt(p.record.durationMicros, at: 2)
            try row.bindStaticText(t, device, at: 3)
            try row.bindInt(Int64(p.record.status), at: 4)
            try row.bindStaticText(t, codes, at: 5)
            try row.bindStaticText(t, path, at: 6)
            try row.bindStaticText(t, engineVersion, at: 7)
            try row.bindInt(Int64(p.requestSize), at: 8)
            try row.bindInt(Int64(p.responseSize), at: 9)
            try row.bindInt(p.requestTruncated ? 1 : 0, at: 10)
            try row.bindInt(p.responseTruncated ? 1 : 0, at: 11)
            try row.bindStaticText(t, replica, at: 12)
            try row.bindStaticText(t, client, at: 13)
            try row.bindStaticText(t, posture, at: 14)
            try row.bindStaticText(t, constantSet, at: 15)
            if let firstID { try row.bindInt(firstID, at: 16) }
            try row.stepAndUnbind()
        }
        let id = db.lastInsertRowID
        try bodies.bindInt(id, at: 1)
        try bodies.stepBindingBlobs(p.record.requestBody, at: 2, p.record.responseBody, at: 3)
        return id
    }
}

/// The text columns of one request-log row, back to back in one byte buffer that a batch reuses, so that
/// they can be bound without a copy (`Statement.bindStaticText`). The values are ranges into the buffer.
struct RowText {
    /// Byte 0 is a placeholder, so that an empty value (`""`, not NULL) still points into the buffer.
    private var bytes: [UInt8] = [0]

    /// Forgets the previous row's values, keeping the buffer's capacity.
    mutating func removeAll() { bytes.removeLast(bytes.count - 1) }

    mutating func append(_ s: String) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: s.utf8)
        return start..<bytes.count
    }

    /// The `codes` column: the codes in order, U+001F-separated. A code containing the separator would split
    /// wrongly when read back: its separator bytes are dropped.
    mutating func appendCodes(_ codes: [String]) -> Range<Int> {
        let start = bytes.count
        for (i, code) in codes.enumerated() {
            if i > 0 { bytes.append(0x1F) }
            let from = bytes.count
            bytes.append(contentsOf: code.utf8)
            // Checked in the array, not through `String.UTF8View`, whose iterator took ~1 % of the writer's
            // perf samples.
            if bytes[from...].contains(0x1F) {
                let kept = bytes[from...].filter { $0 != 0x1F }
                bytes.replaceSubrange(from..., with: kept)
            }
        }
        return start..<bytes.count
    }

    /// The bytes, valid for the length of `body` (and unchanged until the next `removeAll`/`append`).
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> T) throws(StoreError) -> T {
        try bytes.withUnsafeBufferPointer { (b) throws(StoreError) -> T in try body(b) }
    }
}

/// What `--max-log-bytes` measures: the database's pages in use, `(page_count - freelist_count) × page_size`
/// — the bytes the file needs (bodies, rows, B-tree pages; device profiles and the schema are a few pages).
/// Deleted records' pages go to the free list and are reused, so the file does not grow past this bound
/// (plus one batch). Two header reads per committed batch, exact across restarts (it is the file itself).
enum PageUsage {
    static func bytesInUse(_ db: Connection, pageSize: Int) throws(StoreError) -> Int {
        let pages = try db.scalarInt("PRAGMA page_count") ?? 0
        let free = try db.scalarInt("PRAGMA freelist_count") ?? 0
        return Int(max(0, pages - free)) * pageSize
    }

    /// The id of the newest record among the oldest ones whose bodies (plus a row overhead) add up to
    /// `bytes`; nil when the log is empty. Reads only the bodies' lengths (`length()` of a blob does not
    /// load it), oldest first, and stops as soon as the sum is reached.
    static func oldestRecords(_ db: Connection, freeing bytes: Int) throws(StoreError) -> Int64? {
        try db.withStatement(
            "SELECT request_id, length(request) + length(response) FROM request_bodies ORDER BY request_id"
        ) { (s) throws(StoreError) -> Int64? in
            var sum = 0
            var last: Int64?
            while try s.step() {
                last = s.int64(0)
                sum += s.int(1) + 128
                if sum >= bytes { break }
            }
            return last
        }
    }
}
