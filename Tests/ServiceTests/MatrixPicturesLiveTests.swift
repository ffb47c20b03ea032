import HTTPServer
import JSON
import LayoutEngine
import Resolving
import Store
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Service

/// `POST /v1/resolve/matrix?pictures=svg[&width=N]` (docs/api.md#matrix-pictures): every combination with the
/// picture `POST /v1/resolve?format=svg` draws for it, in one request and one record, within the matrix's
/// budgets, drawn on the worker pool.
@Suite struct MatrixPicturesLiveTests {
    /// A scene whose picture reads the request (the toolbar's items) beside the resolution.
    static let scene = #"""
        {"presentations":[{"id":"editor","kind":"sheet","placement":"trailing",
         "toolbar":[{"title":"Save","systemImage":"checkmark","placement":"confirmationAction"}]}]}
        """#
    static let body =
        #"{"scene":\#(scene),"devices":["iphone-16","iphone-duo"],"postures":["flat","halfOpened"]}"#

    /// The scene of one result, as `POST /v1/resolve` takes it.
    static func combinationScene(_ result: JSONValue) throws -> [UInt8] {
        var scene = try #require(try JSONParser.parse(Array(Self.scene.utf8)).objectValue)
        for key in ["device", "posture", "orientation", "layoutDirection"] { scene[key] = result[key] }
        return JSONWriter.encode(.object(scene))
    }

    @Test(arguments: [nil, 390] as [Int?])
    func eachCombinationCarriesThePictureResolveDrawsForIt(width: Int?) throws {
        let s = try LiveServer()
        let query = width.map { "&width=\($0)" } ?? ""
        let r = try s.post("/v1/resolve/matrix?pictures=svg" + query, Self.body)
        #expect(r.status == 200)
        let json = try #require(r.json)
        #expect(keysAreSortedEverywhere(json) && JSONWriter.encode(json) == r.body)
        let results = try #require(json["results"]?.arrayValue)
        #expect(results.count == 12)  // iPhone 16: 2 orientations × 2 directions; Duo: × 2 postures
        for result in results {
            let svg = try #require(result["svg"]?.stringValue)
            let resolved = try s.send(
                "POST", "/v1/resolve?format=svg" + query, headers: [("Hinge-Record", "off")],
                body: try Self.combinationScene(result))
            #expect(resolved.status == 200)
            #expect(Array(svg.utf8) == resolved.body, "\(result["device"] ?? .null) \(result["posture"] ?? .null)")
            let plain = try s.send(
                "POST", "/v1/resolve", headers: [("Hinge-Record", "off")], body: try Self.combinationScene(result))
            #expect(result["resolution"] == plain.json)
        }
        // The scene's toolbar is drawn (an icon in a vertical bar, where the sheet is a region sheet).
        #expect(results.contains { $0["svg"]?.stringValue?.contains(">checkmark</text>") == true })
        // Without pictures: the same answer without the svg members.
        let without = try #require(try s.post("/v1/resolve/matrix", Self.body).json)
        #expect(
            without["results"]?.arrayValue?.map { $0.objectValue?.keys ?? [] }
                == results.map { r in
                    (r.objectValue?.keys ?? []).filter { $0 != "svg" }
                })
        let stripped = try #require(json.objectValue).removingPictures
        #expect(stripped == without)
    }

    @Test func oneRequestOneRecordThatReplaysUnchanged() throws {
        let s = try LiveServer()
        let r = try s.post(
            "/v1/resolve/matrix?pictures=svg&width=200", Self.body, headers: [("Hinge-Client", "studio")])
        #expect(r.status == 200)
        let id = try #require(r.header("Hinge-Record-Id"))
        let items = try s.records()
        #expect(items.count == 1 && items.first?["id"] == .string(id))
        #expect(items.first?["client"] == "studio" && items.first?["path"] == "/v1/resolve/matrix")
        // The log keeps the answer without its pictures (they are drawn again from the request).
        let detail = try #require(try s.get("/v1/requests/\(id)").json)
        let plain = try s.post("/v1/resolve/matrix", Self.body, headers: [("Hinge-Record", "off")])
        #expect(detail["response"] == plain.json)
        #expect(detail["responseSize"] == .number(Double(plain.body.count)))
        #expect(r.body.count > 4 * plain.body.count)
        let replay = try s.send("POST", "/v1/requests/\(id)/replay")
        #expect(replay.status == 200)
        #expect(replay.json?["unchanged"] == true && replay.json?["differences"] == .array([]))
    }

    @Test func aCombinationThatCannotBeResolvedHasNoPicture() throws {
        let s = try LiveServer()
        let body =
            #"{"scene":{"window":{"width":1000,"height":1000}},"devices":["iphone-16","ipad-pro-13"],"orientations":["landscape"],"layoutDirections":["ltr"]}"#
        let results = try #require(try s.post("/v1/resolve/matrix?pictures=svg", body).json?["results"]?.arrayValue)
        #expect(results.map { $0["resolution"] == .null } == [true, false])
        #expect(results[0]["svg"] == .null && results[0]["errors"]?.arrayValue?.isEmpty == false)
        #expect(results[1]["svg"]?.stringValue?.hasPrefix("<?xml") == true)
    }

    @Test(arguments: [
        ("?pictures=png", "pictures"), ("?pictures=SVG", "pictures"), ("?pictures=", "pictures"),
        ("?width=390", "width"), ("?pictures=svg&width=15", "width"), ("?pictures=svg&width=4097", "width"),
        ("?pictures=svg&wdth=390", "wdth"),
    ])
    func badPictureParametersAre400(_ query: String, _ parameter: String) throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve/matrix" + query, Self.body)
        #expect(r.status == 400, "\(query)")
        #expect(r.contentType == "application/problem+json")
        #expect(r.json?["detail"]?.stringValue?.contains(parameter) == true, "\(r.text)")
        #expect(try s.records().isEmpty)
    }

    /// A picture counts in the work bound: a budget that admits the matrix refuses it with pictures.
    @Test func picturesCountInTheWorkBound() throws {
        let catalog = StaticDeviceCatalog(BuiltInDevices.all)
        guard case .plan(let plain) = Matrix.plan(body: Array(Self.body.utf8), catalog: catalog) else {
            Issue.record("the matrix was refused")
            return
        }
        let nodes = plain.work / plain.combinationCount
        guard case .plan(let drawn) = Matrix.plan(body: Array(Self.body.utf8), catalog: catalog, pictures: .init())
        else {
            Issue.record("the matrix with pictures was refused")
            return
        }
        let picture = Matrix.Pictures.work(sceneNodes: nodes, presentations: 1)
        #expect(picture == 3_000 + 400 + 8 * nodes)
        #expect(drawn.work == plain.combinationCount * (nodes + picture))

        let s = try LiveServer(maxMatrixWork: plain.work)
        #expect(try s.post("/v1/resolve/matrix", Self.body).status == 200)
        let refused = try s.post("/v1/resolve/matrix?pictures=svg", Self.body)
        #expect(refused.status == 422)
        #expect(refused.json?["work"] == .number(Double(drawn.work)))
        #expect(refused.json?["detail"]?.stringValue?.contains("ask without pictures") == true)
    }

    /// The pictures count in `--max-response-bytes`: refused (422) part-way rather than sent.
    @Test func picturesCountInTheResponseBudget() throws {
        let probe = try LiveServer()
        let plainSize = try probe.post("/v1/resolve/matrix", Self.body).body.count
        probe.stop()
        let s = try LiveServer(maxResponseBytes: 2 * plainSize)
        #expect(try s.post("/v1/resolve/matrix", Self.body).status == 200)
        let refused = try s.post("/v1/resolve/matrix?pictures=svg", Self.body)
        #expect(refused.status == 422)
        #expect(refused.json?["maxResponseBytes"] == .number(Double(2 * plainSize)))
        #expect(refused.json?["errors"]?[0]?["message"]?.stringValue?.contains("of 12 combinations") == true)
    }

    /// Even one small combination is drawn on the worker pool: the loop answers meanwhile.
    @Test func picturesAreDrawnOnTheWorkerPool() throws {
        let held = HeldPool()
        let (gate, started, pool) = (held.gate, held.started, held.pool)
        let s = try LiveServer(work: pool)  // one event loop
        let small = #"{"scene":{},"devices":["iphone-16"],"orientations":["portrait"],"layoutDirections":["ltr"]}"#
        #expect(try s.post("/v1/resolve/matrix", small).status == 200)  // without pictures: on the loop
        let result = Mutex<HTTPReply?>(nil)
        let port = s.port
        let client = TestThread {
            let r = try? HTTPClient.send(port: port, "POST", "/v1/resolve/matrix?pictures=svg", body: Array(small.utf8))
            result.withLock { $0 = r }
        }
        started.waitForArrivals(1)  // held on the worker
        #expect(try s.get("/healthz").status == 200)
        #expect(result.withLock { $0 } == nil)
        gate.open()
        client.join()
        let r = try #require(result.withLock { $0 })
        #expect(r.status == 200)
        #expect(r.json?["results"]?[0]?["svg"]?.stringValue?.contains("</svg>") == true)
    }
}

extension JSONObject {
    /// A matrix answer without the `svg` member of each result.
    fileprivate var removingPictures: JSONValue {
        var o = self
        o["results"] = .array(
            (self["results"]?.arrayValue ?? []).map { r in
                guard var result = r.objectValue else { return r }
                result.members.removeAll { $0.key == "svg" }
                return .object(result)
            })
        return .object(o)
    }
}
