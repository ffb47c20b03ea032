import JSON
import LayoutEngine
import Testing

@testable import Wireframe

/// `POST /v1/resolve?format=svg` draws with the toolbar items of the decoded scene (no second parse of the body);
/// the stored records' pictures and the matrix draw with those of the body. Both must give the same picture.
@Suite("SVG toolbars from the decoded scene")
struct DecodedSceneToolbarTests {
    @Test("The picture drawn from the decoded scene is the one drawn from the request body")
    func sameAsFromTheBody() throws {
        var withToolbars = 0
        let scenes =
            SVGFixtures.scenes.map { ($0.json, SVGFixtures.catalog) }
            + SVGFixtures.goldenScenes().map { ($0.json, SVGFixtures.goldenCatalog) }
        for (json, catalog) in scenes {
            let value = try JSONParser.parse(json)
            guard let scene = Scene.decode(value, catalog: catalog).scene else { continue }
            let resolution = LayoutEngine.resolve(scene)
            let fromBody = SVGRenderer.render(resolution, scene: value, width: 600)
            let fromScene = SVGRenderer.render(resolution, decoded: scene, width: 600)
            #expect(fromScene == fromBody, "\(json)")
            if !WireframeModel.toolbars(scene).isEmpty { withToolbars += 1 }
        }
        #expect(withToolbars >= 3)
    }

    @Test("A toolbar written on a presentation that is not a sheet is an unknown field, and not drawn")
    func onlySheets() throws {
        let json = #"""
            {"device": "phone", "presentations": [
              {"id": "p", "kind": "popover", "anchor": {"x": 10, "y": 10}, "toolbar": [{"title": "Stray"}]},
              {"id": "s", "kind": "sheet", "toolbar": [{"title": "Done"}]}]}
            """#
        let value = try JSONParser.parse(json)
        let scene = try #require(Scene.decode(value, catalog: SVGFixtures.catalog).scene)
        #expect(scene.unknownFields.map(\.description) == ["/presentations/0/toolbar"])
        #expect(WireframeModel.toolbars(value).keys.sorted() == ["s"])
        #expect(WireframeModel.toolbars(scene).keys.sorted() == ["s"])
        #expect(WireframeModel.toolbars(scene)["s"]?.map(\.text) == ["Done"])
    }
}
