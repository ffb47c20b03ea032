import JSON
import TestSupport
import Testing

@testable import LayoutEngine

/// The presentation members of `PresentationDraft.read` (docs/rules.md#one-pass): each declared once, read by
/// both decoders on the kinds that have it, refused by both on the others.
@Suite("Presentation member table")
struct PresentationMemberTableTests {
    /// A valid value for each member, none of them its default; a member added to the table needs one here.
    static let samples: [String: JSONValue] = [
        "id": "a", "kind": "sheet", "presentedFrom": "p0", "intent": ["hasDecision": true], "placement": "center",
        "anchor": ["x": 1, "y": 2], "arrowEdge": "leading", "sizing": "form",
        "contentSize": ["width": 100, "height": 100], "compactAdaptation": "sheet", "detents": ["medium", "large"],
        "selectedDetent": "large", "backgroundInteraction": "enabled", "interactiveDismissDisabled": true,
        "hasUnsavedChanges": true, "dragIndicator": "visible", "breakpoint": 500, "alignment": "leading",
        "panelWidth": 300, "panelHeight": 400, "modal": true, "cornerRadius": 12,
        "toolbar": [["title": "Done", "placement": "confirmationAction"]], "contentScrollable": true,
        "edgeAttachedInCompactHeight": true, "widthFollowsContentSize": true,
    ]

    /// A scene with a sheet `p0` and a presentation `a` of `kind` with `extra` members (a popover gets its anchor).
    static func scene(kind: Presentation.Kind, _ extra: [String: JSONValue]) -> [UInt8] {
        var p: JSONObject = ["id": "a", "kind": .string(kind.rawValue)]
        if kind == .popover { p["anchor"] = ["x": 10, "y": 20] }
        for (k, v) in extra { p[k] = v }
        let scene: JSONValue = [
            "device": "test-phone", "presentations": [["id": "p0", "kind": "sheet"], .object(p)],
        ]
        return JSONWriter.encode(scene)
    }

    @Test("Each member is declared once, under its case's name, with a sample value")
    func declarations() {
        let names = PresentationMemberTable.declared.map(\.name.description)
        #expect(names == PresentationMember.allCases.map { "\($0)" })
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(Self.samples.keys))
        for m in PresentationMember.allCases {
            let key = Array(PresentationMemberTable.name(m).description.utf8)
            #expect(key.withUnsafeBufferPointer { PresentationMemberTable.member($0) } == m)
        }
    }

    @Test("A kind's members are read by both decoders; another kind's are unknown to one, declined by the other")
    func membersOfEachKind() throws {
        for kind in Presentation.Kind.allCases {
            let base = SceneOnePassTests.general(Self.scene(kind: kind, [:]))
            #expect(base != nil, "\(kind) without members")
            let allowed = PresentationMemberTable.members(of: kind)
            for m in PresentationMember.allCases where m != .id && m != .kind {
                let name = PresentationMemberTable.name(m).description
                let bytes = Self.scene(kind: kind, [name: try #require(Self.samples[name])])
                let text = String(decoding: bytes, as: UTF8.self)
                let document = try JSONParser.document(bytes)
                let general = Scene.decode(document.root, catalog: Fixtures.catalog)
                if allowed & 1 << UInt32(m.rawValue) != 0 {
                    let scene = try #require(general.scene, "\(text): \(general.errors)")
                    #expect(scene.unknownFields.isEmpty, "\(text)")
                    #expect(scene != base, "\(name) changed nothing on a \(kind)")
                    #expect(SceneOnePassTests.onePass(bytes) == scene, "one pass: \(text)")
                } else {
                    let unknown = general.scene?.unknownFields.map(\.description) ?? []
                    #expect(unknown == ["/presentations/1/\(name)"], "\(text)")
                    #expect(SceneOnePassTests.onePass(bytes) == nil, "one pass took \(text)")
                }
            }
        }
    }
}
