import Foundation
import JSON
import LayoutEngine
import Store
import SwiftUIBridge
import TestSupport

/// The corpus (Tests/SwiftUIBridgeTests/Corpus): one directory per sample, its `.swift` files read together, each
/// with a `.json` beside it listing the scenes of the views it declares, written by hand from the source.
enum Corpus {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The sample's Swift files, by name (the path each is shown with), in name order.
    static func files(_ sample: String) -> [SwiftSourceFile] {
        let dir = directory.appendingPathComponent(sample)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        return names.map { SwiftSourceFile(path: $0, bytes: readFile(dir.appendingPathComponent($0).path) ?? []) }
    }

    static func expected(_ sample: String, _ swiftFile: String) throws -> JSONValue {
        let name = String(swiftFile.dropLast(".swift".count)) + ".json"
        let bytes = readFile(directory.appendingPathComponent(sample).appendingPathComponent(name).path) ?? []
        return try JSONParser.parse(bytes)
    }

    static func read(_ sample: String, jobs: Int = 2) -> SceneReport {
        SwiftUIReader.read(files(sample), jobs: jobs)
    }

    /// Every scene of the corpus.
    static var scenes: [(sample: String, scene: ExtractedScene)] {
        samples.flatMap { sample in read(sample).scenes.map { (sample, $0) } }
    }
}

/// The built-in devices, for resolving scenes read from code.
let catalog = StaticDeviceCatalog(BuiltInDevices.all)

/// A scene's JSON with `changes` set at its top level.
func patched(_ scene: JSONValue, _ changes: [String: JSONValue]) -> JSONValue {
    guard case .object(var o) = scene else { return scene }
    for (k, v) in changes.sorted(by: { $0.key < $1.key }) { o[k] = v }
    return .object(o)
}

/// Decodes scene JSON with the engine; nil (with the reason) when it is refused or has unknown members.
func engineScene(_ json: JSONValue) -> (scene: Scene?, problem: String?) {
    switch Scene.decode(json, catalog: catalog) {
    case .scene(let s):
        if !s.unknownFields.isEmpty { return (nil, "unknown fields: \(s.unknownFields.map(\.path))") }
        return (s, nil)
    case .invalid(let errors, _):
        return (nil, errors.map { "\($0.path): \($0.message)" }.joined(separator: "; "))
    }
}

/// Source text with lines numbered by the caller: `lines.joined("\n")`.
func source(_ lines: String...) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

func readOne(_ text: [UInt8], path: String = "View.swift") -> SceneReport {
    SwiftUIReader.read([SwiftSourceFile(path: path, bytes: text)], jobs: 1)
}
