import ArgumentScanning
import HTTPServer
import HingeCLI
import JSON
import LayoutEngine
import Resolving
import Store
import Synchronization
import TestSupport
import Testing
import Threads

@testable import Service

/// The matrix's bounds: distinct values, combinations, work and response bytes, all refused before the
/// response outgrows them.
@Suite struct MatrixLimitsTests {
    let catalog = StaticDeviceCatalog(BuiltInDevices.all)

    func resolve(_ body: String, limits: Matrix.Limits = Matrix.Limits()) -> (status: Int, json: JSONValue?) {
        let out = Matrix.resolve(body: Array(body.utf8), catalog: catalog, limits: limits)
        return (out.problemKind?.status ?? 200, try? JSONParser.parse(out.json))
    }

    @Test func aDeviceListedTwiceIs422AtItsSecondIndexNamingTheFirst() {
        let r = resolve(#"{"scene":{},"devices":["iphone-16","ipad-mini","iphone-16"]}"#)
        #expect(r.status == 422)
        #expect(r.json?["errors"]?[0]?["path"] == "/devices/2")
        #expect(r.json?["errors"]?[0]?["message"]?.stringValue?.contains("/devices/0") == true)
        #expect(r.json?["errors"]?[1] == nil)
    }

    @Test(arguments: ["postures", "orientations", "layoutDirections"])
    func aValueListedTwiceIs422NamingTheFirst(_ key: String) {
        let value = ["postures": "flat", "orientations": "portrait", "layoutDirections": "rtl"][key]!
        let r = resolve(#"{"scene":{},"devices":["iphone-16"],"\#(key)":["\#(value)","\#(value)"]}"#)
        #expect(r.status == 422)
        #expect(r.json?["errors"]?[0]?["path"] == .string("/\(key)/1"))
        #expect(r.json?["errors"]?[0]?["message"]?.stringValue?.contains("/\(key)/0") == true)
    }

    @Test func beyond512CombinationsIs422BeforeAnythingIsResolved() {
        var duo = BuiltInDevices.all.first { $0.folds }!
        let ids = (0..<43).map { "duo-\($0)" }  // 43 foldables × 12 = 516
        let many = StaticDeviceCatalog(
            ids.map {
                duo.id = $0
                return duo
            })
        let body = #"{"scene":{},"devices":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        let out = Matrix.resolve(body: Array(body.utf8), catalog: many)
        #expect(out.status == 422)
        #expect(String(decoding: out.json, as: UTF8.self).contains("516"))
        let fewer = #"{"scene":{},"devices":[\#(ids.dropLast().map { "\"\($0)\"" }.joined(separator: ","))]}"#
        #expect(Matrix.resolve(body: Array(fewer.utf8), catalog: many).status == 200)  // 504
    }

    @Test func workBeyondTheBudgetIs422WithTheNumbers() {
        // "all" is 36 combinations; the scene has 13 nodes (the object, the name "presentations", the list,
        // and two objects of two named members: 2 × 5) → 468 units.
        let body = #"{"scene":{"presentations":[{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet"}]}}"#
        let refused = resolve(body, limits: Matrix.Limits(maxWork: 467))
        #expect(refused.status == 422)
        #expect(refused.json?["work"] == 468)
        #expect(refused.json?["maxWork"] == 467)
        #expect(refused.json?["errors"]?[0]?["path"] == "")
        #expect(resolve(body, limits: Matrix.Limits(maxWork: 468)).status == 200)
    }

    @Test func aResponsePastTheByteBudgetIs422AndStopsEarly() throws {
        let body = #"{"scene":{"presentations":[{"id":"a","kind":"sheet"}]}}"#
        let whole = Matrix.resolve(body: Array(body.utf8), catalog: catalog)
        #expect(whole.status == 200)
        let limit = whole.json.count / 3
        let out = Matrix.resolve(
            body: Array(body.utf8), catalog: catalog, limits: Matrix.Limits(maxResponseBytes: limit))
        #expect(out.status == 422)
        let problem = try #require(try? JSONParser.parse(out.json))
        #expect(problem["maxResponseBytes"] == .number(Double(limit)))
        let message = try #require(problem["errors"]?[0]?["message"]?.stringValue)
        #expect(message.contains("of 36 combinations"))  // stopped part-way, not after resolving everything
        #expect(resolve(body, limits: Matrix.Limits(maxResponseBytes: whole.json.count)).status == 200)
    }

    @Test func theStreamedBodyIsTheWritersCanonicalEncoding() throws {
        let body =
            #"{"scene":{"window":{"width":2000,"height":900},"presentations":[{"id":"p","kind":"popover"}]},"x":1}"#
        let out = Matrix.resolve(body: Array(body.utf8), catalog: catalog)
        #expect(out.status == 200)
        let value = try JSONParser.parse(out.json)
        #expect(JSONWriter.encode(value) == out.json)
        #expect(value["results"]?.arrayValue?.count == 36)
        #expect(value["warnings"]?[0]?["path"] == "/x")
    }
}

/// Heavy requests run on the worker pool, not on the event loop.
@Suite struct HeavyWorkLiveTests {
    /// A matrix above the inline budget: 36 combinations of a 67-node scene.
    static let heavyMatrix: String = {
        let p = (0..<16).map { #"{"id":"p\#($0)","kind":"sheet"}"# }.joined(separator: ",")
        return #"{"scene":{"presentations":[\#(p)]}}"#
    }()

    @Test func healthzAnswersWhileAHeavyMatrixRunsOnTheOnlyLoop() throws {
        let held = HeldPool()
        let (gate, started, pool) = (held.gate, held.started, held.pool)
        let s = try LiveServer(work: pool)  // one event loop
        let result = Mutex<HTTPReply?>(nil)
        let port = s.port
        let client = TestThread {
            let r = try? HTTPClient.send(port: port, "POST", "/v1/resolve/matrix", body: Array(Self.heavyMatrix.utf8))
            result.withLock { $0 = r }
        }
        started.waitForArrivals(1)  // the matrix is on the worker, held by the gate
        #expect(try s.get("/healthz").status == 200)  // the loop is free
        #expect(result.withLock { $0 } == nil)
        gate.open()
        client.join()
        let r = try #require(result.withLock { $0 })
        #expect(r.status == 200)
        #expect(r.json?["results"]?.arrayValue?.count == 36)
    }

    @Test func aFullPoolAnswers503WithRetryAfter() throws {
        let held = HeldPool()
        let (gate, started, pool) = (held.gate, held.started, held.pool)
        let s = try LiveServer(work: pool)
        let port = s.port
        let body = Array(Self.heavyMatrix.utf8)
        let first = TestThread { _ = try? HTTPClient.send(port: port, "POST", "/v1/resolve/matrix", body: body) }
        started.waitForArrivals(1)  // running
        let second = TestThread { _ = try? HTTPClient.send(port: port, "POST", "/v1/resolve/matrix", body: body) }
        #expect(eventually { pool.load.waiting == 1 })  // queued
        let refused = try s.post("/v1/resolve/matrix", Self.heavyMatrix)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.contentType == "application/problem+json")
        // The typical resolve stays on the loop, so it is not refused.
        #expect(try s.post("/v1/resolve", #"{"device":"iphone-16"}"#).status == 200)
        gate.open()
        first.join()
        second.join()
    }

    @Test func flagsAndVariablesSetTheBudgets() throws {
        let o = try ServeOptions.parse(
            ["--max-response-bytes", "4096", "--max-matrix-work=10"],
            environment: { ["HINGE_MAX_BUFFERED_BYTES": "2048", "HINGE_MAX_MATRIX_WORK": "99"][$0] })
        #expect(o.maxResponseBytes == 4096)
        #expect(o.maxMatrixWork == 10)
        #expect(o.maxBufferedBytes == 2048)
        #expect(ServeOptions().maxResponseBytes == 8 * 1024 * 1024)
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--max-matrix-work", "0"], environment: { _ in nil })
        }

        let s = try LiveServer(maxMatrixWork: 10)
        let r = try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#)  // 4 × 1
        #expect(r.status == 200)
        let big = try s.post("/v1/resolve/matrix", #"{"scene":{"presentations":[]},"devices":["iphone-16"]}"#)  // 4 × 3
        #expect(big.status == 422)
        #expect(big.json?["maxWork"] == 10)
    }

    @Test func aResolveResponsePastTheBudgetIs422() throws {
        let s = try LiveServer(maxResponseBytes: 1024)
        let p = (0..<16).map { #"{"id":"p\#($0)","kind":"sheet"}"# }.joined(separator: ",")
        let r = try s.post("/v1/resolve", #"{"device":"iphone-16","presentations":[\#(p)]}"#)
        #expect(r.status == 422)
        #expect(r.json?["maxResponseBytes"] == 1024)
        #expect(try s.post("/v1/resolve", #"{"device":"iphone-16"}"#).status == 200)
    }
}
