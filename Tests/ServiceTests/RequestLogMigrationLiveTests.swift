import JSON
import Resolving
import Store
import TestSupport
import Testing

/// The request-log routes on a database the previous schema wrote (Tests/StoreTests/Fixtures/README.md),
/// migrated at open: old records (bodies as received) and new ones (compressed) answer alike.
@Suite struct RequestLogMigrationLiveTests {
    static let fixture =
        String(#filePath.dropLast("ServiceTests/RequestLogMigrationLiveTests.swift".utf8.count))
        + "StoreTests/Fixtures/schema-v2.sqlite"

    @Test func listingDetailPictureAndReplayWorkOnOldAndNewRecords() throws {
        let bytes = try #require(readFile(Self.fixture), "missing \(Self.fixture)")
        let s = try LiveServer { configuration in writeFile(configuration.path, bytes) }
        let listed = try #require(try s.get("/v1/requests?limit=50").json?["items"]?.arrayValue)
        #expect(listed.compactMap { $0["id"]?.stringValue } == (1...12).reversed().map(String.init))

        // A new record of the same scene as old record 1 (Benchmarks/scenes/typical.json, as curl sent it).
        let old = try #require(try s.get("/v1/requests/1").json)
        let scene = try #require(old["request"])
        #expect(scene["device"] == "iphone-duo")
        let fresh = try s.send("POST", "/v1/resolve", body: JSONWriter.encode(scene))
        #expect(fresh.status == 200 && fresh.header("Hinge-Record-Id") == "13")
        let new = try #require(try s.get("/v1/requests/13").json)
        #expect(new["request"] == scene && new["response"] == fresh.json)
        #expect(try s.get("/v1/requests?code=chained-modal").json?["items"]?.arrayValue?.count == 4)

        for id in ["1", "13"] {
            let svg = try s.get("/v1/requests/\(id)/svg")
            #expect(svg.status == 200 && svg.text.contains("</svg>"), "record \(id)")
            let replay = try s.send("POST", "/v1/requests/\(id)/replay")
            #expect(replay.status == 200, "record \(id)")
            #expect(replay.json?["differences"]?.arrayValue != nil, "record \(id)")
        }
        #expect(try s.send("POST", "/v1/requests/13/replay").json?["unchanged"] == true)
        // Old record 1's answer, replayed, differs exactly as much as it differs from today's answer.
        let oldReplay = try #require(try s.send("POST", "/v1/requests/1/replay").json)
        #expect(oldReplay["unchanged"] == .bool(old["response"] == fresh.json))
        // A 422 record of the old file: its detail and the refusal of its picture.
        #expect(try s.get("/v1/requests/2").json?["response"]?["status"] == 422)
        #expect(try s.get("/v1/requests/2/svg").status == 409)
    }
}
