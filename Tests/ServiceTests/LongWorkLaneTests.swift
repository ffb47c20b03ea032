import Glibc
import HTTPServer
import JSON
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Service

/// docs/http.md#long-work: impact reports run on their own lane, one per client, stopped when the client goes.
@Suite struct LongWorkLaneTests {
    /// A scene naming the set unpinned: a record the set's versions would move (docs/api.md#constant-set-impact).
    static let sheet =
        #"{"device":"iphone-16","constantSet":"acme","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#
    static let impact = "/v1/constant-sets/acme/versions/2/impact"

    /// A server whose lane holds each report at `gate` until the test opens it.
    static func heldServer(_ gate: Gate, _ started: Gate, apiKey: String? = nil) throws -> LiveServer {
        let lane = LongWorkLane(
            threads: 1, capacity: 2,
            beforeEachJob: {
                started.arrive()
                gate.wait()
            })
        let s = try LiveServer(apiKey: apiKey, longWork: lane)
        let auth = apiKey.map { [("Authorization", "Bearer \($0)")] } ?? []
        #expect(
            try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":20}}"#, headers: auth)
                .status == 201)
        #expect(try s.post("/v1/resolve", Self.sheet).status == 200)
        s.store.requestLog.flush()
        let second = #"{"basedOn":"acme@1","constants":{"sheet.topGap":30}}"#
        #expect(try s.post("/v1/constant-sets/acme/versions", second, headers: auth).status == 201)
        return s
    }

    @Test func aSecondReportOfTheSameClientIs429WhileOthersAnswer() throws {
        let gate = Gate()
        let started = Gate()
        let s = try Self.heldServer(gate, started)
        let port = s.port
        let first = Mutex<HTTPReply?>(nil)
        let client = TestThread {
            let r = try? HTTPClient.send(port: port, "POST", Self.impact, body: [])
            first.withLock { $0 = r }
        }
        started.waitForArrivals(1)  // the report holds the lane
        let second = try s.post(Self.impact, "")
        #expect(second.status == 429)
        #expect(second.header("Retry-After") == "5")
        // Pictures and matrices go to the worker pool, not to the lane.
        #expect(try s.post("/v1/resolve/svg", Self.sheet).status == 200)
        #expect(try s.post("/v1/resolve/matrix", #"{"scene":\#(Self.sheet)}"#).status == 200)
        gate.open()
        client.join()
        let r = try #require(first.withLock { $0 })
        #expect(r.status == 200)
        // The report reads the log when it starts: the resolve (with acme@1: moved), the picture (resolved with acme@2
        // already: unchanged) and the matrix (not replayed).
        #expect(
            r.json?["counts"] == .object(["changed": 1, "elsewhere": 0, "replayed": 2, "skipped": 1, "unchanged": 1]))
        // The client's turn is free again.
        #expect(try s.post(Self.impact, "").status == 200)
    }

    @Test func aReportWhoseClientWentAwayIsNotMade() throws {
        let gate = Gate()
        let started = Gate()
        let s = try Self.heldServer(gate, started)
        do {
            let client = try TestClient(port: s.port)
            client.send("POST \(Self.impact) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
            started.waitForArrivals(1)
            // The client goes before its report starts: a reset (SO_LINGER 0), which the loop sees at once.
            var l = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        }
        #expect(eventually { s.server.metrics.openConnections.load(ordering: .relaxed) == 0 })
        gate.open()
        #expect(eventually { s.app.context.longWork.stoppedCount == 1 })
        #expect(try s.post(Self.impact, "").status == 200)
        #expect(s.app.context.longWork.stoppedCount == 1)
    }

    @Test func reportsNeedTheKeyUnderAnAPIKey() throws {
        let gate = Gate()
        gate.open()
        let s = try Self.heldServer(gate, Gate(), apiKey: "the-key")
        #expect(try s.post(Self.impact, "").status == 401)
        #expect(try s.post(Self.impact, "", headers: [("Authorization", "Bearer the-key")]).status == 200)
    }
}
