import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Slow readers: the server-wide bound on response bytes held for clients that do not read them, and the
/// per-connection share beyond which such a client is shed (docs/http.md#slow-readers).
@Suite struct BufferedBytesTests {
    static let big = [UInt8](repeating: UInt8(ascii: "x"), count: 32 * 1024 * 1024)  // beyond loopback buffers

    static func router(_ delivered: Gate) -> Router {
        var router = LiveServer.defaultRouter
        router.add(.GET, "/big") { _ in
            delivered.arrive()
            return HTTPResponse(status: .ok, body: big)
        }
        return router
    }

    @Test func aboveTheBoundOnlyLargeResponsesAreRefusedAndFreshClientsAreServed() throws {
        let delivered = Gate()
        // One loop: a request read after the handler ran is read after that response's first write.
        let live = try LiveServer(
            {
                $0.threads = 1
                $0.maxBufferedResponseBytes = 1024 * 1024
                $0.slowReaderGrace = .seconds(60)
            }, router: Self.router(delivered))
        defer { live.stop() }

        let slow = try live.client()
        slow.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")  // and does not read
        delivered.waitForArrivals(1)
        #expect(eventually { live.server.metrics.bufferedResponseBytes.load(ordering: .relaxed) > 1024 * 1024 })

        // A small answer still reaches a client that holds nothing unsent.
        let fresh = try live.client()
        fresh.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let hello = try #require(fresh.readResponse())
        #expect(hello.status == 200)
        #expect(hello.body == Array("hello".utf8))

        // A large one would pile up more of what slow readers hold: 503.
        let greedy = try live.client()
        greedy.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
        let refused = try #require(greedy.readResponse())
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(live.server.metrics.refusedForBufferedBytes.load() == 1)

        // Once the slow reader has read everything, nothing is held and large answers leave again.
        let whole = try #require(slow.readResponse())
        #expect(whole.status == 200)
        #expect(whole.body.count == Self.big.count)
        #expect(eventually { live.server.metrics.bufferedResponseBytes.load(ordering: .relaxed) == 0 })
        greedy.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
        let served = try #require(greedy.readResponse())
        #expect(served.status == 200)
        #expect(served.body.count == Self.big.count)
        #expect(live.server.metrics.shedConnections.load() == 0)
    }

    @Test func aClientThatStopsReadingIsShedAfterItsGrace() throws {
        let delivered = Gate()
        let live = try LiveServer(
            {
                $0.threads = 1
                $0.slowReaderBytes = 1024 * 1024
                $0.slowReaderGrace = .milliseconds(300)
            }, router: Self.router(delivered))
        defer { live.stop() }

        let slow = try live.client()
        slow.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
        delivered.waitForArrivals(1)
        #expect(eventually { live.server.metrics.shedConnections.load() == 1 })
        #expect(eventually { live.server.metrics.bufferedResponseBytes.load(ordering: .relaxed) == 0 })
        // What the kernel had already taken arrives, then the connection ends: the response is cut short.
        #expect(slow.readBytesToEnd().count < Self.big.count)
        // Others are served as before.
        let other = try live.client()
        other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(other.readResponse()).status == 200)
    }
}
