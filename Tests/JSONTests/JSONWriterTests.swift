import TestSupport
import Testing

@testable import JSON

@Suite struct JSONWriterTests {
    static let numbers: [(Double, String)] = [
        (0, "0"),
        (-0.0, "0"),
        (390, "390"),
        (-42, "-42"),
        (390.5, "390.5"),
        (-1.5, "-1.5"),
        (0.1, "0.1"),
        (0.30000000000000004, "0.30000000000000004"),
        (1e15, "1000000000000000"),
        (9_007_199_254_740_992, "9007199254740992"),
        (1e16, "1e+16"),
        (1e21, "1e+21"),
        (1e-5, "1e-5"),
        (1e-7, "1e-7"),
        (0.0001, "0.0001"),
        (.leastNonzeroMagnitude, "5e-324"),
        (2.2250738585072014e-308, "2.2250738585072014e-308"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1.25e-300, "-1.25e-300"),
        (.nan, "null"),
        (.infinity, "null"),
        (-.infinity, "null"),
    ]

    @Test(arguments: numbers)
    func formatsNumbers(_ value: Double, _ expected: String) throws {
        #expect(JSONWriter.formatNumber(value) == expected)
        #expect(JSONWriter.string(.number(value)) == expected)
        if value.isFinite {
            let back = try #require(try JSONParser.parse(expected).doubleValue)
            #expect(back == value)
        }
    }

    @Test func numbersRoundTripBitForBit() throws {
        var rng = SplitMix64(seed: 0x0DDB_A11)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = JSONWriter.formatNumber(d)
            let back = try #require(try JSONParser.parse(text).doubleValue)
            #expect(back.bitPattern == (d == 0 ? 0.0 : d).bitPattern, "\(text)")
            #expect(text.count <= d.description.count, "\(text) is longer than \(d.description)")
        }
    }

    /// Short decimals take a fast path that must print exactly what `description` prints.
    @Test func shortDecimalsMatchDescription() throws {
        var rng = SplitMix64(seed: 0xDEC1)
        let scales: [Double] = [2, 4, 8, 10, 100, 1000, 10000, 3]
        for _ in 0..<20_000 {
            let scale = scales[Int.random(in: 0..<scales.count, using: &rng)]
            let d = Double(Int64.random(in: -100_000_000...100_000_000, using: &rng)) / scale
            guard d != d.rounded(.towardZero) else { continue }
            let text = JSONWriter.formatNumber(d)
            if abs(d) >= 1e-4 && abs(d) < 1e16 {
                #expect(text == d.description, "\(d)")
            }
            #expect(try JSONParser.parse(text).doubleValue == d)
        }
    }

    static let strings: [(String, String)] = [
        ("", #""""#),
        ("plain", #""plain""#),
        ("\"\\/", #""\"\\/""#),
        ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F}é😀", "\"\u{7F}é😀\""),
        ("a\u{2028}b\u{2029}", "\"a\u{2028}b\u{2029}\""),
    ]

    @Test(arguments: strings)
    func escapesStrings(_ value: String, _ expected: String) throws {
        #expect(JSONWriter.string(.string(value)) == expected)
        #expect(try JSONParser.parse(expected) == .string(value))
    }

    @Test func escapesLineTerminatorsOnRequest() throws {
        let options = JSONWriter.Options(escapeLineTerminators: true)
        let text = JSONWriter.string(["k\u{2028}": "a\u{2028}b\u{2029}c€"], options: options)
        #expect(text == #"{"k\u2028":"a\u2028b\u2029c€"}"#)
        #expect(try JSONParser.parse(text) == ["k\u{2028}": "a\u{2028}b\u{2029}c€"])
    }

    @Test func compactOutputHasNoWhitespace() {
        let value: JSONValue = ["b": [1, true, nil, "x"], "a": [:], "c": []]
        #expect(JSONWriter.string(value) == #"{"a":{},"b":[1,true,null,"x"],"c":[]}"#)
    }

    /// Keys sort by UTF-8 bytes = Unicode scalar order: U+FF61 before U+1F600 (UTF-16 order would differ),
    /// uppercase before lowercase, a prefix before its extensions, and no normalisation.
    @Test func sortsKeysByUnicodeScalars() {
        let value: JSONValue = [
            "b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "": 6, "😀": 7, "\u{FF61}": 8, "e\u{301}": 9,
        ]
        // Compared as bytes: String == would treat "é" and "e\u{301}" as equal.
        let expected = "{\"\":6,\"B\":3,\"a\":2,\"aa\":5,\"b\":1,\"e\u{301}\":9,\"é\":4,\"\u{FF61}\":8,\"😀\":7}"
        #expect(JSONWriter.encode(value) == Array(expected.utf8))
    }

    @Test func prettyOutputIsIndentedAndSorted() {
        let value: JSONValue = ["z": [1, ["y": nil, "x": "s"]], "a": [:], "m": []]
        let expected = """
            {
              "a": {},
              "m": [],
              "z": [
                1,
                {
                  "x": "s",
                  "y": null
                }
              ]
            }
            """
        #expect(JSONWriter.string(value, options: .pretty) == expected)
        #expect(JSONWriter.string(42, options: .pretty) == "42")
    }

    @Test func appendsIntoAReusableBuffer() {
        var buffer = Array("prefix:".utf8)
        JSONWriter.write(["a": 1], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix:{"a":1}"#)
        buffer.removeAll(keepingCapacity: true)
        JSONWriter.write([1, 2], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "[1,2]")
        #expect(JSONWriter.encode([1, 2]) == Array("[1,2]".utf8))
    }

    @Test func equalKeysKeepTheirOrder() {
        // The parser never produces these; JSONObject allows them, and the output must still be deterministic.
        let object = JSONObject([JSONMember("b", 1), JSONMember("a", 2), JSONMember("b", 3)])
        #expect(JSONWriter.string(.object(object)) == #"{"a":2,"b":1,"b":3}"#)
    }

    @Test func sortsLargeObjects() throws {
        // Reverse order with a duplicate: the large-object path must sort and keep equal keys by position.
        var members = (0..<5000).reversed().map { JSONMember("k\(1_000_000 + $0)", .number(Double($0))) }
        members.append(JSONMember("k1000002", "dup"))
        let text = JSONWriter.string(.object(JSONObject(members)))
        #expect(text.hasPrefix(#"{"k1000000":0,"k1000001":1,"k1000002":2,"k1000002":"dup","k1000003":3,"#))
        #expect(text.hasSuffix(#""k1004999":4999}"#))
    }

    @Test(arguments: 0..<8)
    func roundTripsRandomTrees(seed: UInt64) throws {
        var random = RandomJSON(seed: seed)
        for _ in 0..<200 {
            let value = random.value()
            let bytes = JSONWriter.encode(value)
            let back = try JSONParser.parse(bytes)
            #expect(back == value)
            // Writing what was read back gives the same bytes.
            #expect(JSONWriter.encode(back) == bytes)
            let pretty = JSONWriter.encode(value, options: .pretty)
            #expect(try JSONParser.parse(pretty) == value)
        }
    }

    @Test(arguments: 0..<8)
    func sameBytesWhateverTheInsertionOrder(seed: UInt64) {
        var random = RandomJSON(seed: 1000 + seed)
        for _ in 0..<200 {
            let value = random.value()
            let shuffled = random.shuffled(value)
            #expect(shuffled == value)
            #expect(JSONWriter.encode(shuffled) == JSONWriter.encode(value))
            #expect(JSONWriter.encode(shuffled, options: .pretty) == JSONWriter.encode(value, options: .pretty))
        }
    }

    @Test func objectEqualityIgnoresMemberOrder() {
        let a: JSONValue = ["x": 1, "y": [true]]
        let b: JSONValue = ["y": [true], "x": 1]
        #expect(a == b)
        #expect(a != ["x": 1, "y": [false]])
        #expect(a != ["x": 1])
        #expect(a != ["x": 1, "z": [true]])
    }
}
