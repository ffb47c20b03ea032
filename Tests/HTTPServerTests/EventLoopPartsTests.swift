import Dispatch
import Synchronization
import Testing
import Threads

@testable import HTTPServer

/// A connection for the parts' tests (nothing is read or written through it).
private func connection(fd: Int32) -> HTTPConnection {
    HTTPConnection(
        fd: fd, id: 0, limits: HTTPParser.Limits(), machineLimits: .init(Configuration()), now: 0, interest: 0)
}

private func limits(
    headerRead: UInt64, bodyRead: UInt64 = 10_000_000_000, keepAliveIdle: UInt64 = 60_000_000_000,
    slowReaderGrace: UInt64 = 2_000_000_000
) -> ConnectionStateMachine.Limits {
    .init(
        headerRead: headerRead, bodyRead: bodyRead, keepAliveIdle: keepAliveIdle, linger: 2_000_000_000,
        maxRequests: 1000, slowReaderGrace: slowReaderGrace)
}

extension ServerMetrics {
    /// `openConnections` and `bufferedResponseBytes` now (an atomic cannot be read inside `#expect`).
    var openNow: Int { openConnections.load(ordering: .relaxed) }
    var bufferedNow: Int { bufferedResponseBytes.load(ordering: .relaxed) }
}

extension LoopMetrics {
    var assignedNow: Int { load.load(ordering: .relaxed) }
}

/// `ConnectionTable`: a loop's open connections by descriptor.
@Suite struct ConnectionTableTests {
    @Test func aConnectionIsFoundByItsDescriptorUntilItCloses() {
        var table = ConnectionTable()
        let a = connection(fd: 5)
        let b = connection(fd: 9)
        table.insert(a)
        table.insert(b)
        #expect(table[5] === a)
        #expect(table[9] === b)
        #expect(table[7] == nil)
        #expect(table[100] == nil)
        #expect(table.live == 2)
        let answer1 = table.remove(a)
        #expect(answer1)
        let answer2 = table.remove(a)
        #expect(!answer2)
        #expect(table[5] == nil)
        #expect(table.live == 1)
    }

    @Test func aClosedConnectionIsNotMistakenForTheNextOneOnItsDescriptor() {
        var table = ConnectionTable()
        let old = connection(fd: 4)
        table.insert(old)
        _ = table.remove(old)
        let reused = connection(fd: 4)
        table.insert(reused)
        #expect(table.contains(reused))
        #expect(!table.contains(old))
        let answer3 = table.remove(old)
        #expect(!answer3)
        #expect(table[4] === reused)
    }

    @Test func idsStartAtOneAndNeverRepeat() {
        var table = ConnectionTable()
        let ids = (0..<1000).map { _ in table.newID() }
        #expect(ids.first == 1)
        #expect(Set(ids).count == 1000)
    }

    @Test func aFloodThatHasMostlyClosedAsksForOneTrim() {
        var table = ConnectionTable()
        let all = (0..<300).map { connection(fd: Int32($0)) }
        for c in all { table.insert(c) }
        #expect(table.highWater == 300)
        let answer4 = table.floodEnded()
        #expect(!answer4)
        for c in all[0..<220] { _ = table.remove(c) }
        let answer5 = table.floodEnded()
        #expect(!answer5)  // 80 of 300 still open: more than a quarter
        for c in all[220..<230] { _ = table.remove(c) }
        let answer6 = table.floodEnded()
        #expect(answer6)  // 70: a quarter or less
        #expect(table.highWater == 70)
        let answer7 = table.floodEnded()
        #expect(!answer7)
    }

    @Test func fewConnectionsAreNoFlood() {
        var table = ConnectionTable()
        let all = (0..<255).map { connection(fd: Int32($0)) }
        for c in all { table.insert(c) }
        for c in all { _ = table.remove(c) }
        let answer8 = table.floodEnded()
        #expect(!answer8)
    }
}

/// `LoopTimers`: the tick, `epoll_wait`'s timeout, accept pauses, the shutdown deadline, heap trims.
@Suite struct LoopTimersTests {
    @Test func theTickIsAQuarterOfTheShortestTimeoutWithin5And500Milliseconds() {
        #expect(LoopTimers.tickInterval(limits(headerRead: 1_000_000_000)) == 250_000_000)
        #expect(
            LoopTimers.tickInterval(limits(headerRead: 10_000_000_000, slowReaderGrace: 800_000_000)) == 200_000_000)
        #expect(LoopTimers.tickInterval(limits(headerRead: 10_000_000_000)) == 500_000_000)
        #expect(LoopTimers.tickInterval(limits(headerRead: 8_000_000)) == 5_000_000)
    }

    @Test func epollWaitsUntilTheNextTickRoundedUpToAMillisecond() {
        var timers = LoopTimers(limits: limits(headerRead: 1_000_000_000))
        timers.start(at: 7_000)
        #expect(timers.waitMilliseconds == 250)
        #expect(!timers.tickDue)
        timers.now = 7_000 + 100_000_001
        #expect(timers.waitMilliseconds == 150)
        timers.now = 7_000 + 250_000_000
        #expect(timers.waitMilliseconds == 0)
        #expect(timers.tickDue)
        timers.now += 3
        timers.ticked()
        #expect(timers.nextTick == 7_000 + 500_000_003)
    }

    @Test func acceptingResumesOneTickAfterAPause() {
        var timers = LoopTimers(limits: limits(headerRead: 1_000_000_000))
        timers.start(at: 0)
        let answer9 = timers.acceptingResumes()
        #expect(!answer9)
        timers.now = 1_000
        timers.pauseAccepting()
        timers.now = 250_000_999
        let answer10 = timers.acceptingResumes()
        #expect(!answer10)
        timers.now = 250_001_000
        let answer11 = timers.acceptingResumes()
        #expect(answer11)
        let answer12 = timers.acceptingResumes()
        #expect(!answer12)
    }

    @Test func aShuttingDownLoopStopsWhenNothingIsOpenOrAtItsDeadline() {
        var timers = LoopTimers(limits: limits(headerRead: 1_000_000_000))
        timers.now = 100
        #expect(!timers.stopsAfterShutdown(liveConnections: 1))
        #expect(timers.stopsAfterShutdown(liveConnections: 0))
        timers.stopDeadline = 200
        #expect(!timers.stopsAfterShutdown(liveConnections: 3))
        timers.now = 200
        #expect(timers.stopsAfterShutdown(liveConnections: 3))
    }

    @Test func aLargeResponseTrimsAtMostOnceASecondAndOnceMoreASecondAfterTheLast() {
        var timers = LoopTimers(limits: limits(headerRead: 1_000_000_000))
        timers.now = 10_000_000_000
        let answer13 = timers.trimsAfterLargeResponse()
        #expect(!answer13)  // nothing large was freed
        timers.noteLargeFree()
        let answer14 = timers.trimsAfterLargeResponse()
        #expect(answer14)
        timers.now = 10_500_000_000
        let answer15 = timers.trimsAfterLargeResponse()
        #expect(!answer15)  // within a second of the last trim
        timers.now = 11_000_000_000
        let answer16 = timers.trimsAfterLargeResponse()
        #expect(answer16)  // a second after the last large free: the last one
        timers.now = 12_500_000_000
        let answer17 = timers.trimsAfterLargeResponse()
        #expect(!answer17)
    }
}

/// `ResponseQueue`: what other threads hand to a loop, and the wake-up.
@Suite struct ResponseQueueTests {
    @Test func aBatchOfMessagesFromManyThreadsCostsOneWakeUp() throws {
        let queue = try ResponseQueue()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for i in 0..<50 { queue.send(.connection(Int32(t * 100 + i))) }
        }
        #expect(queue.wakeUpsPending() == 1)
        var taken: [LoopMessage] = []
        queue.take(into: &taken)
        let fds = taken.compactMap { message -> Int32? in
            if case .connection(let fd) = message { return fd }
            return nil
        }
        #expect(fds.count == 200)
        for t in 0..<4 {  // each thread's messages in the order it sent them
            #expect(fds.filter { $0 / 100 == t } == (0..<50).map { Int32(t * 100 + $0) })
        }
        #expect(!queue.hasMessages)
        queue.send(.shutdown(deadlineNanoseconds: 7))
        #expect(queue.hasMessages)
        #expect(queue.wakeUpsPending() == 1)  // the inbox was empty again: a new wake-up
    }

    @Test func takingClearsTheWakeUp() throws {
        let queue = try ResponseQueue()
        queue.send(.shutdown(deadlineNanoseconds: 1))
        queue.send(.shutdown(deadlineNanoseconds: 2))
        var taken: [LoopMessage] = []
        queue.take(into: &taken)
        #expect(taken.count == 2)
        #expect(queue.wakeUpsPending() == 0)
    }

    @Test func onTheLoopsThreadAResponseIsHandedOverInOrderWithoutTheInbox() throws {
        let queue = try ResponseQueue()
        queue.bindToCurrentThread()
        queue.deliver(fd: 5, connectionID: 1, response: .text("a"))
        queue.deliver(fd: 6, connectionID: 2, response: .text("b"))
        #expect(!queue.hasMessages)
        #expect(queue.wakeUpsPending() == 0)
        let first = try #require(queue.nextHandedOver())
        #expect(first.fd == 5 && first.connectionID == 1 && first.response == .text("a"))
        queue.deliver(fd: 7, connectionID: 3, response: .text("c"))  // handed over while delivering
        #expect(queue.nextHandedOver()?.response == .text("b"))
        #expect(queue.nextHandedOver()?.response == .text("c"))
        #expect(queue.nextHandedOver() == nil)
        queue.deliver(fd: 8, connectionID: 4, response: .text("d"))
        #expect(queue.nextHandedOver()?.fd == 8)
        #expect(queue.nextHandedOver() == nil)
    }

    @Test func fromAnotherThreadAResponseGoesThroughTheInbox() throws {
        let queue = try ResponseQueue()
        queue.bindToCurrentThread()
        let thread = try NamedThread(name: "worker") {
            queue.deliver(fd: 5, connectionID: 9, response: .text("late"))
        }
        thread.join()
        #expect(queue.nextHandedOver() == nil)
        #expect(queue.wakeUpsPending() == 1)
        var taken: [LoopMessage] = []
        queue.take(into: &taken)
        guard case .response(let fd, let id, let response) = try #require(taken.first) else {
            Issue.record("not a response: \(taken)")
            return
        }
        #expect(fd == 5 && id == 9 && response == .text("late"))
    }

    @Test func aJobRunsAtOnceOnTheLoopsThreadAndIsQueuedFromAnother() throws {
        let queue = try ResponseQueue()
        queue.bindToCurrentThread()
        let ran = Atomic<Int>(0)
        queue.run { ran.add(1, ordering: .relaxed) }
        let ranAtOnce = ran.load(ordering: .relaxed)
        #expect(ranAtOnce == 1)
        let thread = try NamedThread(name: "worker") { queue.run { ran.add(10, ordering: .relaxed) } }
        thread.join()
        let ranElsewhere = ran.load(ordering: .relaxed)
        #expect(ranElsewhere == 1)  // waits for the loop
        var taken: [LoopMessage] = []
        queue.take(into: &taken)
        for case .job(let job) in taken { job() }
        let ranAfter = ran.load(ordering: .relaxed)
        #expect(ranAfter == 11)
    }

    @Test func onlyTheBoundThreadIsTheLoopsThread() throws {
        let queue = try ResponseQueue()
        #expect(!queue.isCurrentThread)
        queue.bindToCurrentThread()
        #expect(queue.isCurrentThread)
        let elsewhere = Atomic<Bool>(true)
        let thread = try NamedThread(name: "other") { elsewhere.store(queue.isCurrentThread, ordering: .relaxed) }
        thread.join()
        let onTheLoopsThread = elsewhere.load(ordering: .relaxed)
        #expect(!onTheLoopsThread)
    }
}

/// `LoopMetrics`: a loop's counters in its shard of the server's.
@Suite struct LoopMetricsTests {
    @Test func twoLoopsCountApartAndTheServerReadsTheSum() {
        let server = ServerMetrics()
        let first = LoopMetrics(server: server, shard: LoopShard(loopIndex: 0))
        let second = LoopMetrics(server: server, shard: LoopShard(loopIndex: 1))
        first.requestDispatched()
        second.requestDispatched()
        second.requestDispatched()
        second.response(HTTPStatus(101))
        first.response(.ok)
        first.response(HTTPStatus(302))
        second.response(.notFound)
        first.response(.serviceUnavailable)
        second.response(HTTPStatus(599))
        first.parseError()
        second.timedOut()
        first.shed()
        second.refusedForBufferedBytes()
        #expect(server.requests.load() == 3)
        #expect(server.responses1xx.load() == 1)
        #expect(server.responses2xx.load() == 1)
        #expect(server.responses3xx.load() == 1)
        #expect(server.responses4xx.load() == 1)
        #expect(server.responses5xx.load() == 2)
        #expect(server.parseErrors.load() == 1)
        #expect(server.timeouts.load() == 1)
        #expect(server.shedConnections.load() == 1)
        #expect(server.refusedForBufferedBytes.load() == 1)
    }

    @Test func connectionsAreAdmittedUpToTheCap() {
        let server = ServerMetrics()
        let loop = LoopMetrics(server: server, shard: LoopShard(loopIndex: 0))
        #expect(loop.admit(maxConnections: 2))
        #expect(loop.admit(maxConnections: 2))
        #expect(!loop.admit(maxConnections: 2))
        #expect(server.acceptedConnections.load() == 3)
        #expect(server.refusedConnections.load() == 1)
        #expect(server.openNow == 2)
        loop.load.add(2, ordering: .relaxed)
        loop.connectionClosed()
        #expect(loop.assignedNow == 1)
        #expect(server.openNow == 1)
        #expect(loop.admit(maxConnections: 2))
    }

    @Test func unsentBytesAreTheSumOfEachConnectionsLatestFigure() {
        let server = ServerMetrics()
        let loop = LoopMetrics(server: server, shard: LoopShard(loopIndex: 0))
        let a = connection(fd: 3)
        let b = connection(fd: 4)
        loop.countUnsent(a, 100)
        loop.countUnsent(a, 100)
        #expect(server.bufferedNow == 100)
        loop.countUnsent(a, 40)
        loop.countUnsent(b, 10)
        #expect(server.bufferedNow == 50)
        #expect(loop.overBufferedBytes(49))
        #expect(!loop.overBufferedBytes(50))
        loop.countUnsent(a, 0)
        loop.countUnsent(b, 0)
        #expect(server.bufferedNow == 0)
    }
}
