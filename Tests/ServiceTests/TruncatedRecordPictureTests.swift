import JSON
import Testing

@testable import Service

/// docs/api.md#request-log: a record whose request was stored truncated has no picture (409), even when its
/// response was stored whole; a whole record has one.
@Suite struct TruncatedRecordPictureTests {
    @Test func aTruncatedRequestHasNoPictureAndAWholeOneHas() throws {
        // Bodies are stored up to 1,500 bytes: a request padded past that is truncated, its answer is not.
        let s = try LiveServer(configure: { $0.maxBodyBytes = 1500 })
        let padded = #"{"device": "iphone-16", "presentations": []"# + String(repeating: " ", count: 2000) + "}"
        let answered = try s.post("/v1/resolve", padded)
        #expect(answered.status == 200)
        #expect(answered.body.count < 1500)
        let id = try #require(answered.header("Hinge-Record-Id"))
        let record = try #require(try s.get("/v1/requests/\(id)").json)
        #expect(record["requestTruncated"] == .bool(true))
        #expect(record["responseTruncated"] == .bool(false))
        let picture = try s.get("/v1/requests/\(id)/svg")
        #expect(picture.status == 409)
        #expect(picture.json?["detail"]?.stringValue?.contains("stored truncated") == true)

        let whole = try s.post("/v1/resolve", #"{"device": "iphone-16", "presentations": []}"#)
        let wholeID = try #require(whole.header("Hinge-Record-Id"))
        let drawn = try s.get("/v1/requests/\(wholeID)/svg")
        #expect(drawn.status == 200)
        #expect(drawn.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
    }
}
