import JSON
import Testing

@testable import HingeCLI

/// docs/lint.md#repository: `hinge lint` in a repository as a CI engineer adopts it — the configuration beside the
/// scenes, paths as code scanning expects them, links, empty directories, JUnit counts — each walked in a throw-away
/// git repository.
@Suite struct LintRepositoryTests {
    /// A repository with `design/hinge-lint.json` (chained-modal an error) beside `design/scenes/`.
    static func designRepository() -> LintProject {
        let p = LintProject()
        _ = p.gitInit()
        p.write("design/scenes/s.json", LintRunTests.scene)
        p.write("design/hinge-lint.json", #"{"rules": {"chained-modal": "error", "posture-ignored": "off"}}"#)
        return p
    }

    @Test("config: found from the paths linted, not the working directory, and the run says which")
    func configFromPaths() {
        let p = Self.designRepository()
        let fromRoot = p.lint(["design/scenes"])
        #expect(fromRoot.status == 1)
        #expect(fromRoot.stderr.hasPrefix("hinge lint: configuration: design/hinge-lint.json\n"))
        // The configuration's severity, the path from the repository root.
        #expect(fromRoot.findingLines.count == 1)
        #expect(fromRoot.findingLines.first?.hasPrefix("design/scenes/s.json:3:52: error: a modal presented") == true)
        #expect(fromRoot.findingLines.first?.contains("[chained-modal]") == true)
        let fromDesign = p.lint(["scenes"], in: "design")
        #expect(fromDesign.stderr.hasPrefix("hinge lint: configuration: hinge-lint.json\n"))
        #expect(fromDesign.findingLines == fromRoot.findingLines)
        // Without one, the run says so.
        p.write("other/s.json", LintRunTests.scene)
        let none = p.lint(["other"])
        #expect(none.stderr.hasPrefix("hinge lint: no configuration: no hinge-lint.json from the paths linted up to"))
        // Two paths with two configurations: a usage error, not one silently chosen.
        p.write("other/hinge-lint.json", "{}")
        let both = p.lint(["design/scenes", "other"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("the paths linted have different configurations"))
    }

    @Test("paths: annotations, SARIF and text relative to the repository root from any directory, or to --root")
    func repositoryRelativePaths() throws {
        let p = Self.designRepository()
        let run = p.lint(["scenes", "--report", "github", "--report", "sarif=../out.sarif"], in: "design")
        #expect(run.stdout.contains("::error file=design/scenes/s.json,line=3,col=52,"))
        let log = try JSONParser.parse(Array((p.read("out.sarif") ?? "").utf8))
        let uri = log["runs"]?[0]?["results"]?[0]?["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"]
        #expect(uri == "design/scenes/s.json")
        let rooted = p.lint(["scenes", "--root", ".", "--report", "github"], in: "design")
        #expect(rooted.stdout.contains("::error file=scenes/s.json,line=3,col=52,"))
    }

    @Test("writes: a project outside the working directory's repository updates inside its own configuration's root")
    func otherProject() {
        let p = LintProject()
        _ = p.gitInit("here")
        p.write("other/scenes/s.json", LintRunTests.scene)
        p.write("other/hinge-lint.json", #"{"baseline": "baseline.json", "snapshots": "snapshots"}"#)
        let run = p.lint(
            ["--config", "../other/hinge-lint.json", "../other/scenes", "--update-baseline", "--update-snapshots"],
            in: "here")
        #expect(run.status == 0)
        #expect(LintFileSystem.kind(p.file("other/baseline.json")) == .file)
        #expect(LintFileSystem.kind(p.file("other/snapshots/scenes/s.json")) == .file)
        #expect(p.lint(["--config", "../other/hinge-lint.json", "../other/scenes"], in: "here").status == 0)
    }

    @Test("usage: an existing directory with no scene files is an error, not a pass")
    func emptyDirectory() {
        let p = Self.designRepository()
        p.write("design/empty/notes.txt", "no scenes here")
        let run = p.lint(["design/empty"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("hinge lint: no scene files (*.json) in design/empty"))
        #expect(!run.stdout.contains("no findings"))
    }

    @Test("links: no helpUri, informationUri or summary link without a docs URL; the config's docsUrl is used")
    func docsURL() throws {
        let p = Self.designRepository()
        let plain = p.lint(
            ["design/scenes", "--report", "sarif=a.sarif", "--report", "github"],
            environment: ["GITHUB_STEP_SUMMARY": p.file("summary.txt")])
        #expect(plain.status == 1)
        for file in ["a.sarif", "summary.txt"] {
            let text = p.read(file) ?? ""
            #expect(!text.contains("file:") && !text.contains("Uri\""), "\(file)")
        }
        p.write(
            "design/hinge-lint.json", #"{"docsUrl": "https://docs.example.org/hinge/docs/", "failOn": "never"}"#)
        #expect(
            p.lint(
                ["design/scenes", "--report", "sarif=b.sarif", "--report", "github"],
                environment: ["GITHUB_STEP_SUMMARY": p.file("summary2.txt")]
            ).status == 0)
        let log = try JSONParser.parse(Array((p.read("b.sarif") ?? "").utf8))
        let rules = log["runs"]?[0]?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(
            rules.first { $0["id"] == "chained-modal" }?["helpUri"]
                == "https://docs.example.org/hinge/docs/rules.md#modal-stack")
        #expect(
            (p.read("summary2.txt") ?? "").contains(
                "| [`chained-modal`](https://docs.example.org/hinge/docs/rules.md#modal-stack) | 0 | 1 | 0 |"))
    }

    @Test("junit: tests and failures equal the testcase and failure elements, one failure per failing testcase")
    func junitCounts() {
        let p = LintProject()
        _ = p.gitInit()
        // Three failing findings in one combination: a chained modal and two unknown fields.
        p.write(
            "s.json",
            """
            {"device": "iphone-16", "colour": 1, "size": 2, "presentations": [
              {"id": "editor", "kind": "sheet"}, {"id": "help", "kind": "sheet", "presentedFrom": "editor"}]}
            """)
        p.write("t.json", "{ not json")
        #expect(p.lint([".", "--no-config", "--report", "junit=out.xml"]).status == 1)
        let xml = p.read("out.xml") ?? ""
        func count(_ s: String) -> Int { xml.components(separatedBy: s).count - 1 }
        func sum(_ attribute: String) -> Int {
            xml.split(separator: "<testsuite ").dropFirst().map { suite in
                let value = suite.split(separator: "\(attribute)=\"")[1].prefix { $0 != "\"" }
                return Int(value) ?? -1
            }.reduce(0, +)
        }
        #expect(count("<testcase ") == 2)
        #expect(count("<failure ") == 2)
        #expect(sum("tests") == count("<testcase "))
        #expect(sum("failures") == count("<failure "))
        #expect(xml.contains(#"<failure type="unknown-field" message="unknown field &quot;colour&quot;"#))
        #expect(xml.contains("(and 2 more)\">"))
    }
}

extension String {
    fileprivate func components(separatedBy separator: String) -> [Substring] {
        split(separator: separator, omittingEmptySubsequences: false)
    }
}
