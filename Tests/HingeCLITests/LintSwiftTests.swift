import Glibc
import TestSupport
import Testing

@testable import HingeCLI

/// `hinge lint` over Swift sources (docs/lint.md#swift): the three lint samples of the SwiftUI corpus, copied into a
/// temporary project, linted in a matrix that holds the iPhone Duo half-opened; each finding at the line and column of
/// the Swift member its pointer points at, in every reporter; the baseline, the snapshots and the cache.
@Suite struct LintSwiftTests {
    static let corpus: String = {
        let here = "\(#filePath)"
        return String(here[..<here.lastIndex(of: "/")!]) + "/../SwiftUIBridgeTests/Corpus"
    }()

    static let samples = [
        ("lint-chained-modal", "SettingsView.swift"), ("lint-fitted-risk", "ReceiptView.swift"),
        ("lint-split-hidden", "ReaderView.swift"),
    ]

    /// A project holding the samples under `src/`, its cache in `cache/`.
    static func project() throws -> LintProject {
        let p = LintProject()
        for (sample, file) in samples {
            let bytes = try #require(readFile(corpus + "/" + sample + "/" + file))
            p.write("src/\(sample)/\(file)", bytes)
        }
        return p
    }

    static let matrix = [
        "--devices", "iphone-16,iphone-duo", "--postures", "flat,halfOpened", "--dynamic-type-sizes",
        "large,accessibility3",
    ]

    func lint(_ p: LintProject, _ extra: [String] = []) -> LintProject.Run {
        p.lint(["src", "--no-config"] + Self.matrix + extra, environment: ["XDG_CACHE_HOME": p.file("cache")])
    }

    @Test("swift: each finding at the Swift line and column of its member, in the text reporter")
    func text() throws {
        let p = try Self.project()
        let run = lint(p)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.findingLines.map(String.init)
        let chained = "src/lint-chained-modal/SettingsView.swift:23:18: warning: "
        #expect(lines.contains { $0.hasPrefix(chained) && $0.contains("[chained-modal]") }, "\(lines)")
        let split = "src/lint-split-hidden/ReaderView.swift:14:10: warning: "
        #expect(
            lines.contains {
                $0.hasPrefix(split) && $0.contains("[secondary-hidden] (iphone-duo inner, halfOpened")
            }, "\(lines)")
        // An iPhone 16 stacks: the secondary shows.
        #expect(!lines.contains { $0.contains("[secondary-hidden] (iphone-16") })
        // At accessibility text sizes the fitted sheet is cut off, at its detents; at the default size it is not.
        let fitted = "src/lint-fitted-risk/ReceiptView.swift:18:22: warning: "
        let risks = lines.filter { $0.contains("[fitted-accessibility-risk]") }
        #expect(risks.count == 3, "\(risks)")
        #expect(risks.allSatisfy { $0.hasPrefix(fitted) && $0.hasSuffix(", accessibility3)") }, "\(risks)")
        // The measured height of the fitted sheet is a stand-in: a note at its detents.
        let unresolved = "src/lint-fitted-risk/ReceiptView.swift:18:22: info: the content's measured size"
        #expect(lines.contains { $0.hasPrefix(unresolved) && $0.hasSuffix("[unresolved]") }, "\(lines)")
        #expect(run.stderr.contains("hinge lint: Swift sources: 3 files, 3 parsed, 4 scenes"), "\(run.stderr)")
    }

    @Test("swift: an unresolved note alone does not fail a run at the default --fail-on")
    func unresolvedPasses() throws {
        let p = try Self.project()
        let run = p.lint(
            ["src/lint-fitted-risk", "--no-config"], environment: ["XDG_CACHE_HOME": p.file("cache")])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.findingLines.count == 1)
        #expect(run.findingLines.first?.hasSuffix("[unresolved]") == true)
        let strict = p.lint(
            ["src/lint-fitted-risk", "--no-config", "--fail-on", "info"],
            environment: ["XDG_CACHE_HOME": p.file("cache")])
        #expect(strict.status == 1)
    }

    @Test("swift: GitHub, SARIF and JUnit report the Swift positions and the source-level rules")
    func reporters() throws {
        let p = try Self.project()
        let run = lint(p, ["--report", "github", "--report", "sarif=out.sarif", "--report", "junit=out.xml"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "::warning file=src/lint-chained-modal/SettingsView.swift,line=23,col=18"), "\(run.stdout)")
        #expect(run.stdout.contains("file=src/lint-split-hidden/ReaderView.swift,line=14,col=10"))
        #expect(run.stdout.contains("file=src/lint-fitted-risk/ReceiptView.swift,line=18,col=22"))
        let sarif = try #require(p.read("out.sarif"))
        #expect(sarif.contains("\"uri\":\"src/lint-chained-modal/SettingsView.swift\""), "\(sarif.prefix(400))")
        #expect(sarif.contains("\"startLine\":23,\"startColumn\":18"))
        #expect(sarif.contains("\"startLine\":14,\"startColumn\":10"))
        #expect(sarif.contains("\"ruleId\":\"fitted-accessibility-risk\""))
        #expect(sarif.contains("\"startLine\":18,\"startColumn\":22"))
        #expect(sarif.contains("\"id\":\"present-by-item\""))
        #expect(sarif.contains("\"id\":\"unresolved\""))
        let junit = try #require(p.read("out.xml"))
        #expect(junit.contains("src/lint-chained-modal/SettingsView.swift:23:18"), "\(junit.prefix(600))")
        // A testsuite per scene: the file's two views are two suites.
        #expect(
            junit.split(separator: "<testsuite name=\"src/lint-chained-modal/SettingsView.swift\"").count == 3)
        #expect(junit.contains("src/lint-fitted-risk/ReceiptView.swift:18:22"))
        #expect(junit.contains("src/lint-split-hidden/ReaderView.swift:14:10"))
    }

    @Test("swift: a present-by-item finding is a warning at the presenting modifier")
    func presentByItem() throws {
        let p = LintProject()
        p.write(
            "src/Item.swift",
            """
            import SwiftUI

            struct ListView: View {
                @State private var showsDetail = false
                @State private var selected: String?

                var body: some View {
                    Button("Open") { showsDetail = true }
                        .sheet(isPresented: $showsDetail) {
                            if let selected {
                                Text(selected)
                            }
                        }
                }
            }

            """)
        let run = p.lint(["src", "--no-config"], environment: ["XDG_CACHE_HOME": p.file("cache")])
        let lines = run.findingLines.filter { $0.hasSuffix("[present-by-item]") }
        #expect(lines.count == 1, "\(run.stdout)\(run.stderr)")
        #expect(lines.first?.hasPrefix("src/Item.swift:9:") == true, "\(lines)")
        #expect(lines.first?.contains(": warning: ") == true)
        #expect(run.status == 1)
        #expect(p.lint(["src", "--no-config", "--rule", "present-by-item=off"]).findingLines.isEmpty)
    }

    @Test("swift: a finding's pointer names its presentation by id, escaped as a pointer's token")
    func pointerIDs() {
        let ids = ["showsAccount", "a/b~c"]
        #expect(LintSwiftInput.pointer("/presentations/0", ids: ids) == "/presentations/showsAccount")
        #expect(LintSwiftInput.pointer("/presentations/1/detents/0", ids: ids) == "/presentations/a~1b~0c/detents/0")
        #expect(LintSwiftInput.pointer("/presentations/2/detents", ids: ids) == "/presentations/2/detents")
        #expect(LintSwiftInput.pointer("/arrangement/axes", ids: ids) == "/arrangement/axes")
        #expect(LintSwiftInput.pointer("", ids: ids) == "")
    }

    @Test("swift: a baseline keyed by scene id hides the findings, run after run")
    func baseline() throws {
        let p = try Self.project()
        let written = lint(p, ["--baseline", "baseline.json", "--update-baseline"])
        #expect(written.status == 0, "\(written.stderr)")
        let baseline = try #require(p.read("baseline.json"))
        #expect(baseline.contains("\"file\": \"src/lint-chained-modal/SettingsView.swift#SettingsView/0\""))
        #expect(baseline.contains("\"rule\": \"chained-modal\""))
        // A presentation by its id, not its position.
        #expect(baseline.contains("\"pointer\": \"/presentations/confirmsSignOut/presentedFrom\""), "\(baseline)")
        #expect(!baseline.contains("\"pointer\": \"/presentations/1"))
        for extra in [[], ["--no-cache"]] {
            let again = lint(p, ["--baseline", "baseline.json"] + extra)
            #expect(again.status == 0, "\(again.stdout)")
            #expect(again.findingLines.isEmpty)
        }
        // The same baseline written again is the same bytes: its keys do not move between runs.
        #expect(lint(p, ["--baseline", "baseline.json", "--update-baseline", "--no-cache"]).status == 0)
        #expect(p.read("baseline.json") == baseline)
    }

    @Test("swift: snapshots of Swift scenes round-trip, and a moved sheet is a placement change")
    func snapshots() throws {
        let p = try Self.project()
        let written = lint(p, ["--snapshots", "snaps", "--update-snapshots"])
        #expect(written.status == 1, "\(written.stderr)")  // its findings, at --fail-on warning
        #expect(
            p.read("snaps/src/lint-chained-modal/SettingsView.swift#SettingsView/0")?.contains("placements") == true)
        let again = lint(p, ["--snapshots", "snaps"])
        #expect(!again.findingLines.contains { $0.contains("[placement-changed]") }, "\(again.stdout)")
        // The chained sheet drops its medium detent: its placement moves.
        let path = "src/lint-chained-modal/SettingsView.swift"
        let source = try #require(p.read(path))
        p.write(path, source.replacingOccurrences(".presentationDetents([.medium])", "  .padding()"))
        let changed = lint(p, ["--snapshots", "snaps"])
        #expect(changed.findingLines.contains { $0.contains("[placement-changed]") }, "\(changed.stdout)")
    }

    @Test("swift: a second run reads nothing through the parser; a change, --no-cache or a corrupt entry read again")
    func cache() throws {
        let p = try Self.project()
        let first = lint(p)
        #expect(first.stderr.contains("3 files, 3 parsed, 4 scenes"), "\(first.stderr)")
        let second = lint(p)
        #expect(second.stderr.contains("3 files, 0 parsed, 4 results from the cache"), "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(second.status == first.status)
        #expect(lint(p, ["--no-cache"]).stderr.contains("3 files, 3 parsed"))
        // Another matrix is another key.
        let flat = p.lint(["src", "--no-config"], environment: ["XDG_CACHE_HOME": p.file("cache")])
        #expect(flat.stderr.contains("3 parsed"), "\(flat.stderr)")

        // A line added at the top moves every finding of the file one line down.
        let path = "src/lint-chained-modal/SettingsView.swift"
        let source = try #require(p.read(path))
        p.write(path, "// A comment.\n" + source)
        let edited = lint(p)
        #expect(edited.stderr.contains("3 files, 3 parsed"), "\(edited.stderr)")
        #expect(edited.findingLines.contains { $0.hasPrefix(path + ":24:18: warning: ") })

        // Every entry made unreadable: ignored, the results computed again and stored anew.
        for name in Self.entries(p.file("cache/hinge/lint")) { p.write("cache/hinge/lint/" + name, "{not json") }
        let corrupt = lint(p)
        #expect(corrupt.stderr.contains("3 files, 3 parsed"), "\(corrupt.stderr)")
        #expect(corrupt.stdout == edited.stdout)
        #expect(lint(p).stderr.contains("0 parsed"))
    }

    static func entries(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".json") { names.append(name) }
        }
        return names
    }

    @Test("swift: the cache keeps at most its bound of entries")
    func bounded() throws {
        let p = try Self.project()
        // Each run another rule setting, so another key.
        for id in LintRules.ids.prefix(LintCache.maxEntries + 3) {
            #expect(lint(p, ["--rule", "\(id)=error"]).stderr.contains("3 parsed"))
        }
        #expect(Self.entries(p.file("cache/hinge/lint")).count == LintCache.maxEntries)
    }
}

extension String {
    fileprivate func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
