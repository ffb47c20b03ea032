import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

// MARK: - Tests

@Suite("SVG wireframe")
struct SVGRendererTests {
    @Test("the checker itself rejects broken XML")
    func checkerRejects() {
        #expect(XMLCheck.problem("<svg><g></svg>") != nil)
        #expect(XMLCheck.problem("<svg a=1/>") != nil)
        #expect(XMLCheck.problem("<svg>a & b</svg>") != nil)
        #expect(XMLCheck.problem("<svg a=\"<\"/>") != nil)
        #expect(XMLCheck.problem("<svg/><svg/>") != nil)
        #expect(XMLCheck.problem("<svg a=\"1\" a=\"2\"/>") != nil)
        #expect(XMLCheck.problem("<?xml version=\"1.0\"?>\n<svg a=\"&amp;\"><t>&lt;&#38;</t></svg>\n") == nil)
    }

    @Test("well-formed XML for every scene, hostile ids escaped", arguments: SVGFixtures.all.map(\.name))
    func wellFormed(name: String) throws {
        let json = try #require(SVGFixtures.all.first { $0.name == name }).json
        let resolution = try SVGFixtures.resolution(json)
        let svg = XMLCheck.unscoped(SVGRenderer.render(resolution, title: "scene \(name) <&>"))
        #expect(XMLCheck.problem(svg) == nil, "\(XMLCheck.problem(svg) ?? "")")
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("font-family=\"sans-serif\""))
        // Every id appears escaped in the placements (presented) or in the legend (ignored), unless the
        // legend was too long for the picture and says so.
        let capped = svg.contains("more lines: see the JSON")
        #expect(capped == (name == "crowded"))
        for p in resolution.placements where !capped || p.status == .presented {
            let escaped = SVGText.escape(p.id)
            #expect(svg.contains(escaped), "id \(p.id) missing")
        }
    }

    @Test("a hostile id is escaped in text and attributes")
    func hostileID() throws {
        let resolution = try SVGFixtures.resolution(SVGFixtures.scenes[3].json)
        let svg = XMLCheck.unscoped(SVGRenderer.render(resolution))
        #expect(svg.contains("data-id=\"a&lt;b&amp;&quot;c&apos;\""))
        #expect(!svg.contains("a<b"))
        #expect(!svg.contains("\u{1}"))
        #expect(XMLCheck.problem(svg) == nil)
        // RTL badge.
        #expect(svg.contains("class=\"rtl\""))
    }

    @Test("placement rectangles are the resolution's frames", arguments: SVGFixtures.all.map(\.name))
    func framesParseBack(name: String) throws {
        let json = try #require(SVGFixtures.all.first { $0.name == name }).json
        let resolution = try SVGFixtures.resolution(json)
        let svg = XMLCheck.unscoped(SVGRenderer.render(resolution))
        let rects = XMLCheck.elements(svg, tag: "rect", cls: "placement")
        let presented = resolution.placements.filter { $0.status == .presented && $0.frame != nil }
        #expect(rects.count == presented.count)
        #expect(!presented.isEmpty)
        for (p, r) in zip(presented, rects) {
            let frame = try #require(p.frame)
            #expect(r["data-id"] == p.id)
            for (key, value) in [("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height)] {
                let parsed = try #require(r[key].flatMap(Double.init), "\(key) of \(p.id)")
                #expect(abs(parsed - value) <= 0.005, "\(p.id).\(key): \(parsed) vs \(value)")
            }
        }
        // Ignored placements are listed, never drawn.
        for p in resolution.placements where p.status == .ignored {
            #expect(!rects.contains { $0["data-id"] == p.id })
        }
    }

    @Test("ignored placements go to the legend")
    func ignoredInLegend() throws {
        let resolution = try SVGFixtures.resolution(
            #"{"device": "phone", "presentations": [{"id": "one", "kind": "sheet"}, {"id": "two", "kind": "sheet"}]}"#)
        #expect(resolution.placements.map(\.status) == [.presented, .ignored])
        let svg = XMLCheck.unscoped(SVGRenderer.render(resolution))
        #expect(svg.contains("2. two — sheet IGNORED, not drawn"))
        #expect(svg.contains("(concurrent-presentation)"))
        #expect(XMLCheck.elements(svg, tag: "rect", cls: "placement").map { $0["data-id"] } == ["one"])
    }

    @Test("detent lines at each detent height from the sheet's bottom")
    func detentLines() throws {
        let (resolution, svg) = try SVGFixtures.picture(SVGFixtures.scenes[0].json)
        let sheet = try #require(resolution.placements.first)
        let frame = try #require(sheet.frame)
        let lines = XMLCheck.elements(svg, tag: "line", cls: "detent")
        let detents = try #require(sheet.detents)
        #expect(lines.count == detents.count)
        for (d, l) in zip(detents, lines) {
            let y = try #require(l["y1"].flatMap(Double.init))
            #expect(abs(y - (frame.maxY - d.height)) <= 0.005)
        }
        #expect(lines.map { $0["data-detent"] } == ["200pt", "medium", "large"])
        #expect(svg.contains("class=\"scrim\""))  // a disabled background interaction dims
        #expect(svg.contains("data-orientation=\"horizontal\""))
    }

    @Test("a trailing card has a vertical toolbar")
    func verticalToolbar() throws {
        let (resolution, svg) = try SVGFixtures.picture(SVGFixtures.scenes[1].json)
        #expect(resolution.placements.first?.toolbarOrientation == .vertical)
        #expect(svg.contains("data-orientation=\"vertical\""))
    }

    @Test("deterministic: same resolution, same bytes; stored JSON gives the same picture")
    func deterministic() throws {
        for (_, json) in SVGFixtures.all {
            let a = SVGRenderer.render(try SVGFixtures.resolution(json))
            let b = SVGRenderer.render(try SVGFixtures.resolution(json))
            #expect(a == b)
            // A stored response (written and parsed back) pictures identically without resolving again.
            let resolution = try SVGFixtures.resolution(json)
            let stored = try JSONParser.parse(JSONWriter.string(resolution.json))
            #expect(SVGRenderer.render(resolutionJSON: stored) == a)
        }
    }

    @Test("a body that is not a resolution has no picture")
    func notAResolution() throws {
        #expect(SVGRenderer.render(resolutionJSON: ["type": "about:blank", "status": 422]) == nil)
        #expect(
            SVGRenderer.render(resolutionJSON: ["environment": ["window": ["x": 0, "y": 0, "width": 0, "height": 10]]])
                == nil)
        // Minimal: a window only.
        let minimal = try #require(
            SVGRenderer.render(resolutionJSON: [
                "environment": ["window": ["x": 0, "y": 0, "width": 300, "height": 200]]
            ]))
        #expect(XMLCheck.problem(minimal) == nil)
    }

    @Test("numbers: at most 2 decimals, no locale, no exponent")
    func numbers() {
        #expect(SVGNumber.format(390) == "390")
        #expect(SVGNumber.format(422.125) == "422.13")
        #expect(SVGNumber.format(0.1) == "0.1")
        #expect(SVGNumber.format(0.05) == "0.05")
        #expect(SVGNumber.format(-3.5) == "-3.5")
        #expect(SVGNumber.format(-0.001) == "0")
        #expect(SVGNumber.format(1e20) == "0")
        #expect(SVGNumber.format(.nan) == "0")
    }

    @Test(
        "a viewBox in points and no pixel size: the picture takes its container's width",
        arguments: SVGFixtures.all.map(\.name))
    func scalesToContainer(name: String) throws {
        let json = try #require(SVGFixtures.all.first { $0.name == name }).json
        let resolution = try SVGFixtures.resolution(json)
        let svg = SVGRenderer.render(resolution)
        let root = try #require(XMLCheck.rootAttributes(svg))
        #expect(root["width"] == nil)
        #expect(root["height"] == nil)
        let box = try #require(root["viewBox"]).split(separator: " ").compactMap { Double($0) }
        #expect(box.count == 4)
        // The window (in points) fits inside the viewBox.
        if box.count == 4 {
            #expect(box[2] > resolution.environment.window.width)
            #expect(box[3] > resolution.environment.window.height)
        }
    }
}
