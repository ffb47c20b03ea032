import JSON
import Testing

@testable import LayoutEngine

@Suite("Validation and constants (docs/rules.md#validation)")
struct ValidationTests {
    @Test("validation: every violation with its pointer")
    func everyViolation() throws {
        let e = try errors(
            #"""
            {"device":"nope","constants":{"sheet.foo":1,"sheet.topGap":-1},
             "presentations":[
               {"id":"a","kind":"sheet","detents":["huge"]},
               {"id":"b","kind":"sheet","presentedFrom":"c"},
               {"id":"a","kind":"popover"},
               {"id":"","kind":"sheet"},
               {"id":"d","kind":"banner"},
               {"id":"c","kind":"sheet","detents":[{"fraction":0}, "fitted"],"sizing":"fitted"}
             ]}
            """#)
        #expect(
            Set(e.map(\.path.description)) == [
                "/device", "/constants/sheet.foo", "/constants/sheet.topGap", "/presentations/0/detents/0",
                "/presentations/1/presentedFrom", "/presentations/2/anchor", "/presentations/2/id",
                "/presentations/3/id",
                "/presentations/4/kind", "/presentations/5/detents/0/fraction", "/presentations/5/detents/1",
                "/presentations/5/sizing",
            ])
        #expect(e.allSatisfy { !$0.message.isEmpty })
    }

    @Test(
        "validation: environment violations",
        arguments: [
            (#"{"device":"test-phone","window":{"x":100,"width":390,"height":844}}"#, "/window"),
            (#"{"device":"test-phone","orientation":"landscape","window":{"width":390,"height":844}}"#, "/window"),
            (#"{"device":"test-phone","window":{"width":0,"height":844}}"#, "/window/width"),
            (#"{"device":"test-foldable","display":"middle"}"#, "/display"),
            (#"{"display":"outer","window":{"width":1,"height":1}}"#, "/display"),
            (#"{"presentations":[]}"#, "/window"),
            (#"{"device":"test-phone","fold":{"orientation":"vertical","position":10}}"#, "/fold"),
            (
                #"{"window":{"width":100,"height":100},"fold":{"orientation":"vertical","position":100}}"#,
                "/fold/position"
            ),
            (
                #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","detents":[]}]}"#,
                "/presentations/0/detents"
            ),
            (
                #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","selectedDetent":"medium"}]}"#,
                "/presentations/0/selectedDetent"
            ),
            (
                #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","backgroundInteraction":"sometimes"}]}"#,
                "/presentations/0/backgroundInteraction"
            ),
            (
                #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","presentedFrom":"s"}]}"#,
                "/presentations/0/presentedFrom"
            ),
            (#"{"device":"test-phone","arrangement":{"axes":[]}}"#, "/arrangement/axes"),
            (
                #"{"device":"test-phone","arrangement":{"secondary":{"fixedSize":{"vertical":true}}}}"#,
                "/arrangement/secondary/fixedSize"
            ),
            (#"{"device":"test-phone","arrangement":{"secondary":{"ratio":1.5}}}"#, "/arrangement/secondary/ratio"),
            (#"{"device":"test-phone","constants":{"sheet/x":1}}"#, "/constants/sheet~1x"),
            ("[]", ""),
        ])
    func environmentViolation(_ scene: String, _ path: String) throws {
        let e = try errors(scene)
        #expect(e.map(\.path.description) == [path])
    }

    /// Presentation ids are looked up in a list up to 16 and hashed beyond (`PresentationIDs`): `presentedFrom`
    /// and duplicate ids must behave the same on both sides of the switch.
    @Test("modal-stack: presentedFrom and duplicate ids, below and above 16 presentations", arguments: [3, 16, 17, 40])
    func idsAcrossTheListLimit(_ count: Int) throws {
        var items = (0..<count).map { i in
            i == 0 ? #"{"id":"p0","kind":"sheet"}"# : #"{"id":"p\#(i)","kind":"sheet","presentedFrom":"p\#(i - 1)"}"#
        }
        let valid = try scene(#"{"device":"test-phone","presentations":[\#(items.joined(separator: ","))]}"#)
        #expect(valid.presentations.map(\.presentedFrom) == [nil] + (0..<count - 1).map { Optional($0) })
        // A duplicate of the first id, and a reference to an id that comes later, both at the end.
        items.append(#"{"id":"p0","kind":"sheet"}"#)
        items.append(#"{"id":"late","kind":"sheet","presentedFrom":"later"}"#)
        items.append(#"{"id":"later","kind":"sheet"}"#)
        let e = try errors(#"{"device":"test-phone","presentations":[\#(items.joined(separator: ","))]}"#)
        #expect(
            e.map(\.path.description) == ["/presentations/\(count)/id", "/presentations/\(count + 1)/presentedFrom"])
        #expect(e.first?.message == "duplicate id \"p0\" (already used by /presentations/0)")
    }

    @Test("limits: presentation count and id length")
    func limits() throws {
        let many = (0...SceneLimits.maxPresentations).map { #"{"id":"p\#($0)","kind":"adaptivePanel"}"# }.joined(
            separator: ",")
        #expect(
            try errors(#"{"device":"test-phone","presentations":[\#(many)]}"#).map(\.path.description) == [
                "/presentations"
            ])
        let longID = String(repeating: "x", count: 129)
        #expect(
            try errors(#"{"device":"test-phone","presentations":[{"id":"\#(longID)","kind":"sheet"}]}"#).map(
                \.path.description)
                == ["/presentations/0/id"])
        let maxID = String(repeating: "x", count: 128)
        #expect(try errors(#"{"device":"test-phone","presentations":[{"id":"\#(maxID)","kind":"sheet"}]}"#).isEmpty)
    }

    @Test(
        "unknown-fields: a request with a thousand unknown members reports its unknown fields, suggestions and errors as a small one does",
        arguments: [0, 1_100])
    func unknownFieldsOfALargeRequest(_ padding: Int) throws {
        // 1,100 extra members: more than `JSONUnknownFields.limit` are listed, the rest counted.
        let extra = (0..<padding).map { #","p\#($0)":0"# }.joined()
        let valid = Scene.decode(
            try parse(#"{"device":"test-phone","orientaton":"landscape"\#(extra)}"#), catalog: Fixtures.catalog)
        let fields = try #require(valid.scene).unknownFields
        #expect(fields.listed.first?.path == JSONPointer(["orientaton"]))
        #expect(fields.listed.first?.suggestion == "orientation")
        #expect(fields.listed.count + fields.omitted == 1 + padding)
        let invalid = Scene.decode(
            try parse(#"{"device":"nope","orientaton":"landscape"\#(extra)}"#), catalog: Fixtures.catalog)
        #expect(invalid.errors.map(\.description).first?.hasPrefix(#"/device: unknown device "nope""#) == true)
    }

    @Test("unknown-fields: warnings with their path (unknown-field)")
    func unknownFields() throws {
        let r = try resolve(
            #"{"device":"test-phone","colour":1,"presentations":[{"id":"s","kind":"sheet","detent":["large"],"toolbar":[{"title":"x","placement":"cancellationAction","icon":"y"}]},{"id":"p","kind":"adaptivePanel","detents":["large"]}],"arrangement":{"primary":{"ratios":1}}}"#
        )
        let unknown = r.diagnostics.filter { $0.code == .unknownField }
        #expect(
            unknown.map(\.path) == [
                "/presentations/0/toolbar/0/icon", "/presentations/0/detent", "/presentations/1/detents",
                "/arrangement/primary/ratios", "/colour",
            ])
        #expect(unknown.allSatisfy { $0.severity == .warning && $0.presentation == nil })
        // An invalid request still reports its unknown fields.
        guard
            case .invalid(_, let fields) = Scene.decode(
                try parse(#"{"device":"nope","x":1}"#), catalog: Fixtures.catalog)
        else {
            Issue.record("expected invalid")
            return
        }
        #expect(fields.map(\.description) == ["/x"])
    }

    @Test("constants: defaults and GET /v1/constants")
    func constantsJSON() throws {
        let json = Constants.json
        #expect(json["constants"]?["sheet.topGap"]?["default"] == .number(10))
        #expect(json["constants"]?["arrangement.minLength"]?["default"] == .number(44))
        #expect(json["constants"]?.objectValue?.count == 16)
        #expect(Constants.definitions.allSatisfy { !$0.meaning.isEmpty })
        let s = try scene(#"{"device":"test-phone","constants":{"panel.width":300,"popover.margin":0}}"#)
        #expect(s.constants.panelWidth == 300 && s.constants.popoverMargin == 0 && s.constants.sheetTopGap == 10)
    }

    @Test("Overrides for the matrix endpoint and the CLI re-validate")
    func overrides() throws {
        let value = try parse(
            #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","placement":"trailing"}]}"#)
        let folded = try #require(
            Scene.decode(
                value, catalog: Fixtures.catalog,
                overrides: SceneOverrides(device: "test-foldable", posture: .halfOpened)
            ).scene)
        let r = LayoutEngine.resolve(folded)
        #expect(r.placement("s")?.style == .regionSheet)
        #expect(close(r.placement("s")?.frame, (390, 57, 390, 787)))
        // Scene.with on a decoded scene gives the same resolution.
        let base = try #require(Scene.decode(value, catalog: Fixtures.catalog).scene)
        let patched = try #require(
            base.with(SceneOverrides(device: "test-foldable", posture: .halfOpened), catalog: Fixtures.catalog).scene)
        #expect(LayoutEngine.resolve(patched) == r)
        // A window that no longer fits is reported at /window.
        let windowed = try parse(#"{"device":"test-tablet","window":{"width":1000,"height":1000}}"#)
        let bad = Scene.decode(windowed, catalog: Fixtures.catalog, overrides: SceneOverrides(device: "test-phone"))
        #expect(bad.errors.map(\.path.description) == ["/window"])
        let badWith = try #require(Scene.decode(windowed, catalog: Fixtures.catalog).scene).with(
            SceneOverrides(device: "test-phone"), catalog: Fixtures.catalog)
        #expect(badWith.errors.map(\.path.description) == ["/window"])
        #expect(
            try #require(Scene.decode(value, catalog: Fixtures.catalog).scene).with(
                SceneOverrides(device: "nope"), catalog: Fixtures.catalog
            )
            .errors.map(\.path.description) == ["/device"])
    }
}
