import Glibc
import Synchronization
import Testing
import Threads

@testable import HTTPServer

/// The event loop over an in-memory transport (`MemoryTransport`): exact bytes out for given bytes in, read
/// boundaries and time chosen by the test — framing, keep-alive and close, timeouts, shedding, limits.
@Suite struct EventLoopInMemoryTests {
    /// The head lines every response starts with, on the in-memory wall clock.
    static let common = "Server: hinge/0.1.0\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"

    /// A response's bytes as the loop writes them.
    static func response(
        _ status: String, _ headers: [String] = [], body: String = "", connection: String? = nil, length: Bool = true
    ) -> String {
        var s = "HTTP/1.1 \(status)\r\n" + common
        for h in headers { s += h + "\r\n" }
        if length { s += "Content-Length: \(body.utf8.count)\r\n" }
        if let connection { s += "Connection: \(connection)\r\n" }
        return s + "\r\n" + body
    }

    static func text(_ body: String, connection: String? = nil) -> String {
        response("200 OK", ["Content-Type: text/plain; charset=utf-8"], body: body, connection: connection)
    }

    static func echo(_ body: String) -> String { response("200 OK", body: body) }

    static func problem(
        _ code: Int, _ reason: String, _ detail: String, headers: [String] = [], connection: String? = "close"
    ) -> String {
        let body = "{\"detail\":\"\(detail)\",\"status\":\(code),\"title\":\"\(reason)\",\"type\":\"about:blank\"}"
        return response(
            "\(code) \(reason)",
            headers + ["Content-Type: application/problem+json", "Cache-Control: no-store"], body: body,
            connection: connection)
    }

    static let hello = text("hello")
    static let getHello = "GET /hello HTTP/1.1\r\nHost: h\r\n\r\n"

    /// Responders of `/later`, kept until the test answers.
    final class Parked: Sendable {
        private let responders = Mutex<[HTTPResponder]>([])
        func keep(_ responder: HTTPResponder) { responders.withLock { $0.append(responder) } }
        func take() -> HTTPResponder? { responders.withLock { $0.popLast() } }
    }

    /// The default routes, `/big` (`size` bytes of `x`) and `/later` (parked until the test answers).
    static func router(big size: Int = 1 << 20, parked: Parked? = nil) -> Router {
        var router = LiveServer.defaultRouter
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        router.add(.GET, "/big") { _ in HTTPResponse(status: .ok, body: big) }
        router.add(.GET, "/later", responding: { _, responder in parked?.keep(responder) })
        return router
    }

    // MARK: Framing

    @Test func pipelinedRequestsInOneReadAreAnsweredInOrderInOneWrite() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.send(
            "GET /echo/a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
                + "DELETE /echo/b HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(
            client.readText()
                == "HTTP/1.1 200 OK\r\n" + Self.common
                + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\na|x=1"
                + "HTTP/1.1 200 OK\r\n" + Self.common + "Content-Length: 3\r\n\r\nabc"
                + "HTTP/1.1 204 No Content\r\n" + Self.common + "\r\n")
        #expect(client.peer.sends.count == 1)
        #expect(!client.isClosed)
        #expect(server.metrics.requests.load() == 3)
        #expect(server.metrics.responses2xx.load() == 3)
    }

    @Test func aHeadSplitAcrossReadsIsAnsweredOnceItIsComplete() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.send("GET /hel")
        #expect(client.read().isEmpty)
        client.send("lo HTTP/1.1\r\nHo")
        #expect(client.read().isEmpty)
        client.send("st: h\r\n\r\n")
        #expect(client.readText() == Self.hello)
    }

    @Test func aBodySplitAcrossReadsIsHandedOverWhole() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123")
        #expect(client.read().isEmpty)
        client.send("456")
        #expect(client.read().isEmpty)
        client.send("789" + Self.getHello)
        #expect(client.readText() == Self.echo("0123456789") + Self.hello)
    }

    @Test func everyByteInAReadOfItsOwnGivesTheSameAnswers() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.peer.readChunk = 1
        client.send(
            "POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
                + Self.getHello)
        #expect(client.readText() == Self.echo("abcde") + Self.hello)
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.send("POST /echo HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(client.readText() == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hello")
        #expect(client.readText() == Self.echo("hello"))
    }

    // MARK: Refusals and closes

    @Test func aBodyOverTheLimitGets413AtOnceThenALingeringClose() throws {
        let server = try InMemoryServer { $0.maxBodyBytes = 10 }
        let client = server.connect()
        client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nabc")
        #expect(
            client.readText()
                == Self.problem(413, "Content Too Large", "The body of 11 bytes is larger than the limit of 10 bytes."))
        #expect(client.isLingering)
        client.send("defghijk" + Self.getHello)  // read and dropped: never answered
        #expect(client.read().isEmpty)
        #expect(client.isLingering)
        client.shutdownWrite()
        #expect(client.isClosed)
        #expect(server.metrics.parseErrors.load() == 1)
        #expect(server.metrics.requests.load() == 0)
    }

    @Test func aLingeringCloseEndsAtItsDeadline() throws {
        // The linger lasts min(headerReadTimeout, 2 s).
        let server = try InMemoryServer { $0.headerReadTimeout = .seconds(1) }
        let client = server.connect()
        client.send("GET /hello HTTP/1.1\r\n\r\n")  // no Host
        #expect(client.readText().hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(client.isLingering)
        server.advance(by: 900_000_000)
        #expect(client.isLingering)
        server.advance(by: 200_000_000)
        #expect(client.isClosed)
    }

    @Test func connectionCloseClosesAfterTheResponseAndLingersWhenBytesWaitBehindIt() throws {
        let server = try InMemoryServer()
        let alone = server.connect()
        alone.send("GET /hello HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(alone.readText() == Self.text("hello", connection: "close"))
        #expect(alone.isClosed)
        #expect(!alone.peer.outputShut)

        let followed = server.connect()
        followed.send("GET /hello HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n" + Self.getHello)
        #expect(followed.readText() == Self.text("hello", connection: "close"))
        #expect(followed.isLingering)
        followed.shutdownWrite()
        #expect(followed.isClosed)
        #expect(server.metrics.requests.load() == 2)
    }

    @Test func http10ClosesUnlessItAsksForKeepAlive() throws {
        let server = try InMemoryServer()
        let plain = server.connect()
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(plain.readText() == Self.text("hello", connection: "close"))
        #expect(plain.isClosed)

        let kept = server.connect()
        kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(kept.readText() == Self.text("hello", connection: "keep-alive"))
        #expect(!kept.isClosed)
    }

    @Test func theLastRequestAllowedOnAConnectionIsAnsweredWithClose() throws {
        let server = try InMemoryServer { $0.maxRequestsPerConnection = 2 }
        let client = server.connect()
        client.send(Self.getHello + Self.getHello + Self.getHello)
        #expect(client.readText() == Self.hello + Self.text("hello", connection: "close"))
        #expect(client.isLingering)
        #expect(server.metrics.requests.load() == 2)
    }

    @Test func aHalfClosedClientIsAnsweredThenClosed() throws {
        let server = try InMemoryServer()
        let client = server.connect()
        client.peer.inbound.append(contentsOf: Array(Self.getHello.utf8))
        client.shutdownWrite()
        #expect(client.readText() == Self.hello)
        #expect(client.isClosed)
    }

    @Test func aResetClosesThatConnectionOnly() throws {
        let server = try InMemoryServer()
        let reset = server.connect()
        let other = server.connect()
        reset.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\npartial")
        reset.reset()
        #expect(reset.isClosed)
        #expect(server.metrics.openNow == 1)
        other.send(Self.getHello)
        #expect(other.readText() == Self.hello)
    }

    @Test func connectionsBeyondTheCapGet503AndAreClosed() throws {
        let server = try InMemoryServer { $0.maxConnections = 2 }
        let first = server.connect()
        _ = server.connect()
        let third = server.connect()
        #expect(
            third.readText()
                == Self.problem(503, "Service Unavailable", "The server has reached its limit of 2 connections."))
        #expect(third.isClosed && third.peer.outputShut)
        #expect(server.metrics.acceptedConnections.load() == 3)
        #expect(server.metrics.refusedConnections.load() == 1)
        #expect(server.metrics.openNow == 2)
        #expect(server.metrics.responses5xx.load() == 1)

        first.send("GET /hello HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(first.isClosed)
        let fourth = server.connect()
        fourth.send(Self.getHello)
        #expect(fourth.readText() == Self.hello)
        #expect(server.loop.metrics.assignedNow == 2)
    }

    @Test func runningOutOfDescriptorsPausesAcceptingUntilTheNextTick() throws {
        let server = try InMemoryServer()  // ticks every 500 ms (a quarter of the 2 s slow-reader grace)
        server.transport.acceptFailures = [EMFILE]
        let peer = server.transport.connect(window: 1 << 20)
        server.settle()
        #expect(!server.transport.listenerWatched)
        #expect(!peer.watched)
        server.advance(by: 499_000_000)
        #expect(!peer.watched)
        server.advance(by: 1_000_000)
        #expect(server.transport.listenerWatched)
        let client = MemoryClient(peer: peer, server: server)
        client.send(Self.getHello)
        #expect(client.readText() == Self.hello)
    }

    // MARK: Timeouts

    @Test func aHeadNotCompletedInTimeGets408() throws {
        let server = try InMemoryServer { $0.headerReadTimeout = .seconds(1) }
        let client = server.connect()
        client.send("GET /hello HTTP/1.1\r\nHo")
        server.advance(by: 900_000_000)
        #expect(client.read().isEmpty)
        server.advance(by: 200_000_000)
        #expect(
            client.readText()
                == Self.problem(
                    408, "Request Timeout", "The request head was not received within the header-read timeout."))
        #expect(client.isLingering)
        #expect(server.metrics.timeouts.load() == 1)
    }

    @Test func aBodyNotCompletedInTimeGets408() throws {
        let server = try InMemoryServer { $0.bodyReadTimeout = .seconds(1) }
        let client = server.connect()
        client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        server.advance(by: 900_000_000)
        client.send("def")  // body bytes do not restart the body's timeout
        server.advance(by: 200_000_000)
        #expect(
            client.readText()
                == Self.problem(
                    408, "Request Timeout", "The request body was not received within the body-read timeout."))
    }

    @Test func anIdleKeepAliveConnectionIsClosedSilentlyAtTheIdleTimeout() throws {
        let server = try InMemoryServer { $0.keepAliveIdleTimeout = .seconds(5) }
        let client = server.connect()
        client.send(Self.getHello)
        #expect(client.readText() == Self.hello)
        server.advance(by: 4_900_000_000)
        #expect(!client.isClosed)
        server.advance(by: 200_000_000)
        #expect(client.isClosed)
        #expect(client.read().isEmpty)
        #expect(server.metrics.timeouts.load() == 0)
    }

    // MARK: Slow readers

    @Test func aClientThatStopsReadingIsShedAfterItsGraceAndOthersAreServed() throws {
        let server = try InMemoryServer(
            {
                $0.slowReaderBytes = 64 * 1024
                $0.slowReaderGrace = .milliseconds(400)
            }, router: Self.router())
        let slow = server.connect(window: 16 * 1024)
        slow.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(slow.peer.inFlight.count == 16 * 1024)
        let unsent = Self.response("200 OK", body: String(repeating: "x", count: 1 << 20)).utf8.count - 16 * 1024
        #expect(server.metrics.bufferedNow == unsent)
        server.advance(by: 350_000_000)
        #expect(!slow.isClosed)
        server.advance(by: 100_000_000)
        #expect(slow.isClosed)
        #expect(slow.peer.inFlight.count == 16 * 1024)  // nothing more was written
        #expect(server.metrics.shedConnections.load() == 1)
        #expect(server.metrics.bufferedNow == 0)

        let other = server.connect()
        other.send(Self.getHello)
        #expect(other.readText() == Self.hello)
    }

    @Test func aClientThatReadsSteadilyKeepsItsDownload() throws {
        let server = try InMemoryServer(
            {
                $0.slowReaderBytes = 64 * 1024
                $0.slowReaderGrace = .milliseconds(400)
            }, router: Self.router())
        let client = server.connect(window: 16 * 1024)
        client.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        let whole = Self.response("200 OK", body: String(repeating: "x", count: 1 << 20))
        var received: [UInt8] = []
        while received.count < whole.utf8.count && !client.isClosed {
            server.advance(by: 300_000_000)  // 16 KiB every 300 ms: slow, but within the grace each time
            received += client.read()
        }
        #expect(String(decoding: received, as: UTF8.self) == whole)
        #expect(!client.isClosed)
        #expect(server.metrics.shedConnections.load() == 0)
    }

    @Test func aboveTheServerWideBoundOnlyLargeResponsesAreRefused() throws {
        let server = try InMemoryServer(
            {
                $0.maxBufferedResponseBytes = 256 * 1024
                $0.slowReaderGrace = .seconds(60)
            }, router: Self.router())
        let big = Self.response("200 OK", body: String(repeating: "x", count: 1 << 20))
        let slow = server.connect(window: 16 * 1024)
        slow.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(server.metrics.bufferedNow > 256 * 1024)

        let fresh = server.connect()
        fresh.send(Self.getHello)
        #expect(fresh.readText() == Self.hello)

        let greedy = server.connect()
        greedy.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(
            greedy.readText()
                == Self.problem(
                    503, "Service Unavailable",
                    "The server holds too many response bytes for clients that have not read them yet; retry shortly.",
                    headers: ["Retry-After: 1"], connection: nil))
        #expect(server.metrics.refusedForBufferedBytes.load() == 1)

        var received: [UInt8] = []
        while received.count < big.utf8.count { received += slow.read() }
        #expect(String(decoding: received, as: UTF8.self) == big)
        #expect(server.metrics.bufferedNow == 0)
        greedy.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(greedy.readText() == big)
    }

    // MARK: Responses from other threads, shutdown, the access log

    @Test func aResponseFromAnotherThreadComesThroughTheQueueInRequestOrder() throws {
        let parked = Parked()
        let server = try InMemoryServer(router: Self.router(parked: parked))
        let client = server.connect()
        client.send("GET /later HTTP/1.1\r\nHost: h\r\n\r\n" + Self.getHello)
        #expect(client.read().isEmpty)  // the second request waits for the first's answer
        let responder = try #require(parked.take())
        let worker = try NamedThread(name: "worker") { responder.respond(.text("later")) }
        worker.join()
        #expect(server.loop.responses.hasMessages)
        #expect(client.readText() == Self.text("later") + Self.hello)
        #expect(!server.loop.responses.hasMessages)
    }

    @Test func aResponderDroppedWithoutAnsweringAnswers500() throws {
        var router = Router()
        router.add(.GET, "/never", responding: { _, _ in })
        let server = try InMemoryServer(router: router)
        let client = server.connect()
        client.send("GET /never HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(
            client.readText()
                == Self.problem(
                    500, "Internal Server Error", "The handler finished without a response.", connection: nil))
    }

    @Test func shutdownClosesIdleConnectionsAndLetsBusyOnesFinishWithClose() throws {
        let parked = Parked()
        let server = try InMemoryServer(router: Self.router(parked: parked))
        let idle = server.connect()
        idle.send(Self.getHello)
        #expect(idle.readText() == Self.hello)
        let busy = server.connect()
        busy.send("GET /later HTTP/1.1\r\nHost: h\r\n\r\n")

        server.loop.responses.send(.shutdown(deadlineNanoseconds: server.transport.clock + 5_000_000_000))
        server.settle()
        #expect(idle.isClosed)
        #expect(!busy.isClosed)
        #expect(!server.transport.listenerWatched)
        #expect(server.running)

        try #require(parked.take()).respond(.text("done"))
        #expect(busy.readText() == Self.text("done", connection: "close"))
        #expect(busy.isClosed)
        #expect(!server.running)
    }

    @Test func theShutdownDeadlineClosesWhatIsStillBusy() throws {
        let parked = Parked()
        let server = try InMemoryServer(router: Self.router(parked: parked))
        let busy = server.connect()
        busy.send("GET /later HTTP/1.1\r\nHost: h\r\n\r\n")
        server.loop.responses.send(.shutdown(deadlineNanoseconds: server.transport.clock + 1_000_000_000))
        server.advance(by: 900_000_000)
        #expect(server.running)
        server.advance(by: 200_000_000)
        #expect(!server.running)
        #expect(busy.isClosed)
        #expect(busy.read().isEmpty)
        #expect(server.metrics.openNow == 0)
    }

    @Test func theAccessLogTimesEachRequestOnTheLoopsClock() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            Glibc.close(fds[0])
            Glibc.close(fds[1])
        }
        let parked = Parked()
        let writeEnd = fds[1]
        let server = try InMemoryServer(
            {
                $0.logRequests = true
                $0.logFileDescriptor = writeEnd
            }, router: Self.router(parked: parked))
        let client = server.connect()
        client.send(Self.getHello + "GET /later HTTP/1.1\r\nHost: h\r\n\r\n")
        server.advance(by: 1_500_000)
        try #require(parked.take()).respond(.text("later"))
        #expect(client.readText() == Self.hello + Self.text("later"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self) == "GET /hello 200 0us\nGET /later 200 1500us\n")
    }
}
