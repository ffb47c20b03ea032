import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

/// Labels are whole, and never drawn over another placement or another label.
@Suite("SVG wireframe labels")
struct LabelTests {
    /// Every scene the tests know: the fixtures, the engine's golden scenes, the benchmark's typical scene
    /// and a few crowded ones.
    static func allScenes() -> [(name: String, json: String, catalog: StaticDeviceCatalog)] {
        var scenes = SVGFixtures.all.map { ($0.name, $0.json, SVGFixtures.catalog) }
        scenes += SVGFixtures.goldenScenes().map { ($0.name, $0.json, SVGFixtures.goldenCatalog) }
        let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/scenes")
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: benchmarks.path)) ?? []).sorted()
        where file.hasSuffix(".json") {
            if let text = try? String(contentsOf: benchmarks.appendingPathComponent(file), encoding: .utf8) {
                scenes.append(("benchmark-" + file, text, SVGFixtures.catalog))
            }
        }
        scenes += extraScenes.map { ($0.name, $0.json, SVGFixtures.catalog) }
        return scenes
    }

    static let longID = "a-presentation-identifier-that-is-far-too-long-to-fit-on-one-line-of-a-region-sheet-0123456789"

    static let extraScenes: [(name: String, json: String)] = [
        (
            "tablet-sheet-with-popover",
            #"""
            {"device": "tablet", "presentations": [
              {"id": "editor", "kind": "sheet", "detents": ["medium", "large"], "selectedDetent": "medium",
               "toolbar": [{"title": "Cancel", "placement": "cancellationAction"},
                           {"title": "Save", "placement": "confirmationAction"}]},
              {"id": "help", "kind": "popover", "presentedFrom": "editor",
               "anchor": {"x": 900, "y": 700, "width": 44, "height": 44}}]}
            """#
        ),
        (
            "duo-long-id-popover-as-sheet",
            #"{"device": "iphone-duo", "posture": "halfOpened", "presentations": [{"id": ""#
                + longID + #"", "kind": "popover", "anchor": {"x": 500, "y": 300, "width": 40, "height": 40}}]}"#
        ),
        (
            "phone-stacked-sheets",
            #"""
            {"device": "phone", "presentations": [
              {"id": "first", "kind": "sheet", "detents": ["medium", "large"]},
              {"id": "second", "kind": "sheet", "presentedFrom": "first", "detents": ["medium"]},
              {"id": "third", "kind": "popover", "presentedFrom": "second",
               "anchor": {"x": 20, "y": 500, "width": 40, "height": 40}}]}
            """#
        ),
    ]

    struct Label {
        var box: Rect
        var owner: Int?
    }

    static func labels(_ svg: String) -> [Label] {
        XMLCheck.elements(svg, tag: "g", cls: "label").compactMap { g in
            let n = (g["data-box"] ?? "").split(separator: " ").compactMap { Double($0) }
            guard n.count == 4 else { return nil }
            return Label(
                box: Rect(x: n[0], y: n[1], width: n[2], height: n[3]), owner: g["data-owner"].flatMap { Int($0) })
        }
    }

    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX - 0.01 && b.minX < a.maxX - 0.01 && a.minY < b.maxY - 0.01 && b.minY < a.maxY - 0.01
    }

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.minX >= outer.minX - 0.01 && inner.maxX <= outer.maxX + 0.01 && inner.minY >= outer.minY - 0.01
            && inner.maxY <= outer.maxY + 0.01
    }

    @Test(
        "no label covers a placement drawn above its own, another label, or leaves the window", arguments: [nil, 390])
    func noLabelOverAnotherPlacement(width: Int?) throws {
        let scenes = Self.allScenes()
        #expect(scenes.count >= 20)
        for (name, json, catalog) in scenes {
            let (resolution, svg) = try SVGFixtures.picture(json, width: width, catalog: catalog)
            let window = resolution.environment.window
            if let dump = ProcessInfo.processInfo.environment["HINGE_SVG_DUMP_DIR"] {
                let file = "labels-\(name)-\(width.map(String.init) ?? "auto").svg"
                try? Data(svg.utf8).write(to: URL(fileURLWithPath: dump).appendingPathComponent(file))
            }
            let frames: [(Int, Rect)] = resolution.placements.enumerated().compactMap { i, p in
                p.status == .presented ? p.frame.map { (i, $0) } : nil
            }
            let labels = Self.labels(svg)
            #expect(!labels.isEmpty, "\(name): no label")
            for (k, l) in labels.enumerated() {
                #expect(Self.inside(l.box, Rect(x: 0, y: 0, width: window.width, height: window.height)), "\(name)")
                let ownFrame = l.owner.flatMap { o in frames.first { $0.0 == o }?.1 }
                for (i, frame) in frames where i != l.owner {
                    // Inside its own placement, a label may lie over what that placement hides anyway.
                    if let o = l.owner, i < o, let own = ownFrame, Self.inside(l.box, own) { continue }
                    #expect(
                        !Self.overlap(l.box, frame),
                        "\(name): a label of \(l.owner.map(String.init) ?? "the window") over placement \(i)")
                }
                for other in labels[(k + 1)...] {
                    #expect(!Self.overlap(l.box, other.box), "\(name): two labels overlap")
                }
            }
        }
    }

    @Test("a label's text lies in its box")
    func textInBox() throws {
        let (_, svg) = try SVGFixtures.picture(SVGFixtures.scenes[2].json)
        let groups = svg.components(separatedBy: "<g class=\"label\"").dropFirst()
        #expect(groups.count >= 3)
        for g in groups {
            let box = (XMLCheck.attributes(g)?["data-box"] ?? "").split(separator: " ").compactMap { Double($0) }
            try #require(box.count == 4)
            let texts = (g.components(separatedBy: "</g>").first ?? "").components(separatedBy: "<text ").dropFirst()
            #expect(!texts.isEmpty)
            for t in texts {
                let y = try #require(XMLCheck.attributes(t)?["y"].flatMap(Double.init))
                #expect(y > box[1] && y <= box[1] + box[3] + 0.01)
            }
        }
    }

    @Test("a long id and a long style wrap onto several lines, whole")
    func longLabelsWrap() throws {
        let json = try #require(Self.extraScenes.first { $0.name == "duo-long-id-popover-as-sheet" }).json
        for width in [nil, 390] {
            let (resolution, svg) = try SVGFixtures.picture(json, width: width)
            let placement = try #require(resolution.placements.first)
            #expect(placement.adaptedFrom == .popover)
            let idLines = EmbeddingTests.texts(svg, "placement-label")
            #expect(idLines.count >= 2, "\(idLines)")
            #expect(idLines.joined() == Self.longID)
            let styleLines = EmbeddingTests.texts(svg, "placement-style")
            #expect(
                styleLines.joined(separator: " ").hasPrefix("\(placement.style?.rawValue ?? "?") (from popover) · "))
            // Nothing is cut short anywhere in the picture.
            #expect(!svg.contains("…"))
        }
    }
}
