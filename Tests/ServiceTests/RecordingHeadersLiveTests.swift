import JSON
import TestSupport
import Testing

@testable import Service

/// `Hinge-Client` and `Hinge-Record` (docs/api.md#recording-headers), and what a record carries for a title:
/// device, posture, time.
@Suite struct RecordingHeadersLiveTests {
    static let duo = #"{"device":"iphone-duo","posture":"halfOpened","presentations":[{"id":"s","kind":"sheet"}]}"#
    static let phone = #"{"device":"iphone-16","posture":"halfOpened","presentations":[{"id":"s","kind":"sheet"}]}"#
    static let matrix = #"{"scene":{},"devices":["iphone-16"],"orientations":["portrait"],"layoutDirections":["ltr"]}"#

    @Test func theClientIsStoredListedAndFiltered() throws {
        let s = try LiveServer()
        let studio = [("Hinge-Client", "studio")]
        #expect(try s.post("/v1/resolve", Self.duo, headers: studio).status == 200)
        #expect(try s.post("/v1/resolve", Self.phone).status == 200)
        #expect(
            try s.post("/v1/resolve/matrix", Self.matrix, headers: [("hinge-client", "plugin.figma_2-x")]).status == 200
        )
        #expect(try s.post("/v1/resolve", "{", headers: studio).status == 400)  // a problem is recorded too

        let items = try s.records()
        #expect(
            items.map { $0["client"] } == [.string("studio"), .string("plugin.figma_2-x"), .null, .string("studio")])
        // Posture only where the device folds (the iPhone 16 ignores it); none for a matrix or a problem.
        #expect(items.map { $0["posture"] } == [.null, .null, .null, .string("halfOpened")])
        #expect(items.map { $0["device"] } == [.null, .null, .string("iphone-16"), .string("iphone-duo")])
        #expect(items.allSatisfy { $0["receivedAt"]?.stringValue?.count == 24 })

        let filtered = try s.records("?client=studio")
        #expect(filtered.map { $0["id"] } == [items[0]["id"], items[3]["id"]])
        #expect(try s.records("?client=plugin.figma_2-x").map { $0["path"] } == ["/v1/resolve/matrix"])
        #expect(try s.records("?client=Studio").isEmpty)
        #expect(try s.records("?client=studio&status=200").map { $0["id"] } == [items[3]["id"]])
        let id = try #require(items[3]["id"]?.stringValue)
        let detail = try #require(try s.get("/v1/requests/\(id)").json)
        #expect(detail["client"] == "studio" && detail["posture"] == "halfOpened")

        for bad in ["", "a%20b", "%C3%A9", String(repeating: "x", count: 65)] {
            let r = try s.get("/v1/requests?client=\(bad)")
            #expect(r.status == 400, "\(bad)")
            #expect(r.json?["detail"]?.stringValue?.hasPrefix("Query parameter client:") == true, "\(bad)")
        }
        #expect(try s.get("/v1/requests?client=\(String(repeating: "x", count: 64))").status == 200)
    }

    @Test func theRecordsPictureIsTitledForADesigner() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/resolve", Self.duo).status == 200)
        let item = try #require(try s.records().first)
        let id = try #require(item["id"]?.stringValue)
        let at = try #require(item["receivedAt"]?.stringValue)  // 2025-01-31T09:05:07.042Z
        let svg = try s.get("/v1/requests/\(id)/svg")
        #expect(svg.status == 200)
        let title = "iPhone Duo (illustrative) · halfOpened · \(at.prefix(10)) \(at.dropFirst(11).prefix(8)) UTC"
        // The title's lines (it wraps to the picture's width), joined again.
        let lines = svg.text.split(separator: "\n").filter { $0.contains("-scene-title\"") }.compactMap {
            $0.split(separator: ">", maxSplits: 1).last?.split(separator: "<").first.map(String.init)
        }
        #expect(lines.joined(separator: " ") == title, "\(svg.text.prefix(900))")
        #expect(!svg.text.contains("request \(id)"))
    }

    @Test(arguments: ["", " ", "a b", "a/b", "é", "studio,live", String(repeating: "x", count: 65)])
    func aBadClientIs400NamingTheHeaderAndIsNotRecorded(_ value: String) throws {
        let s = try LiveServer()
        for path in ["/v1/resolve", "/v1/resolve/svg", "/v1/resolve/matrix"] {
            let r = try s.post(
                path, path == "/v1/resolve/matrix" ? Self.matrix : Self.phone, headers: [("Hinge-Client", value)])
            #expect(r.status == 400, "\(path) \(value)")
            #expect(r.contentType == "application/problem+json")
            #expect(r.json?["header"] == "Hinge-Client")
            #expect(r.json?["detail"]?.stringValue?.hasPrefix("Header Hinge-Client:") == true)
        }
        #expect(try s.records().isEmpty)
    }

    @Test func theClientHeaderGivenTwiceIs400() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", Self.phone, headers: [("Hinge-Client", "a"), ("Hinge-Client", "a")])
        #expect(r.status == 400)
        #expect(r.json?["header"] == "Hinge-Client")
        let ok = try s.post(
            "/v1/resolve", Self.phone, headers: [("Hinge-Client", String(repeating: "x", count: 64))])
        #expect(ok.status == 200)
    }

    @Test func recordOffAnswersWithoutARecord() throws {
        let s = try LiveServer()
        let off = [("Hinge-Record", "off"), ("Hinge-Client", "studio-live")]
        let resolved = try s.post("/v1/resolve", Self.duo, headers: off)
        #expect(resolved.status == 200 && resolved.header("Hinge-Record-Id") == nil)
        #expect(resolved.header("Cache-Control") == "no-store")
        let picture = try s.post("/v1/resolve?format=svg", Self.duo, headers: off)
        #expect(picture.status == 200 && picture.header("Hinge-Record-Id") == nil)
        let svg = try s.post("/v1/resolve/svg", Self.duo, headers: off)
        #expect(svg.status == 200 && svg.header("Hinge-Record-Id") == nil)
        let matrix = try s.post("/v1/resolve/matrix", Self.matrix, headers: off)
        #expect(matrix.status == 200 && matrix.header("Hinge-Record-Id") == nil)
        let pictures = try s.post("/v1/resolve/matrix?pictures=svg", Self.matrix, headers: off)
        #expect(pictures.status == 200 && pictures.header("Hinge-Record-Id") == nil)
        let problem = try s.post("/v1/resolve", "{", headers: off)
        #expect(problem.status == 400 && problem.header("Hinge-Record-Id") == nil)
        #expect(try s.records().isEmpty)
        s.store.requestLog.flush()
        #expect(try s.store.requestLog.count() == 0)
        // The same requests without the header are recorded, with an id.
        let recorded = try s.post("/v1/resolve", Self.duo)
        #expect(recorded.header("Hinge-Record-Id") == (try s.records().first?["id"]?.stringValue))
    }

    @Test(arguments: ["", "on", "OFF", "Off", "false", "0", "off, off"])
    func anyOtherRecordValueIs400(_ value: String) throws {
        let s = try LiveServer()
        for path in ["/v1/resolve", "/v1/resolve/svg", "/v1/resolve/matrix"] {
            let r = try s.post(
                path, path == "/v1/resolve/matrix" ? Self.matrix : Self.phone, headers: [("Hinge-Record", value)])
            #expect(r.status == 400, "\(path) \(value)")
            #expect(r.json?["header"] == "Hinge-Record")
            #expect(r.json?["detail"]?.stringValue?.contains("\"off\"") == true)
        }
        #expect(try s.records().isEmpty)
    }

    @Test func aPluginOnAnotherOriginMaySendTheHeaders() throws {
        let s = try LiveServer(corsOrigins: ["null"])
        let grant = try s.send(
            "OPTIONS", "/v1/resolve",
            headers: [
                ("Origin", "null"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "hinge-client, hinge-record"),
            ])
        let allowed = (grant.header("Access-Control-Allow-Headers") ?? "").lowercased()
        #expect(allowed.contains("hinge-client") && allowed.contains("hinge-record"))
    }
}
