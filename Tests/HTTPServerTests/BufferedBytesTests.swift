import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// The server-wide cap on response bytes held for clients that do not read them.
@Suite struct BufferedBytesTests {
    @Test func newRequestsGet503WhileASlowReaderHoldsMoreThanTheCap() throws {
        let delivered = Gate()
        var router = LiveServer.defaultRouter
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 32 * 1024 * 1024)  // beyond loopback buffers
        router.add(.GET, "/big") { _ in
            delivered.arrive()
            return HTTPResponse(status: .ok, body: big)
        }
        // One loop: a request read after the handler ran is read after that response's first write.
        let live = try LiveServer(
            {
                $0.threads = 1
                $0.maxBufferedResponseBytes = 1024 * 1024
            }, router: router)
        defer { live.stop() }

        let slow = try live.client()
        slow.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")  // and does not read
        delivered.waitForArrivals(1)
        let other = try live.client()
        other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let refused = try #require(other.readResponse())
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(live.server.metrics.bufferedResponseBytes.load(ordering: .relaxed) > 1024 * 1024)

        // Once the slow reader has read everything, nothing is held and requests are served again.
        let whole = try #require(slow.readResponse())
        #expect(whole.status == 200)
        #expect(whole.body.count == big.count)
        let after = try live.client()
        after.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(after.readResponse()).status == 200)
        #expect(live.server.metrics.bufferedResponseBytes.load(ordering: .relaxed) == 0)
        #expect(live.server.metrics.refusedForBufferedBytes.load() == 1)
    }
}
