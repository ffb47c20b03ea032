import JSON
import SwiftCodeModel

/// A place in a Swift file: line and column as `hinge lint` counts them (docs/lint.md#positions: 1-based, the
/// column in UTF-16 code units).
public struct SourcePosition: Sendable, Equatable, Comparable {
    public var path: String
    public var line: Int
    public var column: Int
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.path, a.line, a.column) < (b.path, b.line, b.column)
    }
}

/// Something the scene depends on that cannot be known without running the code (docs/swiftui.md#unresolved): the
/// scene leaves the member out, or uses the caller's layout fact, and says so here.
public struct UnresolvedEntry: Sendable, Equatable {
    public var position: SourcePosition
    public var message: String
    public init(position: SourcePosition, message: String) {
        self.position = position
        self.message = message
    }
}

/// A diagnostic read from the source itself, not from a resolution (docs/swiftui.md#present-by-item).
public struct SourceFinding: Sendable, Equatable {
    public var code: String
    public var severity: String
    public var position: SourcePosition
    public var message: String
    public init(code: String, severity: String, position: SourcePosition, message: String) {
        self.code = code
        self.severity = severity
        self.position = position
        self.message = message
    }
}

/// One scene read from a presenting view: a chain of presentations (each presented from the one before, when it is
/// nested in its content) and the view's arrangement.
public struct ExtractedScene: Sendable, Equatable {
    /// `<path>#<View>/<n>`: the view's n-th scene, counted from 0 in source order.
    public var id: String
    public var view: String
    /// The view's declaration (its name).
    public var source: SourcePosition
    public var scene: CodeScene
    /// Where each member of the scene is written, by JSON pointer into the scene (`/presentations/0`,
    /// `/presentations/0/detents`, `/arrangement/axes`), in pointer order of first appearance: a diagnostic's
    /// pointer finds its position at itself or its closest listed parent.
    public var sources: [(pointer: String, position: SourcePosition)]
    public var unresolved: [UnresolvedEntry]
    public var findings: [SourceFinding]

    public static func == (a: ExtractedScene, b: ExtractedScene) -> Bool {
        a.id == b.id && a.view == b.view && a.source == b.source && a.scene == b.scene
            && a.sources.elementsEqual(b.sources, by: { $0.pointer == $1.pointer && $0.position == $1.position })
            && a.unresolved == b.unresolved && a.findings == b.findings
    }

    /// The position of `pointer` (a pointer into the scene, such as a diagnostic's `path`): its own source, else its
    /// closest parent's, else the view's.
    public func position(of pointer: String) -> SourcePosition {
        var p = Substring(pointer)
        while true {
            if let hit = sources.first(where: { $0.pointer == p }) { return hit.position }
            guard let slash = p.lastIndex(of: "/") else { return source }
            p = p[..<slash]
        }
    }

    /// This scene's entry in `hinge scenes`' output (docs/swiftui.md#scenes-command).
    public func json(context: SceneContext) -> JSONValue {
        let path = source.path
        var sourceMap = JSONObject()
        for (pointer, position) in sources { sourceMap[pointer] = Self.place(position, besides: path) }
        return .object([
            "id": .string(id),
            "view": .string(view),
            "source": .object([
                "path": .string(path), "line": .number(Double(source.line)), "column": .number(Double(source.column)),
            ]),
            "scene": scene.json(context: context),
            "sources": .object(sourceMap),
            "unresolved": .array(
                unresolved.map { u in
                    var o = Self.placeObject(u.position, besides: path)
                    o["message"] = .string(u.message)
                    return .object(o)
                }),
            "findings": .array(
                findings.map { f in
                    var o = Self.placeObject(f.position, besides: path)
                    o["code"] = .string(f.code)
                    o["severity"] = .string(f.severity)
                    o["message"] = .string(f.message)
                    return .object(o)
                }),
        ])
    }

    /// `{"line", "column"}`, with `"path"` when the place is in another file than the view.
    private static func placeObject(_ p: SourcePosition, besides path: String) -> JSONObject {
        var o: JSONObject = ["line": .number(Double(p.line)), "column": .number(Double(p.column))]
        if p.path != path { o["path"] = .string(p.path) }
        return o
    }

    private static func place(_ p: SourcePosition, besides path: String) -> JSONValue {
        .object(placeObject(p, besides: path))
    }
}

/// What reading a set of Swift files gives.
public struct SceneReport: Sendable, Equatable {
    /// The files given.
    public var files: Int
    /// The files parsed: those that can present, and those that declare what their presented content uses.
    public var parsedFiles: Int
    /// Scenes in file order, then in source order within a file.
    public var scenes: [ExtractedScene]

    public init(files: Int, parsedFiles: Int, scenes: [ExtractedScene]) {
        self.files = files
        self.parsedFiles = parsedFiles
        self.scenes = scenes
    }

    /// `{"files": N, "scenes": [...]}`, what `hinge scenes` prints.
    public func json(context: SceneContext) -> JSONValue {
        .object(["files": .number(Double(files)), "scenes": .array(scenes.map { $0.json(context: context) })])
    }
}
