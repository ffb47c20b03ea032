import Dispatch
import Glibc
import JSON
import Synchronization
import TestSupport
import Testing

@testable import Service
@testable import Store

/// The request log over HTTP (docs/api.md#request-log): what is answered is recorded, before the answer leaves.
@Suite struct RequestLogLiveTests {
    static let invalidScene = #"{"device":"no-such-device","presentations":[{"id":"a","kind":"bogus"}]}"#

    @Test func everyResolveIsListableRightAfterItsResponse() throws {
        let s = try LiveServer()
        // No flush, no polling: a response leaves only after its record committed.
        let bodies = [settingsScene, "{not json", Self.invalidScene, #"{"device":"ipad-pro-13"}"#]
        let expected = [200, 400, 422, 200]
        for (i, body) in bodies.enumerated() {
            let r = try s.post("/v1/resolve", body)
            #expect(r.status == expected[i])
            let items = try s.records()
            #expect(items.count == i + 1)
            #expect(items.first?["status"]?.doubleValue == Double(expected[i]))
            #expect(items.first?["path"] == "/v1/resolve")
            #expect(items.first?["requestSize"]?.doubleValue == Double(body.utf8.count))
            #expect(items.first?["responseSize"]?.doubleValue == Double(r.body.count))
        }
        let m = try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#)
        #expect(m.status == 200)
        #expect(try s.records().first?["path"] == "/v1/resolve/matrix")
        // Newest first, ids increasing with commit order.
        let ids = try s.records().compactMap { $0["id"]?.stringValue }.compactMap { Int($0) }
        #expect(ids == ids.sorted(by: >) && ids.count == 5)
    }

    @Test func filtersByDeviceStatusCodeSinceAndUntil() throws {
        let s = try LiveServer()
        let ok = try s.post(
            "/v1/resolve", #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","placement":"leading"}]}"#)
        let code = try #require(ok.json?["diagnostics"]?[0]?["code"]?.stringValue)
        #expect(code == "placement-no-effect")
        _ = try s.post("/v1/resolve", Self.invalidScene)
        _ = try s.post("/v1/resolve", #"{"device":"ipad-mini"}"#)
        _ = try s.post("/v1/resolve", "[")

        #expect(try s.records("?device=iphone-16").map { $0["device"] } == ["iphone-16"])
        #expect(try s.records("?device=no-such-device").map { $0["status"] } == [422])
        #expect(try s.records("?status=200").count == 2)
        #expect(try s.records("?status=400").count == 1)
        let withCode = try s.records("?code=\(code)")
        #expect(withCode.count >= 1)
        #expect(withCode.allSatisfy { $0["codes"]?.arrayValue?.contains(.string(code)) == true })
        #expect(try s.records("?code=no-such-code").isEmpty)
        #expect(try s.records("?device=iphone-16&status=422").isEmpty)
        #expect(try s.records("?since=2000-01-01T00:00:00Z").count == 4)
        #expect(try s.records("?until=2000-01-01T00:00:00Z").isEmpty)
        let newest = try #require(try s.records().first?["receivedAt"]?.stringValue)
        let since = try s.records("?since=\(newest)")
        #expect(since.count >= 1 && since.allSatisfy { ($0["receivedAt"]?.stringValue ?? "") >= newest })
        let until = try s.records("?until=\(newest)")
        #expect(until.count == 4)  // inclusive
        for bad in ["?limit=501", "?limit=0", "?status=abc", "?since=yesterday", "?cursor=bogus"] {
            let r = try s.get("/v1/requests" + bad)
            #expect(r.status == 400, "\(bad)")
            #expect(r.contentType == "application/problem+json")
        }
        #expect(try s.get("/v1/requests?limit=500").status == 200)
    }

    @Test func cursorPagingVisitsEveryRecordOnce() throws {
        let s = try LiveServer()
        for i in 0..<7 {
            #expect(
                try s.post("/v1/resolve", #"{"device":"iphone-16","presentations":[{"id":"p\#(i)","kind":"sheet"}]}"#)
                    .status == 200)
        }
        var seen: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = try #require(try s.get("/v1/requests?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")).json)
            seen += page["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            cursor = page["next"]?.stringValue
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen.count == 7 && Set(seen).count == 7)
        #expect(seen.compactMap { Int($0) } == seen.compactMap { Int($0) }.sorted(by: >))
    }

    @Test func oneRecordHasItsBodiesAndItsPicture() throws {
        let s = try LiveServer()
        let ok = try s.post("/v1/resolve", settingsScene)
        let okID = try #require(try s.records().first?["id"]?.stringValue)
        let detail = try #require(try s.get("/v1/requests/\(okID)").json)
        #expect(detail["request"] == (try JSONParser.parse(Array(settingsScene.utf8))))
        #expect(detail["response"] == ok.json)
        #expect(detail["requestTruncated"] == false && detail["responseTruncated"] == false)
        #expect(detail["engineVersion"] == ok.json?["engineVersion"])
        #expect(detail["replica"] == .string(s.store.replicaID))
        let svg = try s.get("/v1/requests/\(okID)/svg")
        #expect(svg.status == 200)
        #expect(svg.contentType.hasPrefix("image/svg+xml"))
        #expect(svg.text.contains("</svg>"))

        _ = try s.post("/v1/resolve", Self.invalidScene)
        let badID = try #require(try s.records().first?["id"]?.stringValue)
        let badSVG = try s.get("/v1/requests/\(badID)/svg")
        #expect(badSVG.status == 409)
        #expect(badSVG.contentType == "application/problem+json")
        #expect(try s.get("/v1/requests/\(badID)").json?["response"]?["status"] == 422)

        for missing in ["999999", "abc", "0", "-1"] {
            #expect(try s.get("/v1/requests/\(missing)").status == 404)
            #expect(try s.get("/v1/requests/\(missing)/svg").status == 404)
            #expect(try s.send("POST", "/v1/requests/\(missing)/replay").status == 404)
        }
    }

    @Test func replayOfAnUnchangedEngineIsUnchanged() throws {
        let s = try LiveServer()
        _ = try s.post("/v1/resolve", settingsScene)
        let id = try #require(try s.records().first?["id"]?.stringValue)
        let r = try s.send("POST", "/v1/requests/\(id)/replay")
        #expect(r.status == 200)
        #expect(r.json?["unchanged"] == true)
        #expect(r.json?["differences"] == .array([]))
        _ = try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-duo"]}"#)
        let matrixID = try #require(try s.records().first?["id"]?.stringValue)
        #expect(try s.send("POST", "/v1/requests/\(matrixID)/replay").json?["unchanged"] == true)
        _ = try s.post("/v1/resolve", Self.invalidScene)
        let badID = try #require(try s.records().first?["id"]?.stringValue)
        #expect(try s.send("POST", "/v1/requests/\(badID)/replay").json?["unchanged"] == true)
    }

    @Test func replayShowsDifferencesWhenADeviceChanged() throws {
        let s = try LiveServer()
        #expect(try s.put("/v1/devices/my-phone", customProfile()).status == 201)
        _ = try s.post("/v1/resolve", #"{"device":"my-phone"}"#)
        let id = try #require(try s.records().first?["id"]?.stringValue)
        #expect(try s.put("/v1/devices/my-phone", customProfile(width: 400)).status == 200)
        let r = try #require(try s.send("POST", "/v1/requests/\(id)/replay").json)
        #expect(r["unchanged"] == false)
        let diffs = try #require(r["differences"]?.arrayValue)
        #expect(
            diffs.contains { $0["path"] == "/environment/window/width" && $0["before"] == 390 && $0["after"] == 400 })
    }

    @Test func deleteClearsTheLog() throws {
        let s = try LiveServer()
        for _ in 0..<3 { _ = try s.post("/v1/resolve", settingsScene) }
        #expect(try s.records().count == 3)
        let d = try s.delete("/v1/requests")
        #expect(d.status == 204)
        #expect(try s.records().isEmpty)
        _ = try s.post("/v1/resolve", settingsScene)
        #expect(try s.records().count == 1)
    }

    @Test func noRecordRecordsNothing() throws {
        let s = try LiveServer(noRecord: true)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        #expect(try s.post("/v1/resolve", Self.invalidScene).status == 422)
        #expect(try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#).status == 200)
        #expect(try s.records().isEmpty)
        #expect(s.store.counters.recordsWritten == 0)
    }

    /// Reads run on the store's read threads, not on the event loop (the server here has one loop): with
    /// the only read thread held, a listing waits while the loop goes on answering; a read beyond the read
    /// queue's capacity is refused at once with 503 and `Retry-After`; the held listing completes after.
    @Test func readsWaitOffTheLoopAndAreRefusedWhenTheirQueueIsFull() throws {
        let s = try LiveServer {
            $0.maxReaders = 1
            $0.readQueueCapacity = 1
        }
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }  // never leave the read thread held (close joins it)
        #expect(
            s.store.readWorkers.submit {
                entered.signal()
                release.wait()
            })
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // Queued behind the held thread: this client waits, the loop does not.
        let queued = Mutex<HTTPReply?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let port = s.port
        DispatchQueue.global().async {
            let reply = try? HTTPClient.send(port: port, "GET", "/v1/requests")  // outside the lock
            queued.withLock { $0 = reply }
            finished.signal()
        }
        var waited = 0
        while s.store.readWorkers.waiting == 0 && waited < 1000 {
            usleep(10_000)
            waited += 1
        }
        #expect(s.store.readWorkers.waiting == 1)
        #expect(try s.get("/healthz").status == 200)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        let refused = try s.get("/v1/requests/1")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.contentType == "application/problem+json")
        #expect(queued.withLock { $0 } == nil)
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let listing = try #require(queued.withLock { $0 })
        #expect(listing.status == 200)
        #expect(listing.json?["items"]?.arrayValue?.count == 2)
        #expect(try s.get("/v1/requests/1").status == 200)
    }
}

/// `/readyz`, `/metrics` and the contract route on a real server.
@Suite struct OperationsLiveTests {
    @Test func readyzIs503WhileTheStoreCannotCommitButResolvingStillAnswers() throws {
        let s = try LiveServer()
        let ready = try s.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.text == #"{"status":"ready"}"#)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)

        try s.store.simulateDiskFull(true)
        // Big enough to need new pages even compressed (random letters): the commit fails with SQLITE_FULL.
        var random = SplitMix64(seed: 9)
        let padding = String(decoding: (0..<300_000).map { _ in UInt8(0x61 + random.next() % 26) }, as: UTF8.self)
        let big = #"{"device":"iphone-16","padding":"\#(padding)","presentations":[{"id":"s","kind":"sheet"}]}"#
        let r = try s.post("/v1/resolve", big)
        #expect(r.status == 200)
        #expect(r.json?["placements"]?[0]?["id"] == "s")
        let notReady = try s.get("/readyz")
        #expect(notReady.status == 503)
        #expect(notReady.contentType == "application/problem+json")
        #expect(try s.get("/healthz").status == 200)
        let metrics = try s.get("/metrics").text
        #expect(metrics.contains("hinge_store_healthy 0"))
        #expect(!metrics.contains("hinge_request_log_commit_failures_total 0\n"))
        #expect(!metrics.contains("hinge_record_failures_total 0\n"))
        #expect(try s.records().count == 1)  // nothing half-written

        try s.store.simulateDiskFull(false)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        #expect(try s.get("/readyz").status == 200)
    }

    @Test func readyzIs503AfterTheStoreClosed() throws {
        let s = try LiveServer()
        s.store.close()
        #expect(try s.get("/readyz").status == 503)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        #expect(try s.get("/metrics").text.contains("hinge_record_failures_total 1\n"))
    }

    @Test func metricsShowRoutesLatencyConnectionsAndTheStore() throws {
        let s = try LiveServer { $0.replicaID = "live-\"1\"" }
        for _ in 0..<3 { _ = try s.post("/v1/resolve", settingsScene) }
        _ = try s.post("/v1/resolve", "{")
        _ = try s.get("/v1/devices/nope")
        let r = try s.get("/metrics")
        #expect(r.status == 200)
        #expect(r.contentType.hasPrefix("text/plain"))
        let m = r.text
        for line in [
            #"hinge_http_requests_total{route="POST /v1/resolve",status="200"} 3"#,
            #"hinge_http_requests_total{route="POST /v1/resolve",status="400"} 1"#,
            #"hinge_http_requests_total{route="GET /v1/devices/{id}",status="404"} 1"#,
            #"hinge_http_request_duration_seconds_bucket{route="POST /v1/resolve",le="+Inf"} 4"#,
            #"hinge_http_request_duration_seconds_count{route="POST /v1/resolve"} 4"#,
            "# TYPE hinge_http_request_duration_seconds histogram",
            "hinge_open_connections 1",  // this request's
            "hinge_request_log_queue_depth 0",
            "hinge_request_log_commit_failures_total 0",
            "hinge_request_log_records_written_total 4",
            "hinge_store_healthy 1",
            #"hinge_store_info{engine="sqlite",replica="live-\"1\""} 1"#,
            #"hinge_request_log_body_codec{codec="lz4-dictionary-2"} 1"#,
        ] {
            #expect(m.contains(line + "\n"), "missing \(line)")
        }
        #expect(m.contains("hinge_request_log_commits_total "))
        #expect(!m.contains("hinge_request_log_commits_total 0\n"))
        #expect(m.contains("hinge_device_cache_size 7\n"))
    }
}
