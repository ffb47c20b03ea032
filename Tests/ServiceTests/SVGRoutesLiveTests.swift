import Foundation
import HingeCLI
import JSON
import LayoutEngine
import Store
import Testing
import Wireframe

@testable import Service

/// The routes that answer a picture: `?width=`, and the CLI drawing the very bytes the server sends.
@Suite struct SVGRoutesLiveTests {
    static let scene = #"""
        {"device":"iphone-duo","posture":"halfOpened","presentations":[{"id":"editor","kind":"sheet",
         "placement":"trailing",
         "toolbar":[{"title":"Save","systemImage":"checkmark","placement":"confirmationAction"}]}]}
        """#

    static func root(_ svg: String) -> [String: String] {
        guard let head = svg.components(separatedBy: "<svg ").dropFirst().first?.split(separator: ">").first else {
            return [:]
        }
        var attrs: [String: String] = [:]
        for part in head.components(separatedBy: "\" ") {
            let kv = part.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { attrs[String(kv[0])] = kv[1].replacingOccurrences(of: "\"", with: "") }
        }
        return attrs
    }

    @Test func widthSetsThePixelWidthOfBothPictureRoutes() throws {
        let s = try LiveServer()
        let plain = try s.post("/v1/resolve?format=svg", Self.scene)
        #expect(plain.status == 200)
        #expect(Self.root(plain.text)["width"] == nil)
        #expect(Self.root(plain.text)["viewBox"] != nil)
        let sized = try s.post("/v1/resolve?format=svg&width=390", Self.scene)
        #expect(sized.status == 200)
        #expect(sized.contentType.hasPrefix("image/svg+xml"))
        #expect(Self.root(sized.text)["width"] == "390")
        #expect(Self.root(sized.text)["height"].flatMap(Double.init) ?? 0 > 390)

        let id = try #require(try s.records().first?["id"]?.stringValue)
        let record = try s.get("/v1/requests/\(id)/svg?width=512")
        #expect(record.status == 200)
        #expect(Self.root(record.text)["width"] == "512")
        // The stored request supplies the toolbar items (an icon in the trailing sheet's vertical bar).
        #expect(record.text.contains(">checkmark</text>"))
        #expect(Self.root(try s.get("/v1/requests/\(id)/svg").text)["width"] == nil)
    }

    /// `POST /v1/resolve/svg` answers the bytes of `?format=svg` whatever `Accept` says, and records like it: under
    /// `/v1/resolve`, with the JSON resolution (docs/api.md#resolve-svg).
    @Test(arguments: [nil, 390] as [Int?])
    func theSVGRouteAnswersThePictureOfFormatSVGAndRecordsTheResolution(width: Int?) throws {
        let s = try LiveServer()
        let sized = width.map { "width=\($0)" }
        let byQuery = try s.post("/v1/resolve?format=svg" + (sized.map { "&\($0)" } ?? ""), Self.scene)
        let route = try s.post(
            "/v1/resolve/svg" + (sized.map { "?\($0)" } ?? ""), Self.scene, headers: [("Accept", "application/json")])
        #expect(route.status == 200)
        #expect(route.contentType == "image/svg+xml; charset=utf-8")
        #expect(route.header("Cache-Control") == "no-store")
        #expect(route.body == byQuery.body)
        #expect(Self.root(route.text)["width"] == width.map(String.init))
        #expect(route.text.contains(">checkmark</text>"))

        let id = try #require(route.header("Hinge-Record-Id"))
        let record = try #require(try s.get("/v1/requests/\(id)").json)
        #expect(record["path"] == "/v1/resolve")
        #expect(record["status"] == 200)
        let json = try s.post("/v1/resolve", Self.scene)
        #expect(record["response"] == json.json)
        #expect(record["response"]?["placements"]?[0]?["id"] == "editor")
        #expect(try s.get("/v1/requests/\(id)/svg").status == 200)
    }

    @Test func theSVGRouteRefusesAsResolveDoes() throws {
        let s = try LiveServer()
        let invalid = try s.post("/v1/resolve/svg", #"{"device":"nope","presentations":[{"id":"a","kind":"bogus"}]}"#)
        #expect(invalid.status == 422)
        #expect(invalid.contentType == "application/problem+json")
        #expect(
            invalid.json?["errors"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == [
                "/device", "/presentations/0/kind",
            ])
        let id = try #require(invalid.header("Hinge-Record-Id"))
        #expect(try s.get("/v1/requests/\(id)").json?["status"] == 422)
        #expect(try s.post("/v1/resolve/svg", "{").status == 400)
        let badWidth = try s.post("/v1/resolve/svg?width=15", Self.scene)
        #expect(badWidth.status == 400)
        #expect(badWidth.json?["detail"]?.stringValue?.contains("width") == true)
        // The route has one answer's type: `format` is not one of its parameters.
        let format = try s.post("/v1/resolve/svg?format=json", Self.scene)
        #expect(format.status == 400)
        #expect(format.json?["parameter"] == "format")
        #expect(format.json?["accepted"] == ["width"])
        let xml = try s.post("/v1/resolve/svg", Self.scene, headers: [("Content-Type", "application/xml")])
        #expect(xml.status == 415)
        #expect(try s.get("/v1/resolve/svg").status == 405)
    }

    @Test(arguments: ["abc", "15", "4097", "-5", "", "39.5", "1e3"])
    func aBadWidthIs400(_ width: String) throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve?format=svg&width=\(width)", Self.scene)
        #expect(r.status == 400)
        #expect(r.contentType == "application/problem+json")
        #expect(r.json?["detail"]?.stringValue?.contains("width") == true)
        _ = try s.post("/v1/resolve", Self.scene)
        let id = try #require(try s.records().first?["id"]?.stringValue)
        let record = try s.get("/v1/requests/\(id)/svg?width=\(width)")
        #expect(record.status == 400)
        #expect(record.contentType == "application/problem+json")
    }

    @Test(arguments: [nil, 390] as [Int?])
    func theCLIDrawsTheServersBytes(width: Int?) throws {
        let s = try LiveServer()
        let served = try s.post("/v1/resolve?format=svg" + (width.map { "&width=\($0)" } ?? ""), Self.scene)
        #expect(served.status == 200)
        var options = ResolveCommandOptions(file: "-")
        options.format = .svg
        options.width = width
        let out = ResolveCommandRunner.run(
            body: Array(Self.scene.utf8), options: options, catalog: StaticDeviceCatalog(BuiltInDevices.all))
        #expect(out.exitCode == 0)
        #expect(out.stdout == served.body)
        #expect(served.text.contains(">checkmark</text>"))
    }
}
