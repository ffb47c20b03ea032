import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Threads

@Suite struct WorkPoolTests {
    @Test func runsEveryJobOnANamedWorkerThread() {
        let pool = WorkPool(threads: 2, capacity: 64)
        let done = Gate()
        let names = Mutex<[String]>([])
        for _ in 0..<20 {
            #expect(
                pool.submit {
                    var buf = [CChar](repeating: 0, count: 32)
                    let fd = open("/proc/thread-self/comm", O_RDONLY)
                    let n = read(fd, &buf, 31)
                    close(fd)
                    let name = String(decoding: buf[0..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    names.withLock { $0.append(name.trimmingSuffix("\n")) }
                    done.arrive()
                })
        }
        done.waitForArrivals(20)
        pool.close()
        let seen = names.withLock { $0 }
        #expect(seen.count == 20)
        #expect(Set(seen) == ["hinge-work"])
    }

    @Test func refusesWhenEveryThreadIsBusyAndTheQueueIsFull() {
        let gate = Gate()
        let started = Gate()
        let pool = WorkPool(
            threads: 1, capacity: 2,
            beforeEachJob: {
                started.arrive()
                gate.wait()
            })
        let ran = Atomic<Int>(0)
        #expect(pool.submit { ran.add(1, ordering: .relaxed) })
        started.waitForArrivals(1)  // the first job holds the only thread
        #expect(pool.submit { ran.add(1, ordering: .relaxed) })
        #expect(pool.submit { ran.add(1, ordering: .relaxed) })
        #expect(!pool.submit { ran.add(100, ordering: .relaxed) })  // two wait already
        #expect(pool.load.waiting == 2)
        #expect(pool.load.running == 1)
        gate.open()
        pool.close()  // runs what was queued, then joins
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(!pool.submit {})  // closed
    }
}

extension String {
    fileprivate func trimmingSuffix(_ s: String) -> String { hasSuffix(s) ? String(dropLast(s.count)) : self }
}
