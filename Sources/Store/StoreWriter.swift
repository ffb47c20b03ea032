import Synchronization
import Threads

/// The one thread that writes: it runs the engine's writer side (`StoreEngine`, one writer connection) and
/// group-commits the request records of every event loop, whichever the engine.
///
/// Loop: wait until something is pending; when the last batch committed several records and more were
/// already waiting as it finished (the writer is the bottleneck), gather for up to
/// `Limits.gatherMicroseconds` more, or until `Limits.gatherRecords` records wait (the gathering window);
/// take *everything* pending (one swap under the lock); commit
/// consecutive records in one transaction; run the other jobs (device writes, clear, flush markers) each
/// in its own transaction, in queue order; call the completions; start again. Producers never touch the
/// database: `enqueue` is a lock, an array append and maybe a condition signal.
///
/// The gathering window trades latency under saturation for larger transactions: a commit costs about as
/// much for 8 records as for 20 (the WAL frames of the last pages, the locks, the wake-ups), so fewer commits
/// write fewer WAL bytes and take less of the writer's CPU. A lone client never waits for it: its batches
/// hold one record, and the writer commits the next at once.
final class StoreWriter: Sendable {
    typealias RecordCompletion = @Sendable (Result<RecordID, StoreError>) -> Void

    /// A job runs on the writer thread (where it may call the engine's writer side); it reports through its
    /// own closure.
    typealias Job = @Sendable () -> Void

    /// A queued job and its place among the queued records: it runs after the first `after` of them.
    struct QueuedJob: Sendable {
        var after: Int
        var job: Job
    }

    /// What the writer takes from the queue in one swap: the records in arrival order, their completions at
    /// the same indices, and the jobs, each placed after the records queued before it.
    struct Batch: Sendable {
        var records: [PendingRecord] = []
        var completions: [RecordCompletion] = []
        var jobs: [QueuedJob] = []

        var isEmpty: Bool { records.isEmpty && jobs.isEmpty }

        mutating func removeAll() {
            records.removeAll(keepingCapacity: true)
            completions.removeAll(keepingCapacity: true)
            jobs.removeAll(keepingCapacity: true)
        }
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
        /// The gathering window (see the type's comment); 0 turns gathering off.
        var gatherMicroseconds: Int = 0
        /// Records pending at which gathering stops early.
        var gatherRecords: Int = 64
    }

    private let engine: any StoreEngine
    private let metrics: StoreMetrics
    private let limits: Limits
    private let queue: ConditionLock
    private let state: QueueState
    private let thread = Mutex<NamedThread?>(nil)

    /// The mutable queue, guarded by `queue`.
    private final class QueueState: @unchecked Sendable {
        // Sendable proof: every access happens with the owning StoreWriter's `queue` lock held.
        var pending = Batch()
        var pendingBytes = 0
        var closing = false
        /// The writer is inside its gathering window: the record that brings the queued records to
        /// `gatherRecords`, or any job, wakes it.
        var gathering = false
    }

    init(engine: any StoreEngine, metrics: StoreMetrics, limits: Limits) {
        self.engine = engine
        self.metrics = metrics
        self.limits = limits
        self.queue = ConditionLock()
        self.state = QueueState()
    }

    func start() throws(StoreError) {
        let t = try NamedThread.start("hinge-db-writer") { [self] in self.run() }
        thread.withLock { $0 = t }
    }

    // MARK: Producers (any thread, never blocks on the database)

    /// Enqueues a record. The completion is called exactly once: on the writer thread after the commit
    /// (success or failure), or right here, before this returns, with `.queueFull` / `.closed`.
    func append(_ record: PendingRecord, completion: @escaping RecordCompletion) {
        queue.lock()
        let wasEmpty = state.pending.isEmpty
        if let refusal = enqueueLocked(record, completion) {
            queue.unlock()
            metrics.recordsRejected.wrappingAdd(1, ordering: .relaxed)
            completion(.failure(refusal))
            return
        }
        let wake = wasEmpty || (state.gathering && state.pending.records.count == limits.gatherRecords)
        metrics.queueDepth.wrappingAdd(1, ordering: .relaxed)
        queue.unlock()
        // The writer waits with an empty queue (the first item wakes it) or while gathering (the item that
        // completes the gathering target does).
        if wake { queue.signal() }
    }

    /// Enqueues `records` under one lock, with at most one wake-up of the writer, so that they can share a
    /// commit. The completion is called once per record, as `append` calls it; records past the queue's bounds
    /// are refused one by one, in order.
    func append(contentsOf records: [PendingRecord], completion: @escaping RecordCompletion) {
        var refusals: [StoreError] = []
        queue.lock()
        let wasEmpty = state.pending.isEmpty
        let before = state.pending.records.count
        for record in records {
            if let refusal = enqueueLocked(record, completion) { refusals.append(refusal) }
        }
        let after = state.pending.records.count
        let wake =
            after > before
            && (wasEmpty || (state.gathering && before < limits.gatherRecords && after >= limits.gatherRecords))
        metrics.queueDepth.wrappingAdd(after - before, ordering: .relaxed)
        queue.unlock()
        if wake { queue.signal() }
        if !refusals.isEmpty { metrics.recordsRejected.wrappingAdd(refusals.count, ordering: .relaxed) }
        for refusal in refusals { completion(.failure(refusal)) }
    }

    /// Queues one record, `queue` held: nil, or why it is refused (closed, or a bound of the queue reached).
    @inline(__always)
    private func enqueueLocked(_ record: PendingRecord, _ completion: @escaping RecordCompletion) -> StoreError? {
        if state.closing { return .closed }
        let bytes = record.record.requestBody.count + record.record.responseBody.count
        let queued = state.pending.records.count
        if queued >= limits.queueCapacity || (queued > 0 && state.pendingBytes + bytes > limits.queueCapacityBytes) {
            return .queueFull(capacity: limits.queueCapacity)
        }
        state.pending.records.append(record)
        state.pending.completions.append(completion)
        state.pendingBytes += bytes
        return nil
    }

    /// Enqueues a job; false when the writer is closed (the job will not run).
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        queue.lock()
        if state.closing {
            queue.unlock()
            return false
        }
        let wake = state.pending.isEmpty || state.gathering
        state.pending.jobs.append(QueuedJob(after: state.pending.records.count, job: job))
        state.gathering = false
        queue.unlock()
        if wake { queue.signal() }
        return true
    }

    /// Runs `body` on the writer thread and waits for its result: for callers that may block (tests, the
    /// CLI, `flush`). Event loops use the completion-based APIs instead.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, StoreError>) -> Result<T, StoreError> {
        let done = OneShot<Result<T, StoreError>>()
        guard submit({ done.fulfil(body()) }) else { return .failure(.closed) }
        return done.wait()
    }

    /// Waits until everything enqueued before this call is committed (or failed).
    func flush() {
        _ = perform { .success(()) }
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
        var batch = Batch()
        var times = RecordTimeFloor()
        var lastRecords = 0  // records in the last batch
        while true {
            queue.lock()
            var waited = false
            while state.pending.isEmpty && !state.closing {
                queue.wait()
                waited = true
            }
            if !waited && lastRecords >= 2 && limits.gatherMicroseconds > 0 { gather() }
            if state.pending.isEmpty {
                queue.unlock()
                return  // closing, and everything drained
            }
            swap(&batch, &state.pending)
            lastRecords = batch.records.count
            state.pendingBytes = 0
            queue.unlock()
            times.raise(&batch.records, engine: engine)
            process(batch)
            batch.removeAll()
        }
    }

    /// The gathering window, entered with the lock held when records were pending as a batch of several
    /// finished; returns with the lock held when the window ends, `gatherRecords` records wait, a job
    /// arrives (`submit` clears `gathering`) or the writer closes.
    private func gather() {
        guard state.pending.records.count < limits.gatherRecords, state.pending.jobs.isEmpty else { return }
        let deadline = ConditionLock.deadline(afterNanoseconds: limits.gatherMicroseconds * 1000)
        state.gathering = true
        while state.gathering && !state.closing && state.pending.records.count < limits.gatherRecords
            && !ConditionLock.hasPassed(deadline)
        {
            queue.wait(until: deadline)
        }
        state.gathering = false
    }

    /// Commits each run of consecutive records; runs each job in queue order, after the records before it.
    /// The runs are index ranges of `batch`, read in place down to the engine's insert and the completions:
    /// copying a queued record retains and releases each of its arrays and strings.
    private func process(_ batch: Batch) {
        engine.prepareBatch()
        var start = 0
        for queued in batch.jobs {
            commit(batch, start..<queued.after)
            queued.job()
            start = queued.after
        }
        commit(batch, start..<batch.records.count)
    }

    /// Commits `range` of the batch's records in transactions of at most `maxTransactionRecords`.
    private func commit(_ batch: Batch, _ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + StoreWriter.maxTransactionRecords, range.upperBound)
            commitOne(batch, start..<end)
            start = end
        }
    }

    /// Records per transaction: big enough that a transaction's fixed cost vanishes, small enough that
    /// the WAL stays small (checkpoints stay incremental) and the first completions of a huge backlog
    /// don't wait for the whole backlog.
    static let maxTransactionRecords = 1024

    private func commitOne(_ batch: Batch, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let completions = batch.completions[range]
        var ids: [Int64] = []
        ids.reserveCapacity(range.count)
        let result: Result<Void, StoreError>
        do {
            try engine.insertRecords(batch.records[range], ids: &ids)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        metrics.queueDepth.wrappingSubtract(range.count, ordering: .relaxed)
        switch result {
        case .success:
            metrics.commits.wrappingAdd(1, ordering: .relaxed)
            metrics.recordsWritten.wrappingAdd(range.count, ordering: .relaxed)
            metrics.lastBatchSize.store(range.count, ordering: .relaxed)
            if range.count > metrics.maxBatchSize.load(ordering: .relaxed) {
                metrics.maxBatchSize.store(range.count, ordering: .relaxed)
            }
            metrics.healthy.store(true, ordering: .releasing)
            for (id, completion) in zip(ids, completions) { completion(.success(RecordID(rawValue: id))) }
            engine.didCommit(records: range.count)
        case .failure(let error):
            metrics.commitFailures.wrappingAdd(1, ordering: .relaxed)
            metrics.recordsFailed.wrappingAdd(range.count, ordering: .relaxed)
            metrics.lastFailure.withLock { $0 = error }
            metrics.healthy.store(false, ordering: .releasing)
            for completion in completions { completion(.failure(error)) }
        }
    }
}

/// Record times in id order (docs/store.md#record-time). A record's time is taken when its request arrives,
/// on its event loop, but its id when the writer inserts it, in queue order: a request that arrived first and
/// was answered later (a slower resolution, another loop) is queued after one that arrived later. The writer
/// raises such a record's time to the time of the record queued before it, so that times never decrease as ids
/// increase, across batches and restarts (the floor starts at the newest stored record's time). Writer thread
/// only; a pass over the batch's times before it is committed.
struct RecordTimeFloor {
    /// The largest time given to a record so far.
    private var floor = Int64.min
    /// Whether `floor` took the newest stored record into account (read again until it could be).
    private var readStored = false

    mutating func raise(_ records: inout [StoreWriter.PendingRecord], engine: any StoreEngine) {
        if records.isEmpty { return }
        if !readStored {
            do throws(StoreError) {
                if let newest = try engine.newestRecordTime() { floor = max(floor, newest.millisecondsSinceEpoch) }
                readStored = true
            } catch {
                // The database did not answer (its insert will fail too): the records of this process stay in
                // order, and the next batch asks again.
            }
        }
        for i in records.indices {
            let time = records[i].record.receivedAt.millisecondsSinceEpoch
            if time < floor {
                records[i].record.receivedAt = Timestamp(millisecondsSinceEpoch: floor)
            } else {
                floor = time
            }
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
