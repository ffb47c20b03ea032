import Testing

@testable import JSON

@Suite struct NameSuggestionTests {
    @Test(arguments: [
        ("devices", "device"),  // insertion
        ("devce", "device"),  // deletion
        ("devixe", "device"),  // substitution
        ("devcie", "device"),  // adjacent swap
        ("Device", "device"),  // case only
        ("DEVCIE", "device"),  // swap, compared without case
        ("fromat", "format"),
    ])
    func oneEditAwayIsSuggested(_ name: String, _ expected: String) {
        #expect(NameSuggestion.suggestion(for: name, among: ["window", "device", "format", "display"]) == expected)
    }

    @Test(arguments: ["dvcie", "colour", "eviced", "", "deviceXY"])
    func fartherIsNot(_ name: String) {
        #expect(NameSuggestion.suggestion(for: name, among: ["device", "window"]) == nil)
    }

    @Test func aCaseOnlyMatchWinsOverAnEarlierOneEditMatch() {
        #expect(NameSuggestion.suggestion(for: "Posture", among: ["postures", "posture"]) == "posture")
        #expect(NameSuggestion.suggestion(for: "x", among: ["y", "x"]) == nil)  // itself is not a suggestion
    }

    @Test func theMapperSuggestsAKnownMemberOfTheSameObject() throws {
        let value = try JSONParser.parse(Array(#"{"nmae":"a","size":{"widht":1,"nmae":2}}"#.utf8))
        let mapper = JSONMapper()
        var r = try #require(mapper.object(value, at: .root))
        _ = r.string("name")
        if var size = r.object("size") {
            _ = size.number("width")
            size.finish()
        }
        r.finish()
        #expect(mapper.unknownFields.map(\.description) == ["/size/widht", "/size/nmae", "/nmae"])
        // "nmae" inside size is not a typo of the root's "name": suggestions come from the same object only.
        #expect(mapper.unknownFields.map(\.suggestion) == ["width", nil, "name"])
    }
}

@Suite struct UnknownFieldsCapTests {
    @Test func theFirstHundredAreListedAndTheRestCounted() {
        var fields = JSONUnknownFields()
        for i in 0..<130 { fields.append(JSONUnknownField(path: JSONPointer(["k\(i)"]))) }
        #expect(fields.count == 100)
        #expect(fields.omitted == 30)
        #expect(fields.total == 130)
        let json = fields.json.arrayValue ?? []
        #expect(json.count == 101)
        #expect(json[100]["path"] == "")
        #expect(json[100]["message"] == "30 more unknown fields are ignored and not listed (only the first 100 are)")
        var combined = JSONUnknownFields([JSONUnknownField(path: JSONPointer(["a"]))])
        combined.append(contentsOf: fields.nested(under: JSONPointer(["scene"])))
        #expect(combined.count == 100)
        #expect(combined.omitted == 31)
        #expect(combined[1].path.description == "/scene/k0")
    }

    @Test func theMapperCountsBeyondTheLimit() throws {
        let members = (0..<150).map { "\"k\($0)\":0" }.joined(separator: ",")
        let value = try JSONParser.parse(Array("{\(members)}".utf8))
        let mapper = JSONMapper()
        let r = try #require(mapper.object(value, at: .root))
        r.finish()
        #expect(mapper.unknownFields.count == 100)
        #expect(mapper.unknownFields.omitted == 50)
        #expect(mapper.unknownFields.last?.description == "/k99")
    }
}
