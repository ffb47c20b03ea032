import CSQLite
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The SQLite engine: one database file (or `:memory:`), a writer connection and read-only readers
/// (`DatabasePool`), background checkpoints (`Checkpointer`), the watch of the files under it
/// (`StorageWatch`) and the exclusive lock of a server (`DatabaseLock`). The SQL of the request log is in
/// `SQLiteRecords.swift`, that of the device profiles in `SQLiteProfiles.swift`.
final class SQLiteEngine: StoreEngine {
    let pool: DatabasePool
    let metrics: StoreMetrics
    let bounds: LogBounds
    private let checkpointer: Checkpointer?
    /// The files under the store and their watchdog thread (nil in memory).
    let storage: StorageWatch?
    private let watchdog: StorageWatchdog?
    /// The descriptor holding `<path>.lock` (-1 without `exclusive`); closed last.
    private let lockFD: Int32
    /// Rows in `requests`, as the writer knows it (only the writer thread touches it after start).
    let rowCount: Atomic<Int>
    /// Whether the writer connection is in `query_only` mode (writer thread only).
    private let refusingWrites = Atomic<Bool>(false)
    /// True from the open and after records were deleted until a batch committed: the next batch's first id is
    /// then read from `SQLiteRecords.nextIDSQL` instead of left to SQLite (writer thread only).
    let idsAfterDeletion = Atomic<Bool>(true)
    /// The pages in use, in bytes, as the last commit or prune left them (writer thread only).
    let committedBytes = Atomic<Int>(0)
    /// The database's page size, fixed when the file was created.
    let pageSize: Int

    let displayName: String
    var kind: String { "sqlite" }
    var storesBodyFrames: Bool { true }
    /// `--replica-id`, stored with each record.
    let replicaID: String

    /// Nothing runs beside the writer but the threads `open` started (checkpoints, the files' watch).
    func start(_ hooks: EngineHooks) throws(StoreError) {}

    /// What `open` hands to the `Store`: the engine, the stored profiles and the warnings.
    struct Opened {
        var engine: SQLiteEngine
        var profiles: [StoredProfile]
        var warnings: [String]
    }

    /// Opens (creating if needed) and migrates the database, seeds the built-in devices and loads the
    /// profiles; starts the checkpoint and watch threads. Refuses — without writing anything — a file that is
    /// not a SQLite database, a SQLite database of another application, or a schema newer than this binary.
    static func open(_ configuration: Store.Configuration, metrics: StoreMetrics) throws(StoreError) -> Opened {
        let inMemory = configuration.path == ":memory:" || configuration.path.contains("mode=memory")
        let lockFD =
            configuration.exclusive && !inMemory ? try DatabaseLock.acquire(databasePath: configuration.path) : -1
        do {
            return try open(configuration, metrics: metrics, inMemory: inMemory, lockFD: lockFD)
        } catch {
            if lockFD >= 0 { Glibc.close(lockFD) }
            throw error
        }
    }

    /// The database as `open` found and prepared it.
    private struct Prepared {
        var profiles: [StoredProfile]
        var rowCount: Int
        var pageSize: Int
        var warnings: [String]
    }

    /// Opens the writer connection, prepares the file, then starts the threads and assembles the engine.
    private static func open(
        _ configuration: Store.Configuration, metrics: StoreMetrics, inMemory: Bool, lockFD: Int32
    ) throws(StoreError) -> Opened {
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
        let bytes =
            (try? pool.write { (db) throws(StoreError) in try PageUsage.bytesInUse(db, pageSize: prepared.pageSize) })
            ?? 0
        metrics.logBytes.store(bytes, ordering: .relaxed)
        // The WAL exists by now (the migrations and the seeding read and wrote through it).
        let storage = inMemory ? nil : StorageWatch(path: configuration.path, onChange: configuration.onStorageChange)
        let watchdog = storage.map { StorageWatchdog(watch: $0, intervalMillis: configuration.storageCheckMillis) }
        let engine = SQLiteEngine(
            pool: pool, metrics: metrics,
            bounds: LogBounds(maxRecords: configuration.maxRecords, maxLogBytes: configuration.maxLogBytes),
            checkpointer: checkpointer, storage: storage, watchdog: watchdog, lockFD: lockFD,
            rowCount: prepared.rowCount, pageSize: prepared.pageSize, logBytes: bytes, displayName: configuration.path,
            replicaID: configuration.replicaID)
        do {
            try watchdog?.start()
        } catch {
            engine.close()
            throw error
        }
        return Opened(engine: engine, profiles: prepared.profiles, warnings: prepared.warnings)
    }

    private init(
        pool: DatabasePool, metrics: StoreMetrics, bounds: LogBounds, checkpointer: Checkpointer?,
        storage: StorageWatch?, watchdog: StorageWatchdog?, lockFD: Int32, rowCount: Int, pageSize: Int,
        logBytes: Int, displayName: String, replicaID: String
    ) {
        self.pageSize = pageSize
        self.committedBytes.store(logBytes, ordering: .relaxed)
        self.replicaID = replicaID
        self.pool = pool
        self.metrics = metrics
        self.bounds = bounds
        self.checkpointer = checkpointer
        self.storage = storage
        self.watchdog = watchdog
        self.lockFD = lockFD
        self.rowCount = Atomic(rowCount)
        self.displayName = displayName
    }

    /// Checks that the file is Hinge's (or empty) and writable, and only then sets it up, migrates it, seeds
    /// the built-in devices and loads the profiles.
    private static func prepare(_ connection: Connection, _ configuration: Store.Configuration, inMemory: Bool)
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
        try Schema.migrate(connection, from: version, now: now)
        try connection.execute("PRAGMA foreign_keys = ON")
        warnings += try SQLiteProfiles.seedBuiltIns(connection, now: now)
        let loaded = try SQLiteProfiles.loadAll(connection)
        let rowCount = Int(try connection.scalarInt("SELECT count(*) FROM requests") ?? 0)
        let pageSize = Int(try connection.scalarInt("PRAGMA page_size") ?? 4096)
        return Prepared(
            profiles: loaded.profiles, rowCount: rowCount, pageSize: pageSize, warnings: warnings + loaded.warnings)
    }

    /// The size the WAL file is cut back to after a restart (`journal_size_limit`), in bytes: `walMaxPages`
    /// frames and an eighth more (at least 16), with their headers (a frame is a page and 24 bytes; the file
    /// starts with 32). Under sustained load the WAL restarts just past `walMaxPages` frames, by the frames of
    /// the commit that crossed the bound (a few pages; tens for a commit of hundreds of records); the margin
    /// covers them, so a restart under steady load frees no block of the file, while the file of a burst far
    /// larger is still cut back.
    static func walFileLimit(walMaxPages: Int, pageSize: Int) -> Int {
        (walMaxPages + max(walMaxPages / 8, 16)) * (pageSize + 24) + 32
    }

    /// A file database's page size (new files), WAL mode and WAL size limit; returns the warnings.
    private static func setUpFile(_ connection: Connection, _ configuration: Store.Configuration, schemaVersion: Int)
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
        // After a restart the WAL file is cut back (otherwise it keeps the size of its largest burst until
        // close) to its size under steady load, never below: `walMaxPages` frames and the commits that cross
        // the bound. A limit below that size would cut the file at every restart under load, and the writer
        // would free the file's last blocks and allocate them again each time.
        let pageSize = Int(try connection.scalarInt("PRAGMA page_size") ?? 16384)
        try connection.setPragma(
            "journal_size_limit", to: walFileLimit(walMaxPages: configuration.walMaxPages, pageSize: pageSize))
        return warnings
    }

    /// Checkpoints off the writer thread (see `Checkpointer`); without it SQLite's auto-checkpoint stays.
    private static func startCheckpointer(
        _ configuration: Store.Configuration, pool: DatabasePool, warnings: inout [String]
    ) -> Checkpointer? {
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

    /// Stops the watchdog, removes the WAL hook and stops the checkpoint thread, checkpoints the WAL and
    /// closes every connection, then releases the lock file.
    func close() {
        watchdog?.stop()
        if let checkpointer {
            _ = try? pool.write { (db) throws(StoreError) in Checkpointer.uninstall(from: db) }
            checkpointer.stop()
        }
        pool.close()
        if lockFD >= 0 { Glibc.close(lockFD) }
    }

    // MARK: Writer thread

    /// While the files under the store are unusable, the writer connection is `query_only`: every write of a
    /// job (device profiles, clear) fails with `SQLITE_READONLY` instead of going to a deleted file, and
    /// records fail before reaching SQLite (`insertRecords`). Lifted when the files are fine again (a file made
    /// writable again; a deleted file never comes back).
    func prepareBatch() {
        let refuse = storage?.isUnusable ?? false
        guard refuse != refusingWrites.load(ordering: .relaxed) else { return }
        let done: Void? = try? pool.write { (db) throws(StoreError) in
            try db.execute(refuse ? "PRAGMA query_only = ON" : "PRAGMA query_only = OFF")
        }
        if done != nil { refusingWrites.store(refuse, ordering: .relaxed) }
    }

    // MARK: Health

    var isUsable: Bool { !(storage?.isUnusable ?? false) }

    func readinessProblem() -> Store.ReadinessCheck? {
        if let problem = storage?.check() { return .storageUnusable(problem) }
        return nil
    }

    var storageProblem: String? { storage?.problem }

    // MARK: Testing hooks

    /// Runs `body` on the writer connection (tests: inspect or tamper with the database the store holds).
    func withWriterConnection<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try pool.write(body)
    }
}
