import Testing

@testable import JSON

/// Raw values of equal lengths (chained), an empty one, and one past the length table.
enum Shade: String, CaseIterable {
    case red, tan, teal
    case none = ""
    case long = "a-raw-value-that-is-longer-than-sixty-four-bytes-so-it-is-not-chained-x"
    case blue
    case longToo = "a-raw-value-that-is-longer-than-sixty-four-bytes-so-it-is-not-chained-y"
}

@Suite struct JSONNamesTests {
    private let names = JSONNames(Shade.self)

    private func ordinal(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { names.ordinal(of: $0) }
    }

    @Test func everyRawValueFindsItsCase() {
        for (i, shade) in Shade.allCases.enumerated() {
            #expect(ordinal(shade.rawValue) == i, "\(shade)")
        }
    }

    @Test func otherStringsFindNothing() {
        for s in ["rad", "re", "redd", "Red", "tea", "teal ", "blu", "a", String(repeating: "a", count: 80)] {
            #expect(ordinal(s) == nil, "\(s)")
        }
        #expect(ordinal(String(Shade.long.rawValue.dropLast()) + "z") == nil)
    }

    @Test func aMemberIsMatchedThroughTheTable() throws {
        let document = try JSONParser.document(Array(#"{"shade": "teal", "other": "blue"}"#.utf8))
        let mapper = JSONMapper()
        guard var r = mapper.object(document.root, at: .root) else {
            Issue.record("not an object")
            return
        }
        let shade: PanelStyle? = r.enumeration("shade")
        #expect(shade == nil)
        #expect(mapper.errors.map(\.message) == [#""teal" is not one of "bottomSheet", "card", "sidePanel""#])
        let other: PanelStyle? = r.enumeration("other")
        #expect(other == nil)
        let card: PanelStyle? = try {
            let d = try JSONParser.document(Array(#"{"s": "card"}"#.utf8))
            var reader = try #require(mapper.object(d.root, at: .root))
            return reader.enumeration("s")
        }()
        #expect(card == .card)
    }
}
