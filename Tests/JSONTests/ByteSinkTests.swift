import Testing

@testable import JSON

/// The sink's string escaper takes different paths by length (under 8 bytes, one or two words, longer) and
/// by content; every path must give the escapes a plain byte-by-byte escaper gives.
@Suite struct ByteSinkTests {
    /// The reference: RFC 8259 escapes, one byte at a time.
    static func reference(_ s: String, escapeLineTerminators: Bool) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case "\n": out += Array("\\n".utf8)
            case "\r": out += Array("\\r".utf8)
            case "\t": out += Array("\\t".utf8)
            case "\u{8}": out += Array("\\b".utf8)
            case "\u{c}": out += Array("\\f".utf8)
            case "\u{2028}" where escapeLineTerminators: out += Array("\\u2028".utf8)
            case "\u{2029}" where escapeLineTerminators: out += Array("\\u2029".utf8)
            default:
                if scalar.value < 0x20 {
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array("\\u00".utf8) + [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xF)]]
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    static func written(_ s: String, escapeLineTerminators: Bool) -> [UInt8] {
        var sink = ByteSink(capacity: 1)  // grows on the way
        sink.writeString(s, escapeLineTerminators: escapeLineTerminators)
        return sink.array
    }

    @Test(arguments: ["\"", "\\", "\n", "\u{1}", "\u{1f}", "é", "\u{2028}", "\u{2029}", "\u{2027}"])
    func everyLengthAndPosition(_ special: String) {
        for length in 0...40 {
            for position in 0...length {
                let s =
                    String(repeating: "a", count: position) + special
                    + String(repeating: "b", count: length - position)
                for escape in [false, true] {
                    #expect(
                        Self.written(s, escapeLineTerminators: escape)
                            == Self.reference(s, escapeLineTerminators: escape),
                        "\(s.debugDescription) escapeLineTerminators \(escape)")
                }
            }
        }
    }

    @Test func integersAreWrittenAsSwiftPrintsThem() {
        // Every value up to 100,000 (each digit count and the pair table's every entry), both signs, and the ends.
        let values: [Int64] = Array(0...100_000) + [-1, -9, -10, -99, -100, -999, -1000, -9999, -10_000, .max, .min]
        for v in values {
            var sink = ByteSink(capacity: 1)
            sink.writeInteger(v)
            #expect(sink.array == Array(String(v).utf8), "\(v)")
        }
        #expect(ByteSink.digitPairs.utf8CodeUnitCount == 200)
    }

    @Test func cleanTextOfEveryLengthIsCopied() {
        for length in 0...80 {
            let s = String((0..<length).map { Character(UnicodeScalar(UInt8(0x20 + $0 % 90))) }).replacingQuotes()
            #expect(Self.written(s, escapeLineTerminators: false) == Self.reference(s, escapeLineTerminators: false))
        }
    }

    @Test(arguments: [
        (0.0, "0"), (7, "7"), (42, "42"), (-999, "-999"), (9999, "9999"), (10_000, "10000"),
        (-123_456_789, "-123456789"),
        (9_999_999_999_999_998, "9999999999999998"), (0.5, "0.5"), (-0.0, "0"), (Double.nan, "null"),
    ])
    func numbers(_ value: Double, _ text: String) {
        var sink = ByteSink(capacity: 16)
        sink.writeNumber(value)
        #expect(sink.array == Array(text.utf8))
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        String(map { $0 == "\"" || $0 == "\\" ? "_" : $0 })
    }
}
