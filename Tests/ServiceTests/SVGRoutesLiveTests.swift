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
