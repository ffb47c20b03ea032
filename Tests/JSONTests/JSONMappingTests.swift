import Testing

@testable import JSON

enum PanelStyle: String, CaseIterable, JSONStringEnumeration {
    case bottomSheet, card, sidePanel
    static let jsonNames = JSONNames(PanelStyle.self)
}

struct Size: Equatable {
    var width: Double
    var height: Double
}

/// A small model mapped the way the engine maps scenes: every problem collected, nothing read is unknown.
struct Panel: Equatable {
    var id: String
    var style: PanelStyle
    var size: Size?
    var heights: [Double]
    var modal: Bool

    static func map(_ value: JSONValue, _ mapper: JSONMapper) -> Panel? {
        guard var reader = mapper.object(value, at: .root) else { return nil }
        defer { reader.finish() }
        let id = reader.string("id", required: true, length: 1...8)
        let style: PanelStyle? = reader.enumeration("style", required: true)
        var size: Size?
        if var sizeReader = reader.object("size") {
            let width = sizeReader.number("width", required: true, positive: true)
            let height = sizeReader.number("height", required: true, range: 0...1000)
            sizeReader.finish()
            if let width, let height { size = Size(width: width, height: height) }
        }
        var heights: [Double] = []
        for (element, path) in reader.array("heights", maxCount: 3) ?? [] {
            if let h = JSONMapper.number(element, at: path, mapper: mapper, positive: true) { heights.append(h) }
        }
        let modal = reader.bool("modal") ?? true
        guard let id, let style else { return nil }
        return Panel(id: id, style: style, size: size, heights: heights, modal: modal)
    }
}

@Suite struct JSONMappingTests {
    @Test func mapsAValidDocument() throws {
        let json = try JSONParser.parse(
            #"{"id": "p1", "style": "card", "size": {"width": 320, "height": 480.5}, "heights": [100, 200]}"#)
        let mapper = JSONMapper()
        let panel = Panel.map(json, mapper)
        #expect(
            panel
                == Panel(
                    id: "p1", style: .card, size: Size(width: 320, height: 480.5), heights: [100, 200], modal: true))
        #expect(mapper.errors.isEmpty)
        #expect(mapper.unknownFields.isEmpty)
    }

    /// A document with seven violations and two unknown members.
    static let violations = #"""
        {"style": "sheet", "size": {"width": -1, "height": 1001, "depth": 3},
         "heights": [10, "tall", 0], "modal": "yes", "colour": "red"}
        """#

    @Test func collectsEveryViolationWithItsPath() throws {
        let json = try JSONParser.parse(Self.violations)
        let mapper = JSONMapper()
        #expect(Panel.map(json, mapper) == nil)
        #expect(
            mapper.errors.map(\.description) == [
                "/id: is required",
                #"/style: "sheet" is not one of "bottomSheet", "card", "sidePanel""#,
                "/size/width: must be greater than 0, is -1",
                "/size/height: must be between 0 and 1000, is 1001",
                "/heights/1: expected a number, found a string",
                "/heights/2: must be greater than 0, is 0",
                "/modal: expected a boolean, found a string",
            ])
        #expect(mapper.unknownFields.map(\.description) == ["/size/depth", "/colour"])
    }

    @Test func aMapperListsTheFirstHundredErrorsAndCountsTheRest() {
        let mapper = JSONMapper()
        var built = 0
        func message(_ i: Int) -> String {
            built += 1
            return "bad \(i)"
        }
        for i in 0..<250 { mapper.error(JSONPointer(["k\(i)"]), message(i)) }
        #expect(mapper.errorCount == 250)
        #expect(built == JSONIssue.listLimit)  // messages past the limit are never built
        let errors = mapper.errors
        #expect(errors.count == JSONIssue.listLimit + 1)
        #expect(errors.last == .omitted(150))
        #expect(JSONIssue.total(errors) == 250)
        #expect(JSONIssue.capped(errors) == errors)
        let plain = (0..<120).map { JSONIssue(path: JSONPointer(["a"]), message: "\($0)") }
        let capped = JSONIssue.capped(plain)
        #expect(capped.count == 101 && capped.last?.omittedCount == 20 && JSONIssue.total(capped) == 120)
        #expect(JSONIssue.capped(Array(plain.prefix(100))).count == 100)
    }

    @Test func aQuietMapperCountsWhatARecordingOneRecords() throws {
        // The document of collectsEveryViolationWithItsPath: the same counts, nothing kept.
        let json = try JSONParser.parse(Self.violations)
        let recording = JSONMapper()
        let quiet = JSONMapper(recording: false)
        #expect(Panel.map(json, recording) == nil)
        #expect(Panel.map(json, quiet) == nil)
        #expect(recording.errorCount == 7 && recording.unknownCount == 2 && recording.problemCount == 9)
        #expect(quiet.errorCount == 7 && quiet.unknownCount == 2 && quiet.problemCount == 9)
        #expect(quiet.errors.isEmpty)
        #expect(quiet.unknownFields.isEmpty)
        // It hands out no locations: every one is the root, and a pointer asked for is the root's.
        let location = quiet.location(.documentRoot, "size", index: 3)
        #expect(quiet.pointer(location) == .root)
        #expect(quiet.pointer(quiet.location(JSONPointer(["a", "b"]))) == .root)
        #expect(recording.pointer(recording.location(.documentRoot, "size", index: 3)) == JSONPointer(["size", "3"]))
    }

    @Test func aQuietMapperMapsAValidDocumentAsARecordingOneDoes() throws {
        let json = try JSONParser.parse(
            #"{"id": "p1", "style": "card", "size": {"width": 320, "height": 480.5}, "heights": [100, 200]}"#)
        let quiet = JSONMapper(recording: false)
        #expect(Panel.map(json, quiet) == Panel.map(json, JSONMapper()))
        #expect(quiet.problemCount == 0)
    }

    @Test func enumerationErrorListsAllowedValues() {
        let mapper = JSONMapper()
        let style: PanelStyle? = JSONMapper.enumeration("Card", at: JSONPointer(["style"]), mapper: mapper)
        #expect(style == nil)
        #expect(
            mapper.errors == [
                JSONIssue(
                    path: JSONPointer(["style"]),
                    message: #""Card" is not one of "bottomSheet", "card", "sidePanel": did you mean "card"?"#)
            ])
        let wrongType: PanelStyle? = JSONMapper.enumeration(3, at: .root, mapper: mapper)
        #expect(wrongType == nil)
        #expect(mapper.errors.last?.description == "/: expected a string, found a number")
    }

    @Test func typeMismatchesNameBothTypes() throws {
        let json = try JSONParser.parse(#"{"id": 7, "style": [], "size": "big", "heights": {}}"#)
        let mapper = JSONMapper()
        _ = Panel.map(json, mapper)
        #expect(
            mapper.errors.map(\.description) == [
                "/id: expected a string, found a number",
                "/style: expected a string, found an array",
                "/size: expected an object, found a string",
                "/heights: expected an array, found an object",
            ])
    }

    @Test func nullCountsAsAbsent() throws {
        let json = try JSONParser.parse(#"{"id": "p", "style": "card", "size": null, "modal": null}"#)
        let mapper = JSONMapper()
        #expect(Panel.map(json, mapper) == Panel(id: "p", style: .card, size: nil, heights: [], modal: true))
        #expect(mapper.errors.isEmpty)
        #expect(mapper.unknownFields.isEmpty)
    }

    @Test func lengthAndCountLimits() throws {
        let json = try JSONParser.parse(#"{"id": "much-too-long", "style": "card", "heights": [1, 2, 3, 4]}"#)
        let mapper = JSONMapper()
        _ = Panel.map(json, mapper)
        #expect(
            mapper.errors.map(\.description) == [
                "/id: must be 1 to 8 characters long, is 13",
                "/heights: has 4 elements, at most 3 are allowed",
            ])
    }

    @Test func membersReadAgainAndKeysAskedAfterEveryMemberWasRead() throws {
        // Both members are read first: a member read again is still found, the other keys are absent, and a
        // required one reports.
        let json = try JSONParser.parse(#"{"id": "p", "style": "card"}"#)
        let mapper = JSONMapper()
        var reader = try #require(mapper.object(json, at: .root))
        #expect(reader.string("id") == "p")
        let style: PanelStyle? = reader.enumeration("style")
        #expect(style == .card)
        #expect(reader.string("id") == "p")  // a member read twice is still found
        #expect(reader.number("size") == nil)
        #expect(reader.bool("modal", required: true) == nil)
        reader.finish()
        #expect(mapper.errors.map(\.description) == ["/modal: is required"])
        #expect(mapper.unknownFields.isEmpty)
    }

    @Test(arguments: [63, 64, 65, 130])
    func objectsOfManyMembersFindEachMember(_ count: Int) throws {
        let members = (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let mapper = JSONMapper()
        var reader = try #require(mapper.object(try JSONParser.parse("{\(members)}"), at: .root))
        // Members on both sides of the 64th, last to first (those past the object's end are absent), then a key
        // no object has.
        let keys: [StaticString] = [
            "k129", "k128", "k127", "k100", "k65", "k64", "k63", "k62", "k1", "k0",
        ]
        var found: [Double] = []
        for key in keys { if let n = reader.number(key) { found.append(n) } }
        #expect(found == [129, 128, 127, 100, 65, 64, 63, 62, 1, 0].filter { $0 < Double(count) })
        #expect(reader.number("absent") == nil)
        reader.finish()
        #expect(mapper.errors.isEmpty)
        // The members not read are unknown fields: all of them but the ones found.
        #expect(mapper.unknownFields.listed.count + mapper.unknownFields.omitted == count - found.count)
        #expect(mapper.unknownCount == count - found.count)
        // A quiet mapper counts as many, on both sides of the 64th member.
        let quiet = JSONMapper(recording: false)
        var quietReader = try #require(quiet.object(try JSONParser.parse("{\(members)}"), at: .root))
        for key in keys { _ = quietReader.number(key) }
        quietReader.finish()
        #expect(quiet.unknownCount == count - found.count && quiet.unknownFields.isEmpty)
    }

    @Test func rootMustBeAnObject() throws {
        let mapper = JSONMapper()
        #expect(Panel.map([1, 2], mapper) == nil)
        #expect(mapper.errors.map(\.description) == ["/: expected an object, found an array"])
    }

    @Test(arguments: [
        ([String](), ""),
        (["a"], "/a"),
        (["a/b", "m~n", ""], "/a~1b/m~0n/"),
        (["presentations", "2", "detents", "0"], "/presentations/2/detents/0"),
    ])
    func pointersEscapeRFC6901(_ tokens: [String], _ expected: String) {
        #expect(JSONPointer(tokens).description == expected)
    }

    @Test func pointerAppending() {
        #expect(JSONPointer.root.appending("presentations").appending(2).description == "/presentations/2")
    }
}
