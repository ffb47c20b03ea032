import JSON
import SwiftUIBridge
import Testing

/// Every sample of the corpus read as a whole; each file's scenes against the `.json` beside it: the scene, where
/// each member is written, what is unresolved (place and the gist of the message), the findings.
@Suite struct CorpusTests {
    @Test("read: every corpus file gives the scenes written beside it", arguments: Corpus.samples)
    func sample(_ sample: String) throws {
        let files = Corpus.files(sample)
        #expect(!files.isEmpty)
        let report = Corpus.read(sample)
        #expect(report.files == files.count)
        for file in files {
            let expected = try Corpus.expected(sample, file.path)
            guard case .array(let entries) = expected else {
                Issue.record("\(sample)/\(file.path): the expected file is not a list")
                continue
            }
            let actual = report.scenes.filter { $0.source.path == file.path }
            #expect(actual.map(\.id) == entries.map { $0.string("id") }, "\(sample)/\(file.path)")
            for (scene, entry) in zip(actual, entries) { check(scene, entry, "\(sample)/\(file.path)") }
        }
    }

    private func check(_ s: ExtractedScene, _ e: JSONValue, _ label: String) {
        let where_ = "\(label) \(s.id)"
        #expect([s.source.line, s.source.column] == e.ints("source"), "\(where_): source")
        #expect(s.scene.json(context: .standard) == e.member("scene"), "\(where_): scene")
        var sources: [String: [String]] = [:]
        for (pointer, p) in s.sources where sources[pointer] == nil { sources[pointer] = place(p, s) }
        var expectedSources: [String: [String]] = [:]
        if case .object(let o)? = e.member("sources") {
            for m in o.members { expectedSources[m.key] = m.value.placeStrings }
        }
        #expect(sources == expectedSources, "\(where_): sources")
        let unresolved = e.list("unresolved")
        #expect(s.unresolved.count == unresolved.count, "\(where_): unresolved \(s.unresolved.map(\.message))")
        for (u, x) in zip(s.unresolved, unresolved) {
            guard case .array(let parts) = x, parts.count >= 3, case .string(let gist) = parts[2] else {
                Issue.record("\(where_): a malformed expected entry")
                continue
            }
            let path = parts.count > 3 ? parts[3].stringValue : s.source.path
            #expect(
                [u.position.line, u.position.column] == [parts[0].intValue, parts[1].intValue]
                    && u.position.path == path, "\(where_): \(u.message)")
            #expect(u.message.contains(gist), "\(where_): \(u.message) lacks \(gist)")
        }
        let findings = e.list("findings")
        #expect(s.findings.count == findings.count, "\(where_): findings")
        for (f, x) in zip(s.findings, findings) {
            guard case .array(let parts) = x, parts.count == 4 else { continue }
            #expect(f.code == parts[0].stringValue && f.severity == "warning", "\(where_)")
            #expect([f.position.line, f.position.column] == [parts[1].intValue, parts[2].intValue], "\(where_)")
            #expect(f.message.contains(parts[3].stringValue ?? "?"), "\(where_): \(f.message)")
        }
    }

    private func place(_ p: SourcePosition, _ s: ExtractedScene) -> [String] {
        [String(p.line), String(p.column)] + (p.path == s.source.path ? [] : [p.path])
    }

    @Test("read: the same report on one thread and on several")
    func threads() {
        for sample in Corpus.samples {
            let one = Corpus.read(sample, jobs: 1)
            let four = Corpus.read(sample, jobs: 4)
            #expect(one == four, "\(sample)")
        }
    }

    @Test("read: the report's JSON is what `hinge scenes` prints: files, and each scene's members")
    func reportJSON() throws {
        let report = Corpus.read("articles-modals")
        let json = report.json(context: .standard)
        #expect(json.member("files") == .number(Double(Corpus.files("articles-modals").count)))
        guard case .array(let scenes)? = json.member("scenes") else {
            Issue.record("no scenes")
            return
        }
        #expect(scenes.count == report.scenes.count)
        let first = try #require(scenes.first)
        guard case .object(let o) = first else {
            Issue.record("not an object")
            return
        }
        #expect(
            o.keys.sorted() == ["findings", "id", "scene", "source", "sources", "unresolved", "view"])
        // A member written in another file than the view says which.
        let repertorio = try #require(report.scenes.first { $0.id == "Repertorio.swift#Repertorio/1" })
        guard case .object(let sources)? = repertorio.json(context: .standard).member("sources"),
            case .object(let scrollable)? = sources["/presentations/0/contentScrollable"]
        else {
            Issue.record("no contentScrollable source")
            return
        }
        #expect(scrollable["path"] == .string("MapaConFiltros.swift"))
        guard case .object(let sheet)? = sources["/presentations/0"] else {
            Issue.record("no source")
            return
        }
        #expect(sheet["path"] == nil)
    }
}

extension JSONValue {
    func member(_ key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }
    func string(_ key: String) -> String? { member(key)?.stringValue }
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    var intValue: Int? { exactInteger }
    func ints(_ key: String) -> [Int] {
        guard case .array(let xs)? = member(key) else { return [] }
        return xs.compactMap(\.exactInteger)
    }
    func list(_ key: String) -> [JSONValue] {
        guard case .array(let xs)? = member(key) else { return [] }
        return xs
    }
    /// `[line, column]` or `[line, column, path]` as strings.
    var placeStrings: [String] {
        guard case .array(let xs) = self else { return [] }
        return xs.map { $0.exactInteger.map(String.init) ?? $0.stringValue ?? "?" }
    }
}
