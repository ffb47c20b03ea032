import JSON
import LayoutEngine
import Testing

@testable import Wireframe

/// docs/svg.md#text-bounds: text a client controls is drawn ellipsised past a length, and wrapping is
/// linear in the text's length.
@Suite("SVG wireframe text bounds")
struct TextBoundsTests {
    @Test("text-bounds: a 60,000-character word wraps into lines that fit, every character kept")
    func longWordWrapsWhole() {
        let word = String(repeating: "d", count: 30_000) + "-" + String(repeating: "w", count: 29_999)
        let lines = SVGText.wrap(word, width: 300, size: 12)
        #expect(lines.joined() == word)
        #expect(lines.count > 100)
        for line in lines { #expect(SVGText.width(line, size: 12) <= 300) }
    }

    @Test("text-bounds: wrapping breaks after a hyphen and keeps short words on one line")
    func wrapsWords() {
        #expect(SVGText.wrap("a b c", width: 1000, size: 10) == ["a b c"])
        let lines = SVGText.wrap("aaaaaaa-bbbbbbbbb", width: SVGText.width("aaaaaaa-bbb", size: 10), size: 10)
        #expect(lines == ["aaaaaaa-", "bbbbbbbbb"])
    }

    @Test("text-bounds: bounded keeps short text and cuts long text to the limit plus an ellipsis")
    func bounded() {
        #expect(SVGText.bounded("settings", limit: 8) == "settings")
        #expect(SVGText.bounded("settings!", limit: 8) == "settings…")
        #expect(SVGText.bounded("", limit: 0) == "")
        // Characters, not scalars: an accent stays with its letter.
        #expect(SVGText.bounded("e\u{301}xy", limit: 1) == "e\u{301}…")
    }

    @Test("text-bounds: an unknown member named with 60,000 characters is drawn ellipsised, the JSON keeps it")
    func unknownMemberNameIsBoundedInThePicture() throws {
        let name = String(repeating: "d", count: 60_000)
        let json = #"{"device": "phone", "presentations": [], ""# + name + #"": 1}"#
        let (resolution, svg) = try SVGFixtures.picture(json)
        let warning = try #require(resolution.diagnostics.first { $0.code == .unknownField })
        #expect(warning.message.contains(name))
        #expect(!svg.contains(String(repeating: "d", count: SVGText.maxMessageCharacters + 1)))
        #expect(svg.contains("…"))
        #expect(svg.utf8.count < 64 * 1024)
    }
}
