import JSON
import Testing

@testable import HingeCLI

/// docs/lint.md#baseline and docs/lint.md#snapshots.
@Suite struct LintBaselineSnapshotTests {
    /// A chained modal (warning at /presentations/1/presentedFrom) and an unknown field (warning at /colour).
    static let legacy = """
        {"device": "iphone-16", "colour": "red",
         "presentations": [
           {"id": "editor", "kind": "sheet"}\(chained)
         ]}
        """
    static let chained = #",\#n   {"id": "help", "kind": "sheet", "presentedFrom": "editor"}"#

    @Test("baseline: --update-baseline records every finding, sorted; the next run hides them and passes")
    func adopt() throws {
        let p = LintProject()
        p.write("scenes/legacy.json", Self.legacy)
        #expect(p.lint(["scenes", "--no-config"]).status == 1)
        let written = p.lint(["scenes", "--no-config", "--baseline", "baseline.json", "--update-baseline"])
        #expect(written.status == 0)
        #expect(written.stdout.contains("baseline written with 2 entries"))
        let baseline = try JSONParser.parse(Array((p.read("baseline.json") ?? "").utf8))
        let entries = baseline["findings"]?.arrayValue ?? []
        #expect(entries.map { $0["pointer"]?.stringValue } == ["/presentations/1/presentedFrom", "/colour"])
        #expect(entries.map { $0["rule"]?.stringValue } == ["chained-modal", "unknown-field"])
        #expect(entries.allSatisfy { $0["file"] == "scenes/legacy.json" })
        #expect(entries.allSatisfy { $0["combination"] == "iphone-16/main/flat/portrait/ltr" })
        let again = p.lint(["scenes", "--no-config", "--baseline", "baseline.json"])
        #expect(again.status == 0)
        #expect(again.findingLines.isEmpty)
        #expect(again.stdout.contains("no findings in 1 scene file (1 combination); 2 hidden by the baseline"))
    }

    @Test("baseline: an edit elsewhere in the file keeps the match; a fix is reported; a new finding fails")
    func survivesEdits() {
        let p = LintProject()
        p.write("legacy.json", Self.legacy)
        #expect(p.lint(["legacy.json", "--no-config", "--baseline", "b.json", "--update-baseline"]).status == 0)
        // Lines added above, the findings' lines and columns move; file, rule, pointer and combination do not.
        p.write(
            "legacy.json",
            "\n\n" + Self.legacy.replacing("{\"device\"", with: "{\"orientation\": \"portrait\",\n \"device\""))
        let edited = p.lint(["legacy.json", "--no-config", "--baseline", "b.json"])
        #expect(edited.status == 0)
        #expect(edited.findingLines.isEmpty)
        // The chained modal is fixed (its presentation removed), and a new unknown field appears.
        p.write(
            "legacy.json",
            Self.legacy.replacing(Self.chained, with: "").replacing(
                "\"colour\": \"red\"", with: "\"colour\": \"red\", \"size\": 2"))
        let fixed = p.lint(["legacy.json", "--no-config", "--baseline", "b.json"])
        #expect(fixed.status == 1)
        #expect(fixed.findingLines.count == 1)
        #expect(fixed.findingLines.first?.contains("unknown field \"size\"") == true)
        #expect(fixed.stdout.contains("fixed since the baseline"))
        #expect(fixed.stdout.contains("  legacy.json /presentations/1/presentedFrom [chained-modal]"))
        #expect(fixed.stdout.contains("1 baseline entry fixed"))
    }

    /// A sheet whose detents depend on `sheet.topGap`, and an adaptive panel (not modal) that does not.
    static let sheetScene = """
        {"device": "iphone-16", "presentations": [
          {"id": "tools", "kind": "adaptivePanel"},
          {"id": "settings", "kind": "sheet", "detents": ["medium", "large"]}
        ]}
        """

    @Test("snapshots: --update-snapshots, then a changed constant reports exactly the moved pointers")
    func movedPlacements() throws {
        let p = LintProject()
        p.write("scenes/sheet.json", Self.sheetScene)
        let update = p.lint(["scenes", "--no-config", "--snapshots", "snaps", "--update-snapshots"])
        #expect(update.status == 0)
        #expect(update.stdout.contains("1 snapshot written"))
        let snapshot = try JSONParser.parse(Array((p.read("snaps/scenes/sheet.json") ?? "").utf8))
        let placements = snapshot["combinations"]?["iphone-16/main/flat/portrait/ltr"]?["placements"]
        #expect(placements?[1]?["frame"] == ["height": 391.5, "width": 393, "x": 0, "y": 460.5])
        #expect(p.lint(["scenes", "--no-config", "--snapshots", "snaps"]).status == 0)
        // sheet.topGap 10 → 30: the large detent 852 − 59 − 30 = 763, the medium (selected) 381.5 at y 470.5.
        let moved = p.lint(
            [
                "scenes", "--no-config", "--snapshots", "snaps", "--constant", "sheet.topGap=30", "--report", "text",
                "--report", "sarif=s.sarif",
            ])
        #expect(moved.status == 1)
        let sarif = try JSONParser.parse(Array((p.read("s.sarif") ?? "").utf8))
        let results = sarif["runs"]?[0]?["results"]?.arrayValue ?? []
        #expect(results.allSatisfy { $0["ruleId"] == "placement-changed" && $0["level"] == "error" })
        let pointers = results.compactMap { $0["properties"]?["pointer"]?.stringValue }
        #expect(
            pointers == [
                "/placements/1/detents/0/height", "/placements/1/detents/1/height", "/placements/1/frame/height",
                "/placements/1/frame/y",
            ])
        // Each is shown at the sheet in the scene (line 3, column 3), naming the old and the new value.
        #expect(moved.findingLines.count == 4)
        #expect(moved.findingLines.allSatisfy { $0.hasPrefix("scenes/sheet.json:3:3: error: placement \"settings\"") })
        #expect(moved.stdout.contains("frame/y changed from 460.5 to 470.5 (/placements/1/frame/y)"))
        #expect(moved.stdout.contains("detents/1/height changed from 783 to 763"))
        // Within the tolerance nothing moved.
        let nudged = p.lint(["scenes", "--no-config", "--snapshots", "snaps", "--constant", "sheet.topGap=10.005"])
        #expect(nudged.status == 0)
    }

    @Test("snapshots: a scene without a snapshot, or a new combination, is a placement-changed finding")
    func missingSnapshots() {
        let p = LintProject()
        p.write("a.json", Self.sheetScene)
        let none = p.lint(["a.json", "--no-config", "--snapshots", "snaps"])
        #expect(none.status == 1)
        #expect(none.stdout.contains("a.json:1:1: error: no snapshot of this scene"))
        #expect(p.lint(["a.json", "--no-config", "--snapshots", "snaps", "--update-snapshots"]).status == 0)
        let wider = p.lint(["a.json", "--no-config", "--snapshots", "snaps", "--orientations", "portrait,landscape"])
        #expect(wider.status == 1)
        // Landscape also ignores the detents (an info); the snapshot has no landscape entry.
        let changed = wider.findingLines.filter { $0.contains("[placement-changed]") }
        #expect(changed.count == 1)
        #expect(changed.first?.contains("a.json:1:1: error: no snapshot of this combination") == true)
        #expect(changed.first?.hasSuffix("(iphone-16 main, flat, landscape, ltr)") == true)
    }
}
