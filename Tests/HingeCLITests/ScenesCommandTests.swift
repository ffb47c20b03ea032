import ArgumentScanning
import Glibc
import JSON
import TestSupport
import Testing

@testable import HingeCLI

/// `hinge scenes PATH…` (docs/swiftui.md#scenes-command): its options, the files it finds, what it prints.
@Suite struct ScenesCommandTests {
    @Test("scenes: paths and --jobs; no path, an unknown option or a bad --jobs is a usage error")
    func options() throws {
        let o = try ScenesCommandOptions.parse(["Sources", "--jobs", "3", "App.swift"])
        #expect(o.paths == ["Sources", "App.swift"] && o.jobs == 3)
        #expect(try ScenesCommandOptions.parse(["--jobs=1", "a"]).jobs == 1)
        #expect(throws: UsageError("no path given (see hinge scenes --help)")) { try ScenesCommandOptions.parse([]) }
        #expect(throws: UsageError.self) { try ScenesCommandOptions.parse(["a", "--jobs", "0"]) }
        #expect(throws: UsageError.self) { try ScenesCommandOptions.parse(["a", "--json"]) }
    }

    @Test("scenes: a directory's .swift files in name order, hidden entries skipped, paths as given")
    func files() throws {
        let dir = TemporaryDirectory(prefix: "hinge-scenes")
        for sub in ["b", "a", ".hidden", "a/c"] { mkdir(dir.file(sub), 0o755) }
        for name in ["b/Z.swift", "b/A.swift", "a/c/M.swift", "a/notes.txt", ".hidden/H.swift", "Top.swift"] {
            writeFile(dir.file(name), Array("struct S {}\n".utf8))
        }
        let found = try ScenesCommandRunner.swiftFiles(dir.path)
        // Names in byte order: upper case before lower case.
        #expect(found == ["Top.swift", "a/c/M.swift", "b/A.swift", "b/Z.swift"].map { dir.path + "/" + $0 })
        #expect(try ScenesCommandRunner.swiftFiles(dir.file("a/notes.txt")) == [dir.file("a/notes.txt")])
        #expect(throws: CLIError.self) { try ScenesCommandRunner.swiftFiles(dir.file("missing")) }
    }

    @Test("scenes: prints the files read and each scene, with its id from the path given")
    func output() throws {
        let dir = TemporaryDirectory(prefix: "hinge-scenes")
        let view = """
            struct V: View {
                @State private var shows = false
                var body: some View {
                    Text("a").sheet(isPresented: $shows) { Text("b").presentationDetents([.medium]) }
                }
            }

            """
        writeFile(dir.file("V.swift"), Array(view.utf8))
        writeFile(dir.file("Other.swift"), Array("struct W {}\n".utf8))
        let out = ScenesCommandRunner.run(try ScenesCommandOptions.parse([dir.path]))
        #expect(out.exitCode == 0 && out.stderr.isEmpty)
        let json = try JSONParser.parse(out.stdout)
        guard case .object(let o) = json, case .array(let scenes)? = o["scenes"],
            case .object(let first)? = scenes.first
        else {
            Issue.record("not a report: \(String(decoding: out.stdout, as: UTF8.self))")
            return
        }
        #expect(o["files"] == .number(2) && scenes.count == 1)
        #expect(first["id"] == .string(dir.path + "/V.swift#V/0"))
        #expect(first["source"] == .object(["path": .string(dir.path + "/V.swift"), "line": 1, "column": 8]))
        guard case .object(let scene)? = first["scene"], case .array(let presentations)? = scene["presentations"] else {
            Issue.record("no scene")
            return
        }
        #expect(scene["device"] == .string("iphone-16"))
        #expect(
            presentations == [.object(["id": "shows", "kind": "sheet", "detents": .array(["medium"])])])
        #expect(out.stdout.last == 0x0A)
        let missing = ScenesCommandRunner.run(try ScenesCommandOptions.parse([dir.file("nothing.swift")]))
        #expect(missing.exitCode == 2 && missing.stdout.isEmpty)
        #expect(String(decoding: missing.stderr, as: UTF8.self).hasPrefix("hinge scenes: cannot read "))
    }
}
