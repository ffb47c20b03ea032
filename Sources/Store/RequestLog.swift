import JSON

/// The id of a recorded request: an integer that grows with commit order and is never reused, even after
/// the newest records were deleted (docs/store.md#request-ids), written in decimal in URLs (`/v1/requests/42`).
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
    /// When the request arrived. The writer raises it to the previous record's time when a request that
    /// arrived later was queued first, so that times never decrease as ids grow (docs/store.md#record-time).
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
    /// The client's name (the service's `Hinge-Client` header), if it gave one.
    public var client: String?
    /// The posture the scene was resolved in, when its device folds (nil otherwise, and for a matrix or a problem).
    public var posture: String?
    /// The constant set version the scene was resolved with (`name@n`); nil for the defaults
    /// (docs/api.md#constant-sets).
    public var constantSet: String?

    public init(
        receivedAt: Timestamp, durationMicros: Int64, device: String?, status: Int, codes: [String],
        path: String = "/v1/resolve", requestBody: [UInt8], responseBody: [UInt8], engineVersion: String,
        client: String? = nil, posture: String? = nil, constantSet: String? = nil
    ) {
        self.constantSet = constantSet
        self.receivedAt = receivedAt
        self.durationMicros = durationMicros
        self.device = device
        self.status = status
        self.codes = codes
        self.path = path
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.engineVersion = engineVersion
        self.client = client
        self.posture = posture
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
    /// The `--replica-id` of the server that recorded it.
    public var replicaID: String
    /// `RequestRecord.client` (schema 6; nil for older records).
    public var client: String?
    /// `RequestRecord.posture` (schema 6; nil for older records).
    public var posture: String?
    /// `RequestRecord.constantSet` (schema 7; nil for older records and the defaults).
    public var constantSet: String? = nil
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
    /// Records of this client only (`RequestRecord.client`, compared exactly).
    public var client: String?
    /// Records resolved with this constant set version (`name@n`), or with the defaults (`default`).
    public var constantSet: String?
    /// Inclusive bounds on `receivedAt`.
    public var since: Timestamp?
    public var until: Timestamp?
    public var limit: Int
    /// The `next` of the previous page.
    public var cursor: String?

    public init(
        device: String? = nil, status: Int? = nil, code: String? = nil, since: Timestamp? = nil,
        until: Timestamp? = nil, limit: Int = RecordQuery.defaultLimit, cursor: String? = nil, client: String? = nil,
        constantSet: String? = nil
    ) {
        self.constantSet = constantSet
        self.device = device
        self.client = client
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
/// `append` never blocks on the database: it enqueues into a bounded queue (`Configuration.queueCapacity`)
/// that one writer thread group-commits through the engine (`StoreEngine.insertRecords`). When the queue is
/// full the record is refused at once (completion with `.queueFull` before `append` returns): the request
/// still answers and the refusal is counted.
public final class RequestLog: Sendable {
    private let engine: any StoreEngine
    private let writer: StoreWriter
    private let metrics: StoreMetrics
    private let maxBodyBytes: Int
    /// How new bodies are framed (`Store.Configuration.bodyCodec` if its library is loaded, else `.stored`);
    /// nil when the engine takes bodies as received (PostgreSQL compresses them itself).
    public let bodyCodec: BodyCodec?
    static let codeSeparator: Character = "\u{1F}"

    init(
        engine: any StoreEngine, writer: StoreWriter, metrics: StoreMetrics, maxBodyBytes: Int, bodyCodec: BodyCodec?
    ) {
        self.engine = engine
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
    /// (SQLite) here, on the caller's thread (the event loops compress in parallel; the one writer thread only writes).
    /// The completion must not block for long: it runs on the single writer thread.
    public func append(_ record: RequestRecord, completion: @escaping @Sendable (Result<RecordID, StoreError>) -> Void)
    {
        writer.append(pending(record), completion: completion)
    }

    /// Enqueues several records at once (one queue operation, one wake-up of the writer), in order; `completion`
    /// is called once per record, as `append(_:completion:)` calls it. For a caller that makes records in
    /// batches (`hinge-bench`'s fixed-batch benchmark).
    public func append(
        contentsOf records: [RequestRecord], completion: @escaping @Sendable (Result<RecordID, StoreError>) -> Void
    ) {
        writer.append(contentsOf: records.map(pending), completion: completion)
    }

    /// A record as the writer queues it: bodies over `maxBodyBytes` truncated and flagged, then framed.
    /// Inlined, and the record consumed: otherwise each append copies it (a reference count on each of its
    /// arrays).
    @inline(__always)
    private func pending(_ r: consuming RequestRecord) -> StoreWriter.PendingRecord {
        let requestSize = r.requestBody.count
        let responseSize = r.responseBody.count
        if requestSize > maxBodyBytes { r.requestBody = Array(r.requestBody.prefix(maxBodyBytes)) }
        if responseSize > maxBodyBytes { r.responseBody = Array(r.responseBody.prefix(maxBodyBytes)) }
        if let bodyCodec {
            r.requestBody = bodyCodec.encode(r.requestBody)
            r.responseBody = bodyCodec.encode(r.responseBody)
        }
        return StoreWriter.PendingRecord(
            record: r, requestSize: requestSize, responseSize: responseSize,
            requestTruncated: requestSize > maxBodyBytes, responseTruncated: responseSize > maxBodyBytes)
    }

    /// Blocks until every record appended before this call is committed or failed.
    public func flush() { writer.flush() }

    /// False after a failed commit, until a later commit succeeds (`/readyz` 503).
    public var isHealthy: Bool { metrics.healthy.load(ordering: .acquiring) }

    // MARK: Queries (the engine's read connections)

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
        var items = try engine.listRecords(query, after: after, limit: limit + 1)
        var next: String?
        if items.count > limit {
            items.removeLast(items.count - limit)
            next = items.last.map { Cursor.encode(after: $0.id.rawValue) }
        }
        return RecordPage(items: items, next: next)
    }

    /// One record with its bodies, decoded; nil when there is none (route: 404). A body that cannot be decoded
    /// (a damaged frame, or a compressor this process could not load) is `.corruptRow`.
    public func record(id: RecordID) throws(StoreError) -> RecordDetail? { try engine.record(id: id) }

    /// Deletes every record (a write: it runs on the writer thread, after what was appended before it).
    public func clear(completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let engine = self.engine
        let submitted = writer.submit {
            do throws(StoreError) {
                try engine.clearRecords()
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
    public func count() throws(StoreError) -> Int { try engine.countRecords() }
}
