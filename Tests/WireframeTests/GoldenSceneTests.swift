import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

@Suite("SVG wireframe of the engine's golden scenes")
struct SVGGoldenSceneTests {
    @Test("every golden scene gives a well-formed picture with the resolution's frames")
    func goldenScenes() throws {
        let scenes = SVGFixtures.goldenScenes()
        #expect(scenes.count >= 10, "golden scenes not found in Tests/LayoutEngineTests/Scenes")
        let dump = ProcessInfo.processInfo.environment["HINGE_SVG_DUMP_DIR"]
        for (name, json) in scenes {
            let decoded = Scene.decode(try JSONParser.parse(json), catalog: SVGFixtures.goldenCatalog)
            let scene = try #require(decoded.scene, "\(name): \(decoded.errors)")
            let resolution = LayoutEngine.resolve(scene)
            let svg = XMLCheck.unscoped(SVGRenderer.render(resolution, title: name))
            #expect(XMLCheck.problem(svg) == nil, "\(name): \(XMLCheck.problem(svg) ?? "")")
            let root = try #require(XMLCheck.rootAttributes(svg))
            #expect(root["width"] == nil && root["height"] == nil, "\(name)")
            #expect(root["viewBox"] != nil, "\(name)")
            let rects = XMLCheck.elements(svg, tag: "rect", cls: "placement")
            let frames = resolution.placements.compactMap { $0.status == .presented ? $0.frame : nil }
            #expect(rects.count == frames.count, "\(name)")
            for (r, frame) in zip(rects, frames) {
                #expect(abs((r["x"].flatMap(Double.init) ?? .nan) - frame.x) <= 0.005, "\(name)")
                #expect(abs((r["height"].flatMap(Double.init) ?? .nan) - frame.height) <= 0.005, "\(name)")
            }
            if let dump {
                try? Data(svg.utf8).write(to: URL(fileURLWithPath: dump).appendingPathComponent("golden-\(name).svg"))
            }
        }
    }
}
