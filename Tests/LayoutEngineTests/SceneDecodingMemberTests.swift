import Foundation
import JSON
import Testing

@testable import LayoutEngine

/// The members the scene reader declares (one case each, docs/rules.md#one-pass) against the documents, and the
/// layout the quiet source relies on to turn an ordinal into its case without `allCases`.
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
        #expect(sheet.count == 14)
        for m in sheet { #expect(listed.contains(m.rawValue), "\(m.rawValue) is not in docs/rules.md#sheet-fields") }
    }

    static func checkLayout<E: CaseIterable & Equatable>(_: E.Type) {
        for (i, e) in E.allCases.enumerated() {
            let c: E = caseOfOrdinal(i)
            #expect(c == e, "\(E.self) case \(i)")
        }
    }

    static func checkBits<M: SceneMembers>(_: M.Type) {
        checkLayout(M.self)
        for (i, m) in M.allCases.enumerated() { #expect(m.bit == 1 << UInt64(i), "\(M.self).\(m) bit") }
    }

    @Test("A case is its ordinal: caseOfOrdinal and bit agree with allCases for every enumeration read")
    func ordinals() {
        Self.checkBits(SceneMember.self)
        Self.checkBits(FrameMember.self)
        Self.checkBits(InsetsMember.self)
        Self.checkBits(SizeClassMember.self)
        Self.checkBits(FoldMember.self)
        Self.checkBits(PresentationMember.self)
        Self.checkBits(IntentMember.self)
        Self.checkBits(ToolbarItemMember.self)
        Self.checkBits(DetentMember.self)
        Self.checkBits(BackgroundInteractionMember.self)
        Self.checkBits(ArrangementMember.self)
        Self.checkBits(ArrangedViewMember.self)
        Self.checkBits(FixedSizeMember.self)
        Self.checkBits(AxisPreferenceMember.self)
        Self.checkLayout(DetentName.self)
        Self.checkLayout(BackgroundInteractionName.self)
        Self.checkLayout(Orientation.self)
        Self.checkLayout(Posture.self)
        Self.checkLayout(LayoutDirection.self)
        Self.checkLayout(DynamicTypeSize.self)
        Self.checkLayout(Presentation.Kind.self)
        Self.checkLayout(SheetPlacement.self)
        Self.checkLayout(SheetSizing.self)
        Self.checkLayout(DragIndicator.self)
        Self.checkLayout(ToolbarPlacement.self)
        Self.checkLayout(ArrowEdge.self)
        Self.checkLayout(CompactAdaptation.self)
        Self.checkLayout(PanelAlignment.self)
        Self.checkLayout(ArrangementStyle.self)
        Self.checkLayout(ArrangementContainer.self)
        Self.checkLayout(Edge.self)
        Self.checkLayout(SizeClass.self)
        Self.checkLayout(Axis.self)
    }
}
