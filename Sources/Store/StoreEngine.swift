/// The database work of the store: the one thing that differs between SQLite (`SQLiteEngine`) and PostgreSQL
/// (`PostgresEngine`). Everything above it is shared by both engines: the writer thread's bounded queue and
/// group commit (`StoreWriter`), the read threads (`ReadWorkers`), the per-shard device snapshots
/// (`DeviceProfileStore`), the counters, health and every HTTP behaviour (docs/store.md#engines).
///
/// Threads: the methods under "Writer thread" are called only by `StoreWriter`'s thread (or, before it
/// starts, by `Store.open`), one at a time, so an engine keeps one writer connection without locking it
/// against itself. The reads may be called by any thread at once (the read threads): an engine serves them
/// from connections of its own, never the writer's (except SQLite's `:memory:`).
protocol StoreEngine: AnyObject, Sendable {
    /// The database as the start-up line and the log name it: a path, or a URL without its password.
    var displayName: String { get }

    /// `sqlite` or `postgresql` (the start-up line, `/metrics`).
    var kind: String { get }

    /// Whether the request log hands this engine its bodies as `BodyCodec` frames (SQLite: compressed by the
    /// event loops before the writer sees them) or as received (PostgreSQL: its own `lz4` column compression).
    var storesBodyFrames: Bool { get }

    /// Starts what the engine runs beside the writer (the PostgreSQL listener), with the store's hooks.
    /// Called once by `Store.open` after the writer started.
    func start(_ hooks: EngineHooks) throws(StoreError)

    // MARK: Writer thread

    /// Called before each batch the writer takes from its queue.
    func prepareBatch()

    /// The `receivedAt` of the newest record (the largest id), nil when the log is empty: where the writer's
    /// floor of record times starts (docs/store.md#record-time). Read once, before the first insert.
    func newestRecordTime() throws(StoreError) -> Timestamp?

    /// Inserts a run of records in one transaction and appends their ids, in the records' order, to `ids`.
    /// Throws when nothing was committed.
    func insertRecords(_ records: ArraySlice<StoreWriter.PendingRecord>, ids: inout [Int64]) throws(StoreError)

    /// After a committed run of `count` records: keeps the log within its bounds (pruning) and updates
    /// the gauges. Never throws: a failed prune is counted.
    func didCommit(records count: Int)

    /// Deletes every record.
    func clearRecords() throws(StoreError)

    /// Creates or replaces the custom profile `stored` when `precondition` holds for the stored profile;
    /// `current` is the snapshot's view of it (an engine may decide against the database instead). Returns
    /// whether the profile was created. Errors: `.preconditionFailed`, `.builtInReadOnly`, a database error.
    func putProfile(_ stored: StoredProfile, precondition: WritePrecondition, current: StoredProfile?)
        -> Result<Bool, StoreError>

    /// Deletes the custom profile `id` when `precondition` holds. Errors: `.notFound`, `.builtInReadOnly`,
    /// `.preconditionFailed`, a database error.
    func deleteProfile(id: String, precondition: WritePrecondition, current: StoredProfile?) -> Result<
        Void, StoreError
    >

    /// Stores the next version of the constant set `name` (creating the set), numbered by the database, built
    /// by `build` from its number, in one transaction. Errors: `.retired`, `.invalidQuery` past the versions'
    /// limit, a database error.
    func insertConstantSetVersion(name: String, at now: Timestamp, build: (Int) -> ConstantSetVersion)
        -> Result<ConstantSetVersion, StoreError>

    /// Retires the set `name`: `.notFound` when there is none, or it was retired already.
    func retireConstantSet(name: String, at now: Timestamp) -> Result<Void, StoreError>

    /// Every constant set with its versions (at open, before the writer starts).
    func loadConstantSets() throws(StoreError) -> [ConstantSet]

    // MARK: Reads (any thread)

    /// The rows of a listing: records with an id below `after` (when given) matching `query`'s filters,
    /// newest first, at most `limit` of them.
    func listRecords(_ query: RecordQuery, after: Int64?, limit: Int) throws(StoreError) -> [RecordSummary]

    /// One record with its bodies; nil when there is none.
    func record(id: RecordID) throws(StoreError) -> RecordDetail?

    /// The number of stored records.
    func countRecords() throws(StoreError) -> Int

    // MARK: Health and lifecycle

    /// Whether the database can take writes as far as the engine knows without a check (cheap: every
    /// request's `isHealthy` reads it).
    var isUsable: Bool { get }

    /// `/readyz`: what keeps the engine from being usable right now, checking what is cheap to check; nil
    /// when nothing does.
    func readinessProblem() -> Store.ReadinessCheck?

    /// The current problem of what lies under the store (files, a connection), for the log; nil if none.
    var storageProblem: String? { get }

    /// Stops the engine's own threads and closes its connections. Called once, after the writer stopped.
    func close()
}

/// How many records the log keeps, and how far past the bounds it may go before a prune runs.
struct LogBounds: Sendable {
    var maxRecords: Int
    /// Records allowed above `maxRecords` before a prune runs (amortises the DELETE).
    var pruneSlack: Int
    /// Bytes of database pages in use (SQLite's `PageUsage`) beyond which the oldest records are pruned.
    var maxLogBytes: Int
    /// A prune for bytes goes this far below `maxLogBytes` (amortises the DELETE).
    var byteSlack: Int

    init(maxRecords: Int, maxLogBytes: Int) {
        self.maxRecords = maxRecords
        self.pruneSlack = max(1, min(1024, maxRecords / 64))
        self.maxLogBytes = maxLogBytes
        self.byteSlack = min(16 << 20, maxLogBytes / 64)
    }
}
