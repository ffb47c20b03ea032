import Glibc
import TestSupport
import Testing

@testable import HTTPServer

/// One listening socket per process, the lingering close after the last pipelined response, and the early
/// 400 for heads that can never be valid.
@Suite struct ListenerAndLingerTests {
    @Test(arguments: Configuration.AcceptStrategy.allCases)
    func aSecondServerOnTheSamePortIsRefused(_ strategy: Configuration.AcceptStrategy) throws {
        let live = try LiveServer { $0.acceptStrategy = strategy }
        defer { live.stop() }
        var c = Configuration()
        c.port = live.port
        c.threads = 2
        c.acceptStrategy = strategy
        let second = HTTPServer(configuration: c, router: LiveServer.defaultRouter)
        #expect(throws: SystemError("bind", EADDRINUSE)) { try second.start() }
        // The first server still answers: nothing was taken from it.
        let client = try live.client()
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }

    /// Connections go to the least loaded loop, whichever loop accepted them.
    @Test(arguments: Configuration.AcceptStrategy.allCases)
    func connectionsAreSpreadEvenlyOverTheLoops(_ strategy: Configuration.AcceptStrategy) throws {
        let live = try LiveServer {
            $0.acceptStrategy = strategy
            $0.threads = 4
        }
        defer { live.stop() }
        var clients: [TestClient] = []
        for _ in 0..<12 {
            let c = try live.client()
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(c.readResponse()?.text == "hello")
            clients.append(c)
        }
        #expect(live.server.loopLoads == [3, 3, 3, 3])
        clients.removeAll()
        #expect(eventually { live.server.loopLoads == [0, 0, 0, 0] })
    }

    /// Another process could join a `SO_REUSEPORT` group and take a share of the connections; the server's
    /// socket does not set it, so such a socket cannot bind the port either.
    @Test func aReusePortSocketCannotJoinTheServersPort() throws {
        let live = try LiveServer()
        defer { live.stop() }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size)
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, size)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(live.port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let e = errno
        #expect(rc == -1)
        #expect(e == EADDRINUSE)
    }

    /// 3,000 requests (~100 KB) in one write on a connection limited to 1,000: all 1,000 responses arrive,
    /// the last with `Connection: close`, then an orderly end of stream — not the reset that closing with
    /// unread requests in the socket would send, which destroys responses the client has not read yet.
    @Test func pipeliningBeyondTheConnectionLimitEndsWithALingeringClose() throws {
        let live = try LiveServer { $0.threads = 1 }
        defer { live.stop() }
        let fd = try connectLoopback(port: live.port, receiveTimeoutSeconds: 10)
        defer { close(fd) }
        // A send that can no longer complete (the server stopped reading) fails instead of hanging.
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let one = Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var all: [UInt8] = []
        for _ in 0..<3000 { all += one }
        var sent = 0
        while sent < all.count {
            let n = all[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        #expect(sent == all.count, "the server stopped reading after \(sent) bytes (errno \(errno))")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var endError: Int32 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
                continue
            }
            if n < 0 { endError = errno }
            break
        }
        #expect(endError == 0, "the stream ended with errno \(endError) (104 is a reset), not an orderly close")
        let text = String(decoding: received, as: UTF8.self)
        let responses = text.components(separatedBy: "HTTP/1.1 200 OK").count - 1
        #expect(responses == 1000)
        #expect(text.components(separatedBy: "Connection: close").count - 1 == 1)
        #expect(text.hasSuffix("hello"))
    }

    /// An HTTP/0.9 request line or a bare-LF head is answered 400 at once, not after the head timeout
    /// (set to a minute here, beyond the client's 5 s read timeout, so a 408 would fail the test).
    @Test(arguments: [
        ("GET /hello\r\n", "no HTTP version"),
        ("GET /hello HTTP/1.1\nHost: x\n", "must end with CRLF"),
        ("GET /hello HTTP/1.1\r\nHost: x\nAccept: */*\n", "bare LF"),
    ])
    func headsThatCanNeverBeValidAreRefusedAtOnce(_ raw: String, _ detail: String) throws {
        let live = try LiveServer { $0.headerReadTimeout = .seconds(60) }
        defer { live.stop() }
        let client = try live.client()
        client.send(raw)
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.header("Connection") == "close")
        #expect(response.text.contains(detail))
        #expect(client.isClosedByPeer())
    }
}
