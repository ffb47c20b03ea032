import Testing

@testable import JSON

/// The flat document the mapping layer reads (`JSONDocument`): keys found by their bytes, escapes decoded,
/// containers skipped in one step, and the same values as the tree.
@Suite struct JSONDocumentTests {
    private func reader(_ text: String, _ mapper: JSONMapper = JSONMapper()) throws -> ObjectReader {
        let document = try JSONParser.document(Array(text.utf8))
        return try #require(mapper.object(document.root, at: .root))
    }

    @Test func byteComparisonFindsADifferenceAtEveryPositionOfEveryLength() {
        // The comparison loads words of 8, 4, 2 or 1 bytes by length, the last ones overlapping: every length up
        // to 40, equal, and differing at each position in turn (by one bit, high and low).
        for count in 0...40 {
            let a = (0..<count).map { UInt8(0x61 + $0 % 26) }
            #expect(a.withUnsafeBufferPointer { x in a.withUnsafeBufferPointer { y in JSONDocument.equal(x, y) } })
            for position in 0..<count {
                for bit in [UInt8(0x01), 0x80] {
                    var b = a
                    b[position] ^= bit
                    let same = a.withUnsafeBufferPointer { x in
                        b.withUnsafeBufferPointer { y in
                            JSONDocument.sameBytes(x.baseAddress!, y.baseAddress!, count: count)
                        }
                    }
                    #expect(!same, "length \(count), position \(position)")
                }
            }
        }
    }

    @Test func keysWrittenWithEscapesAreFoundByTheirText() throws {
        var r = try reader(#"{"\u0069d": "x", "sel\u0065ctedDetent": "large", "t\"q": 1}"#)
        #expect(r.string("id") == "x")
        #expect(r.string("selectedDetent") == "large")
        #expect(r.number("t\"q") == 1)
    }

    /// Lookups compare the length and the first 8 bytes first: keys that share them must still be told apart.
    @Test func keysSharingTheirFirstEightBytesAreDistinct() throws {
        let mapper = JSONMapper()
        var r = try reader(
            #"{"presentations": 1, "presentedFrom": 2, "abcdefghi": 3, "abcdefghj": 4, "abcdefgh": 5}"#, mapper)
        #expect(r.number("presentedFrom") == 2)
        #expect(r.number("presentations") == 1)
        #expect(r.number("abcdefghj") == 4)
        #expect(r.number("abcdefgh") == 5)
        #expect(r.number("abcdefghk") == nil)
        r.finish()
        #expect(mapper.unknownFields.map(\.description) == ["/abcdefghi"])
    }

    @Test(arguments: [
        (#"{"ab": 1, "a\u0062": 2}"#, "ab"),
        (#"{"abcdefghij": 1, "x": 0, "abcdefghij": 2}"#, "abcdefghij"),
        (#"{"\u00e9": 1, "é": 2}"#, "é"),
    ])
    func duplicatesAreFoundWhateverTheSpelling(_ text: String, _ key: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.document(Array(text.utf8)) }
        do {
            _ = try JSONParser.document(Array(text.utf8))
        } catch {
            #expect(error.reason == .duplicateKey(key))
        }
    }

    @Test func keysThatDifferOnlyAfterEightBytesAreNotDuplicates() throws {
        let value = try JSONParser.parse(#"{"abcdefghij": 1, "abcdefghik": 2}"#)
        #expect(value == ["abcdefghij": 1, "abcdefghik": 2])
    }

    @Test func elementsStepOverNestedContainers() throws {
        let document = try JSONParser.document(Array(#"[[1, [2, 3]], {"a": [4, {"b": 5}]}, "six", null, 7]"#.utf8))
        let elements = Array(document.root.elements)
        #expect(elements.count == 5)
        #expect(document.root.elements.count == 5)
        #expect(elements.map(\.value) == [[1, [2, 3]], ["a": [4, ["b": 5]]], "six", nil, 7])
        #expect(elements[1].member("a")?.elements.count == 2)
        #expect(elements[2].isString("six"))
        #expect(!elements[2].isString("si"))
        #expect(elements[3].isNull)
        #expect(elements[4].numberValue == 7)
    }

    /// A document made from a tree reads like the parse of that tree's text, and gives the tree back.
    @Test(arguments: 0..<8)
    func treeAndTextGiveTheSameDocument(seed: UInt64) throws {
        var random = RandomJSON(seed: 7_000 + seed)
        for _ in 0..<50 {
            let value = random.value()
            let fromTree = JSONDocument(value)
            let fromText = try JSONParser.document(JSONWriter.encode(value))
            #expect(fromTree.root.value == value)
            #expect(fromText.root.value == value)
            // The writer sorts keys: the same keys, in another order.
            let byBytes: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect(
                fromTree.root.members.map(\.key).sorted(by: byBytes)
                    == fromText.root.members.map(\.key).sorted(by: byBytes))
        }
    }
}
