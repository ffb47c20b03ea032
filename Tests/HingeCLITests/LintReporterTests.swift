import JSON
import LayoutEngine
import TestSupport
import Testing

@testable import HingeCLI

/// docs/lint.md#reporters.
@Suite struct LintReporterTests {
    /// An iPhone 16 scene with 12 unknown fields: 12 warnings.
    static func noisyScene(_ i: Int) -> String {
        let unknown = (0..<12).map { "\"extra\($0)\": \(i)" }.joined(separator: ", ")
        return "{\"device\": \"iphone-16\", \(unknown), \"presentations\": []}"
    }

    @Test("github: at most 10 annotations of each type, the rest as log lines and a count, a step summary")
    func githubCaps() throws {
        let p = LintProject()
        for i in 0..<3 { p.write("s\(i).json", Self.noisyScene(i)) }
        p.write("bad.json", #"{"device": "iphone-0"}"#)
        let run = p.lint(
            [".", "--no-config", "--report", "github", "--rule", "unknown-field=warning"],
            environment: ["GITHUB_STEP_SUMMARY": p.file("step-summary.txt")])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 1)
        // 36 warnings: 10 annotated, 26 as plain lines.
        #expect(lines.filter { $0.contains(": warning: unknown field") }.count == 26)
        #expect(run.stdout.contains("hinge lint: 26 warnings more than GitHub annotates (10 of each type per step)"))
        let error = try #require(lines.first { $0.hasPrefix("::error ") })
        #expect(
            error.hasPrefix(
                "::error file=bad.json,line=1,col=12,endLine=1,endColumn=22,title=invalid-scene (iphone-0 -%2C -%2C -%2C -)::"
            ))
        let summary = p.read("step-summary.txt") ?? ""
        #expect(summary.hasPrefix("### hinge lint\n\n1 error, 36 warnings in 4 of 4 scene files (4 combinations).\n"))
        #expect(summary.contains("| rule | errors | warnings | infos |"))
        // No docs URL given: the rules are named, not linked (never to a file of this machine).
        #expect(summary.contains("| `unknown-field` | 0 | 36 | 0 |"))
        #expect(summary.contains("| `invalid-scene` | 1 | 0 | 0 |"))
        #expect(!summary.contains("file:"))
        #expect(summary.contains("17 more in the log."))  // 37 findings, 20 listed
    }

    @Test("github: messages and properties are escaped as workflow commands require")
    func githubEscapes() {
        #expect(LintEscaping.workflowData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(LintEscaping.workflowData("a\u{1B}[2Jb\u{7}") == "a\\u001B[2Jb\\u0007")
        #expect(LintEscaping.workflowProperty("a,b:c\n") == "a%2Cb%3Ac%0A")
        #expect(LintEscaping.markdownCell("a|b`c\nd<e>&") == "a\\|b\\`c\\\\u000Ad&lt;e&gt;&amp;")
        #expect(LintEscaping.terminal("x\u{1B}]0;t\u{7}\r\n\u{9B}") == "x\\u001B]0;t\\u0007\\u000D\\u000A\\u009B")
        #expect(LintEscaping.terminalLine("  ::stop-commands::x") == "  \\u003A:stop-commands::x")
        #expect(LintEscaping.terminalLine("a ::b") == "a ::b")
        #expect(LintEscaping.terminalLine("##[error]x") == "\\u0023#[error]x")
        #expect(LintEscaping.terminalLine("\u{3000}::x") == "\u{3000}\\u003A:x")
        #expect(LintEscaping.bytes([0x61, 0xFF, 0xC3, 0xA9, 0x0A]) == "a\\xFFé\\u000A")
    }

    @Test("sarif: 2.1.0, no helpUri without a docs URL, results with positions and stable fingerprints")
    func sarif() throws {
        let p = LintProject()
        p.write("scenes/s.json", LintRunTests.scene)
        #expect(p.lint(["scenes", "--no-config", "--report", "sarif=a.sarif"]).status == 1)
        let log = try JSONParser.parse(Array((p.read("a.sarif") ?? "").utf8))
        #expect(log["version"] == "2.1.0")
        let run = try #require(log["runs"]?[0])
        #expect(run["columnKind"] == "utf16CodeUnits")
        let rules = run["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(rules.compactMap { $0["id"]?.stringValue } == LintRules.ids)
        #expect(run["tool"]?["driver"]?["informationUri"] == nil)
        for rule in rules {
            #expect(rule["helpUri"] == nil)
            #expect(rule["defaultConfiguration"]?["level"] != nil)
            #expect(rule["shortDescription"]?["text"]?.stringValue?.isEmpty == false)
        }
        #expect(!(p.read("a.sarif") ?? "").contains("file:"))
        let results = run["results"]?.arrayValue ?? []
        #expect(results.map { $0["ruleId"] } == ["posture-ignored", "chained-modal"])
        #expect(results.map { $0["level"] } == ["note", "warning"])
        let location = results[1]["locations"]?[0]?["physicalLocation"]
        #expect(location?["artifactLocation"]?["uri"] == "scenes/s.json")
        #expect(location?["region"]?["startLine"] == 3)
        #expect(location?["region"]?["startColumn"] == 52)
        // With the docs elsewhere, and after lines are added above: the same fingerprints.
        p.write("scenes/s.json", "\n\n" + LintRunTests.scene)
        #expect(
            p.lint([
                "scenes", "--no-config", "--report", "sarif=b.sarif", "--docs-url", "https://example.org/hinge/docs/",
            ]).status == 1)
        let moved = try JSONParser.parse(Array((p.read("b.sarif") ?? "").utf8))
        let movedResults = moved["runs"]?[0]?["results"]?.arrayValue ?? []
        #expect(movedResults.map { $0["partialFingerprints"] } == results.map { $0["partialFingerprints"] })
        #expect(movedResults[1]["locations"]?[0]?["physicalLocation"]?["region"]?["startLine"] == 5)
        let movedRules = moved["runs"]?[0]?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(
            movedRules.first { $0["id"] == "placement-changed" }?["helpUri"]
                == "https://example.org/hinge/docs/lint.md#snapshots")
        #expect(
            movedRules.first { $0["id"] == "present-by-item" }?["helpUri"]
                == "https://example.org/hinge/docs/swiftui.md#present-by-item")
        #expect(
            movedRules.first { $0["id"] == "chained-modal" }?["helpUri"]
                == "https://example.org/hinge/docs/rules.md#modal-stack")
        #expect(moved["runs"]?[0]?["tool"]?["driver"]?["informationUri"] == "https://example.org/hinge/docs/lint.md")
    }

    @Test(
        "rules: every diagnostic code, the lint's two rules and the two of Swift sources, each documented at an anchor")
    func rulesDocumented() {
        #expect(
            LintRules.ids
                == DiagnosticCode.allCases.map(\.rawValue) + [
                    "invalid-scene", "placement-changed", "present-by-item", "unresolved",
                ])
        let root = "\(#filePath)".split(separator: "/").dropLast(3).joined(separator: "/")
        for rule in LintRules.all {
            let text = readFile("/" + root + "/" + rule.document).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(text.contains("<a id=\"\(rule.anchor)\"></a>"), "\(rule.id): \(rule.documentation)")
        }
    }

    @Test("sarif: paths become URI references, percent-encoded")
    func sarifURIs() {
        #expect(LintSARIFReporter.uri("scenes/my scene#1.json") == "scenes/my%20scene%231.json")
        #expect(LintSARIFReporter.uri("/abs/é.json") == "file:///abs/%C3%A9.json")
    }

    @Test("junit: a testsuite per file, a testcase per combination, a failure per failing testcase")
    func junit() {
        let p = LintProject()
        p.write("a.json", LintRunTests.scene)
        p.write("b.json", "{ not json")
        let run = p.lint([
            ".", "--no-config", "--report", "junit=out.xml", "--devices", "iphone-16,ipad-mini",
            "--orientations", "portrait",
        ])
        #expect(run.status == 1)
        let xml = p.read("out.xml") ?? ""
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hinge lint\">\n"))
        #expect(xml.hasSuffix("</testsuites>\n"))
        #expect(xml.contains(#"<testsuite name="a.json" tests="2" failures="2" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testcase classname="a.json" name="iphone-16 main, flat, portrait, ltr">"#))
        #expect(xml.contains(#"<testsuite name="b.json" tests="1" failures="1" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testcase classname="b.json" name="scene">"#))
        #expect(
            xml.contains(#"<failure type="chained-modal" message="a modal presented from the modal &quot;editor&quot;"#)
        )
        // The info (the posture of a device that does not fold) is below --fail-on: system-out, not a failure.
        #expect(xml.contains("<system-out>a.json:1:36: info: posture &quot;halfOpened&quot; is ignored"))
        #expect(xml.contains("[chained-modal] (ipad-mini main, flat, portrait, ltr)</failure>"))
        #expect(!xml.contains(#"<failure type="posture-ignored""#))
        #expect(LintJUnitReporter.escape("a<b & \"c\" \u{1}") == "a&lt;b &amp; &quot;c&quot; \u{FFFD}")
    }
}
