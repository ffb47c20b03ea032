import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Request log faults and concurrency")
struct RequestLogFaultTests {
    @Test(arguments: EngineTarget.all) func concurrentAppendsAreAllCommittedExactlyOnce(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let threads = 8
        let perThread = 1500
        let counter = CompletionCounter()
        counter.expect(threads * perThread)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<perThread {
                store.requestLog.append(
                    record(device: "t\(t)", status: 200, codes: ["i\(i % 7)"]), completion: counter.completion)
            }
        }
        #expect(counter.wait(seconds: 60))
        #expect(counter.failures.withLock { $0.isEmpty })
        let ids = counter.successes.withLock { $0 }
        #expect(ids.count == threads * perThread)
        #expect(Set(ids).count == ids.count)
        #expect(try store.requestLog.count() == threads * perThread)
        for t in 0..<threads {
            #expect(try store.requestLog.list(RecordQuery(device: "t\(t)", limit: 500)).items.count == 500)
        }
        let c = store.counters
        #expect(c.recordsWritten == threads * perThread && c.commitFailures == 0 && c.queueDepth == 0)
        #expect(c.commits <= c.recordsWritten)
        store.close()
    }

    @Test(arguments: EngineTarget.all) func closeDrainsAndCommitsEverythingPending(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        let n = 3000
        let counter = CompletionCounter()
        counter.expect(n)
        for i in 0..<n { store.requestLog.append(record(status: 200 + i % 5), completion: counter.completion) }
        store.close()  // no flush first: close must drain
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0.count } == n)
        // After close: refused at once, completion called synchronously.
        let late = CompletionCounter()
        late.expect(1)
        store.requestLog.append(record(), completion: late.completion)
        #expect(late.wait(seconds: 1))
        #expect(late.failures.withLock { $0 } == [.closed])
        #expect(!store.isHealthy)
        let reopened = try database.open()
        defer { reopened.close() }
        #expect(try reopened.requestLog.count() == n)
    }

    @Test func diskFullFailsCompletionsTurnsUnhealthyAndRecovers() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let ok = CompletionCounter()
        ok.expect(1)
        store.requestLog.append(record(), completion: ok.completion)
        #expect(ok.wait())
        #expect(store.isHealthy)

        try store.simulateDiskFull(true)
        let big = incompressible(200_000)
        let failing = CompletionCounter()
        failing.expect(5)
        for _ in 0..<5 { store.requestLog.append(record(body: big), completion: failing.completion) }
        #expect(failing.wait())
        let errors = failing.failures.withLock { $0 }
        #expect(errors.count == 5)
        #expect(
            errors.allSatisfy { e in
                if case .sqlite(let f) = e { return f.primaryCode == SQLITE_FULL && f.operation.contains("INSERT") }
                return false
            })
        #expect(!store.isHealthy && !store.requestLog.isHealthy)
        #expect(store.counters.commitFailures >= 1 && store.counters.recordsFailed == 5)
        #expect(try store.requestLog.count() == 1)  // nothing half-written

        try store.simulateDiskFull(false)
        let recovered = CompletionCounter()
        recovered.expect(1)
        store.requestLog.append(record(body: big), completion: recovered.completion)
        #expect(recovered.wait())
        #expect(recovered.successes.withLock { $0.count } == 1)
        #expect(store.isHealthy)
        #expect(try store.requestLog.count() == 2)
    }

    /// The statuses of the records `counter` saw committed, in id order.
    private func committedStatuses(_ counter: CompletionCounter, in store: Store) throws -> [Int] {
        try counter.successes.withLock { $0 }.map(\.rawValue).sorted().map { id in
            try #require(try store.requestLog.record(id: RecordID(rawValue: id))).summary.status
        }
    }

    /// Queued one by one or together (`append(contentsOf:)`), records past the bound are refused at once, one
    /// by one, and the queued ones keep their order.
    @Test(arguments: EngineTarget.all, [false, true])
    func aFullQueueRefusesAtOnceWithoutBlocking(_ engine: EngineTarget, together: Bool) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.queueCapacity = 4 }
        defer { store.close() }
        // Hold the writer thread in a job so that nothing drains, deterministically.
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let counter = CompletionCounter()
        counter.expect(6)
        let records = (0..<6).map { record(status: 200 + $0) }
        if together {
            store.requestLog.append(contentsOf: records, completion: counter.completion)
        } else {
            for r in records { store.requestLog.append(r, completion: counter.completion) }
        }
        #expect(counter.failures.withLock { $0 } == [.queueFull(capacity: 4), .queueFull(capacity: 4)])
        #expect(store.counters.queueDepth == 4 && store.counters.recordsRejected == 2)
        release.signal()
        #expect(counter.wait())
        #expect(try committedStatuses(counter, in: store) == [200, 201, 202, 203])
        #expect(store.counters.maxBatchSize == 4)  // the four waited and went in one transaction
        store.close()
        counter.expect(1)
        store.requestLog.append(contentsOf: [record()], completion: counter.completion)
        #expect(counter.wait() && counter.failures.withLock { $0.last } == .closed)
    }

    @Test(arguments: EngineTarget.all) func recordsQueuedTogetherShareOneCommitInOrder(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(5)
        store.requestLog.append(contentsOf: (0..<5).map { record(status: 200 + $0) }, completion: counter.completion)
        #expect(counter.wait())
        // One queue operation woke an idle writer once: the five went in one transaction, with consecutive ids.
        #expect(store.counters.commits == 1 && store.counters.maxBatchSize == 5)
        let ids = counter.successes.withLock { $0 }.map(\.rawValue).sorted()
        #expect(ids.count == 5 && ids.last! - ids.first! == 4)
        #expect(try committedStatuses(counter, in: store) == [200, 201, 202, 203, 204])
    }

    @Test(arguments: EngineTarget.all) func theQueueIsAlsoBoundedInBytes(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open {
            $0.queueCapacity = 100
            $0.queueCapacityBytes = 10_000
        }
        defer { store.close() }
        let release = try #require(holdWriter(store), "the writer thread did not take the job")
        let counter = CompletionCounter()
        counter.expect(4)
        let body = incompressible(4_000)  // + ~14 bytes of frames and response each
        for _ in 0..<4 { store.requestLog.append(record(body: body), completion: counter.completion) }
        #expect(counter.failures.withLock { $0 } == [.queueFull(capacity: 100), .queueFull(capacity: 100)])
        release.signal()
        #expect(counter.wait())
        #expect(counter.successes.withLock { $0.count } == 2)
    }
}
