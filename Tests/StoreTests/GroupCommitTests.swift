import Dispatch
import Synchronization
import Testing

@testable import Store

/// The writer's gathering window (`Store.Configuration.commitGatherMicroseconds`): a saturated writer waits a
/// little for more records so that one transaction carries them; a lone client never waits for it. The
/// windows here are seconds long, so that waiting for one is unmistakable next to not waiting.
@Suite("Group commit: the gathering window")
struct GroupCommitTests {
    /// A completion that, the first time it is called (on the writer thread, before the writer takes its next
    /// batch), queues `count` records completing into `counter` and signals `queued`; every call then
    /// completes into `counter` itself.
    private static func queueing(
        _ count: Int, into store: Store, counter: CompletionCounter, then queued: DispatchSemaphore
    ) -> @Sendable (Result<RecordID, StoreError>) -> Void {
        let first = Mutex(true)
        return { result in
            let isFirst = first.withLock { f in
                defer { f = false }
                return f
            }
            if isFirst {
                for _ in 0..<count { store.requestLog.append(record(), completion: counter.completion) }
                queued.signal()
            }
            counter.completion(result)
        }
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    @Test(arguments: EngineTarget.all) func aLoneClientIsNeverHeldByTheWindow(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.commitGatherMicroseconds = 5_000_000 }
        defer { store.close() }
        let start = DispatchTime.now()
        for i in 0..<10 {
            let counter = CompletionCounter()
            counter.expect(1)
            store.requestLog.append(record(status: 200 + i), completion: counter.completion)
            #expect(counter.wait(seconds: 4), "record \(i) waited for the window")
        }
        #expect(Self.seconds(since: start) < 2.5)
        #expect(store.counters.commits == 10 && store.counters.maxBatchSize == 1)
    }

    @Test(arguments: EngineTarget.all) func aSaturatedWriterGathersUntilTheTarget(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.commitGatherMicroseconds = 5_000_000 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(66)
        // Two records wait behind a held writer and commit together; the first one's completion (on the
        // writer thread, before it takes its next batch) queues five more: a batch of several ended with
        // records waiting, so the writer gathers, and the test's 59 records then bring the queue to the
        // target of 64, which ends the window long before its 5 s.
        let queued = DispatchSemaphore(value: 0)
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let chained = Self.queueing(5, into: store, counter: counter, then: queued)
        for _ in 0..<2 { store.requestLog.append(record(), completion: chained) }
        let start = DispatchTime.now()
        release.signal()
        #expect(queued.wait(timeout: .now() + 4) == .success)
        for _ in 0..<59 { store.requestLog.append(record(), completion: counter.completion) }
        #expect(counter.wait(seconds: 4), "the target of 64 records did not end the window")
        #expect(Self.seconds(since: start) < 4)
        #expect(counter.successes.withLock { $0.count } == 66)
        // Whether the test's records arrive before or during the window, the 64 after the first two go in
        // one transaction.
        #expect(store.counters.maxBatchSize == 64)
        #expect(store.counters.commits == 2)
    }

    @Test(arguments: EngineTarget.all) func aJobEndsTheWindow(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.commitGatherMicroseconds = 5_000_000 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(5)
        let queued = DispatchSemaphore(value: 0)
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let chained = Self.queueing(3, into: store, counter: counter, then: queued)
        for _ in 0..<2 { store.requestLog.append(record(), completion: chained) }
        let start = DispatchTime.now()
        release.signal()
        #expect(queued.wait(timeout: .now() + 4) == .success)
        store.writer.flush()  // a job: it cuts the window short instead of waiting 5 s behind it
        #expect(Self.seconds(since: start) < 4)
        #expect(counter.wait(seconds: 4))
        #expect(store.counters.recordsWritten == 5 && store.counters.commits == 2)
    }

    @Test func theWindowIsValidated() throws {
        let database = try TestDatabase(.sqlite)
        #expect(throws: StoreError.self) { _ = try database.open { $0.commitGatherMicroseconds = -1 } }
        #expect(throws: StoreError.self) { _ = try database.open { $0.commitGatherMicroseconds = 20_000_000 } }
    }
}
