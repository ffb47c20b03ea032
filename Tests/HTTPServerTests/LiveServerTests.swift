import Glibc
import Synchronization
import TestSupport
import Testing
import Threads

@testable import HTTPServer

/// Requests that must be refused on a live connection: status, `Connection: close`, closed, and the
/// request pipelined after them never run.
struct LiveRefusal: Sendable, CustomTestStringConvertible {
    var name: String
    var raw: [UInt8]
    var status: Int
    var testDescription: String { name }
}

let liveRefusals: [LiveRefusal] =
    invalidCases.filter { $0.limits == .init() }.map {
        LiveRefusal(name: $0.name, raw: $0.raw, status: $0.status)
    } + [
        LiveRefusal(
            name: "request line over 8 KiB",
            raw: bytes("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n"), status: 414),
        LiveRefusal(
            name: "header block over 32 KiB",
            raw: bytes("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 33000) + "\r\n\r\n"),
            status: 431),
        LiveRefusal(
            name: "101 header fields",
            raw: bytes("GET / HTTP/1.1\r\nHost: a\r\n" + (0..<100).map { "X-\($0): v\r\n" }.joined() + "\r\n"),
            status: 431),
        LiveRefusal(
            name: "body over 1 MiB", raw: bytes("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n"),
            status: 413),
    ]

@Suite struct LiveServerTests {
    @Test(arguments: Configuration.AcceptStrategy.allCases)
    func servesKeepAliveRequestsWithStandardHeaders(_ strategy: Configuration.AcceptStrategy) throws {
        let live = try LiveServer { $0.acceptStrategy = strategy }
        defer { live.stop() }
        for _ in 0..<4 {  // several connections so both loops are used
            let c = try live.client()
            for i in 0..<3 {
                c.send("GET /echo/n\(i)?q=\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                let r = try #require(c.readResponse())
                #expect(r.status == 200)
                #expect(r.text == "n\(i)|q=\(i)")
                #expect(r.header("Server") == "hinge/0.1.0")
                #expect(r.header("Date")?.hasSuffix(" GMT") == true)
                #expect(r.header("Content-Length") == "\(r.body.count)")
                #expect(r.header("Connection") == nil)
            }
        }
    }

    @Test(arguments: liveRefusals)
    func refusedRequestClosesTheConnection(_ c: LiveRefusal) throws {
        let ran = Atomic<Int>(0)
        var router = LiveServer.defaultRouter
        router.add(.GET, "/after") { _ in
            ran.add(1, ordering: .relaxed)
            return .text("ran")
        }
        let live = try LiveServer(router: router)
        defer { live.stop() }
        let client = try live.client()
        client.send(c.raw + bytes("GET /after HTTP/1.1\r\nHost: a\r\n\r\n"))
        let r = try #require(client.readResponse())
        #expect(r.status == c.status)
        #expect(r.header("Connection") == "close")
        #expect(r.header("Content-Type") == "application/problem+json")
        #expect(r.text.contains("\"status\":\(c.status)"))
        #expect(client.readToEnd() == "")  // closed, nothing else answered
        let runs = ran.load(ordering: .relaxed)
        #expect(runs == 0)
    }

    @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsSlow() throws {
        let parked = Mutex<[HTTPResponder]>([])
        var router = LiveServer.defaultRouter
        router.add(.GET, "/slow", responding: { _, responder in parked.withLock { $0.append(responder) } })
        let live = try LiveServer(router: router)
        defer { live.stop() }
        let c = try live.client()
        c.send(
            "GET /slow HTTP/1.1\r\nHost: a\r\n\r\nGET /echo/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n3")
        #expect(eventually { parked.withLock { $0.count } == 1 })
        // Answer the first from another thread.
        let responder = parked.withLock { $0.removeFirst() }
        let t = try NamedThread(name: "t") { responder.respond(.text("1")) }
        t.join()
        #expect(c.readResponse()?.text == "1")
        #expect(c.readResponse()?.text == "2|")
        #expect(c.readResponse()?.text == "3")
    }

    @Test func responsesFromAnotherThreadAreBatched() throws {
        let parked = Mutex<[HTTPResponder]>([])
        var router = Router()
        router.add(.GET, "/later", responding: { _, responder in parked.withLock { $0.append(responder) } })
        let live = try LiveServer(router: router)
        defer { live.stop() }
        let clients = try (0..<20).map { _ in try live.client() }
        for c in clients { c.send("GET /later HTTP/1.1\r\nHost: a\r\n\r\n") }
        #expect(eventually { parked.withLock { $0.count } == 20 })
        let all = parked.withLock { p in
            let a = p
            p = []
            return a
        }
        let t = try NamedThread(name: "writer") {
            for (i, r) in all.enumerated() { r.respond(.text("r\(i)")) }
        }
        t.join()
        var bodies = Set<String>()
        for c in clients { if let r = c.readResponse() { bodies.insert(r.text) } }
        #expect(bodies.count == 20)
    }

    /// A loop reads every connection of an `epoll_wait` batch before it answers any: requests that arrive
    /// together, among connections that half-close or go away meanwhile, are each answered on their own
    /// connection.
    @Test func requestsArrivingTogetherAreEachAnsweredOnTheirOwnConnection() throws {
        let live = try LiveServer()
        defer { live.stop() }
        for _ in 0..<3 {
            let clients = try (0..<48).map { _ in try live.client() }
            for (i, c) in clients.enumerated() {
                c.send("GET /echo/c\(i) HTTP/1.1\r\nHost: a\r\n\r\n")
                switch i % 4 {
                case 1: shutdown(c.fd, Int32(SHUT_WR))  // half-closed: still answered, then closed
                case 3: shutdown(c.fd, Int32(SHUT_RDWR))  // gone: nothing to answer
                default: break
                }
            }
            for (i, c) in clients.enumerated() where i % 4 != 3 {
                let r = try #require(c.readResponse())
                #expect(r.status == 200)
                #expect(r.text == "c\(i)|")
                if i % 4 == 1 { #expect(c.readToEnd() == "") }
            }
        }
        let after = try live.client()
        after.send("GET /echo/after HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(after.readResponse()?.text == "after|")
    }

    @Test func respondingTwiceAndDroppingTheResponder() throws {
        var router = Router()
        router.add(
            .GET, "/twice",
            responding: { _, r in
                r.respond(.text("first"))
                r.respond(.text("second"))
            })
        router.add(.GET, "/never", responding: { _, _ in })
        let live = try LiveServer(router: router)
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /twice HTTP/1.1\r\nHost: a\r\n\r\nGET /never HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(c.readResponse()?.text == "first")
        #expect(c.readResponse()?.status == 500)
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let c = try live.client()
        c.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        let interim = try #require(c.readResponse())
        #expect(interim.status == 100)
        c.send("hello")
        let r = try #require(c.readResponse())
        #expect(r.status == 200)
        #expect(r.text == "hello")
    }

    @Test func expectContinueWithATooLargeBodyGetsItsFinalStatusAtOnce() throws {
        let live = try LiveServer { $0.maxBodyBytes = 10 }
        defer { live.stop() }
        let c = try live.client()
        c.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        let r = try #require(c.readResponse())
        #expect(r.status == 413)
        #expect(r.header("Connection") == "close")
    }

    @Test func headHasNoBodyButTheLengthOfGet() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let c = try live.client()
        c.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let h = try #require(c.readResponse(head: true))
        #expect(h.status == 200)
        #expect(h.header("Content-Length") == "5")
        #expect(h.text == "")
        #expect(c.readResponse()?.text == "hello")
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /nope HTTP/1.1\r\nHost: a\r\n\r\nPUT /echo/x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
        let a = try #require(c.readResponse())
        #expect(a.status == 404)
        #expect(a.header("Content-Type") == "application/problem+json")
        #expect(a.text.contains("\"title\":\"Not Found\""))
        #expect(a.text.contains("\"type\":\"about:blank\""))
        let b = try #require(c.readResponse())
        #expect(b.status == 405)
        #expect(b.header("Allow") == "DELETE, GET, HEAD")
        #expect(b.header("Content-Type") == "application/problem+json")
    }

    @Test func noContentHasNoContentLength() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let c = try live.client()
        c.send("DELETE /echo/x HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let r = try #require(c.readResponse())
        #expect(r.status == 204)
        #expect(r.header("Content-Length") == nil)
        #expect(c.readResponse()?.text == "hello")
    }

    @Test func http10ClosesUnlessItAsksForKeepAlive() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let a = try live.client()
        a.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(a.readResponse()?.header("Connection") == "close")
        #expect(a.isClosedByPeer())
        let b = try live.client()
        b.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(b.readResponse()?.header("Connection") == "keep-alive")
        b.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(b.readResponse()?.text == "hello")
        #expect(b.isClosedByPeer())
    }

    @Test func connectionCloseIsHonoured() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let r = try #require(c.readResponse())
        #expect(r.header("Connection") == "close")
        #expect(c.readToEnd() == "")
    }

    @Test func maxRequestsPerConnection() throws {
        let live = try LiveServer { $0.maxRequestsPerConnection = 2 }
        defer { live.stop() }
        let c = try live.client()
        c.send(
            "GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
        )
        #expect(c.readResponse()?.header("Connection") == nil)
        #expect(c.readResponse()?.header("Connection") == "close")
        #expect(c.readToEnd() == "")
    }

    @Test func slowHeadGets408() throws {
        let live = try LiveServer { $0.headerReadTimeout = .milliseconds(150) }
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /hello HTTP/1.1\r\nHo")
        let r = try #require(c.readResponse())
        #expect(r.status == 408)
        #expect(r.header("Connection") == "close")
        #expect(c.readToEnd() == "")
        #expect(live.server.metrics.timeouts.load() == 1)
    }

    @Test func slowBodyGets408() throws {
        let live = try LiveServer { $0.bodyReadTimeout = .milliseconds(150) }
        defer { live.stop() }
        let c = try live.client()
        c.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        let r = try #require(c.readResponse())
        #expect(r.status == 408)
        #expect(c.readToEnd() == "")
    }

    @Test func idleKeepAliveConnectionIsClosed() throws {
        let live = try LiveServer { $0.keepAliveIdleTimeout = .milliseconds(150) }
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(c.readResponse()?.status == 200)
        let start = MonotonicClock.nanoseconds()
        #expect(c.readToEnd() == "")  // silent close, no 408
        #expect(MonotonicClock.nanoseconds() - start >= 100_000_000)
    }

    @Test func connectionsBeyondTheCapGet503() throws {
        let live = try LiveServer {
            $0.maxConnections = 2
            $0.threads = 1
        }
        defer { live.stop() }
        let a = try live.client()
        let b = try live.client()
        for c in [a, b] {
            c.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(c.readResponse()?.status == 200)
        }
        let third = try live.client()
        let r = try #require(third.readResponse())
        #expect(r.status == 503)
        #expect(r.header("Connection") == "close")
        #expect(live.server.metrics.refusedConnections.load() == 1)
        // Closing one makes room again.
        a.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(a.readResponse()?.status == 200)
        #expect(eventually { live.server.metrics.openConnections.load(ordering: .relaxed) == 1 })
        let fourth = try live.client()
        fourth.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(fourth.readResponse()?.status == 200)
    }

    @Test func peerResetDoesNotDisturbOthers() throws {
        let live = try LiveServer { $0.threads = 1 }
        defer { live.stop() }
        do {
            let c = try live.client()
            c.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\npartial")
            var l = linger(l_onoff: 1, l_linger: 0)  // close with RST
            setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        }
        let d = try live.client()
        d.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(d.readResponse()?.text == "hello")
        #expect(eventually { live.server.metrics.openConnections.load(ordering: .relaxed) == 1 })
    }

    @Test func shutdownFinishesInFlightRequestsAndClosesIdleOnes() throws {
        let parked = Mutex<[HTTPResponder]>([])
        var router = LiveServer.defaultRouter
        router.add(.GET, "/slow", responding: { _, responder in parked.withLock { $0.append(responder) } })
        var config = Configuration()
        config.port = 0
        config.threads = 2
        let server = HTTPServer(configuration: config, router: router)
        try server.start()
        let hookRan = Atomic<Bool>(false)
        server.onShutdown { hookRan.store(true, ordering: .relaxed) }
        let idle = try TestClient(port: server.port)
        idle.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        let busy = try TestClient(port: server.port)
        busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(eventually { parked.withLock { $0.count } == 1 })

        server.shutdown(deadline: .seconds(5))
        #expect(idle.isClosedByPeer())
        let waiter = try NamedThread(name: "wait") { server.wait() }
        let ranEarly = hookRan.load(ordering: .relaxed)
        #expect(!ranEarly)
        parked.withLock { $0.removeFirst() }.respond(.text("done"))
        let r = try #require(busy.readResponse())
        #expect(r.text == "done")
        #expect(r.header("Connection") == "close")
        waiter.join()
        let ranAfter = hookRan.load(ordering: .relaxed)
        #expect(ranAfter)
        #expect((try? TestClient(port: server.port)) == nil)  // no longer accepting
    }

    @Test func shutdownDeadlineClosesStuckRequests() throws {
        var router = Router()
        router.add(
            .GET, "/stuck",
            responding: { _, r in
                // Keep the responder alive past the deadline without answering.
                let keep = r
                _ = try? NamedThread(name: "keep") {
                    usleep(1_500_000)
                    keep.respond(.text("late"))
                }
            })
        var config = Configuration()
        config.port = 0
        let server = HTTPServer(configuration: config, router: router)
        try server.start()
        let c = try TestClient(port: server.port)
        c.send("GET /stuck HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(eventually { server.metrics.requests.load() == 1 })
        let start = MonotonicClock.nanoseconds()
        server.shutdown(deadline: .milliseconds(200))
        server.wait()
        let elapsed = MonotonicClock.nanoseconds() - start
        #expect(elapsed < 1_000_000_000)
        #expect(c.readToEnd() == "")
    }

    @Test func portInUseIsAnError() throws {
        let live = try LiveServer { $0.acceptStrategy = .singleAcceptor }
        defer { live.stop() }
        var config = Configuration()
        config.port = live.port
        config.acceptStrategy = .singleAcceptor
        let second = HTTPServer(configuration: config, handler: { _, r in r.respond(HTTPResponse()) })
        #expect(throws: SystemError.self) { try second.start() }
    }
}

@Suite struct RequestLogTests {
    @Test func oneLinePerRequestWhenEnabled() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let writeEnd = fds[1]
        let live = try LiveServer {
            $0.logRequests = true
            $0.logFileDescriptor = writeEnd
            $0.threads = 1
        }
        let c = try live.client()
        c.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /missing HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = c.readResponse()
        _ = c.readResponse()
        live.stop()
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        let lines = String(decoding: buf[0..<max(n, 0)], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("GET /hello 200 ") == true)
        #expect(lines.last?.hasPrefix("GET /missing 404 ") == true)
        #expect(lines.allSatisfy { $0.hasSuffix("us") })
    }

    @Test func metricsCountRequestsAndStatuses() throws {
        let live = try LiveServer { $0.threads = 1 }
        defer { live.stop() }
        let c = try live.client()
        c.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /missing HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = c.readResponse()
        _ = c.readResponse()
        let m = live.server.metrics
        let requests = m.requests.load()
        let ok = m.responses2xx.load()
        let notFound = m.responses4xx.load()
        let open = m.openConnections.load(ordering: .relaxed)
        #expect(requests == 2)
        #expect(ok == 1)
        #expect(notFound == 1)
        #expect(open == 1)
    }
}

@Suite struct SlowReaderTests {
    @Test func aPeerThatStopsReadingIsDropped() throws {
        var router = Router()
        let big = [UInt8](repeating: 120, count: 4 << 20)  // far more than the socket buffers hold
        router.add(.GET, "/big") { _ in HTTPResponse(status: .ok, body: big) }
        let live = try LiveServer(
            {
                $0.keepAliveIdleTimeout = .milliseconds(200)
                $0.threads = 1
            }, router: router)
        defer { live.stop() }
        let c = try live.client()
        var small: Int32 = 4096
        setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        c.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(eventually { live.server.metrics.openConnections.load(ordering: .relaxed) == 0 })
    }
}
