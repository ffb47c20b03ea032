import JSON
import Testing

@testable import LayoutEngine

@Suite("Response (docs/rules.md#response)")
struct ResponseTests {
    static let mixed = #"""
        {"device":"test-foldable","posture":"halfOpened","layoutDirection":"rtl",
         "presentations":[
           {"id":"panel","kind":"adaptivePanel"},
           {"id":"edit","kind":"sheet","placement":"trailing","detents":["medium","large"]},
           {"id":"help","kind":"popover","anchor":{"x":10,"y":10,"width":20,"height":20},"presentedFrom":"edit"},
           {"id":"extra","kind":"fullScreenCover"}
         ],
         "arrangement":{"style":"split"}}
        """#

    static let placementKeys: Set<String> = [
        "id", "kind", "status", "style", "frame", "region", "placement", "detents", "selectedDetent", "dimsBackground",
        "backgroundInteractive", "swipeToDismiss", "tapOutsideToDismiss", "dragIndicatorVisible", "toolbarOrientation",
        "cornerRadii", "transitionEdge", "contentAxis", "arrowEdge", "adaptedFrom",
    ]

    @Test("response-shape: every member present, null where it does not apply")
    func shape() throws {
        let json = try resolve(Self.mixed).json
        #expect(
            Set(json.objectValue?.keys ?? []) == [
                "engineVersion", "environment", "arrangement", "placements", "diagnostics",
            ])
        #expect(json["engineVersion"] == .string("1.0.0"))
        #expect(
            Set(json["environment"]?.objectValue?.keys ?? []) == [
                "device", "display", "orientation", "posture", "layoutDirection", "dynamicTypeSize", "window",
                "safeArea",
                "sizeClass", "windowClass", "fold", "regions",
            ])
        let placements = try #require(json["placements"]?.arrayValue)
        #expect(placements.count == 4)
        for p in placements { #expect(Set(p.objectValue?.keys ?? []) == Self.placementKeys) }
        // The ignored cover: only id, kind and status are non-null.
        let ignored = try #require(placements.last?.objectValue)
        #expect(ignored.members.filter { $0.value != .null }.map(\.key).sorted() == ["id", "kind", "status"])
        for d in try #require(json["diagnostics"]?.arrayValue) {
            #expect(Set(d.objectValue?.keys ?? []) == ["code", "severity", "presentation", "path", "message"])
        }
        #expect(
            Set(json["arrangement"]?.objectValue?.keys ?? []) == ["style", "axis", "separated", "primary", "secondary"])
        #expect(try resolve(#"{"device":"test-phone"}"#).json["arrangement"] == .null)
    }

    @Test("determinism: the same request gives byte-identical sorted JSON")
    func determinism() throws {
        let a = JSONWriter.encode(try resolve(Self.mixed).json)
        let b = JSONWriter.encode(try resolve(Self.mixed).json)
        #expect(a == b)
        // The tree is built in sorted order, so it serialises identically with or without sorting.
        func sortedEverywhere(_ v: JSONValue) -> Bool {
            switch v {
            case .object(let o): return o.keys == o.keys.sorted() && o.members.allSatisfy { sortedEverywhere($0.value) }
            case .array(let a): return a.allSatisfy(sortedEverywhere)
            default: return true
            }
        }
        #expect(sortedEverywhere(try resolve(Self.mixed).json))
    }

    @Test("diagnostics: every message says what happened and what to do")
    func messages() throws {
        for d in try resolve(Self.mixed).diagnostics {
            #expect(d.message.count > 30)
            #expect(d.path.hasPrefix("/"))
        }
    }
}
