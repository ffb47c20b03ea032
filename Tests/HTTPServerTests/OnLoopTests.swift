import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// `HTTPResponder.onLoop`: a completion on another thread hands back to the request's event loop, where the
/// response is finished and sent; `HTTPRequest.loopIndex` names that loop.
@Suite struct OnLoopTests {
    @Test func aCompletionOnAnotherThreadFinishesOnTheRequestsLoop() throws {
        let threads = Mutex<[String: UInt]>([:])
        let loopIndex = Mutex<Int>(-1)
        let workers = Mutex<[TestThread]>([])
        var router = LiveServer.defaultRouter
        router.add(
            .GET, "/later",
            responding: { request, responder in
                threads.withLock { $0["handler"] = UInt(bitPattern: Int(bitPattern: pthread_self())) }
                loopIndex.withLock { $0 = request.loopIndex }
                let worker = TestThread {
                    threads.withLock { $0["worker"] = UInt(bitPattern: Int(bitPattern: pthread_self())) }
                    responder.onLoop {
                        threads.withLock { $0["finish"] = UInt(bitPattern: Int(bitPattern: pthread_self())) }
                        responder.respond(.text("finished"))
                    }
                }
                workers.withLock { $0.append(worker) }
            })
        let live = try LiveServer({ $0.threads = 2 }, router: router)
        defer { live.stop() }
        let client = try live.client()
        client.send("GET /later HTTP/1.1\r\nHost: a\r\n\r\n")
        let reply = try #require(client.readResponse())
        #expect(reply.status == 200)
        #expect(reply.body == Array("finished".utf8))
        for worker in workers.withLock({ $0 }) { worker.join() }
        let seen = threads.withLock { $0 }
        #expect(seen["finish"] != nil && seen["finish"] == seen["handler"])
        #expect(seen["worker"] != nil && seen["worker"] != seen["handler"])
        #expect((0..<2).contains(loopIndex.withLock { $0 }))
    }
}
