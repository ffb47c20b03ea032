import Foundation
import JSON
import Testing

@testable import LayoutEngine

/// Golden scenes (Scenes/README.md): hand-computed expectations, matched as a partial tree.
@Suite("Golden scenes")
struct GoldenSceneTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenes")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".scene.json") }.map { String($0.dropLast(".scene.json".count)) }.sorted()
    }

    static func load(_ file: String) throws -> JSONValue {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        do { return try JSONParser.parse([UInt8](data)) } catch { throw TestFailure(description: "\(file): \(error)") }
    }

    /// Every member of `expected` must be in `actual` (numbers within 0.01); returns the mismatches.
    static func mismatches(_ expected: JSONValue, _ actual: JSONValue?, at path: String = "") -> [String] {
        switch (expected, actual) {
        case (.number(let e), .number(let a)?):
            return abs(e - a) <= 0.01 ? [] : ["\(path): expected \(e), got \(a)"]
        case (.object(let e), .object(let a)?):
            return e.members.flatMap { mismatches($0.value, a[$0.key], at: path + "/" + $0.key) }
        case (.array(let e), .array(let a)?):
            guard e.count == a.count else { return ["\(path): expected \(e.count) elements, got \(a.count)"] }
            return zip(e, a).enumerated().flatMap { mismatches($0.element.0, $0.element.1, at: path + "/\($0.offset)") }
        default:
            return expected == actual
                ? []
                : [
                    "\(path): expected \(JSONWriter.string(expected)), got \(actual.map { JSONWriter.string($0) } ?? "nothing")"
                ]
        }
    }

    @Test("There are golden scenes, each with its derivation")
    func present() throws {
        #expect(Self.names.count >= 10)
        for name in Self.names {
            let expected = try Self.load(name + ".expected.json")
            #expect((expected["_derivation"]?.stringValue?.count ?? 0) > 40, "\(name) lacks its derivation")
        }
    }

    @Test("Golden scene matches its hand-computed expectation", arguments: names)
    func golden(_ name: String) throws {
        let request = try Self.load(name + ".scene.json")
        var expected = try #require(try Self.load(name + ".expected.json").objectValue)
        expected["_derivation"] = nil
        let codes = expected["diagnosticCodes"]
        expected["diagnosticCodes"] = nil
        let s = try #require(
            Scene.decode(request, catalog: Fixtures.catalog).scene,
            "\(Scene.decode(request, catalog: Fixtures.catalog).errors)")
        let r = LayoutEngine.resolve(s)
        let json = r.json
        #expect(r.encoded == JSONWriter.encode(json), "direct encoder differs from the writer")
        for m in Self.mismatches(.object(expected), json) { Issue.record("\(name)\(m)") }
        if let codes {
            #expect(JSONValue.array(r.diagnostics.map { .string($0.code.rawValue) }) == codes, "\(name)")
        }
    }
}
