import LayoutEngine

/// The request log in PostgreSQL: every statement that writes or reads records. A batch is ONE multi-row
/// `INSERT … RETURNING id` in one transaction with `synchronous_commit = on` (set on every connection), so a
/// completion's id is committed and durable on the server when the writer reports it. Ids come from one
/// identity sequence, shared by every replica: a cursor works on any of them.
extension PostgresEngine {
    static let columns =
        "received_at, duration_us, device, status, codes, path, engine_version, replica_id, request_size, "
        + "response_size, request_truncated, response_truncated, client, posture, constant_set, request, response"
    static let columnCount = 17
    static let summaryColumns =
        "id, received_at, duration_us, device, status, codes, path, engine_version, request_size, response_size, "
        + "request_truncated, response_truncated, replica_id, client, posture, constant_set"

    // MARK: Writer thread

    func insertRecords(_ records: ArraySlice<StoreWriter.PendingRecord>, ids: inout [Int64]) throws(StoreError) {
        var sql = "INSERT INTO requests (" + PostgresEngine.columns + ") VALUES "
        var values: [PGValue] = []
        values.reserveCapacity(records.count * PostgresEngine.columnCount)
        for (n, i) in records.indices.enumerated() {
            let p = records[i]
            let r = p.record
            sql += n == 0 ? "(" : ", ("
            for c in 0..<PostgresEngine.columnCount {
                sql += (c == 0 ? "$" : ", $") + String(n * PostgresEngine.columnCount + c + 1)
            }
            sql += ")"
            values += [
                .int(r.receivedAt.millisecondsSinceEpoch), .int(r.durationMicros), r.device.map { .text($0) } ?? .null,
                .int(Int64(r.status)), .text(PostgresEngine.joinedCodes(r.codes)), .text(r.path),
                .text(r.engineVersion), .text(replicaID), .int(Int64(p.requestSize)), .int(Int64(p.responseSize)),
                .bool(p.requestTruncated), .bool(p.responseTruncated), r.client.map { .text($0) } ?? .null,
                r.posture.map { .text($0) } ?? .null, r.constantSet.map { .text($0) } ?? .null, .bytes(r.requestBody),
                .bytes(r.responseBody),
            ]
        }
        sql += " RETURNING id"
        let result = try withWriter { (db) throws(StoreError) -> PGResult in
            try db.transaction { () throws(StoreError) -> PGResult in try db.exec(sql, values) }
        }
        // RETURNING gives the rows in the order of the VALUES list, which is the order the ids were drawn.
        for row in 0..<result.rows { ids.append(result.int64(row, 0)) }
    }

    func newestRecordTime() throws(StoreError) -> Timestamp? {
        try withWriter { (db) throws(StoreError) -> Timestamp? in
            let r = try db.exec("SELECT received_at FROM requests ORDER BY id DESC LIMIT 1")
            return r.rows == 0 ? nil : Timestamp(millisecondsSinceEpoch: r.int64(0, 0))
        }
    }

    /// The codes in order, U+001F-separated, a separator inside a code dropped (as in SQLite).
    static func joinedCodes(_ codes: [String]) -> String {
        var out = ""
        for (i, code) in codes.enumerated() {
            if i > 0 { out.unicodeScalars.append("\u{1F}") }
            out.unicodeScalars.append(contentsOf: code.unicodeScalars.lazy.filter { $0 != "\u{1F}" })
        }
        return out
    }

    /// Run every `pruneSlack` records committed by this replica (`didCommit`): when the ids span more than `maxRecords` (a
    /// cheap upper bound of the count, read from the primary key's two ends), deletes all but the newest
    /// `maxRecords`, in a transaction that first takes `pg_try_advisory_xact_lock`: one replica prunes at a
    /// time, the others skip. `--max-log-bytes` does not apply (docs/store.md#engines); the gauge shows the
    /// table's total size.
    func prune() {
        do {
            let deleted = try withWriter { (db) throws(StoreError) -> Int in
                let span = try db.exec("SELECT coalesce(max(id) - min(id) + 1, 0) FROM requests").int64(0, 0)
                metrics.logBytes.store(
                    Int(try db.exec("SELECT pg_total_relation_size('requests')").int64(0, 0)), ordering: .relaxed)
                guard span > Int64(bounds.maxRecords) else { return 0 }
                return try db.transaction { () throws(StoreError) -> Int in
                    guard
                        try db.exec("SELECT pg_try_advisory_xact_lock(hashtext($1))", [.text(pruneLockKey)]).bool(0, 0)
                    else { return 0 }
                    return try db.exec(
                        "DELETE FROM requests WHERE id <= (SELECT id FROM requests ORDER BY id DESC OFFSET $1 LIMIT 1)",
                        [.int(Int64(bounds.maxRecords))]
                    ).affected
                }
            }
            metrics.recordsPruned.wrappingAdd(deleted, ordering: .relaxed)
        } catch {
            metrics.pruneFailures.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func clearRecords() throws(StoreError) {
        try withWriter { (db) throws(StoreError) in
            try db.transaction { () throws(StoreError) in _ = try db.exec("DELETE FROM requests") }
        }
    }

    // MARK: Reads (the read connections)

    private func read<T>(_ body: (PGConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        guard ready.load(ordering: .acquiring) else {
            throw .databaseUnavailable(currentProblem ?? "the database has not answered yet")
        }
        return try readers.read(body)
    }

    func listRecords(_ query: RecordQuery, after: Int64?, limit: Int) throws(StoreError) -> [RecordSummary] {
        let (sql, values) = PostgresEngine.listSQL(query, after: after, limit: limit)
        return try read { (db) throws(StoreError) -> [RecordSummary] in
            let r = try db.exec(sql, values)
            return (0..<r.rows).map { PostgresEngine.summary(r, $0) }
        }
    }

    /// The listing: constant fragments with numbered parameters, the filters of SQLite's `listSQL`, walked
    /// newest first along the primary key.
    static func listSQL(_ query: RecordQuery, after: Int64?, limit: Int) -> (sql: String, values: [PGValue]) {
        var sql = "SELECT " + summaryColumns + " FROM requests WHERE true"
        var values: [PGValue] = []
        func parameter(_ v: PGValue) -> String {
            values.append(v)
            return "$" + String(values.count)
        }
        if let d = query.device { sql += " AND device = " + parameter(.text(d)) }
        if let s = query.status { sql += " AND status = " + parameter(.int(Int64(s))) }
        if let c = query.code {
            if c.utf8.contains(0x1F) {
                sql += " AND false"
            } else {
                let p = parameter(.text(c))
                sql += " AND codes <> '' AND strpos(codes, " + p + ") > 0"
                sql += " AND strpos(chr(31) || codes || chr(31), chr(31) || " + p + " || chr(31)) > 0"
            }
        }
        if let c = query.client { sql += " AND client = " + parameter(.text(c)) }
        if let c = query.constantSet {
            sql +=
                c == ConstantSetReference.defaultName
                ? " AND constant_set IS NULL" : " AND constant_set = " + parameter(.text(c))
        }
        if let s = query.since { sql += " AND received_at >= " + parameter(.int(s.millisecondsSinceEpoch)) }
        if let u = query.until { sql += " AND received_at <= " + parameter(.int(u.millisecondsSinceEpoch)) }
        if let after { sql += " AND id < " + parameter(.int(after)) }
        sql += " ORDER BY id DESC LIMIT " + parameter(.int(Int64(limit)))
        return (sql, values)
    }

    func record(id: RecordID) throws(StoreError) -> RecordDetail? {
        try read { (db) throws(StoreError) -> RecordDetail? in
            let r = try db.exec(
                "SELECT " + PostgresEngine.summaryColumns + ", request, response FROM requests WHERE id = $1",
                [.int(id.rawValue)])
            guard r.rows > 0 else { return nil }
            return RecordDetail(
                summary: PostgresEngine.summary(r, 0), requestBody: r.bytes(0, 16), responseBody: r.bytes(0, 17))
        }
    }

    func countRecords() throws(StoreError) -> Int {
        try read { (db) throws(StoreError) -> Int in Int(try db.exec("SELECT count(*) FROM requests").int64(0, 0)) }
    }

    static func summary(_ r: PGResult, _ row: Int) -> RecordSummary {
        let codes = r.text(row, 5) ?? ""
        return RecordSummary(
            id: RecordID(rawValue: r.int64(row, 0)), receivedAt: Timestamp(millisecondsSinceEpoch: r.int64(row, 1)),
            durationMicros: r.int64(row, 2), device: r.text(row, 3), status: r.int(row, 4),
            codes: codes.isEmpty
                ? []
                : codes.split(separator: RequestLog.codeSeparator, omittingEmptySubsequences: false).map(String.init),
            path: r.text(row, 6) ?? "", engineVersion: r.text(row, 7) ?? "", requestSize: r.int(row, 8),
            responseSize: r.int(row, 9), requestTruncated: r.bool(row, 10), responseTruncated: r.bool(row, 11),
            replicaID: r.text(row, 12) ?? "", client: r.text(row, 13), posture: r.text(row, 14),
            constantSet: r.text(row, 15))
    }
}
