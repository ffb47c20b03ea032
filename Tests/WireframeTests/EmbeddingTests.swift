import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

/// A picture that embeds: sized by its container or by `width`, with scoped names.
@Suite("SVG wireframe in a page")
struct EmbeddingTests {
    @Test("width: the given pixel width and the height in proportion to the viewBox", arguments: [16, 390, 800, 4096])
    func width(_ width: Int) throws {
        for (_, json) in SVGFixtures.scenes {
            let (_, svg) = try SVGFixtures.picture(json, width: width)
            let root = try #require(XMLCheck.rootAttributes(svg))
            #expect(root["width"] == String(width))
            let h = try #require(root["height"].flatMap(Double.init))
            let box = try #require(root["viewBox"]).split(separator: " ").compactMap { Double($0) }
            try #require(box.count == 4)
            #expect(abs(h - Double(width) * box[3] / box[2]) <= 0.01 * max(1, h))
            #expect(XMLCheck.problem(svg) == nil)
        }
    }

    @Test("a width is decimal digits within 16…4096")
    func widthParsing() {
        #expect(SVGRenderer.width(parsing: "390") == 390)
        #expect(SVGRenderer.width(parsing: "16") == 16)
        #expect(SVGRenderer.width(parsing: "4096") == 4096)
        #expect(SVGRenderer.width(parsing: "0390") == 390)
        for bad in ["", "15", "4097", "-1", "+5", "1e3", "39.5", "abc", " 390", "390px", "99999999999999999999"] {
            #expect(SVGRenderer.width(parsing: bad) == nil, "\(bad)")
        }
        #expect(SVGRenderer.widthProblem("x").contains("16 to 4096"))
    }

    /// Every `class` token and `id` of the raw document, and the selectors of its `<style>`.
    static func names(_ svg: String) -> (classes: [String], ids: [String], selectors: [String]) {
        func values(_ attribute: String) -> [String] {
            svg.components(separatedBy: " \(attribute)=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
                .map(String.init)
        }
        let classes = values("class").flatMap { $0.split(separator: " ").map(String.init) }
        var selectors: [String] = []
        if let start = svg.range(of: "<style>"), let end = svg.range(of: "</style>") {
            let css = svg[start.upperBound..<end.lowerBound]
            for part in css.split(separator: "}") {
                let selector = part.split(separator: "{").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if !selector.isEmpty { selectors.append(selector) }
            }
        }
        return (classes, values("id"), selectors)
    }

    @Test("every class, id and style rule is scoped by the document's prefix", arguments: SVGFixtures.all.map(\.name))
    func scoped(name: String) throws {
        let json = try #require(SVGFixtures.all.first { $0.name == name }).json
        let svg = SVGRenderer.render(try SVGFixtures.resolution(json), scene: try JSONParser.parse(json))
        let prefix = try #require(XMLCheck.prefix(svg), "no prefix on the root")
        let names = Self.names(svg)
        #expect(names.classes.count > 10)
        for c in names.classes { #expect(c == prefix || c.hasPrefix(prefix + "-"), "class \(c)") }
        for id in names.ids { #expect(id.hasPrefix(prefix + "-"), "id \(id)") }
        #expect(!names.selectors.isEmpty)
        for s in names.selectors { #expect(s.hasPrefix("." + prefix + "-") || s.hasPrefix("#" + prefix + "-"), "\(s)") }
        #expect(!svg.contains("id=\"hatch\""))
        #expect(!svg.contains("\u{1}"))
        // References to ids go to the scoped ones.
        for ref in svg.components(separatedBy: "url(#").dropFirst() {
            #expect(ref.hasPrefix(prefix + "-"))
        }
    }

    @Test("two different pictures have different prefixes and no name in common; the same one, the same bytes")
    func twoPictures() throws {
        let a = SVGRenderer.render(try SVGFixtures.resolution(SVGFixtures.scenes[2].json))  // with a fold
        let b = SVGRenderer.render(try SVGFixtures.resolution(SVGFixtures.scenes[5].json))  // with a fold
        let pa = try #require(XMLCheck.prefix(a))
        let pb = try #require(XMLCheck.prefix(b))
        #expect(pa != pb)
        let (na, nb) = (Self.names(a), Self.names(b))
        #expect(!na.ids.isEmpty && !nb.ids.isEmpty)
        #expect(Set(na.ids).isDisjoint(with: nb.ids))
        #expect(Set(na.classes).isDisjoint(with: nb.classes))
        #expect(SVGRenderer.render(try SVGFixtures.resolution(SVGFixtures.scenes[2].json)) == a)
        // The same resolution at another width is another document.
        let wide = SVGRenderer.render(try SVGFixtures.resolution(SVGFixtures.scenes[2].json), width: 600)
        #expect(XMLCheck.prefix(wide) != pa)
    }

    @Test("the toolbar's items are drawn: titles in a horizontal bar, icons down a vertical one")
    func toolbarItems() throws {
        let (_, phone) = try SVGFixtures.picture(SVGFixtures.scenes[0].json)
        #expect(Self.texts(phone, "toolbar-item-label") == ["Done"])
        #expect(XMLCheck.elements(phone, tag: "rect", cls: "toolbar").first?["data-orientation"] == "horizontal")

        let (_, card) = try SVGFixtures.picture(SVGFixtures.scenes[1].json)
        // The cancellation item first (leading); an item without an icon shows its title.
        #expect(Self.texts(card, "toolbar-item-label") == ["xmark", "Share"])
        #expect(XMLCheck.elements(card, tag: "rect", cls: "toolbar").first?["data-orientation"] == "vertical")
        let labels = XMLCheck.elements(card, tag: "text", cls: "toolbar-item-label")
        #expect(labels.allSatisfy { $0["transform"]?.hasPrefix("rotate(90") == true })

        // Cancellation at the leading end, confirmation at the trailing end; mirrored under RTL.
        let scene = #"""
            {"device": "phone", "layoutDirection": "LTR", "presentations": [{"id": "s", "kind": "sheet",
             "toolbar": [{"title": "Save", "placement": "confirmationAction"},
                         {"title": "Cancel", "placement": "cancellationAction"}]}]}
            """#
        for (direction, cancelFirst) in [("ltr", true), ("rtl", false)] {
            let (_, svg) = try SVGFixtures.picture(scene.replacingOccurrences(of: "LTR", with: direction))
            let xs = Dictionary(
                uniqueKeysWithValues: XMLCheck.elements(svg, tag: "text", cls: "toolbar-item-label").compactMap { e in
                    Self.text(of: e, in: svg).map { ($0, Double(e["x"] ?? "") ?? .nan) }
                })
            let (cancel, save) = (try #require(xs["Cancel"]), try #require(xs["Save"]))
            #expect((cancel < save) == cancelFirst, "\(direction)")
        }

        // No toolbar in the scene (or no scene): no bar, although the resolution names an orientation.
        let (resolution, plain) = try SVGFixtures.picture(
            #"{"device": "phone", "presentations": [{"id": "s", "kind": "sheet"}]}"#)
        #expect(resolution.placements.first?.toolbarOrientation == .horizontal)
        #expect(XMLCheck.elements(plain, tag: "rect", cls: "toolbar").isEmpty)
        #expect(!plain.contains("toolbar items"))
    }

    @Test("the key lists only the marks the picture has")
    func keyOnlyWhatIsDrawn() throws {
        // A phone, a full-screen cover: no fold, no detents, no scrim, no toolbar, no arrow, no arrangement.
        let (_, cover) = try SVGFixtures.picture(
            #"{"device": "phone", "presentations": [{"id": "c", "kind": "fullScreenCover"}]}"#)
        let coverKey = Self.key(cover)
        #expect(coverKey.contains("safe area"))
        for absent in ["fold", "detents", "dimmed", "toolbar", "arrow", "arrangement", "regions"] {
            #expect(!coverKey.contains(absent), "\(absent) in \(coverKey)")
        }
        // No safe area at all: no key.
        let (_, bare) = try SVGFixtures.picture(#"{"window": {"width": 400, "height": 300}}"#)
        #expect(!bare.contains(">Key<"))

        let (_, duo) = try SVGFixtures.picture(SVGFixtures.scenes[2].json)
        let duoKey = Self.key(duo)
        for present in ["hatched: fold", "regions", "detents", "dimmed", "toolbar items", "arrangement"] {
            #expect(duoKey.contains(present), "\(present) missing from \(duoKey)")
        }
        #expect(!duoKey.contains("arrow"))
        let (_, popover) = try SVGFixtures.picture(SVGFixtures.scenes[4].json)
        #expect(Self.key(popover).contains("arrow"))
        #expect(!Self.key(popover).contains("fold"))
    }

    /// Texts of the elements of class `cls`, in document order.
    static func texts(_ svg: String, _ cls: String) -> [String] {
        svg.components(separatedBy: "<text ").dropFirst().compactMap { part in
            guard let attrs = XMLCheck.attributes(part),
                attrs["class"]?.split(separator: " ").contains(Substring(cls)) == true,
                let start = part.firstIndex(of: ">"), let end = part.range(of: "</text>")
            else { return nil }
            return XMLCheck.unescape(String(part[part.index(after: start)..<end.lowerBound]))
        }
    }

    static func text(of element: [String: String], in svg: String) -> String? {
        guard let x = element["x"], let y = element["y"] else { return nil }
        return svg.components(separatedBy: "<text ").dropFirst().first { part in
            XMLCheck.attributes(part)?["x"] == x && XMLCheck.attributes(part)?["y"] == y
        }.flatMap { part in
            guard let start = part.firstIndex(of: ">"), let end = part.range(of: "</text>") else { return nil }
            return XMLCheck.unescape(String(part[part.index(after: start)..<end.lowerBound]))
        }
    }

    /// The legend's Key section, its lines joined.
    static func key(_ svg: String) -> String { texts(svg, "legend-key").joined(separator: " ") }
}
