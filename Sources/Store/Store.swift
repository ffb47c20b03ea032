import LayoutEngine
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Hinge's persistence: device profiles and the request log in one database, through an engine
/// (`StoreEngine`: SQLite).
/// Knows nothing of HTTP; see docs/store.md for how the routes map its errors.
///
/// ```swift
/// let store = try Store.open(Store.Configuration(path: "./hinge.sqlite"))
/// store.devices.profile(id: "iphone-16")           // DeviceCatalog, from memory
/// store.requestLog.append(record) { result in … }  // group-committed by the writer thread
/// store.close()                                     // drains the log, stops the writer, closes
/// ```
public final class Store: DeviceCatalog, Sendable {
    public struct Configuration: Sendable {
        /// `--db`: a `postgres://` or `postgresql://` URL selects PostgreSQL (`PostgresEngine`); anything else
        /// is a SQLite file (`SQLiteEngine`). `:memory:` keeps everything in memory (reads then share the
        /// writer's connection). Default `./hinge.sqlite`.
        public var path: String
        /// `--replica-id`: stored with each record (both engines). Default: the host name.
        public var replicaID: String
        /// PostgreSQL: the schema to use instead of the connection's default search path (tests isolate
        /// themselves with a fresh schema each; the caller creates it). Default nil.
        public var postgresSchema: String?
        /// PostgreSQL: when the database does not answer at open, start anyway and keep trying in the
        /// background (`hinge serve`); false throws (the CLI, tests). Default false.
        public var retryConnection: Bool
        /// PostgreSQL: the first delay between connection attempts, doubled up to 5 s (or this, if larger).
        /// Default 250 ms.
        public var reconnectMillis: Int
        /// Where the engine reports connection attempts and losses (the service's error log). Default none.
        public var log: (@Sendable (String) -> Void)?
        /// How long a connection waits for a lock held by another process before failing with
        /// `SQLITE_BUSY`. Default 5000 ms.
        public var busyTimeoutMillis: Int
        /// Read-only connections opened on demand for queries. Default 4.
        public var maxReaders: Int
        /// `--max-records`: the request log keeps the newest this many records. Default 100 000.
        public var maxRecords: Int
        /// `--max-log-bytes`: the oldest records are pruned while the database's pages in use exceed this
        /// (`PageUsage`), whichever of the two bounds is reached first. Default 1 GiB; at least 1 MiB.
        public var maxLogBytes: Int
        /// Request and response bodies are cut to this many bytes and flagged `truncated`. Default 256 KiB.
        public var maxBodyBytes: Int
        /// Records waiting for the writer; an `append` beyond it is refused at once (`.queueFull`).
        /// Default 16 384: about half a second of traffic at 30k requests/s.
        public var queueCapacity: Int
        /// Bytes of bodies waiting for the writer; an `append` beyond it is refused (`.queueFull`), except
        /// into an empty queue. Default 64 MiB.
        public var queueCapacityBytes: Int
        /// WAL pages after which the checkpoint thread copies the WAL into the database (`Checkpointer`).
        /// Default 1024 (16 MiB at 16 KiB pages).
        public var walCheckpointPages: Int
        /// WAL pages after which the writer checkpoints itself, so that the WAL restarts from its
        /// beginning; the WAL file is cut back to this size and an eighth more (at least 16 pages) after a restart
        /// (`journal_size_limit`, `SQLiteEngine.walFileLimit`). Default 4096 (64 MiB at 16 KiB pages): the WAL
        /// file on disk stays about this size under any load.
        public var walMaxPages: Int
        /// The writer's gathering window, in µs: when a commit of several records ends with more records
        /// waiting (the writer is the bottleneck), it waits up to this long, or until 64 records wait, before
        /// the next commit, so that one transaction carries more records (`StoreWriter`). A record that finds
        /// the writer idle is committed at once. 0 turns gathering off. Default 200 (0 to 10 s).
        public var commitGatherMicroseconds: Int
        /// The values `commitGatherMicroseconds` may take: 0 (off) to 10 s.
        public static let commitGatherRange = 0...10_000_000
        /// Request-log reads waiting for a read thread (`ReadWorkers`); beyond it a read is refused at once
        /// (the routes answer 503 with `Retry-After`). Default 256.
        public var readQueueCapacity: Int
        /// Take the exclusive lock `<path>.lock` (a server: a second one on the same file refuses to start).
        /// Readers such as the CLI leave it false and work beside a running server. Default false. SQLite
        /// only: PostgreSQL replicas share their database by design.
        public var exclusive: Bool
        /// Refuse a database SQLite can only open read-only (`.readOnly`): a server must be able to write.
        /// The CLI, which only reads, turns it off; with PostgreSQL it then also never creates Hinge's tables
        /// (a database without them is refused). Default true.
        public var requireWritable: Bool
        /// How often a background thread checks the files under the store (`StorageWatch`); `/readyz` also
        /// checks on each call. Default 1000 ms.
        public var storageCheckMillis: Int
        /// Called (on the checking thread) when the files under the store turn unusable (the problem, naming
        /// the file) or usable again (nil): the service logs it.
        public var onStorageChange: (@Sendable (String?) -> Void)?
        /// How request and response bodies are compressed (`BodyCodec`); a codec whose system library is not
        /// loaded stores them uncompressed (`Store.bodyCodec` says which is in use). Default LZ4 with the built-in
        /// dictionary (`BodyCodec.preferred`).
        public var bodyCodec: BodyCodec

        /// The database a server, and the CLI, use when none is named: `./hinge.sqlite`.
        public static let defaultPath = "./hinge.sqlite"

        public init(
            path: String = Configuration.defaultPath, busyTimeoutMillis: Int = 5000, maxReaders: Int = 4,
            maxRecords: Int = 100_000, maxBodyBytes: Int = 256 * 1024, queueCapacity: Int = 16_384,
            queueCapacityBytes: Int = 64 << 20, walCheckpointPages: Int = 1024, walMaxPages: Int = 4096,
            readQueueCapacity: Int = 256, maxLogBytes: Int = 1 << 30, exclusive: Bool = false,
            storageCheckMillis: Int = 1000, onStorageChange: (@Sendable (String?) -> Void)? = nil,
            requireWritable: Bool = true, replicaID: String = Store.defaultReplicaID(), postgresSchema: String? = nil,
            retryConnection: Bool = false, reconnectMillis: Int = 250, log: (@Sendable (String) -> Void)? = nil,
            bodyCodec: BodyCodec = .preferred, commitGatherMicroseconds: Int = 200
        ) {
            self.path = path
            self.replicaID = replicaID
            self.postgresSchema = postgresSchema
            self.retryConnection = retryConnection
            self.reconnectMillis = reconnectMillis
            self.log = log
            self.busyTimeoutMillis = busyTimeoutMillis
            self.maxReaders = maxReaders
            self.maxRecords = maxRecords
            self.maxBodyBytes = maxBodyBytes
            self.queueCapacity = queueCapacity
            self.queueCapacityBytes = queueCapacityBytes
            self.walCheckpointPages = walCheckpointPages
            self.walMaxPages = walMaxPages
            self.commitGatherMicroseconds = commitGatherMicroseconds
            self.readQueueCapacity = readQueueCapacity
            self.maxLogBytes = maxLogBytes
            self.exclusive = exclusive
            self.storageCheckMillis = storageCheckMillis
            self.onStorageChange = onStorageChange
            self.requireWritable = requireWritable
            self.bodyCodec = bodyCodec
        }
    }

    public let configuration: Configuration
    /// Device profiles: the `DeviceCatalog` the engine reads, and the CRUD of `/v1/devices`.
    public let devices: DeviceProfileStore
    /// Constant sets and their versions (`/v1/constant-sets`), served from memory.
    public let constantSets: ConstantSetStore
    /// The request log of `/v1/requests`.
    public let requestLog: RequestLog
    /// Where request-log reads run, off the event loops (`ReadWorkers`).
    public let readWorkers: ReadWorkers
    /// Non-fatal findings at open (a custom profile shadowing a built-in id, a stored profile that no
    /// longer validates): the service logs them.
    public let warnings: [String]

    /// The database work (`StoreEngine`); everything else here is shared by the engines.
    let engine: any StoreEngine
    let writer: StoreWriter  // internal for tests (blocking the writer deterministically)
    private let metrics: StoreMetrics
    private let closed = Atomic<Bool>(false)

    /// Holds the writer thread in a job, and returns once the writer is inside it: records appended meanwhile
    /// queue up, and commit together once the returned closure is called. For measuring the writer at a fixed
    /// batch size (`hinge-bench`). Nil when the writer is closed.
    public func holdWriter() -> (@Sendable () -> Void)? {
        let entered = OneShot<Bool>()
        let release = OneShot<Bool>()
        guard
            writer.submit({
                entered.fulfil(true)
                _ = release.wait()
            })
        else { return nil }
        _ = entered.wait()
        return { release.fulfil(true) }
    }

    /// Opens (creating if needed) and migrates the database, seeds the built-in devices, loads the device
    /// cache and starts the writer thread. Refuses — without writing anything — a file that is not a
    /// SQLite database, a SQLite database of another application, or a schema newer than this binary.
    public static func open(_ configuration: Configuration = Configuration()) throws(StoreError) -> Store {
        try validate(configuration)
        let metrics = StoreMetrics()
        if PostgresURL.isPostgres(configuration.path) {
            let opened = try PostgresEngine.open(configuration, metrics: metrics)
            return try start(
                configuration, engine: opened.engine, profiles: opened.profiles, warnings: opened.warnings,
                metrics: metrics)
        }
        let opened = try SQLiteEngine.open(configuration, metrics: metrics)
        return try start(
            configuration, engine: opened.engine, profiles: opened.profiles, warnings: opened.warnings,
            metrics: metrics)
    }

    /// The host name (`gethostname`), the default `--replica-id`; `hinge` when there is none.
    public static func defaultReplicaID() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "hinge" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "hinge" : name
    }

    private static func validate(_ configuration: Configuration) throws(StoreError) {
        if PostgresURL.isKeywordValue(configuration.path) {
            throw .invalidConfiguration(PostgresURL.keywordValueRefusal)
        }
        guard configuration.maxRecords >= 1 else { throw .invalidConfiguration("maxRecords must be at least 1") }
        guard configuration.queueCapacity >= 1 else { throw .invalidConfiguration("queueCapacity must be at least 1") }
        guard configuration.maxBodyBytes >= 0 else { throw .invalidConfiguration("maxBodyBytes must not be negative") }
        guard configuration.readQueueCapacity >= 1 else {
            throw .invalidConfiguration("readQueueCapacity must be at least 1")
        }
        guard configuration.maxLogBytes >= 1 << 20 else {
            throw .invalidConfiguration("maxLogBytes must be at least 1 MiB")
        }
        guard configuration.reconnectMillis >= 1 else {
            throw .invalidConfiguration("reconnectMillis must be at least 1")
        }
        guard Configuration.commitGatherRange.contains(configuration.commitGatherMicroseconds) else {
            throw .invalidConfiguration("commitGatherMicroseconds must be 0 to 10000000 (10 s)")
        }
        guard configuration.storageCheckMillis >= 1 else {
            throw .invalidConfiguration("storageCheckMillis must be at least 1")
        }
        guard configuration.walCheckpointPages >= 1, configuration.walMaxPages >= configuration.walCheckpointPages,
            configuration.walMaxPages <= Int(Int32.max)
        else { throw .invalidConfiguration("walCheckpointPages must be at least 1 and at most walMaxPages") }
    }

    /// Starts the writer thread over an opened engine and assembles the store; closes the engine on failure.
    private static func start(
        _ configuration: Configuration, engine: any StoreEngine, profiles: [StoredProfile], warnings: [String],
        metrics: StoreMetrics
    ) throws(StoreError) -> Store {
        let writer = StoreWriter(
            engine: engine, metrics: metrics,
            limits: StoreWriter.Limits(
                queueCapacity: configuration.queueCapacity, queueCapacityBytes: configuration.queueCapacityBytes,
                gatherMicroseconds: configuration.commitGatherMicroseconds))
        let devices = DeviceProfileStore(initial: profiles, writer: writer, engine: engine)
        // PostgreSQL unreachable at start (`retryConnection`): none yet; the listener's first reload brings them.
        let sets: [ConstantSet]
        do {
            sets = try engine.loadConstantSets()
        } catch {
            if case .databaseUnavailable = error {
                sets = []
            } else {
                engine.close()
                throw error
            }
        }
        let constantSets = ConstantSetStore(initial: sets, writer: writer, engine: engine)
        let hooks = EngineHooks(
            generation: { devices.generation },
            replaceProfiles: { devices.replaceAll($0, ifGeneration: $1) },
            mergeConstantSets: { constantSets.merge($0) },
            reconnected: { [weak engine] first in
                // Health comes back once the writer's own connection answers (`PostgresEngine.probeWriter`).
                // The listener's first connection to a store still healthy has nothing to bring back; a job
                // then would only end a gathering window of the writer for nothing.
                if first && metrics.healthy.load(ordering: .acquiring) { return }
                let pg = engine as? PostgresEngine
                writer.submit {
                    if let pg, pg.probeWriter() {
                        metrics.healthy.store(true, ordering: .releasing)
                    }
                }
            })
        do {
            try writer.start()
            try engine.start(hooks)
        } catch {
            writer.close()
            engine.close()
            throw error
        }
        return Store(
            configuration: configuration, engine: engine, writer: writer, metrics: metrics, devices: devices,
            constantSets: constantSets,
            requestLog: RequestLog(
                engine: engine, writer: writer, metrics: metrics, maxBodyBytes: configuration.maxBodyBytes,
                bodyCodec: engine.storesBodyFrames ? configuration.bodyCodec.active : nil),
            warnings: warnings)
    }

    private init(
        configuration: Configuration, engine: any StoreEngine, writer: StoreWriter, metrics: StoreMetrics,
        devices: DeviceProfileStore, constantSets: ConstantSetStore, requestLog: RequestLog, warnings: [String]
    ) {
        self.constantSets = constantSets
        self.configuration = configuration
        self.engine = engine
        self.writer = writer
        self.metrics = metrics
        self.devices = devices
        self.requestLog = requestLog
        self.warnings = warnings
        self.readWorkers = ReadWorkers(
            maxThreads: configuration.maxReaders, capacity: configuration.readQueueCapacity)
    }

    deinit { close() }

    /// Graceful shutdown: runs the reads already queued, drains and commits everything pending, stops the
    /// writer thread, checkpoints the WAL and closes every connection. Idempotent. Appends after this fail
    /// with `.closed`, and `readWorkers` refuses new reads.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        readWorkers.close()
        writer.close()
        engine.close()
    }

    /// False after a failed request-log commit until a later one succeeds, after `close`, and while the
    /// files under the store are unusable (as of the last check: cheap enough for every request).
    public var isHealthy: Bool {
        !closed.load(ordering: .relaxed) && metrics.healthy.load(ordering: .acquiring) && engine.isUsable
    }

    /// What `checkReadiness` found; the details name paths (for the log, not for clients).
    public enum ReadinessCheck: Sendable, Equatable {
        case ready
        case storageUnusable(String)
        case commitFailed(String)
        /// PostgreSQL: the database does not answer (or its schema is not ready); the detail is for the log.
        case databaseUnavailable(String)
        case closed
    }

    /// `/readyz`: checks the files now (a few `stat` calls), then the state of the last commit.
    public func checkReadiness() -> ReadinessCheck {
        if closed.load(ordering: .relaxed) { return .closed }
        if let problem = engine.readinessProblem() { return problem }
        if !metrics.healthy.load(ordering: .acquiring) {
            return .commitFailed(metrics.lastFailure.withLock { $0 }.map { "\($0)" } ?? "unknown failure")
        }
        return .ready
    }

    /// The current problem of the files under the store (deleted, replaced, not writable), if any.
    public var storageProblem: String? { engine.storageProblem }

    /// The database as the start-up line names it (`--db`: a path, or a URL without its password).
    public var path: String { engine.displayName }

    /// `sqlite` or `postgresql`.
    public var engineKind: String { engine.kind }

    /// `--replica-id`, stored with each record.
    public var replicaID: String { configuration.replicaID }

    /// How new request-log bodies are framed: `configuration.bodyCodec`, or `.stored` when its library is
    /// not loaded; nil with PostgreSQL, which stores bodies as received in `lz4`-compressed columns.
    public var bodyCodec: BodyCodec? { requestLog.bodyCodec }

    /// The counters of `/metrics`.
    public var counters: StoreCounters {
        StoreCounters(
            queueDepth: metrics.queueDepth.load(ordering: .relaxed), commits: metrics.commits.load(ordering: .relaxed),
            commitFailures: metrics.commitFailures.load(ordering: .relaxed),
            recordsWritten: metrics.recordsWritten.load(ordering: .relaxed),
            recordsFailed: metrics.recordsFailed.load(ordering: .relaxed),
            recordsRejected: metrics.recordsRejected.load(ordering: .relaxed),
            recordsPruned: metrics.recordsPruned.load(ordering: .relaxed),
            pruneFailures: metrics.pruneFailures.load(ordering: .relaxed),
            lastBatchSize: metrics.lastBatchSize.load(ordering: .relaxed),
            maxBatchSize: metrics.maxBatchSize.load(ordering: .relaxed), deviceCacheSize: devices.count,
            logBytes: metrics.logBytes.load(ordering: .relaxed),
            healthy: isHealthy)
    }

    // MARK: DeviceCatalog

    public func profile(id: String) -> DeviceProfile? { devices.profile(id: id) }
    public func allProfiles() -> [DeviceProfile] { devices.allProfiles() }

    // MARK: Testing hooks

    /// Caps the database at its current size (`PRAGMA max_page_count`), so that commits needing a new
    /// page fail with `SQLITE_FULL` — a disk-full fault, for tests. `false` lifts the cap.
    func simulateDiskFull(_ full: Bool) throws(StoreError) {
        try performOnSQLiteWriter { db in
            // Constant SQL texts: PRAGMA takes no bound parameters. 1 is clamped up to the current size.
            Result { () throws(StoreError) in
                try db.execute(full ? "PRAGMA max_page_count = 1" : "PRAGMA max_page_count = 4294967294")
            }
        }.get()
    }

    /// Runs `body` on the writer thread with the SQLite writer connection (tests inspect or tamper with the
    /// database through it); `.invalidConfiguration` on another engine.
    func performOnSQLiteWriter<T: Sendable>(_ body: @escaping @Sendable (Connection) -> Result<T, StoreError>)
        -> Result<T, StoreError>
    {
        guard let sqlite = engine as? SQLiteEngine else {
            return .failure(.invalidConfiguration("not a SQLite store"))
        }
        return writer.perform {
            do throws(StoreError) {
                return try sqlite.withWriterConnection { (db) throws(StoreError) -> Result<T, StoreError> in body(db) }
            } catch {
                return .failure(error)
            }
        }
    }
}
