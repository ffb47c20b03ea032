import JSON
import Testing

@testable import LayoutEngine

@Suite struct ConstantSetReferenceTests {
    @Test("constant-sets: a reference is a name, or name@version with one spelling of the version")
    func parsing() {
        let valid: [(String, String, Int?)] = [
            ("acme", "acme", nil), ("acme@3", "acme", 3), ("a.b-c_D@123456789", "a.b-c_D", 123_456_789),
            ("default", "default", nil), ("...a", "...a", nil),
        ]
        for (text, name, version) in valid {
            let r = ConstantSetReference(text)
            #expect(r?.name == name && r?.version == version && r?.description == text, "\(text)")
        }
        for text in [
            "", "@1", "acme@", "acme@0", "acme@01", "acme@1234567890", "acme@-1", "acme@1a", "a b", "..", "..@1",
            "default@1", "acme@@1", String(repeating: "a", count: 129), "é",
        ] {
            #expect(ConstantSetReference(text) == nil, "\(text)")
        }
        #expect(
            ConstantSetReference("default")?.isDefault == true && ConstantSetReference("defaults")?.isDefault == false)
        #expect(ConstantSetReference(name: "acme", version: 2) == ConstantSetReference("acme@2"))
    }

    @Test("constant-sets: the request's constants stay over a set's values")
    func overrides() throws {
        let decoded = Scene.decode(
            try JSONParser.parse(Array(#"{"window":{"width":400,"height":800},"constants":{"sheet.margin":3}}"#.utf8)),
            catalog: StaticDeviceCatalog([]))
        guard case .scene(var scene) = decoded else {
            Issue.record("not decoded")
            return
        }
        var base = Constants()
        base.sheetMargin = 30
        base.sheetTopGap = 40
        scene.useConstants(base)
        #expect(scene.constants.sheetMargin == 3 && scene.constants.sheetTopGap == 40)
    }
}
