import JSON

/// The id of a recorded request: an integer that grows with commit order and is never reused (SQLite
/// `AUTOINCREMENT`), written in decimal in URLs (`/v1/requests/42`).
public struct RecordID: Sendable, Hashable, Comparable, LosslessStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// Parses a decimal id (`"42"`); nil for anything else, so a route answers 404 without a query.
    public init?(_ description: String) {
        guard !description.isEmpty, description.utf8.count <= 18,
            description.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let v = Int64(description), v > 0
        else { return nil }
        rawValue = v
    }
    public var description: String { String(rawValue) }
    public static func < (a: RecordID, b: RecordID) -> Bool { a.rawValue < b.rawValue }
}

/// What the service appends after answering a request (docs/api.md#request-log).
public struct RequestRecord: Sendable, Equatable {
    public var receivedAt: Timestamp
    public var durationMicros: Int64
    /// The `device` of the scene, if any.
    public var device: String?
    /// The HTTP status of the response.
    public var status: Int
    /// Diagnostic codes of the response, in order (duplicates allowed; filtering uses the distinct set).
    public var codes: [String]
    /// The route, e.g. `/v1/resolve` (what a replay runs again).
    public var path: String
    public var requestBody: [UInt8]
    public var responseBody: [UInt8]
    public var engineVersion: String

    public init(
        receivedAt: Timestamp, durationMicros: Int64, device: String?, status: Int, codes: [String],
        path: String = "/v1/resolve", requestBody: [UInt8], responseBody: [UInt8], engineVersion: String
    ) {
        self.receivedAt = receivedAt
        self.durationMicros = durationMicros
        self.device = device
        self.status = status
        self.codes = codes
        self.path = path
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.engineVersion = engineVersion
    }
}

/// A stored record without its bodies (list items).
public struct RecordSummary: Sendable, Equatable {
    public var id: RecordID
    public var receivedAt: Timestamp
    public var durationMicros: Int64
    public var device: String?
    public var status: Int
    public var codes: [String]
    public var path: String
    public var engineVersion: String
    /// Body sizes as received/sent, before truncation.
    public var requestSize: Int
    public var responseSize: Int
    public var requestTruncated: Bool
    public var responseTruncated: Bool
}

/// A stored record with its (possibly truncated) bodies.
public struct RecordDetail: Sendable, Equatable {
    public var summary: RecordSummary
    public var requestBody: [UInt8]
    public var responseBody: [UInt8]
}

/// Filters and paging of a listing of the log (the service maps `GET /v1/requests`'s query onto it).
public struct RecordQuery: Sendable, Equatable {
    public static let maxLimit = 500
    public static let defaultLimit = 50

    public var device: String?
    public var status: Int?
    public var code: String?
    /// Inclusive bounds on `receivedAt`.
    public var since: Timestamp?
    public var until: Timestamp?
    public var limit: Int
    /// The `next` of the previous page.
    public var cursor: String?

    public init(
        device: String? = nil, status: Int? = nil, code: String? = nil, since: Timestamp? = nil,
        until: Timestamp? = nil, limit: Int = RecordQuery.defaultLimit, cursor: String? = nil
    ) {
        self.device = device
        self.status = status
        self.code = code
        self.since = since
        self.until = until
        self.limit = limit
        self.cursor = cursor
    }

    /// Whether `text` is a cursor this store returned (the `next` of a page); `list` refuses any other.
    public static func isCursor(_ text: String) -> Bool { Cursor.decode(text) != nil }
}

/// A page of records, newest first; `next` is nil on the last page.
public struct RecordPage: Sendable, Equatable {
    public var items: [RecordSummary]
    public var next: String?
}

/// Opaque paging cursor: the id after which the next page starts, so pages stay stable while new records
/// arrive (offset paging would shift). `v1.` + base-36 keeps the format versionable.
enum Cursor {
    static func encode(after id: Int64) -> String { "v1." + String(id, radix: 36) }
    static func decode(_ s: String) -> Int64? {
        guard s.hasPrefix("v1."), s.utf8.count <= 20, let v = Int64(s.dropFirst(3), radix: 36), v > 0 else {
            return nil
        }
        return v
    }
}

/// The request log: no acknowledged request is lost — a response goes out only after its
/// record is committed.
///
/// `append` never blocks on SQLite: it enqueues into a bounded queue (`Configuration.queueCapacity`) that
/// one writer thread group-commits. When the queue is full the record is refused at once (completion with
/// `.queueFull` before `append` returns): the request still answers and the refusal is counted.
public final class RequestLog: Sendable {
    private let pool: DatabasePool
    private let writer: StoreWriter
    private let metrics: StoreMetrics
    private let maxBodyBytes: Int
    /// How new bodies are stored (`Store.Configuration.bodyCodec` if its library is loaded, else `.stored`).
    public let bodyCodec: BodyCodec
    static let codeSeparator: Character = "\u{1F}"

    init(pool: DatabasePool, writer: StoreWriter, metrics: StoreMetrics, maxBodyBytes: Int, bodyCodec: BodyCodec) {
        self.pool = pool
        self.writer = writer
        self.metrics = metrics
        self.maxBodyBytes = maxBodyBytes
        self.bodyCodec = bodyCodec
    }

    /// Enqueues `record` and returns at once. `completion` is called exactly once:
    /// - on the writer thread, after the batch holding the record committed (`.success(id)`) or failed
    ///   (`.failure(.sqlite(…))`, e.g. disk full: the log turns unhealthy until a later commit succeeds);
    /// - or synchronously, before `append` returns, with `.failure(.queueFull)` or `.failure(.closed)`.
    /// Bodies longer than `Configuration.maxBodyBytes` are truncated and flagged, then framed by `bodyCodec`
    /// here, on the caller's thread (the event loops compress in parallel; the one writer thread only writes).
    /// The completion must not block for long: it runs on the single writer thread.
    public func append(_ record: RequestRecord, completion: @escaping @Sendable (Result<RecordID, StoreError>) -> Void)
    {
        var r = record
        let requestSize = r.requestBody.count
        let responseSize = r.responseBody.count
        r.requestBody = bodyCodec.encode(
            requestSize > maxBodyBytes ? Array(r.requestBody.prefix(maxBodyBytes)) : r.requestBody)
        r.responseBody = bodyCodec.encode(
            responseSize > maxBodyBytes ? Array(r.responseBody.prefix(maxBodyBytes)) : r.responseBody)
        writer.append(
            StoreWriter.PendingRecord(
                record: r, requestSize: requestSize, responseSize: responseSize,
                requestTruncated: requestSize > maxBodyBytes, responseTruncated: responseSize > maxBodyBytes),
            completion: completion)
    }

    /// Blocks until every record appended before this call is committed or failed.
    public func flush() { writer.flush() }

    /// False after a failed commit, until a later commit succeeds (`/readyz` 503).
    public var isHealthy: Bool { metrics.healthy.load(ordering: .acquiring) }

    // MARK: Queries (read connections; never wait for the writer under WAL)

    /// Records newest first (by id, i.e. commit order), without bodies.
    public func list(_ query: RecordQuery) throws(StoreError) -> RecordPage {
        let limit = min(max(query.limit, 1), RecordQuery.maxLimit)
        var after: Int64?
        if let cursor = query.cursor {
            guard let c = Cursor.decode(cursor) else {
                throw .invalidQuery(parameter: "cursor", detail: "not a cursor returned by this server")
            }
            after = c
        }
        let (sql, values) = RequestLog.listSQL(query, after: after, limit: limit)
        var items = try pool.read { (db) throws(StoreError) -> [RecordSummary] in
            try db.withStatement(sql) { (s) throws(StoreError) -> [RecordSummary] in
                try s.bind(values)
                var out: [RecordSummary] = []
                while try s.step() { out.append(RequestLog.summary(s)) }
                return out
            }
        }
        var next: String?
        if items.count > limit {
            items.removeLast(items.count - limit)
            next = items.last.map { Cursor.encode(after: $0.id.rawValue) }
        }
        return RecordPage(items: items, next: next)
    }

    /// The query of a listing: records after the cursor `after` (exclusive), newest first, `limit + 1` rows
    /// (one more than a page, to know whether there is a next page).
    ///
    /// The SQL is assembled from constant fragments only; every value is a bound parameter. No filter has an
    /// index (schema v2, docs/store.md): every listing walks `requests` newest first by rowid, without a
    /// sort, and stops after `limit + 1` matches, so a filter that matches little scans the whole table.
    static func listSQL(_ query: RecordQuery, after: Int64?, limit: Int) -> (sql: String, values: [SQLValue]) {
        var sql = "SELECT " + RequestLog.summaryColumns + " FROM requests WHERE 1"
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
        values.append(.int(Int64(limit + 1)))
        return (sql, values)
    }

    /// One record with its bodies, decoded (`BodyCodec`); nil when there is none (route: 404). A body that
    /// cannot be decoded (a damaged frame, or a compressor this process could not load) is `.corruptRow`.
    public func record(id: RecordID) throws(StoreError) -> RecordDetail? {
        let stored = try pool.read { (db) throws(StoreError) -> (RecordSummary, [UInt8], [UInt8], Int64)? in
            try db.withStatement(
                "SELECT " + RequestLog.summaryColumns + ", b.request, b.response, b.body_format FROM requests "
                    + "LEFT JOIN request_bodies b ON b.request_id = requests.id WHERE requests.id = ?"
            ) { (s) throws(StoreError) -> (RecordSummary, [UInt8], [UInt8], Int64)? in
                try s.bind([.int(id.rawValue)])
                guard try s.step() else { return nil }
                return (RequestLog.summary(s), s.blob(12), s.blob(13), s.int64(14))
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

    /// Deletes every record (a write: it runs on the writer thread, after what was appended before it).
    public func clear(completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let writer = self.writer
        let submitted = writer.submit { db in
            do throws(StoreError) {
                try db.transaction { () throws(StoreError) in
                    try db.run("DELETE FROM request_bodies")
                    try db.run("DELETE FROM requests")
                }
                writer.resetRowCount(0, db)
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
        if !submitted { completion(.failure(.closed)) }
    }

    /// Blocking `clear`, for callers that may block.
    public func clear() throws(StoreError) {
        let done = OneShot<Result<Void, StoreError>>()
        clear { done.fulfil($0) }
        try done.wait().get()
    }

    /// The number of stored records (a read; for tests and `/metrics`).
    public func count() throws(StoreError) -> Int {
        try pool.read { (db) throws(StoreError) -> Int in Int(try db.scalarInt("SELECT count(*) FROM requests") ?? 0) }
    }

    // MARK: Rows

    static let summaryColumns =
        "requests.id, requests.received_at, requests.duration_us, requests.device, requests.status, requests.codes, "
        + "requests.path, requests.engine_version, requests.request_size, requests.response_size, "
        + "requests.request_truncated, requests.response_truncated"

    static func summary(_ s: Statement) -> RecordSummary {
        let codes = s.text(5) ?? ""
        return RecordSummary(
            id: RecordID(rawValue: s.int64(0)), receivedAt: Timestamp(millisecondsSinceEpoch: s.int64(1)),
            durationMicros: s.int64(2), device: s.isNull(3) ? nil : s.text(3), status: s.int(4),
            codes: codes.isEmpty
                ? [] : codes.split(separator: codeSeparator, omittingEmptySubsequences: false).map(String.init),
            path: s.text(6) ?? "", engineVersion: s.text(7) ?? "", requestSize: s.int(8), responseSize: s.int(9),
            requestTruncated: s.bool(10), responseTruncated: s.bool(11))
    }

    static let insertRequestSQL =
        "INSERT INTO requests (received_at, duration_us, device, status, codes, path, engine_version, "
        + "request_size, response_size, request_truncated, response_truncated) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    /// The bodies of a new record are always `BodyCodec` frames (`BodyFormat.framed`).
    static let insertBodiesSQL =
        "INSERT INTO request_bodies (request_id, request, response, body_format) VALUES (?, ?, ?, 1)"

    /// Inserts a run of records (only `.record` items, cut by `StoreWriter.process`) on the writer thread,
    /// inside the batch transaction, appending their ids to `ids`. The hot path of the log, so it allocates
    /// nothing of its own per row: the items are read by index where they were queued; the two statements
    /// are looked up once per batch; a row's text columns are copied into one buffer reused for the whole
    /// batch (`RowText`) and, like the bodies, bound `SQLITE_STATIC` for the length of the step, then
    /// unbound (`SQLITE_TRANSIENT` makes SQLite malloc, copy and free each value).
    static func insert(_ records: ArraySlice<StoreWriter.Item>, into db: Connection, ids: inout [Int64])
        throws(StoreError)
    {
        try db.withStatement(insertRequestSQL) { (row) throws(StoreError) in
            try db.withStatement(insertBodiesSQL) { (bodies) throws(StoreError) in
                var text = RowText()
                for i in records.indices {
                    guard case .record(let p, _) = records[i] else { preconditionFailure("a job among records") }
                    let r = p.record
                    text.removeAll()
                    let device = r.device.map { text.append($0) }
                    let codes = text.appendCodes(r.codes)
                    let path = text.append(r.path)
                    let engineVersion = text.append(r.engineVersion)
                    try text.withBytes { (t) throws(StoreError) in
                        try row.bindInt(r.receivedAt.millisecondsSinceEpoch, at: 1)
                        try row.bindInt(r.durationMicros, at: 2)
                        try row.bindStaticText(t, device, at: 3)
                        try row.bindInt(Int64(r.status), at: 4)
                        try row.bindStaticText(t, codes, at: 5)
                        try row.bindStaticText(t, path, at: 6)
                        try row.bindStaticText(t, engineVersion, at: 7)
                        try row.bindInt(Int64(p.requestSize), at: 8)
                        try row.bindInt(Int64(p.responseSize), at: 9)
                        try row.bindInt(p.requestTruncated ? 1 : 0, at: 10)
                        try row.bindInt(p.responseTruncated ? 1 : 0, at: 11)
                        try row.stepAndUnbind()
                    }
                    let id = db.lastInsertRowID
                    try bodies.bindInt(id, at: 1)
                    try bodies.stepBindingBlobs(r.requestBody, at: 2, r.responseBody, at: 3)
                    ids.append(id)
                }
            }
        }
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
