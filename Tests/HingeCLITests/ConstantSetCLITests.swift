import ArgumentScanning
import JSON
import LayoutEngine
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
}
