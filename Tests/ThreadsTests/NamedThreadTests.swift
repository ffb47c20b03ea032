import Synchronization
import TestSupport
import Testing
import Threads

@Suite struct NamedThreadTests {
    /// What the thread itself reads from `/proc/thread-self/comm`.
    static func ownName() -> String {
        guard let bytes = readFile("/proc/thread-self/comm") else { return "" }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    @Test func theThreadCarriesItsName() throws {
        let seen = Mutex<String?>(nil)
        let t = try NamedThread(name: "hinge-test") { seen.withLock { $0 = NamedThreadTests.ownName() } }
        t.join()
        #expect(seen.withLock { $0 } == "hinge-test")
        #expect(NamedThreadTests.ownName() != "hinge-test")
    }

    @Test func aLongNameIsCutToFifteenBytes() throws {
        let seen = Mutex<String?>(nil)
        let t = try NamedThread(name: "hinge-a-very-long-thread-name") {
            seen.withLock { $0 = NamedThreadTests.ownName() }
        }
        t.join()
        #expect(seen.withLock { $0 } == "hinge-a-very-lo")
        #expect(NamedThread.maxNameBytes == 15)
    }

    /// `join` returns only after the body ran to its end; a second `join` returns at once.
    @Test func joinWaitsForTheBodyAndIsIdempotent() throws {
        let steps = Mutex<[Int]>([])
        let t = try NamedThread(name: "hinge-join") {
            for i in 0..<1000 { steps.withLock { $0.append(i) } }
        }
        t.join()
        #expect(steps.withLock { $0 } == Array(0..<1000))
        t.join()
    }

    /// A thread that drops the last reference to its owner joins itself: that must not deadlock.
    @Test func joiningFromTheThreadItselfReturns() throws {
        let handle = Mutex<NamedThread?>(nil)
        let ready = Mutex<Bool>(false)
        let done = Mutex<Bool>(false)
        let t = try NamedThread(name: "hinge-self") {
            while !ready.withLock({ $0 }) {}
            handle.withLock { $0 }?.join()
            done.withLock { $0 = true }
        }
        handle.withLock { $0 = t }
        ready.withLock { $0 = true }
        while !done.withLock({ $0 }) {}
        #expect(done.withLock { $0 })
    }
}
