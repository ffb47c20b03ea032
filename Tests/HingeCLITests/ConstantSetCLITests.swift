import ArgumentScanning
import JSON
import LayoutEngine
import Resolving
import Store
import TestSupport
import Testing

@testable import HingeCLI

/// `hinge resolve --constant-set` (docs/api.md#constant-sets): the version of the database, as the server uses it.
@Suite struct ConstantSetCLITests {
    static let scene = Array(
        #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#.utf8)

    @Test func resolveWithAConstantSetOfTheDatabase() throws {
        let env: (String) -> String? = { _ in nil }
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let index = try #require(Constants.definitions.firstIndex { $0.key == "sheet.topGap" })
        _ = try store.constantSets.create(
            name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [(index, 12)], note: nil, sources: [:]))
        let options = try ResolveCommandOptions.parse(["a.json", "--constant-set", "acme@1"], environment: env)
        #expect(options.constantSet == ConstantSetReference(name: "acme", version: 1))
        let out = ResolveCommandRunner.run(
            body: Self.scene, options: options, catalog: store, constantSets: store.constantSets)
        #expect(out.exitCode == 0)
        let json = try JSONParser.parse(out.stdout)
        #expect(json["constantSet"] == "acme@1" && json["placements"]?[0]?["frame"]?["height"] == 781)
        let unknown = ResolveCommandRunner.run(
            body: Self.scene,
            options: try ResolveCommandOptions.parse(["a", "--constant-set", "acme@2"], environment: env),
            catalog: store, constantSets: store.constantSets)
        #expect(unknown.exitCode == 1 && String(decoding: unknown.stderr, as: UTF8.self).contains("/constantSet"))
        #expect(throws: UsageError.self) {
            try ResolveCommandOptions.parse(["a", "--constant-set", "a@0"], environment: env)
        }
    }

    @Test func constantSetsListShowExportImportAndReplayWithAVersion() throws {
        let env: (String) -> String? = { _ in nil }
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let index = try #require(Constants.definitions.firstIndex { $0.key == "sheet.topGap" })
        do {
            let store = try Store.open(.init(path: path))
            defer { store.close() }
            func create(_ gap: Double) throws {
                _ = try store.constantSets.create(
                    name: "acme",
                    draft: ConstantSetDraft(basedOn: nil, overrides: [(index, gap)], note: "n", sources: [:]))
            }
            try create(12)
            // One record resolved with acme@1, the latest when it was made; then acme@2.
            let body = Array(
                #"{"device":"iphone-16","constantSet":"acme","presentations":[{"id":"s","kind":"sheet"}]}"#.utf8)
            let out = Resolver.resolve(
                body: body, catalog: store, constantSets: ConstantSetContext(catalog: store.constantSets))
            let facts = RecordFacts(resolve: out, request: body)
            #expect(facts.constantSet == "acme@1")
            store.requestLog.append(
                RequestRecord(
                    receivedAt: Timestamp.now(), durationMicros: 1, device: "iphone-16", status: 200, codes: [],
                    requestBody: body, responseBody: out.json, engineVersion: "1", constantSet: facts.constantSet)
            ) { _ in }
            store.requestLog.flush()
            try create(32)
        }
        func run(_ args: [String]) throws -> CommandOutput {
            ConstantSetsCommandRunner.run(
                options: try ConstantSetsCommandOptions.parse(args + ["--db", path], environment: env))
        }
        let list = try run([])
        #expect(list.exitCode == 0 && String(decoding: list.stdout, as: UTF8.self).contains("acme"))
        let show = try run(["show", "acme@2"])
        #expect(try JSONParser.parse(show.stdout)["constants"]?["sheet.topGap"]?["value"] == 32)
        let file = dir.file("acme.tokens.json")
        #expect(try run(["export", "acme@2", file]).exitCode == 0)
        #expect(try run(["import", "copy", file]).exitCode == 0)
        let copy = try JSONParser.parse(try run(["show", "copy@1"]).stdout)
        #expect(copy["constants"] == (try JSONParser.parse(show.stdout))["constants"])
        #expect(try run(["show", "nope"]).exitCode == 1)
        #expect(throws: UsageError.self) { try ConstantSetsCommandOptions.parse(["frobnicate"], environment: env) }
        // An empty HINGE_API_KEY counts as unset: no `Authorization: Bearer ` with nothing after it.
        let emptyKey = try ConstantSetsCommandOptions.parse(
            ["create", "acme", "--set", "sheet.topGap=20"], environment: { $0 == "HINGE_API_KEY" ? "" : nil })
        #expect(emptyKey.apiKey == nil)
        let key = try ConstantSetsCommandOptions.parse(
            ["create", "acme", "--set", "sheet.topGap=20"], environment: { $0 == "HINGE_API_KEY" ? "k" : nil })
        #expect(key.apiKey == "k")
        // Replay: the record with the version it used is unchanged; with acme@2 its sheet moves (exit 1).
        let replay = ReplayCommandRunner.run(
            options: try ReplayCommandOptions.parse(["--db", path], environment: env))
        #expect(replay.exitCode == 0)
        let impact = ReplayCommandRunner.run(
            options: try ReplayCommandOptions.parse(["--db", path, "--constant-set", "acme@2"], environment: env))
        #expect(impact.exitCode == 1)
        #expect(String(decoding: impact.stdout, as: UTF8.self).contains("acme@2: replayed 1, unchanged 0, changed 1"))
        let same = ReplayCommandRunner.run(
            options: try ReplayCommandOptions.parse(["--db", path, "--constant-set", "acme@1"], environment: env))
        #expect(same.exitCode == 0)
    }

    /// `hinge lint --constant-set`: every scene resolved with the database's version, whatever it names itself.
    @Test func lintWithAConstantSetOfTheDatabase() throws {
        let p = LintProject()
        let db = p.file("hinge.sqlite")
        do {
            let store = try Store.open(.init(path: db))
            defer { store.close() }
            _ = try store.constantSets.create(
                name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [], note: nil, sources: [:]))
        }
        p.write("s.json", #"{"device":"iphone-16","constantSet":"gone","presentations":[{"id":"s","kind":"sheet"}]}"#)
        let own = p.lint(["s.json", "--no-config", "--fail-on", "error", "--db", db])
        #expect(own.status == 1 && own.stdout.contains("invalid-scene"))
        let pinned = p.lint(["s.json", "--no-config", "--fail-on", "error", "--db", db, "--constant-set", "acme@1"])
        #expect(pinned.status == 0 && !pinned.stdout.contains("invalid-scene"))
        let missing = p.lint(["s.json", "--no-config", "--db", db, "--constant-set", "acme@2"])
        #expect(missing.status == 2 && missing.stderr.contains("no constant set acme@2"))
    }
}

/// `hinge constant-sets create` (docs/api.md#constant-sets): a version from the command line, into the database
/// or through a server, checked as `POST …/versions` checks it.
@Suite struct ConstantSetCreateCLITests {
    static let env: @Sendable (String) -> String? = { _ in nil }

    @Test func createIntoTheDatabaseBasedOnAVersionWithTheNoteAsTheSource() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        do {
            let store = try Store.open(.init(path: path))
            store.close()
        }
        func run(_ args: [String]) throws -> CommandOutput {
            ConstantSetsCommandRunner.run(
                options: try ConstantSetsCommandOptions.parse(args + ["--db", path], environment: Self.env))
        }
        let first = try run(["create", "ds", "--set", "sheet.topGap=12", "--note", "measured on a Duo"])
        #expect(first.exitCode == 0 && String(decoding: first.stdout, as: UTF8.self).hasPrefix("created ds@1 \""))
        let second = try run(["create", "ds", "--based-on", "ds@1", "--set", "popover.margin=14", "--note", "wider"])
        #expect(second.exitCode == 0 && String(decoding: second.stdout, as: UTF8.self).hasPrefix("created ds@2 "))
        let v2 = try JSONParser.parse(try run(["show", "ds@2"]).stdout)
        #expect(v2["basedOn"] == "ds@1" && v2["note"] == "wider")
        #expect(v2["constants"]?["sheet.topGap"] == .object(["value": 12, "source": "measured on a Duo"]))
        #expect(v2["constants"]?["popover.margin"] == .object(["value": 14, "source": "wider"]))
        // Checked as the route checks it: the problem document with its pointers, exit 1.
        let bad = try run(["create", "ds", "--set", "sheet.topGapp=1", "--set", "sheet.margin=-1"])
        #expect(bad.exitCode == 1)
        let problem = try JSONParser.parse(bad.stderr)
        // The body's members in key order, as the writer writes them.
        #expect(
            problem["errors"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == [
                "/constants/sheet.margin", "/constants/sheet.topGapp",
            ])
        #expect(try run(["show", "ds@3"]).exitCode == 1)
    }

    @Test(arguments: [
        ["create", "ds"], ["create", "ds", "--set", "topGap"], ["create", "ds", "--set", "a=b"],
        ["create", "default", "--set", "sheet.topGap=1"],
        ["create", "ds", "--set", "sheet.topGap=1", "--based-on", "ds"],
        ["list", "--set", "sheet.topGap=1"], ["list", "--server", "http://127.0.0.1:1"],
        ["create", "ds", "--set", "sheet.topGap=1", "--server", "https://example.com"],
    ])
    func createRefusesWhatItCannotSend(_ args: [String]) {
        #expect(throws: UsageError.self) { try ConstantSetsCommandOptions.parse(args, environment: Self.env) }
    }

    @Test func serverURLs() {
        #expect(ServerPost(url: "http://127.0.0.1:8080").map { [$0.host, $0.port] } == ["127.0.0.1", "8080"])
        #expect(ServerPost(url: "http://hinge.internal/").map { [$0.host, $0.port] } == ["hinge.internal", "80"])
        #expect(ServerPost(url: "http://[::1]:9000").map { [$0.host, $0.port] } == ["::1", "9000"])
        for bad in ["https://a", "http://", "http://a:0", "http://a/v1", "http://u@a", "ftp://a"] {
            #expect(ServerPost(url: bad) == nil, "\(bad)")
        }
        let answer = ServerPost.parse(Array("HTTP/1.1 201 Created\r\nETag: \"x\"\r\nContent-Length: 2\r\n\r\n{}!".utf8))
        #expect(answer?.status == 201 && answer?.header("etag") == "\"x\"" && answer?.body == Array("{}".utf8))
    }
}
