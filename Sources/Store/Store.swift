import CSQLite
import LayoutEngine
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hinge's persistence: device profiles and the request log in one SQLite database.
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
        /// Database file (`--db`). `:memory:` keeps everything in memory (reads then share the writer's
        /// connection). Default `./hinge.sqlite`.
        public var path: String
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
        /// beginning; also the size the WAL file is cut back to after a restart (`journal_size_limit`).
        /// Default 4096 (64 MiB at 16 KiB pages): the WAL file on disk stays about this size under any load.
        public var walMaxPages: Int
        /// Request-log reads waiting for a read thread (`ReadWorkers`); beyond it a read is refused at once
        /// (the routes answer 503 with `Retry-After`). Default 256.
        public var readQueueCapacity: Int
        /// Take the exclusive lock `<path>.lock` (a server: a second one on the same file refuses to start).
        /// Readers such as the CLI leave it false and work beside a running server. Default false.
        public var exclusive: Bool
        /// Refuse a database SQLite can only open read-only (`.readOnly`): a server must be able to write.
        /// The CLI, which only reads, turns it off. Default true.
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

        public init(
            path: String = "./hinge.sqlite", busyTimeoutMillis: Int = 5000, maxReaders: Int = 4,
            maxRecords: Int = 100_000, maxBodyBytes: Int = 256 * 1024, queueCapacity: Int = 16_384,
            queueCapacityBytes: Int = 64 << 20, walCheckpointPages: Int = 1024, walMaxPages: Int = 4096,
            readQueueCapacity: Int = 256, maxLogBytes: Int = 1 << 30, exclusive: Bool = false,
            storageCheckMillis: Int = 1000, onStorageChange: (@Sendable (String?) -> Void)? = nil,
            requireWritable: Bool = true, bodyCodec: BodyCodec = .preferred
        ) {
            self.path = path
            self.busyTimeoutMillis = busyTimeoutMillis
            self.maxReaders = maxReaders
            self.maxRecords = maxRecords
            self.maxBodyBytes = maxBodyBytes
            self.queueCapacity = queueCapacity
            self.queueCapacityBytes = queueCapacityBytes
            self.walCheckpointPages = walCheckpointPages
            self.walMaxPages = walMaxPages
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
    /// The request log of `/v1/requests`.
    public let requestLog: RequestLog
    /// Where request-log reads run, off the event loops (`ReadWorkers`).
    public let readWorkers: ReadWorkers
    /// Non-fatal findings at open (a custom profile shadowing a built-in id, a stored profile that no
    /// longer validates): the service logs them.
    public let warnings: [String]

    private let pool: DatabasePool
    let writer: StoreWriter  // internal for tests (blocking the writer deterministically)
    private let checkpointer: Checkpointer?
    private let metrics: StoreMetrics
    private let closed = Atomic<Bool>(false)
    /// The files under the store and their watchdog thread (nil in memory).
    private let storage: StorageWatch?
    private let watchdog: StorageWatchdog?
    /// The descriptor holding `<path>.lock` (-1 without `exclusive`); closed last.
    private let lockFD: Int32

    /// Opens (creating if needed) and migrates the database, seeds the built-in devices, loads the device
    /// cache and starts the writer thread. Refuses — without writing anything — a file that is not a
    /// SQLite database, a SQLite database of another application, or a schema newer than this binary.
    public static func open(_ configuration: Configuration = Configuration()) throws(StoreError) -> Store {
        try validate(configuration)
        let inMemory = configuration.path == ":memory:" || configuration.path.contains("mode=memory")
        let lockFD =
            configuration.exclusive && !inMemory ? try DatabaseLock.acquire(databasePath: configuration.path) : -1
        do {
            return try open(configuration, inMemory: inMemory, lockFD: lockFD)
        } catch {
            if lockFD >= 0 { Glibc.close(lockFD) }
            throw error
        }
    }

    private static func validate(_ configuration: Configuration) throws(StoreError) {
        guard configuration.maxRecords >= 1 else { throw .invalidConfiguration("maxRecords must be at least 1") }
        guard configuration.queueCapacity >= 1 else { throw .invalidConfiguration("queueCapacity must be at least 1") }
        guard configuration.maxBodyBytes >= 0 else { throw .invalidConfiguration("maxBodyBytes must not be negative") }
        guard configuration.readQueueCapacity >= 1 else {
            throw .invalidConfiguration("readQueueCapacity must be at least 1")
        }
        guard configuration.maxLogBytes >= 1 << 20 else {
            throw .invalidConfiguration("maxLogBytes must be at least 1 MiB")
        }
        guard configuration.storageCheckMillis >= 1 else {
            throw .invalidConfiguration("storageCheckMillis must be at least 1")
        }
        guard configuration.walCheckpointPages >= 1, configuration.walMaxPages >= configuration.walCheckpointPages,
            configuration.walMaxPages <= Int(Int32.max)
        else { throw .invalidConfiguration("walCheckpointPages must be at least 1 and at most walMaxPages") }
    }

    /// The database as `open` found and prepared it.
    private struct Prepared {
        var profiles: [StoredProfile]
        var rowCount: Int
        var warnings: [String]
    }

    /// Opens the writer connection, prepares the file, then starts the threads and assembles the store.
    private static func open(_ configuration: Configuration, inMemory: Bool, lockFD: Int32) throws(StoreError) -> Store
    {
        let connection = try Connection(
            path: configuration.path, readOnly: false, busyTimeoutMillis: configuration.busyTimeoutMillis)
        var prepared: Prepared
        do throws(StoreError) {
            prepared = try prepare(connection, configuration, inMemory: inMemory)
        } catch {
            connection.close()
            // A write refused by the file system (a read-only directory for the WAL, a read-only mount).
            if case .sqlite(let f) = error, f.primaryCode == SQLITE_READONLY, !inMemory, configuration.requireWritable {
                throw .readOnly(path: configuration.path)
            }
            throw error
        }
        let pool = DatabasePool(
            writer: connection, path: configuration.path, inMemory: inMemory, maxReaders: configuration.maxReaders,
            busyTimeoutMillis: configuration.busyTimeoutMillis)
        let checkpointer = inMemory ? nil : startCheckpointer(configuration, pool: pool, warnings: &prepared.warnings)
        let metrics = StoreMetrics()
        metrics.logBytes.store(
            (try? pool.write { (db) throws(StoreError) in try PageUsage.bytesInUse(db) }) ?? 0, ordering: .relaxed)
        // The WAL exists by now (the migrations and the seeding read and wrote through it).
        let storage = inMemory ? nil : StorageWatch(path: configuration.path, onChange: configuration.onStorageChange)
        let writer = StoreWriter(
            pool: pool, metrics: metrics,
            limits: StoreWriter.Limits(
                queueCapacity: configuration.queueCapacity,
                queueCapacityBytes: configuration.queueCapacityBytes, maxRecords: configuration.maxRecords,
                pruneSlack: max(1, min(1024, configuration.maxRecords / 64)), maxLogBytes: configuration.maxLogBytes,
                byteSlack: min(16 << 20, configuration.maxLogBytes / 64)),
            initialRowCount: prepared.rowCount, storage: storage)
        let watchdog = storage.map { StorageWatchdog(watch: $0, intervalMillis: configuration.storageCheckMillis) }
        do {
            try writer.start()
            try watchdog?.start()
        } catch {
            writer.close()
            Store.stopCheckpointer(checkpointer, pool: pool)
            pool.close()
            throw error
        }
        return Store(
            configuration: configuration, pool: pool, writer: writer, checkpointer: checkpointer, metrics: metrics,
            storage: storage, watchdog: watchdog, lockFD: lockFD,
            devices: DeviceProfileStore(initial: prepared.profiles, writer: writer),
            requestLog: RequestLog(
                pool: pool, writer: writer, metrics: metrics, maxBodyBytes: configuration.maxBodyBytes,
                bodyCodec: configuration.bodyCodec.active),
            warnings: prepared.warnings)
    }

    /// Checks that the file is Hinge's (or empty) and writable, and only then sets it up, migrates it, seeds
    /// the built-in devices and loads the profiles.
    private static func prepare(_ connection: Connection, _ configuration: Configuration, inMemory: Bool)
        throws(StoreError) -> Prepared
    {
        let now = Timestamp.now()
        // SQLite opens a file it may not write read-only, silently: a server would start, say it is
        // ready, and fail at its first write.
        if configuration.requireWritable && connection.isReadOnly {
            throw StoreError.readOnly(path: configuration.path)
        }
        let version = try Schema.validate(connection, displayPath: configuration.path)
        // Only now, with the file known to be ours (or empty), may anything write to it.
        var warnings = inMemory ? [] : try setUpFile(connection, configuration, schemaVersion: version)
        try connection.execute("PRAGMA synchronous = NORMAL")
        // The writer's page cache (32 MiB) keeps the right edges of the request-log B-trees hot.
        try connection.execute("PRAGMA cache_size = -32768")
        try connection.execute("PRAGMA foreign_keys = ON")
        try Schema.migrate(connection, from: version, now: now)
        warnings += try DeviceProfileStore.seedBuiltIns(connection, now: now)
        let loaded = try DeviceProfileStore.loadAll(connection)
        let rowCount = Int(try connection.scalarInt("SELECT count(*) FROM requests") ?? 0)
        return Prepared(profiles: loaded.profiles, rowCount: rowCount, warnings: warnings + loaded.warnings)
    }

    /// A file database's page size (new files), WAL mode and WAL size limit; returns the warnings.
    private static func setUpFile(_ connection: Connection, _ configuration: Configuration, schemaVersion: Int)
        throws(StoreError) -> [String]
    {
        var warnings: [String] = []
        // A new file only (a no-op on an existing database). 16 KiB pages: a typical record's compressed
        // bodies (~1.2 KB) fill them best, 1,369 B of file per record against 1,474 at 8 KiB and 1,477 at
        // 4 KiB; smaller pages would halve the WAL bytes of a commit at the same CPU (BENCHMARKS.md).
        if schemaVersion == 0 { try connection.execute("PRAGMA page_size = 16384") }
        let mode = try connection.scalarText("PRAGMA journal_mode = WAL")
        if mode?.lowercased() != "wal" {
            warnings.append("journal_mode is \(mode ?? "unknown"), not WAL: readers may wait for the writer")
        }
        // After a restart the WAL file is cut back to `walMaxPages` (otherwise it keeps the size of
        // its largest burst until close).
        let pageSize = Int(try connection.scalarInt("PRAGMA page_size") ?? 16384)
        try connection.setPragma("journal_size_limit", to: configuration.walMaxPages * pageSize)
        return warnings
    }

    /// Checkpoints off the writer thread (see `Checkpointer`); without it SQLite's auto-checkpoint stays.
    private static func startCheckpointer(_ configuration: Configuration, pool: DatabasePool, warnings: inout [String])
        -> Checkpointer?
    {
        let c = Checkpointer(
            softPages: Int32(configuration.walCheckpointPages), hardPages: Int32(configuration.walMaxPages))
        do {
            try c.start(path: configuration.path, busyTimeoutMillis: configuration.busyTimeoutMillis)
            _ = try? pool.write { (db) throws(StoreError) in c.install(on: db) }
            return c
        } catch {
            c.stop()
            warnings.append("background checkpoints unavailable (\(error)); checkpoints run in the writer")
            return nil
        }
    }

    private init(
        configuration: Configuration, pool: DatabasePool, writer: StoreWriter, checkpointer: Checkpointer?,
        metrics: StoreMetrics, storage: StorageWatch?, watchdog: StorageWatchdog?, lockFD: Int32,
        devices: DeviceProfileStore, requestLog: RequestLog, warnings: [String]
    ) {
        self.storage = storage
        self.watchdog = watchdog
        self.lockFD = lockFD
        self.configuration = configuration
        self.pool = pool
        self.writer = writer
        self.checkpointer = checkpointer
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
        watchdog?.stop()
        Store.stopCheckpointer(checkpointer, pool: pool)
        pool.close()
        if lockFD >= 0 { Glibc.close(lockFD) }
    }

    /// Removes the WAL hook from the writer connection, then stops the checkpoint thread.
    private static func stopCheckpointer(_ checkpointer: Checkpointer?, pool: DatabasePool) {
        guard let checkpointer else { return }
        _ = try? pool.write { (db) throws(StoreError) in Checkpointer.uninstall(from: db) }
        checkpointer.stop()
    }

    /// False after a failed request-log commit until a later one succeeds, after `close`, and while the
    /// files under the store are unusable (as of the last check: cheap enough for every request).
    public var isHealthy: Bool {
        !closed.load(ordering: .relaxed) && metrics.healthy.load(ordering: .acquiring)
            && !(storage?.isUnusable ?? false)
    }

    /// What `checkReadiness` found; the details name paths (for the log, not for clients).
    public enum ReadinessCheck: Sendable, Equatable {
        case ready
        case storageUnusable(String)
        case commitFailed(String)
        case closed
    }

    /// `/readyz`: checks the files now (a few `stat` calls), then the state of the last commit.
    public func checkReadiness() -> ReadinessCheck {
        if closed.load(ordering: .relaxed) { return .closed }
        if let problem = storage?.check() { return .storageUnusable(problem) }
        if !metrics.healthy.load(ordering: .acquiring) {
            return .commitFailed(metrics.lastFailure.withLock { $0 }.map { "\($0)" } ?? "unknown failure")
        }
        return .ready
    }

    /// The current problem of the files under the store (deleted, replaced, not writable), if any.
    public var storageProblem: String? { storage?.problem }

    /// The database file (`--db`).
    public var path: String { configuration.path }

    /// How new request-log bodies are stored: `configuration.bodyCodec`, or `.stored` when its library is
    /// not loaded.
    public var bodyCodec: BodyCodec { requestLog.bodyCodec }

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
        try writer.perform { db in
            // Constant SQL texts: PRAGMA takes no bound parameters. 1 is clamped up to the current size.
            Result { () throws(StoreError) in
                try db.execute(full ? "PRAGMA max_page_count = 1" : "PRAGMA max_page_count = 4294967294")
            }
        }.get()
    }
}
