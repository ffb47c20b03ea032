import SwiftCodeModel

/// Turns the views of a file into scenes: each view that presents or arranges gives one scene per chain of
/// presentations — a presentation and, in turn, one presented from its content — since a view shows one of its
/// presentations at a time (two at once is the engine's `concurrent-presentation`); a view that only arranges gives
/// one scene without presentations (docs/swiftui.md#scenes).
struct SceneExtractor {
    let index: ProjectIndex
    /// The path shown for each file, by index.
    let paths: [String]

    struct FileResult: Sendable {
        var scenes: [ExtractedScene]
        var missingTypes: Set<String>
        var missingFunctions: Set<String>
    }

    func scenes(in file: CodeFile) -> FileResult {
        var result = FileResult(scenes: [], missingTypes: [], missingFunctions: [])
        for type in file.types where type.kind == .structure && type.isView {
            let walker = ViewWalker(index: index, view: type)
            walker.run(type)
            result.missingTypes.formUnion(walker.missingTypes)
            result.missingFunctions.formUnion(walker.missingFunctions)
            result.scenes += scenes(of: type, walker)
        }
        return result
    }

    private func position(_ p: SourcePoint) -> SourcePosition {
        let (line, column) = index.lines(of: p.file).lineAndColumn(p.offset)
        return SourcePosition(path: paths[p.file], line: line, column: column)
    }

    private func scenes(of type: CodeType, _ walker: ViewWalker) -> [ExtractedScene] {
        var chains: [[PresentationNode]] = []
        func collect(_ node: PresentationNode, _ chain: [PresentationNode]) {
            if node.children.isEmpty {
                if !chain.isEmpty { chains.append(chain) }
                return
            }
            for child in node.children { collect(child, chain + [child]) }
        }
        collect(walker.root, [])
        if chains.isEmpty && walker.arrangement != nil { chains = [[]] }
        let path = paths[type.at.file]
        return chains.enumerated().map { n, chain in
            scene(n: n, chain: chain, type: type, walker: walker, path: path)
        }
    }

    private func scene(
        n: Int, chain: [PresentationNode], type: CodeType, walker: ViewWalker, path: String
    ) -> ExtractedScene {
        var scene = CodeScene(arrangement: walker.arrangement)
        var sources: [(pointer: String, position: SourcePosition)] = []
        var ids = Set<String>()
        for (i, node) in chain.enumerated() {
            var p = node.presentation
            var id = p.id
            var k = 2
            while ids.contains(id) {
                id = "\(p.id)-\(k)"
                k += 1
            }
            ids.insert(id)
            p.id = id
            p.presentedFrom = i > 0 ? scene.presentations[i - 1].id : nil
            scene.presentations.append(p)
            let pointer = "/presentations/\(i)"
            sources.append((pointer, position(node.point)))
            if i > 0 { sources.append((pointer + "/presentedFrom", position(node.point))) }
            for m in node.members { sources.append((pointer + "/" + m.suffix, position(m.point))) }
        }
        for m in walker.arrangementPoints {
            sources.append((m.suffix.isEmpty ? "/arrangement" : "/arrangement/" + m.suffix, position(m.point)))
        }
        var unresolved: [UnresolvedEntry] = []
        var findings: [SourceFinding] = []
        for node in [walker.root] + chain {
            for u in node.unresolved {
                let entry = UnresolvedEntry(position: position(u.point), message: u.message)
                if !unresolved.contains(entry) { unresolved.append(entry) }
            }
            for f in node.findings {
                findings.append(
                    SourceFinding(code: f.code, severity: "warning", position: position(f.point), message: f.message))
            }
        }
        unresolved.sort { $0.position < $1.position }
        findings.sort { $0.position < $1.position }
        return ExtractedScene(
            id: "\(path)#\(type.name)/\(n)", view: type.name, source: position(type.at), scene: scene,
            sources: sources, unresolved: unresolved, findings: findings)
    }
}
