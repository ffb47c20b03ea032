import ArgumentScanning
import Glibc
import JSON
import TestSupport
import Testing

@testable import HingeCLI

/// docs/lint.md#escaping and docs/lint.md#writes: what a pull request's scene files (their content, their names, their
/// symbolic links, a committed configuration) can make `hinge lint` print or write, each walked in a throw-away git
/// repository as a CI job would run it.
@Suite struct LintHostileTests {
    /// A member that, printed raw, would end the line and start workflow commands of its own.
    static let injection = "zz\n::stop-commands::x\n::error file=README.md,line=1::X"
    /// Terminal sequences: clear the screen, set the window title, ring the bell.
    static let terminal = "\u{1B}[2J\u{1B}]0;pwned\u{7}"

    /// 12 unknown members named with the injection (more than GitHub annotates), and an id with ESC and BEL.
    static func hostileScene() -> String {
        var members: [String] = []
        for i in 0..<12 { members.append("\"\(jsonEscaped(injection + "\(i)"))\": 1") }
        let id = jsonEscaped(terminal + "<script>alert(1)</script>|`x`|*b*")
        return """
            {"device": "iphone-16", \(members.joined(separator: ", ")), "presentations": [
              {"id": "\(id)", "kind": "sheet"}, {"id": "b", "kind": "sheet", "presentedFrom": "\(id)"}]}
            """
    }

    /// `s` as the inside of a JSON string literal, written by the project's JSON writer.
    static func jsonEscaped(_ s: String) -> String {
        String(String(decoding: JSONWriter.encode(.string(s)), as: UTF8.self).dropFirst().dropLast())
    }

    /// Lines of `text` that GitHub would read as a workflow command, other than the lint's own annotations.
    static func injectedCommands(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { line in
            let t = line.drop { $0 == " " || $0 == "\t" }
            return t.hasPrefix("::")
                && !(t.hasPrefix("::error file=") || t.hasPrefix("::warning file=") || t.hasPrefix("::notice file="))
        }
    }

    static func controlBytes(_ text: String) -> [UInt8] {
        text.utf8.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
    }

    @Test("escaping: injected workflow commands, ESC and BEL in members, ids and file names reach no output raw")
    func injectionEverywhere() throws {
        let p = LintProject()
        #expect(p.gitInit())
        p.write("scenes/a.json", Self.hostileScene())
        // A file name with a line break and a command of its own, and another with ESC and BEL.
        p.write("scenes/x\n::error file=README.md::forged.json", Self.hostileScene())
        p.write("scenes/\u{1B}]0;t\u{7}.json", "{ not json")
        p.write("scenes/::warning::lead.json", "{ not json")
        let run = p.lint(
            [
                "scenes", "--no-config", "--report", "github", "--report", "text=lint.txt", "--report",
                "junit=lint.xml", "--report", "sarif=lint.sarif",
            ],
            environment: ["GITHUB_STEP_SUMMARY": p.file("summary.txt")])
        #expect(run.status == 1)
        let text = try #require(p.read("lint.txt"))
        let summary = try #require(p.read("summary.txt"))
        // More warnings than GitHub annotates: some went out as plain lines, escaped too.
        #expect(run.stdout.contains("more than GitHub annotates"))
        for (name, output) in [("stdout", run.stdout), ("stderr", run.stderr), ("text", text), ("summary", summary)] {
            #expect(Self.injectedCommands(output).isEmpty, "\(name): \(Self.injectedCommands(output).prefix(3))")
            #expect(Self.controlBytes(output).isEmpty, "\(name)")
        }
        #expect(text.contains("unknown field \"zz\\u000A::stop-commands::x\\u000A::error file=README.md"))
        #expect(text.contains("\\u001B[2J\\u001B]0;pwned\\u0007"))
        #expect(text.contains("scenes/x\\u000A::error file=README.md::forged.json:"))
        // The annotations carry the same through GitHub's own escapes.
        #expect(run.stdout.contains("::error file=scenes/\\u001B]0;t\\u0007.json,line=1,"))
        #expect(run.stdout.contains("::error file=scenes/%3A%3Awarning%3A%3Alead.json,line=1,"))
        #expect(run.stdout.contains("unknown field \"zz%0A::stop-commands::x%0A::error file=README.md,line=1::X0\""))
        // Past the cap, a plain line: escaped as the text report is.
        #expect(run.stdout.contains("\nscenes/x\\u000A::error file=README.md::forged.json:1:"))
        // The step summary: no HTML, no code span or column break from the data; every row has its 6 bars.
        #expect(!summary.contains("<script>") && summary.contains("&lt;script&gt;"))
        for row in summary.split(separator: "\n") where row.hasPrefix("| scenes") {
            let bars = row.enumerated().filter { i, c in
                c == "|" && (i == 0 || row[row.index(row.startIndex, offsetBy: i - 1)] != "\\")
            }
            #expect(bars.count == 6, "\(row)")
        }
        let xml = try #require(p.read("lint.xml"))
        #expect(Self.controlBytes(xml).isEmpty)
        // A file name that starts with `::`, shown as named: it cannot start a line of the text report.
        let bare = LintProject()
        bare.write("::warning::lead.json", "{ not json")
        bare.write("##[error]old-form.json", "{ not json")
        let lead = bare.lint([".", "--no-config"])
        #expect(lead.stdout.hasPrefix("\\u0023#[error]old-form.json:1:3: error: "))
        #expect(lead.stdout.contains("\n\\u003A:warning::lead.json:1:3: error: "))
        #expect(Self.injectedCommands(lead.stdout).isEmpty)
        #expect(!lead.stdout.split(separator: "\n").contains { $0.hasPrefix("##[") })
    }

    @Test("escaping: a configuration key with a line break and ESC is reported on its own lines, escaped")
    func configKeys() {
        let p = LintProject()
        p.write("s.json", LintRunTests.scene)
        p.write("hinge-lint.json", "{\"x\\n::stop-commands::y\\u001b[2J\": 1}")
        let run = p.lint(["s.json"])
        #expect(run.status == 2)
        #expect(Self.injectedCommands(run.stderr).isEmpty)
        #expect(Self.controlBytes(run.stderr).isEmpty)
        #expect(run.stderr.contains("/x\\u000A::stop-commands::y\\u001B[2J: unknown key"))
    }

    @Test("non-UTF-8: a scene file whose name is not UTF-8 is reported, never skipped; naming it is a usage error")
    func nonUTF8Names() throws {
        let p = LintProject()
        #expect(p.gitInit())
        p.write("scenes/ok.json", #"{"device": "iphone-16", "presentations": []}"#)
        let name = Array(p.file("scenes/bad-").utf8) + [0xFF, 0xFE] + Array(".json".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        try #require(fd >= 0)
        close(fd)
        let run = p.lint(["scenes", "--no-config"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot read scenes/bad-\\xFF\\xFE.json: its name is not UTF-8; rename it"))
        #expect(!run.stdout.contains("No findings"))
        let raw = Array("scenes/bad-".utf8) + [0xFF, 0xFE] + Array(".json".utf8)
        #expect(throws: UsageError.self) { try LintOptions.checkRawArguments([Array("lint".utf8), raw]) }
        do throws(UsageError) {
            try LintOptions.checkRawArguments([raw])
        } catch {
            #expect(error.message.hasPrefix("the argument scenes/bad-\\xFF\\xFE.json is not UTF-8"))
            #expect(!error.message.contains("No such file"))
        }
    }

    @Test("writes: a committed baseline path out of the repository is refused, nothing is created there")
    func baselineOutside() {
        let p = LintProject()
        #expect(p.gitInit("repo"))
        p.write("repo/scenes/s.json", LintRunTests.scene)
        p.write("repo/hinge-lint.json", #"{"baseline": "../elsewhere/b.json"}"#)
        let run = p.lint(["scenes", "--update-baseline"], in: "repo")
        #expect(run.status == 2)
        #expect(run.stderr.contains("the baseline ../elsewhere/b.json resolves outside the project root"))
        #expect(LintFileSystem.kind(p.file("elsewhere")) == .missing)
        // Through a committed symbolic link: refused the same.
        p.symlink("repo/out", to: "../elsewhere")
        p.write("repo/hinge-lint.json", #"{"baseline": "out/b.json"}"#)
        #expect(p.lint(["scenes", "--update-baseline"], in: "repo").status == 2)
        #expect(LintFileSystem.kind(p.file("elsewhere")) == .missing)
        // Inside the repository, it is written.
        p.write("repo/hinge-lint.json", #"{"baseline": "lint/b.json"}"#)
        #expect(p.lint(["scenes", "--update-baseline"], in: "repo").status == 0)
        #expect(LintFileSystem.kind(p.file("repo/lint/b.json")) == .file)
    }

    @Test("writes: a snapshot directory that is a committed symlink out of the tree is refused, or any link under it")
    func snapshotsThroughSymlink() {
        let p = LintProject()
        #expect(p.gitInit("repo"))
        p.write("repo/scenes/s.json", LintRunTests.scene)
        p.write("repo/hinge-lint.json", #"{"snapshots": "snapshots"}"#)
        p.symlink("repo/snapshots", to: "../elsewhere")
        try? LintFileSystem.makeDirectories(p.file("elsewhere"))
        let run = p.lint(["scenes", "--update-snapshots"], in: "repo")
        #expect(run.status == 2)
        #expect(run.stderr.contains("the snapshot directory snapshots resolves outside the project root"))
        #expect(LintFileSystem.kind(p.file("elsewhere/scenes")) == .missing)
        // Nor is a snapshot read through it: what lies there is not echoed as an old value.
        p.write("elsewhere/scenes/s.json", #"{"combinations": {}, "file": "Xsecret"}"#)
        let read = p.lint(["scenes"], in: "repo")
        #expect(read.status == 2)
        #expect(read.stderr.contains("resolves outside the project root"))
        #expect(!read.stdout.contains("Xsecret") && !read.stderr.contains("Xsecret"))
        // The directory is inside, a link below it leads out: that snapshot is not written.
        unlink(p.file("repo/snapshots"))
        p.symlink("repo/snapshots/scenes", to: "../../elsewhere")
        let nested = p.lint(["scenes", "--update-snapshots"], in: "repo")
        #expect(nested.status == 2)
        #expect(nested.stderr.contains("resolves outside the project root"))
        #expect(LintFileSystem.kind(p.file("elsewhere/s.json")) == .missing)
    }

    @Test("config: a hinge-lint.json above the repository (a shared temporary directory) is not picked up")
    func parentConfig() {
        let p = LintProject()
        p.write("hinge-lint.json", #"{"failOn": "never"}"#)
        #expect(p.gitInit("repo"))
        p.write("repo/scenes/s.json", LintRunTests.scene)
        let run = p.lint(["scenes"], in: "repo")
        #expect(run.status == 1)
        #expect(run.stderr.contains("hinge lint: no configuration: no hinge-lint.json from the paths linted up to"))
        // Inside the repository, the same file is used, and said so.
        p.write("repo/hinge-lint.json", #"{"failOn": "never"}"#)
        let inside = p.lint(["scenes"], in: "repo")
        #expect(inside.status == 0)
        #expect(inside.stderr.contains("hinge lint: configuration: hinge-lint.json\n"))
    }

    @Test("symlinks: a scene link out of the project or to a file that is not a scene is not followed nor echoed")
    func symlinkScenes() {
        let p = LintProject()
        p.write("secret.txt", "Xsecret-token")
        p.write("outside.json", "Ysecret, not JSON")
        #expect(p.gitInit("repo"))
        p.write("repo/scenes/ok.json", #"{"device": "iphone-16", "presentations": []}"#)
        p.write("repo/notes.txt", "Zinside, not a scene")
        p.symlink("repo/scenes/a.json", to: "../../secret.txt")
        p.symlink("repo/scenes/b.json", to: "../../outside.json")
        p.symlink("repo/scenes/c.json", to: "../notes.txt")
        for args in [["scenes"], ["scenes/a.json"], ["scenes/b.json"], ["scenes/c.json"]] {
            let run = p.lint(args + ["--no-config", "--report", "text", "--report", "sarif=out.sarif"], in: "repo")
            #expect(run.status == 2, "\(args)")
            for leaked in ["Xsecret", "Ysecret", "Zinside"] {
                #expect(!run.stdout.contains(leaked) && !run.stderr.contains(leaked), "\(args)")
                #expect(!(p.read("repo/out.sarif") ?? "").contains(leaked))
            }
        }
        let run = p.lint(["scenes", "--no-config"], in: "repo")
        #expect(run.stderr.contains("cannot read scenes/a.json: a symbolic link out of the project root"))
        #expect(run.stderr.contains("cannot read scenes/c.json: a symbolic link to a file that is not a scene file"))
        // A link to a scene file inside the project is followed.
        p.symlink("repo/more/d.json", to: "../scenes/ok.json")
        #expect(p.lint(["more", "--no-config"], in: "repo").status == 0)
    }
}
