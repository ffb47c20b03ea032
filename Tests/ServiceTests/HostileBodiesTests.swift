import HTTPServer
import JSON
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Service

/// Bodies and paths an attacker shapes: bounded 422s (docs/api.md#problem-invalid), large bodies checked off the
/// loop, version numbers written one way, and no set that reads as the built-in values.
@Suite struct HostileBodiesTests {
    /// `{"constants": {"zz0": 1, "zz1": 1, …}}` with `n` unknown keys.
    static func unknownConstants(_ n: Int) -> String {
        "{" + (0..<n).map { "\"zz\($0)\":1" }.joined(separator: ",") + "}"
    }

    @Test func aSceneWithThousandsOfUnknownConstantsGetsABounded422() throws {
        let s = try LiveServer(noRecord: true)
        let body = #"{"device":"iphone-16","constants":\#(Self.unknownConstants(3000))}"#
        let r = try s.post("/v1/resolve", body)
        #expect(r.status == 422)
        let errors = try #require(r.json?["errors"]?.arrayValue)
        #expect(errors.count == JSONIssue.listLimit + 1)
        #expect(errors[0]["path"] == "/constants/zz0")
        #expect(errors.last?["path"] == "")
        #expect(errors.last?["message"]?.stringValue?.hasPrefix("2900 more violations are not listed") == true)
        #expect(r.json?["detail"]?.stringValue?.contains("breaks 3000 rules") == true)
        #expect(r.body.count < 40_000)
    }

    @Test func aLargeConstantSetBodyIsCheckedOnThePoolAndAnswersABounded422() throws {
        let held = HeldPool()
        let (gate, started, pool) = (held.gate, held.started, held.pool)
        let s = try LiveServer(work: pool)  // one event loop
        let sources = "{" + (0..<8000).map { "\"zz\($0)\":\"x\"" }.joined(separator: ",") + "}"
        let body = Array(#"{"constants":{"sheet.topGap":12},"sources":\#(sources)}"#.utf8)
        #expect(body.count > HeavyWork.inlineBodyBytes)
        let port = s.port
        let result = Mutex<HTTPReply?>(nil)
        let client = TestThread {
            let r = try? HTTPClient.send(port: port, "POST", "/v1/constant-sets/big/versions", body: body)
            result.withLock { $0 = r }
        }
        started.waitForArrivals(1)  // the check waits on the pool, the loop is free
        #expect(try s.get("/healthz").status == 200)
        gate.open()
        client.join()
        let r = try #require(result.withLock { $0 })
        #expect(r.status == 422)
        #expect(r.json?["errors"]?.arrayValue?.count == JSONIssue.listLimit + 1)
        #expect(r.json?["detail"]?.stringValue?.contains("breaks 8000 rules") == true)
        #expect(try s.get("/v1/constant-sets/big").status == 404)
    }

    @Test func aVersionIsWrittenOneWay() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
        #expect(try s.get("/v1/constant-sets/acme/versions/1").status == 200)
        for text in ["+1", "01", "1.0", "%2B1", "-1", "0", "1e0", "%201"] {
            #expect(try s.get("/v1/constant-sets/acme/versions/\(text)").status == 404, "\(text)")
        }
        #expect(try s.post("/v1/constant-sets/acme/versions/01/impact", "").status == 404)
    }

    @Test func noSetIsNamedLikeTheBuiltInValuesInAnyCase() throws {
        let s = try LiveServer()
        for name in ["default", "DEFAULT", "Default"] {
            let r = try s.post("/v1/constant-sets/\(name)/versions", #"{"constants":{"sheet.topGap":12}}"#)
            #expect(r.status == 400, "\(name)")
        }
        #expect(try s.post("/v1/constant-sets/defaults/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
    }
}
