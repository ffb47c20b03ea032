import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Read workers (request-log reads off the event loops)")
struct ReadWorkersTests {
    /// Holds the workers' only thread in a job until the returned semaphore is signalled.
    static func holdThread(_ workers: ReadWorkers) -> DispatchSemaphore? {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        guard
            workers.submit({
                entered.signal()
                release.wait()
            })
        else { return nil }
        return entered.wait(timeout: .now() + 10) == .success ? release : nil
    }

    @Test func jobsRunOnNamedReadThreadsNotTheCaller() throws {
        let workers = ReadWorkers(maxThreads: 2, capacity: 8)
        defer { workers.close() }
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            #expect(
                workers.submit {
                    names.withLock { $0.append(currentThreadName()) }
                    done.signal()
                })
        }
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(names.withLock { $0 } == Array(repeating: "hinge-db-read", count: 4))
        #expect(currentThreadName() != "hinge-db-read")
    }

    @Test func queueIsBoundedFIFOAndRefusesAtOnceWhenFull() throws {
        let workers = ReadWorkers(maxThreads: 1, capacity: 2)
        defer { workers.close() }
        let release = try #require(ReadWorkersTests.holdThread(workers))
        let order = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        #expect(
            workers.submit {
                order.withLock { $0.append(1) }
                done.signal()
            })
        #expect(
            workers.submit {
                order.withLock { $0.append(2) }
                done.signal()
            })
        #expect(workers.waiting == 2)
        #expect(!workers.submit { order.withLock { $0.append(3) } })  // full: refused, never runs
        release.signal()
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(order.withLock { $0 } == [1, 2])
        // Room again once the queue drained.
        #expect(workers.submit { done.signal() })
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func closeRunsWhatIsQueuedThenRefuses() throws {
        let workers = ReadWorkers(maxThreads: 1, capacity: 4)
        let release = try #require(ReadWorkersTests.holdThread(workers))
        let ran = Atomic<Int>(0)
        for _ in 0..<3 { #expect(workers.submit { ran.add(1, ordering: .relaxed) }) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { release.signal() }
        workers.close()  // returns after the held job and the three queued ones ran
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(!workers.submit { ran.add(1, ordering: .relaxed) })
        #expect(workers.waiting == 0)
    }

    @Test func concurrentSubmitsEachRunExactlyOnceOnAtMostMaxThreads() throws {
        let workers = ReadWorkers(maxThreads: 3, capacity: 10_000)
        let runs = Mutex<[Int: Int]>([:])
        let threads = Mutex<Set<UInt>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<500 {
                let key = t * 1000 + i
                #expect(
                    workers.submit {
                        runs.withLock { $0[key, default: 0] += 1 }
                        threads.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                    })
            }
        }
        workers.close()
        let counts = runs.withLock { $0 }
        #expect(counts.count == 4000)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect((1...3).contains(threads.withLock { $0.count }))
    }

    @Test func storeReadsThroughItsWorkersAndClosesThem() throws {
        let store = try Store.open(.init(path: ":memory:", maxReaders: 2, readQueueCapacity: 3))
        #expect(store.readWorkers.maxThreads == 2)
        #expect(store.readWorkers.capacity == 3)
        let done = DispatchSemaphore(value: 0)
        let count = Mutex<Int?>(nil)
        #expect(
            store.readWorkers.submit {
                count.withLock { $0 = (try? store.requestLog.list(RecordQuery()))?.items.count }
                done.signal()
            })
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(count.withLock { $0 } == 0)
        store.close()
        #expect(!store.readWorkers.submit {})
    }
}
