import Foundation
import JSON
import Testing

@testable import LayoutEngine

/// The members the scene reader declares (one case each, docs/rules.md#one-pass) against the documents.
@Suite("Scene members, declared once")
struct SceneMemberTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The names in backticks in `text`.
    static func quoted(_ text: Substring) -> Set<String> {
        var names: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "`") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "`") else { break }
            names.insert(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// The part of `text` from `start` to the next `end`.
    static func section(_ text: String, from start: String, to end: String) throws -> Substring {
        let from = try #require(text.range(of: start))
        let to = try #require(text[from.upperBound...].range(of: end))
        return text[from.upperBound..<to.lowerBound]
    }

    @Test("The top-level members declared are the scene's members listed by docs/api.md#resolve")
    func topLevel() throws {
        let api = try Self.document("docs/api.md")
        let listed = Self.quoted(try Self.section(api, from: "takes a scene —", to: "— and answers"))
        #expect(Set(SceneMember.allCases.map(\.rawValue)) == listed)
    }

    @Test("Every member a sheet may have is in docs/rules.md#sheet-fields")
    func sheetMembers() throws {
        let rules = try Self.document("docs/rules.md")
        let listed = Self.quoted(try Self.section(rules, from: "<a id=\"sheet-fields\"></a>", to: "<a id="))
        let common = ["id", "kind", "presentedFrom", "intent"]
        let sheet = PresentationMember.allCases.filter {
            PresentationMember.sheet & $0.bit != 0 && !common.contains($0.rawValue)
        }
        #expect(sheet.count == 15)
        for m in sheet { #expect(listed.contains(m.rawValue), "\(m.rawValue) is not in docs/rules.md#sheet-fields") }
    }
}
