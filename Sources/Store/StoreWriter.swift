import Synchronization
import Threads

/// The one thread that writes: it owns the writer connection (through `DatabasePool.write`) and
/// group-commits the request records of every event loop.
///
/// Loop: wait until something is pending; take *everything* pending (one swap under the lock); commit
/// consecutive records in one transaction; run the other jobs (device writes, clear, flush markers) each
/// in its own transaction, in queue order; call the completions; start again at once. Producers never
/// touch SQLite: `enqueue` is a lock, an array append and maybe a condition signal.
final class StoreWriter: Sendable {
    typealias RecordCompletion = @Sendable (Result<RecordID, StoreError>) -> Void

    /// A job runs on the writer thread with the writer connection; it reports through its own closure.
    typealias Job = @Sendable (Connection) -> Void

    enum Item: Sendable {
        case record(PendingRecord, RecordCompletion)
        case job(Job)
    }

    struct PendingRecord: Sendable {
        /// The record, its bodies already framed as stored (`BodyCodec.encode`).
        var record: RequestRecord
        var requestSize: Int
        var responseSize: Int
        var requestTruncated: Bool
        var responseTruncated: Bool
    }

    struct Limits: Sendable {
        var queueCapacity: Int
        /// Bodies waiting for the writer, in bytes: the record bound alone would allow GBs of bodies.
        var queueCapacityBytes: Int
        var maxRecords: Int
        /// Records allowed above `maxRecords` before a prune runs (amortises the DELETE).
        var pruneSlack: Int
        /// Bytes of database pages in use (`PageUsage`) beyond which the oldest records are pruned.
        var maxLogBytes: Int
        /// A prune for bytes goes this far below `maxLogBytes` (amortises the DELETE).
        var byteSlack: Int
    }

    private let pool: DatabasePool
    private let metrics: StoreMetrics
    private let limits: Limits
    private let queue: ConditionLock
    private let state: QueueState
    private let thread = Mutex<NamedThread?>(nil)
    /// Rows in `requests`, as the writer knows it (only the writer thread touches it after start).
    private let rowCount: Atomic<Int>
    /// The files under the store; while they are unusable the writer refuses every write.
    private let storage: StorageWatch?
    /// Whether the writer connection is in `query_only` mode (writer thread only).
    private let refusingWrites = Atomic<Bool>(false)

    /// The mutable queue, guarded by `queue`.
    private final class QueueState: @unchecked Sendable {
        // Sendable proof: every access happens with the owning StoreWriter's `queue` lock held.
        var pending: [Item] = []
        var pendingRecords = 0
        var pendingBytes = 0
        var closing = false
    }

    init(pool: DatabasePool, metrics: StoreMetrics, limits: Limits, initialRowCount: Int, storage: StorageWatch?) {
        self.pool = pool
        self.storage = storage
        self.metrics = metrics
        self.limits = limits
        self.queue = ConditionLock()
        self.state = QueueState()
        self.rowCount = Atomic(initialRowCount)
    }

    func start() throws(StoreError) {
        let t = try NamedThread.start("hinge-db-writer") { [self] in self.run() }
        thread.withLock { $0 = t }
    }

    // MARK: Producers (any thread, never blocks on SQLite)

    /// Enqueues a record. The completion is called exactly once: on the writer thread after the commit
    /// (success or failure), or right here, before this returns, with `.queueFull` / `.closed`.
    func append(_ record: PendingRecord, completion: @escaping RecordCompletion) {
        queue.lock()
        if state.closing {
            queue.unlock()
            metrics.recordsRejected.wrappingAdd(1, ordering: .relaxed)
            completion(.failure(.closed))
            return
        }
        let bytes = record.record.requestBody.count + record.record.responseBody.count
        if state.pendingRecords >= limits.queueCapacity
            || (state.pendingRecords > 0 && state.pendingBytes + bytes > limits.queueCapacityBytes)
        {
            queue.unlock()
            metrics.recordsRejected.wrappingAdd(1, ordering: .relaxed)
            completion(.failure(.queueFull(capacity: limits.queueCapacity)))
            return
        }
        state.pending.append(.record(record, completion))
        state.pendingRecords += 1
        state.pendingBytes += bytes
        let wake = state.pending.count == 1
        metrics.queueDepth.wrappingAdd(1, ordering: .relaxed)
        queue.unlock()
        // The writer only waits when the queue is empty, so only the first item needs to wake it.
        if wake { queue.signal() }
    }

    /// Enqueues a job; false when the writer is closed (the job will not run).
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        queue.lock()
        if state.closing {
            queue.unlock()
            return false
        }
        state.pending.append(.job(job))
        let wake = state.pending.count == 1
        queue.unlock()
        if wake { queue.signal() }
        return true
    }

    /// Runs `body` on the writer thread and waits for its result: for callers that may block (tests, the
    /// CLI, `flush`). Event loops use the completion-based APIs instead.
    func perform<T: Sendable>(_ body: @escaping @Sendable (Connection) -> Result<T, StoreError>) -> Result<
        T, StoreError
    > {
        let done = OneShot<Result<T, StoreError>>()
        guard submit({ db in done.fulfil(body(db)) }) else { return .failure(.closed) }
        return done.wait()
    }

    /// Waits until everything enqueued before this call is committed (or failed).
    func flush() {
        _ = perform { _ in .success(()) }
    }

    /// Drains everything pending, commits it, stops the thread. Appends after this fail with `.closed`.
    func close() {
        queue.lock()
        state.closing = true
        queue.unlock()
        queue.broadcast()
        let t = thread.withLock { t -> NamedThread? in
            let old = t
            t = nil
            return old
        }
        t?.join()
    }

    // MARK: The writer thread

    private func run() {
        var batch: [Item] = []
        while true {
            queue.lock()
            while state.pending.isEmpty && !state.closing { queue.wait() }
            if state.pending.isEmpty {
                queue.unlock()
                return  // closing, and everything drained
            }
            swap(&batch, &state.pending)
            state.pendingRecords = 0
            state.pendingBytes = 0
            queue.unlock()
            process(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Commits each run of consecutive records; runs each job in queue order, after the records before it.
    /// The runs are slices of `batch`, read in place by index down to `RequestLog.insert` and the completions:
    /// copying a queued record retains and releases each of its arrays and strings (perf: retain/release
    /// went from 4.3 % to 2.9 % of the writer's samples without the copies).
    private func process(_ batch: [Item]) {
        guardWrites()
        var runStart = batch.startIndex
        for i in batch.indices {
            guard case .job(let job) = batch[i] else { continue }
            commit(batch[runStart..<i])
            // A job's own errors go to its own completion; the pool lock is the only thing that can
            // fail here (never: the writer lock is not fallible).
            _ = try? pool.write { (db) throws(StoreError) in job(db) }
            runStart = i + 1
        }
        commit(batch[runStart...])
    }

    /// While the files under the store are unusable, the writer connection is `query_only`: every write of a
    /// job (device profiles, clear) fails with `SQLITE_READONLY` instead of going to a deleted file, and
    /// records fail before reaching SQLite (`commitOne`). Lifted when the files are fine again (a file made
    /// writable again; a deleted file never comes back).
    private func guardWrites() {
        let refuse = storage?.isUnusable ?? false
        guard refuse != refusingWrites.load(ordering: .relaxed) else { return }
        let done: Void? = try? pool.write { (db) throws(StoreError) in
            try db.execute(refuse ? "PRAGMA query_only = ON" : "PRAGMA query_only = OFF")
        }
        if done != nil { refusingWrites.store(refuse, ordering: .relaxed) }
    }

    /// Commits `records` (all `.record` items) in transactions of at most `maxTransactionRecords`.
    private func commit(_ records: ArraySlice<Item>) {
        var start = records.startIndex
        while start < records.endIndex {
            let end = min(start + StoreWriter.maxTransactionRecords, records.endIndex)
            commitOne(records[start..<end])
            start = end
        }
    }

    /// Records per transaction: big enough that a transaction's fixed cost vanishes, small enough that
    /// the WAL stays small (checkpoints stay incremental) and the first completions of a huge backlog
    /// don't wait for the whole backlog.
    static let maxTransactionRecords = 1024

    private func commitOne(_ records: ArraySlice<Item>) {
        guard !records.isEmpty else { return }
        var ids: [Int64] = []
        ids.reserveCapacity(records.count)
        let result: Result<Void, StoreError>
        if let storage, storage.isUnusable {
            result = .failure(.storageUnusable(storage.problem ?? "the database files are unusable"))
        } else {
            do {
                try pool.write { (db) throws(StoreError) in
                    try db.transaction { () throws(StoreError) in
                        try RequestLog.insert(records, into: db, ids: &ids)
                    }
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
        }
        metrics.queueDepth.wrappingSubtract(records.count, ordering: .relaxed)
        switch result {
        case .success:
            metrics.commits.wrappingAdd(1, ordering: .relaxed)
            metrics.recordsWritten.wrappingAdd(records.count, ordering: .relaxed)
            metrics.lastBatchSize.store(records.count, ordering: .relaxed)
            if records.count > metrics.maxBatchSize.load(ordering: .relaxed) {
                metrics.maxBatchSize.store(records.count, ordering: .relaxed)
            }
            metrics.healthy.store(true, ordering: .releasing)
            for (id, i) in zip(ids, records.indices) {
                if case .record(_, let completion) = records[i] { completion(.success(RecordID(rawValue: id))) }
            }
            let rows = rowCount.wrappingAdd(records.count, ordering: .relaxed).newValue
            let bytes = (try? pool.write { (db) throws(StoreError) in try PageUsage.bytesInUse(db) }) ?? 0
            metrics.logBytes.store(bytes, ordering: .relaxed)
            if rows > limits.maxRecords + limits.pruneSlack || bytes > limits.maxLogBytes { prune() }
        case .failure(let error):
            metrics.commitFailures.wrappingAdd(1, ordering: .relaxed)
            metrics.recordsFailed.wrappingAdd(records.count, ordering: .relaxed)
            metrics.lastFailure.withLock { $0 = error }
            metrics.healthy.store(false, ordering: .releasing)
            for i in records.indices {
                if case .record(_, let completion) = records[i] { completion(.failure(error)) }
            }
        }
    }

    /// Deletes the oldest records beyond `maxRecords`, then the oldest records while the pages in use exceed
    /// `maxLogBytes - byteSlack`, each DELETE in its own small transaction (children go by `ON DELETE CASCADE`).
    private func prune() {
        do {
            let deleted = try pool.write { (db) throws(StoreError) -> Int in
                var deleted = 0
                if rowCount.load(ordering: .relaxed) > limits.maxRecords {
                    deleted += try db.transaction { () throws(StoreError) -> Int in
                        try db.run(
                            "DELETE FROM requests WHERE id <= (SELECT id FROM requests ORDER BY id DESC LIMIT 1 OFFSET ?)",
                            .int(Int64(limits.maxRecords)))
                        return db.changes
                    }
                }
                let target = limits.maxLogBytes - limits.byteSlack
                var used = try PageUsage.bytesInUse(db)
                // Each round deletes at least one record; the estimate of what a round frees is close, so
                // one round is the rule and the bound caps a pathological file.
                for _ in 0..<8 where used > target {
                    guard let cutoff = try PageUsage.oldestRecords(db, freeing: used - target) else { break }
                    deleted += try db.transaction { () throws(StoreError) -> Int in
                        try db.run("DELETE FROM requests WHERE id <= ?", .int(cutoff))
                        return db.changes
                    }
                    used = try PageUsage.bytesInUse(db)
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

    /// Called by jobs that change the row count (clear), on the writer thread with its connection.
    func resetRowCount(_ n: Int, _ db: Connection) {
        rowCount.store(n, ordering: .relaxed)
        if let bytes = try? PageUsage.bytesInUse(db) { metrics.logBytes.store(bytes, ordering: .relaxed) }
    }
}

/// What `--max-log-bytes` measures: the database's pages in use, `(page_count - freelist_count) × page_size`
/// — the bytes the file needs (bodies, rows, B-tree pages; device profiles and the schema are a few pages).
/// Deleted records' pages go to the free list and are reused, so the file does not grow past this bound
/// (plus one batch). Two header reads per committed batch, exact across restarts (it is the file itself).
enum PageUsage {
    static func bytesInUse(_ db: Connection) throws(StoreError) -> Int {
        let pages = try db.scalarInt("PRAGMA page_count") ?? 0
        let free = try db.scalarInt("PRAGMA freelist_count") ?? 0
        let size = try db.scalarInt("PRAGMA page_size") ?? 4096
        return Int(max(0, pages - free) * size)
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

/// A value handed from one thread to one waiter.
final class OneShot<T: Sendable>: @unchecked Sendable {
    // Sendable proof: `value` is only read and written with `lock` held.
    private let lock = ConditionLock()
    private var value: T?

    func fulfil(_ v: T) {
        lock.withLock { value = v }
        lock.broadcast()
    }

    func wait() -> T {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let value { return value }
            lock.wait()
        }
    }
}
