import JSON
import Testing

@testable import HingeCLI

/// docs/lint.md#positions: lines end at LF, CR LF and CR; columns count UTF-16 code units; a BOM is not text.
@Suite struct LintPositionTests {
    @Test("positions: CR LF, a lone CR and LF each end one line")
    func lineEnds() {
        let text = SourceText(file: Array("a\r\nb\rc\nd".utf8))
        #expect(text.lineAndColumn(at: 0) == (1, 1))
        #expect(text.lineAndColumn(at: 1) == (1, 2))  // the CR of CR LF is still on line 1
        #expect(text.lineAndColumn(at: 3) == (2, 1))
        #expect(text.lineAndColumn(at: 5) == (3, 1))
        #expect(text.lineAndColumn(at: 7) == (4, 1))
    }

    @Test("positions: a tab is one column, a character outside the BMP two, any other one")
    func columns() {
        let tabs = SourceText(file: Array("\t\t\"x\"".utf8))
        #expect(tabs.lineAndColumn(at: 2) == (1, 3))
        // é is 2 bytes and 1 unit, 😀 4 bytes and 2 units, 中 3 bytes and 1 unit: x is at byte 9, unit 4.
        let wide = SourceText(file: Array("é😀中x".utf8))
        #expect(wide.lineAndColumn(at: 9) == (1, 5))
    }

    @Test("positions: a byte order mark is skipped, not counted")
    func byteOrderMark() {
        let text = SourceText(file: [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8))
        #expect(text.hadByteOrderMark)
        #expect(text.position(of: "") == SourcePosition(line: 1, column: 1))
        #expect(text.position(of: "/a") == SourcePosition(line: 1, column: 7, endLine: 1, endColumn: 8))
    }

    @Test("positions: a pointer the file does not write is placed at its closest written parent")
    func closestParent() {
        let text = SourceText(file: Array("{\n  \"presentations\": [\n    {\"id\": \"s\"}\n  ]\n}".utf8))
        #expect(text.position(of: "/presentations/0/detents").line == 3)
        #expect(text.position(of: "/presentations/0/detents").column == 5)
        #expect(text.position(of: "/presentations/7") == SourcePosition(line: 2, column: 20))
        #expect(text.position(of: "/device") == SourcePosition(line: 1, column: 1))
    }

    @Test("positions: keys with escapes and pointer tokens with ~0 and ~1 are matched by their text")
    func escapedKeys() {
        let text = SourceText(file: Array(#"{"a\/b": 1, "c~d": 2, "\u00e9": 3}"#.utf8))
        #expect(text.position(of: "/a~1b").column == 10)
        #expect(text.position(of: "/c~0d").column == 20)
        #expect(text.position(of: "/é").column == 33)
    }

    /// A scene with a BOM, CR LF line ends, tabs and non-ASCII text (one character outside the BMP) before the
    /// value a finding is about.
    static let mixedScene: [UInt8] =
        [0xEF, 0xBB, 0xBF]
        + Array(
            ("{\r\n"
                + "\t\"device\": \"iphone-16\",\r\n"
                + "\t\"presentations\": [\r\n"
                + "\t\t{\"id\": \"réglages 😀\", \"kind\": \"popover\", \"placement\": \"trailing\",\r\n"
                + "\t\t \"anchor\": {\"x\": 10, \"y\": 10, \"width\": 44, \"height\": 44}}\r\n"
                + "\t]\r\n"
                + "}\r\n").utf8)

    @Test("positions: a finding in a file with a BOM, CR LF, tabs and unicode before the value")
    func findingInMixedFile() {
        let project = LintProject()
        project.write("scene.json", Self.mixedScene)
        let run = project.lint(["scene.json", "--no-config"])
        // Line 4: two tabs, `{"id": `, `"réglages 😀"` (13 units: the emoji counts two), `, "kind": "popover", `,
        // `"placement": ` — "trailing" starts after 56 units, and is 10 long.
        #expect(run.stdout.contains("scene.json:4:57: warning: placement \"trailing\" is ignored"))
        #expect(run.stdout.contains("scene.json:1:1: error: byte order mark"))
        #expect(run.status == 1)
        let sarif = project.lint(["scene.json", "--no-config", "--report", "sarif=out.sarif"])
        #expect(sarif.status == 1)
        let log = try? JSONParser.parse(Array((project.read("out.sarif") ?? "").utf8))
        let results = log?["runs"]?[0]?["results"]?.arrayValue ?? []
        let region = results.first { $0["ruleId"] == "placement-ignored" }?["locations"]?[0]?["physicalLocation"]?[
            "region"]
        #expect(region == ["startLine": 4, "startColumn": 57, "endLine": 4, "endColumn": 67])
    }

    @Test("positions: a file that is not JSON is one invalid-scene finding where it broke")
    func notJSON() {
        let project = LintProject()
        project.write("broken.json", "{\r\n\t\"device\": \"iphone-16\",\r\n\t}")
        let run = project.lint(["broken.json", "--no-config"])
        #expect(run.status == 1)
        #expect(run.findingLines.count == 1)
        #expect(run.findingLines.first?.hasPrefix("broken.json:3:2: error: unexpected character '}'") == true)
        #expect(run.findingLines.first?.hasSuffix("[invalid-scene]") == true)
    }

    @Test("positions: a scene the API refuses (422) gives one finding per violation, at its value")
    func refused() {
        let project = LintProject()
        project.write(
            "refused.json",
            "{\"device\": \"iphone-16\",\n \"presentations\": [{\"id\": \"s\", \"kind\": \"sheet\", \"detents\": [\"huge\"]},"
                + " {\"id\": \"s\", \"kind\": \"sheet\"}]}")
        let run = project.lint(["refused.json", "--no-config"])
        #expect(run.status == 1)
        let lines = run.findingLines.map(String.init)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("[invalid-scene] (iphone-16 -, -, -, -)") })
        #expect(lines.contains { $0.hasPrefix("refused.json:2:61: error: ") })
        // The repeated id: `, {"id": ` after the first presentation's closing `]}`.
        #expect(lines.contains { $0.hasPrefix("refused.json:2:78: error: ") })
    }
}
