import CSQLite
import Threads

/// Keeps WAL checkpoints off the writer thread.
///
/// SQLite's auto-checkpoint runs inside the writer's `COMMIT` once the WAL holds 1000 pages: with ~4 KiB of
/// bodies per record that is every ~2000 records, and each checkpoint copies the WAL into the database and
/// `fsync`s both files — time during which no record commits and no recorded response leaves. Instead the
/// writer connection gets a WAL hook (which replaces auto-checkpoint) that, after a commit:
/// - past `softPages`, wakes this thread, which runs `PASSIVE` checkpoints on its own connection,
///   concurrently with the writer (a passive checkpoint never blocks the writer nor readers);
/// - past `hardPages` (the background checkpoints never caught up with the writer — under sustained load
///   the WAL can only restart once every frame has been copied), checkpoints `PASSIVE` on the writer
///   itself, which bounds the WAL. Most frames are already copied by then, so this pass is short.
///
/// Durability is unchanged: `synchronous=NORMAL` in WAL mode never syncs at commit; a committed
/// transaction is in the WAL (survives a process crash) and reaches the database file at a checkpoint.
/// `close()` still ends with `wal_checkpoint(TRUNCATE)` on the writer (see `DatabasePool.close`).
final class Checkpointer: @unchecked Sendable {
    // Sendable proof: `pending`, `passing`, `stopping` and `connection` are only touched with `lock` held, or by the
    // checkpoint thread alone (`connection` after `start`); `thread` is written in `start` and read in
    // `stop`, both called once by `Store` on one thread; `lastPages` and `nextWake` only by the WAL hook,
    // which runs on the writer connection while its lock is held.
    private let lock = ConditionLock()
    private var pending = false
    /// A background pass is running (the writer's pass at `hardPages` waits for it to end).
    private var passing = false
    private var stopping = false
    private var connection: Connection?
    private var thread: NamedThread?
    let softPages: Int32
    let hardPages: Int32
    /// WAL growth between two background passes: a pass copies the last version of every page the WAL
    /// holds since the previous one and syncs both files, so the pages every commit rewrites (the last
    /// leaves of `requests` and `request_bodies`, the B-trees' inner pages, page 1) are copied once per pass,
    /// not once per commit, and both files are synced once per pass. With a pass after every commit past
    /// `softPages`, the checkpoint thread took 2.8–6.8 µs per typical record; with one per `softPages / 4`
    /// pages, 2.2 µs (`HINGE_BENCH_RECORD=10 hinge-bench`, batches of 10, 2026-12-01).
    let stepPages: Int32
    /// The WAL's page count at the last commit, and the count at which the next pass starts (hook only: the
    /// hook runs on the writer connection, under its lock).
    private var lastPages: Int32 = 0
    private var nextWake: Int32

    /// `Store.Configuration.walCheckpointPages` and `walMaxPages`: by default 1024 pages (16 MiB at 16 KiB
    /// pages) of WAL before a background checkpoint, 4096 (64 MiB) before the writer checkpoints itself.
    /// Under sustained load the background pass never quite catches up with the writer, so the WAL only
    /// restarts after the writer's own pass: `hardPages` is the WAL's size on disk under load. A larger bound
    /// costs disk beside the database and buys no throughput (measured in BENCHMARKS.md).
    init(softPages: Int32, hardPages: Int32) {
        self.softPages = softPages
        self.hardPages = hardPages
        self.stepPages = max(1, softPages / 4)
        self.nextWake = softPages
    }

    /// Opens the checkpoint connection and starts the thread. On failure nothing is installed and SQLite's
    /// auto-checkpoint stays in place (the caller keeps going: this is an optimisation).
    func start(path: String, busyTimeoutMillis: Int) throws(StoreError) {
        let db = try Connection(path: path, readOnly: false, busyTimeoutMillis: busyTimeoutMillis)
        // A connection opens the WAL on its first read; until then sqlite3_wal_checkpoint_v2 on it is a
        // silent no-op (measured: the WAL grew to the hard limit with the background thread idle).
        _ = try db.scalarInt("SELECT count(*) FROM sqlite_schema")
        connection = db
        thread = try NamedThread.start("hinge-db-ckpt") { [self] in self.run() }
    }

    /// Installs the hook on the writer connection (call with the writer lock held, after `start`).
    func install(on writer: Connection) {
        guard let db = writer.handle else { return }
        sqlite3_wal_hook(
            db,
            { context, db, name, pages in
                guard let context else { return SQLITE_OK }
                let me = Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue()
                if pages < me.lastPages { me.nextWake = me.softPages }  // the WAL restarted from its beginning
                me.lastPages = pages
                if pages >= me.hardPages {
                    // Bounded WAL: copy what the background pass has not. BUSY means a background pass holds
                    // the checkpoint lock: the writer waits for it to end and copies the rest. Taking BUSY as
                    // "at the next commit" let back-to-back background passes keep the writer's pass out
                    // while the WAL grew to everything written.
                    if sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_BUSY {
                        me.waitForPass()
                        _ = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    }
                } else if pages >= me.nextWake {
                    me.nextWake = pages + me.stepPages
                    me.wake()
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the hook (call with the writer lock held, before `stop`): the hook holds no reference.
    static func uninstall(from writer: Connection) {
        guard let db = writer.handle else { return }
        sqlite3_wal_hook(db, nil, nil)
    }

    private func wake() {
        lock.lock()
        let signal = !pending
        pending = true
        lock.unlock()
        // Broadcast: the writer may wait on the same condition (`waitForPass`).
        if signal { lock.broadcast() }
    }

    /// Blocks until no background pass runs (the writer, at `hardPages`).
    private func waitForPass() {
        lock.lock()
        while passing { lock.wait() }
        lock.unlock()
    }

    /// Stops the thread (after a pass in progress) and closes its connection.
    func stop() {
        lock.withLock { stopping = true }
        lock.broadcast()
        thread?.join()
        thread = nil
    }

    private func run() {
        while true {
            lock.lock()
            while !pending && !stopping { lock.wait() }
            if stopping {
                lock.unlock()
                break
            }
            pending = false
            passing = true
            lock.unlock()
            if let db = connection?.handle {
                _ = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            lock.withLock { passing = false }
            lock.broadcast()
        }
        connection?.close()
        connection = nil
    }
}
