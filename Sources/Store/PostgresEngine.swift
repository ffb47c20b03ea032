import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The PostgreSQL engine (`--db postgres://…`): several replicas share one database (docs/store.md#engines).
///
/// Connections: one writer connection used only by the writer thread (records, profile writes, pruning),
/// read connections checked out by the read threads (`PostgresReaders`), and one listener connection on a
/// thread of its own (`PostgresListener`) that waits for `NOTIFY` and, while the database is unreachable,
/// keeps trying to connect with backoff. Nothing here blocks an event loop.
///
/// Faults: a database unreachable at start does not stop the server (with `retryConnection`): the listener
/// retries, logging each attempt, and `/readyz` answers 503 until the schema is ready. A connection lost while
/// running fails the operation that found it (a record is then answered without `Hinge-Record-Id`, a read with
/// a 503 problem), shows in `/readyz` and `/metrics`, and is re-established with backoff.
final class PostgresEngine: StoreEngine {
    let url: String
    let displayName: String
    var kind: String { "postgresql" }
    var storesBodyFrames: Bool { false }
    let schema: String?
    let replicaID: String
    let metrics: StoreMetrics
    let bounds: LogBounds
    /// The `NOTIFY` channel of profile changes (one per schema, so tests in one database stay apart).
    let channel: String
    let migrationLockKey: String
    let pruneLockKey: String
    let createSchema: Bool
    let backoff: Backoff
    let log: @Sendable (String) -> Void

    /// True once the schema is migrated and the profiles were loaded (at open or later by the listener).
    let ready = Atomic<Bool>(false)
    /// What is wrong with the listener's and the writer's connections right now (nil: nothing known), for
    /// `/readyz` and the log.
    private let problems = Mutex<(listener: String?, writer: String?)>((nil, nil))
    let readers: PostgresReaders
    private let listener = Mutex<PostgresListener?>(nil)
    private let hooks = Mutex<EngineHooks?>(nil)
    /// Testing hook: a pause between reading the profiles and publishing them, which widens the window in
    /// which a write of this replica lands during a reload. 0 outside tests.
    let reloadPauseMicros = Atomic<Int>(0)
    /// The writer thread's connection and its reconnect state.
    private let writer: WriterState

    /// Delays between connection attempts: doubling from `initialMillis` up to `maxMillis`.
    struct Backoff: Sendable {
        var initialMillis: Int
        var maxMillis: Int
    }

    /// Only the writer thread touches it (and `open`, before the writer starts).
    private final class WriterState: @unchecked Sendable {
        // Sendable proof: `StoreEngine`'s writer-side methods run on the writer thread only, one at a time.
        var connection: PGConnection?
        /// When the writer may try to connect again (`MonotonicClock` nanoseconds).
        var nextAttempt: UInt64?
        var delayMillis: Int
        var writtenSincePruneCheck = Int.max / 2  // check at the first commit
        init(delayMillis: Int) { self.delayMillis = delayMillis }
    }

    init(_ configuration: Store.Configuration, metrics: StoreMetrics) {
        url = configuration.path
        displayName = PostgresURL.redacted(configuration.path)
        schema = configuration.postgresSchema
        replicaID = configuration.replicaID
        self.metrics = metrics
        bounds = LogBounds(maxRecords: configuration.maxRecords, maxLogBytes: configuration.maxLogBytes)
        let space = configuration.postgresSchema ?? "public"
        channel = "hinge_devices:" + space
        migrationLockKey = "hinge-migrate:" + space
        pruneLockKey = "hinge-prune:" + space
        createSchema = configuration.requireWritable
        backoff = Backoff(
            initialMillis: configuration.reconnectMillis, maxMillis: max(configuration.reconnectMillis, 5000))
        log = configuration.log ?? { _ in }
        readers = PostgresReaders(
            maxReaders: configuration.maxReaders, url: configuration.path,
            applicationName: "hinge " + configuration.replicaID, schema: configuration.postgresSchema)
        writer = WriterState(delayMillis: configuration.reconnectMillis)
    }

    struct Opened {
        var engine: PostgresEngine
        var profiles: [StoredProfile]
        var warnings: [String]
    }

    /// Connects, migrates (under the advisory lock), seeds and loads the profiles. A schema newer than this
    /// binary, a password in the URL or a database without Hinge's tables (`requireWritable` false: the CLI)
    /// throws. An unreachable database throws too, unless `retryConnection`: then the store starts with the
    /// built-in profiles and the listener keeps trying.
    static func open(_ configuration: Store.Configuration, metrics: StoreMetrics) throws(StoreError) -> Opened {
        try PostgresURL.check(configuration.path)
        let engine = PostgresEngine(configuration, metrics: metrics)
        do {
            let db = try engine.connect()
            let loaded = try engine.initialize(db)
            engine.writer.connection = db
            engine.ready.store(true, ordering: .releasing)
            return Opened(engine: engine, profiles: loaded.profiles, warnings: loaded.warnings)
        } catch {
            guard case .postgres(let f) = error, f.connectionLost, configuration.retryConnection else { throw error }
            let line = "store: \(engine.displayName): connection attempt 1 failed: \(f.message)"
            engine.setListenerProblem(line)
            engine.log(line + "; retrying in the background (/readyz answers 503 until the database answers)")
            return Opened(
                engine: engine, profiles: BuiltInDevices.all.map(DeviceProfileStore.stored), warnings: [])
        }
    }

    /// Starts the listener thread with the store's hooks.
    func start(_ hooks: EngineHooks) throws(StoreError) {
        self.hooks.withLock { $0 = hooks }
        let l = PostgresListener(engine: self)
        try l.start()
        listener.withLock { $0 = l }
    }

    /// A new connection with the engine's schema on its search path.
    func connect() throws(StoreError) -> PGConnection {
        try PGConnection(url: url, applicationName: "hinge " + replicaID, schema: schema)
    }

    /// Migrates, seeds and loads the profiles on `db`.
    func initialize(_ db: PGConnection) throws(StoreError) -> (profiles: [StoredProfile], warnings: [String]) {
        let warnings = try PostgresSchema.migrate(
            db, lockKey: migrationLockKey, create: createSchema, display: displayName)
        let loaded = try PostgresProfiles.loadAll(db)
        return (loaded.profiles, warnings + loaded.warnings)
    }

    // MARK: Connection state

    func setListenerProblem(_ text: String?) { problems.withLock { $0.listener = text } }
    func setWriterProblem(_ text: String?) { problems.withLock { $0.writer = text } }
    var currentProblem: String? { problems.withLock { $0.listener ?? $0.writer } }

    /// The listener's news: every profile read again on `db` (after a notification, a connection, the schema
    /// turning ready), or the connection came back.
    func reload(_ db: PGConnection) throws(StoreError) {
        guard let hooks = hooks.withLock({ $0 }) else { return }
        // A write published while the profiles were read may be missing from them: read again. Each round
        // starts after the last publication, so it ends as soon as no write lands during a read.
        for _ in 0..<100 {
            let generation = hooks.generation()
            let profiles = try PostgresProfiles.loadAll(db).profiles
            let pause = reloadPauseMicros.load(ordering: .relaxed)
            if pause > 0 { usleep(UInt32(pause)) }
            if hooks.replaceProfiles(profiles, generation) { break }
        }
        hooks.mergeConstantSets(try PostgresConstantSets.loadAll(db))
    }
    func reconnected(first: Bool) { hooks.withLock { $0 }?.reconnected(first) }

    // MARK: Writer thread

    func prepareBatch() {}

    /// Runs `body` on the writer connection, (re)connecting first when the connection is missing and the
    /// backoff allows; a connection found lost is dropped (the next call reconnects).
    func withWriter<T>(_ body: (PGConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        guard ready.load(ordering: .acquiring) else {
            throw .databaseUnavailable(currentProblem ?? "the database has not answered yet")
        }
        let db = try writerConnection()
        do {
            return try body(db)
        } catch {
            if !db.isUsable {
                db.close()
                writer.connection = nil
                let line = "store: \(displayName): the writer's connection was lost: \(error)"
                setWriterProblem(line)
                log(line + "; reconnecting with backoff")
            }
            throw error
        }
    }

    private func writerConnection() throws(StoreError) -> PGConnection {
        if let db = writer.connection, db.isUsable { return db }
        writer.connection?.close()
        writer.connection = nil
        let now = MonotonicClock.nanoseconds()
        if let next = writer.nextAttempt, now < next {
            throw .databaseUnavailable(currentProblem ?? "reconnecting")
        }
        do {
            let db = try connect()
            writer.connection = db
            writer.nextAttempt = nil
            writer.delayMillis = backoff.initialMillis
            if currentProblem != nil { log("store: \(displayName): the writer reconnected") }
            setWriterProblem(nil)
            return db
        } catch {
            writer.nextAttempt = now &+ UInt64(writer.delayMillis) * 1_000_000
            log("store: \(displayName): the writer's reconnect failed (next in \(writer.delayMillis) ms): \(error)")
            writer.delayMillis = min(writer.delayMillis * 2, backoff.maxMillis)
            throw error
        }
    }

    /// A `SELECT 1` on the writer connection (reconnecting it): true when the database answers. Run by the
    /// writer after the listener reconnected, so that health comes back without waiting for a record.
    func probeWriter() -> Bool {
        writer.nextAttempt = nil
        do {
            try withWriter { (db) throws(StoreError) in _ = try db.exec("SELECT 1") }
            return true
        } catch {
            return false
        }
    }

    /// Prunes (`prune`) every `pruneSlack` records this replica committed.
    func didCommit(records count: Int) {
        writer.writtenSincePruneCheck += count
        guard writer.writtenSincePruneCheck >= bounds.pruneSlack else { return }
        writer.writtenSincePruneCheck = 0
        prune()
    }

    // MARK: Health

    var isUsable: Bool { ready.load(ordering: .acquiring) && currentProblem == nil }

    func readinessProblem() -> Store.ReadinessCheck? {
        if let p = currentProblem { return .databaseUnavailable(p) }
        if !ready.load(ordering: .acquiring) { return .databaseUnavailable("the database has not answered yet") }
        return nil
    }

    var storageProblem: String? { currentProblem }

    func close() {
        let l = listener.withLock { l -> PostgresListener? in
            let old = l
            l = nil
            return old
        }
        l?.stop()
        readers.close()
        writer.connection?.close()
        writer.connection = nil
        hooks.withLock { $0 = nil }
    }
}

/// What an engine tells the store while it runs (the PostgreSQL listener): new profiles for the snapshots,
/// and a connection that came back.
struct EngineHooks: Sendable {
    /// The count of the writer's snapshot publications (`DeviceProfileStore.generation`).
    var generation: @Sendable () -> Int
    /// Publishes reloaded profiles unless the writer published since the generation given; false then.
    var replaceProfiles: @Sendable ([StoredProfile], Int) -> Bool
    /// Merges reloaded constant sets into the snapshot (`ConstantSetStore.merge`).
    var mergeConstantSets: @Sendable ([ConstantSet]) -> Void
    /// The listener connected; `first` for its first connection since the store opened.
    var reconnected: @Sendable (_ first: Bool) -> Void
}
