import TestSupport
import Testing

@testable import JSON

/// A rejected input and exactly where and why it is rejected.
struct RejectedCase: CustomTestStringConvertible, Sendable {
    var input: [UInt8]
    var offset: Int
    var line: Int
    var column: Int
    var message: String

    init(_ input: String, _ offset: Int, _ line: Int, _ column: Int, _ message: String) {
        self.init(bytes: Array(input.utf8), offset, line, column, message)
    }

    init(bytes: [UInt8], _ offset: Int, _ line: Int, _ column: Int, _ message: String) {
        self.input = bytes
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }
}

func parseError(_ bytes: [UInt8], options: JSONParser.Options = .default) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes, options: options)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    // MARK: Accepted

    static let accepted: [(String, JSONValue)] = [
        ("null", nil),
        ("true", true),
        ("false", false),
        ("0", 0),
        ("-12", -12),
        ("3.25", 3.25),
        ("\"\"", ""),
        ("\"héllo 😀\"", "héllo 😀"),
        ("[]", []),
        ("{}", [:]),
        (" \t\r\n [1, \"a\", null, true, {\"k\": []}] \n", [1, "a", nil, true, ["k": []]]),
        ("{\"a\":{\"b\":{\"c\":[[],{}]}}}", ["a": ["b": ["c": [[], [:]]]]]),
        ("{\r\n  \"x\": 1,\r\n  \"y\": -2.5e1\r\n}", ["x": 1, "y": -25]),
        ("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", ["\"\\/\u{8}\u{C}\n\r\t"]),
        ("\"\\u0041\\u00e9\\u20AC\\uD83D\\uDE00\\u0000\"", "Aé€😀\u{0}"),
        ("\"a\\u00E9b\\nc€\"", "aéb\nc€"),
        ("\"\u{7F}\"", "\u{7F}"),
    ]

    @Test(arguments: accepted)
    func acceptsValidDocuments(input: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(input) == expected)
        #expect(try JSONParser.parse(Array(input.utf8)) == expected)
    }

    @Test func everyEntryPointAgrees() throws {
        let text = "{\"a\": [1, 2, {\"b\": \"c\"}]}"
        let bytes = Array(text.utf8)
        let expected = try JSONParser.parse(bytes)
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(bytes[...]) == expected)
        let padded = [UInt8]("xx".utf8) + bytes + [UInt8]("yy".utf8)
        #expect(try JSONParser.parse(padded[2..<(padded.count - 2)]) == expected)
        let viaRaw = bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try JSONParser.parse(raw) } }
        #expect(try viaRaw.get() == expected)
    }

    // MARK: Rejected, with exact positions

    static let rejected: [RejectedCase] = [
        RejectedCase("", 0, 1, 1, "unexpected end of input at line 1, column 1: expected a value"),
        RejectedCase("   ", 3, 1, 4, "unexpected end of input at line 1, column 4: expected a value"),
        RejectedCase(
            "{\n  \"a\": 1,\n  \"b\": }", 19, 3, 8, "unexpected character '}' at line 3, column 8: expected a value"),
        RejectedCase("[1,]", 3, 1, 4, "unexpected character ']' at line 1, column 4: expected a value"),
        RejectedCase("{\"a\":1,}", 7, 1, 8, "unexpected character '}' at line 1, column 8: expected a string key"),
        RejectedCase("[1 2]", 3, 1, 4, "unexpected character '2' at line 1, column 4: expected ',' or ']'"),
        RejectedCase("{\"a\" 1}", 5, 1, 6, "unexpected character '1' at line 1, column 6: expected ':' after the key"),
        RejectedCase(
            "{\"a\":1 \"b\":2}", 7, 1, 8, "unexpected character '\"' at line 1, column 8: expected ',' or '}'"),
        RejectedCase("{1:2}", 1, 1, 2, "unexpected character '1' at line 1, column 2: expected a string key or '}'"),
        RejectedCase("{", 1, 1, 2, "unexpected end of input at line 1, column 2: expected a string key or '}'"),
        RejectedCase("[", 1, 1, 2, "unexpected end of input at line 1, column 2: expected a value or ']'"),
        RejectedCase("[1", 2, 1, 3, "unexpected end of input at line 1, column 3: expected ',' or ']'"),
        RejectedCase("{\"a\"", 4, 1, 5, "unexpected end of input at line 1, column 5: expected ':'"),
        RejectedCase("{\"a\":1", 6, 1, 7, "unexpected end of input at line 1, column 7: expected ',' or '}'"),
        RejectedCase("nul", 3, 1, 4, "unexpected end of input at line 1, column 4: expected 'null'"),
        RejectedCase("nulx", 3, 1, 4, "unexpected character 'x' at line 1, column 4: expected 'null'"),
        RejectedCase("tRue", 1, 1, 2, "unexpected character 'R' at line 1, column 2: expected 'true'"),
        RejectedCase("1 2", 2, 1, 3, "unexpected character '2' at line 1, column 3: expected end of input"),
        RejectedCase("{}}", 2, 1, 3, "unexpected character '}' at line 1, column 3: expected end of input"),
        RejectedCase("'a'", 0, 1, 1, "unexpected character ''' at line 1, column 1: expected a value"),
        RejectedCase("NaN", 0, 1, 1, "unexpected character 'N' at line 1, column 1: expected a value"),
        RejectedCase("Infinity", 0, 1, 1, "unexpected character 'I' at line 1, column 1: expected a value"),
        RejectedCase("-Infinity", 1, 1, 2, "unexpected character 'I' at line 1, column 2: expected a digit"),
        RejectedCase(
            bytes: [0x5B, 0x00, 0x5D], 1, 1, 2, "unexpected character U+0000 at line 1, column 2: expected a value"),
        RejectedCase("é", 0, 1, 1, "unexpected character 'é' (U+00E9) at line 1, column 1: expected a value"),
        RejectedCase(
            "[\"é\",\n \"ü\" x]", 13, 2, 6, "unexpected character 'x' at line 2, column 6: expected ',' or ']'"),
        RejectedCase("[\r\n x]", 4, 2, 2, "unexpected character 'x' at line 2, column 2: expected a value"),
        RejectedCase(
            "\u{FEFF}{}", 0, 1, 1, "byte order mark at line 1, column 1: JSON text must not start with U+FEFF"),
        // Numbers
        RejectedCase("01", 0, 1, 1, "invalid number at line 1, column 1: leading zeros are not allowed"),
        RejectedCase("[-01]", 1, 1, 2, "invalid number at line 1, column 2: leading zeros are not allowed"),
        RejectedCase(
            "1.", 2, 1, 3, "unexpected end of input at line 1, column 3: expected a digit after the decimal point"),
        RejectedCase(
            "1.e5", 2, 1, 3, "unexpected character 'e' at line 1, column 3: expected a digit after the decimal point"),
        RejectedCase(".5", 0, 1, 1, "unexpected character '.' at line 1, column 1: expected a value"),
        RejectedCase("-", 1, 1, 2, "unexpected end of input at line 1, column 2: expected a digit"),
        RejectedCase("-a", 1, 1, 2, "unexpected character 'a' at line 1, column 2: expected a digit"),
        RejectedCase("+1", 0, 1, 1, "unexpected character '+' at line 1, column 1: expected a value"),
        RejectedCase("1e", 2, 1, 3, "unexpected end of input at line 1, column 3: expected a digit in the exponent"),
        RejectedCase("1e+", 3, 1, 4, "unexpected end of input at line 1, column 4: expected a digit in the exponent"),
        RejectedCase("1ex", 2, 1, 3, "unexpected character 'x' at line 1, column 3: expected a digit in the exponent"),
        RejectedCase("0x10", 1, 1, 2, "unexpected character 'x' at line 1, column 2: expected end of input"),
        RejectedCase(
            "1e309", 0, 1, 1,
            "number out of range at line 1, column 1: 1e309 does not fit in a 64-bit floating-point number"),
        RejectedCase(
            "[0, -1e400]", 4, 1, 5,
            "number out of range at line 1, column 5: -1e400 does not fit in a 64-bit floating-point number"),
        RejectedCase(
            "1" + String(repeating: "0", count: 400), 0, 1, 1,
            "number out of range at line 1, column 1: 1" + String(repeating: "0", count: 36)
                + "... does not fit in a 64-bit floating-point number"),
        // Strings
        RejectedCase(
            "\"abc", 4, 1, 5, "unexpected end of input at line 1, column 5: expected '\"' to close the string"),
        RejectedCase(
            "\"a\nb\"", 2, 1, 3,
            "unescaped control character U+000A in a string at line 1, column 3: escape it as \\n"),
        RejectedCase(
            bytes: [0x22, 0x01, 0x22], 1, 1, 2,
            "unescaped control character U+0001 in a string at line 1, column 2: escape it as \\u0001"),
        RejectedCase(
            "\"\\x\"", 1, 1, 2,
            "invalid escape '\\x' at line 1, column 2: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
        RejectedCase(
            "\"\\u12G4\"", 1, 1, 2,
            "invalid escape '\\u12G4' at line 1, column 2: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
        RejectedCase(
            "\"\\u12", 5, 1, 6, "unexpected end of input at line 1, column 6: expected 4 hex digits after \\u"),
        RejectedCase("\"\\", 2, 1, 3, "unexpected end of input at line 1, column 3: expected an escape character"),
        RejectedCase(
            "\"\\uD800\"", 1, 1, 2,
            "unpaired UTF-16 surrogate \\uD800 at line 1, column 2: "
                + "a high surrogate \\uD800-\\uDBFF must be followed by a low surrogate \\uDC00-\\uDFFF"),
        RejectedCase(
            "[\"ab\\uDC00\"]", 4, 1, 5,
            "unpaired UTF-16 surrogate \\uDC00 at line 1, column 5: "
                + "a high surrogate \\uD800-\\uDBFF must be followed by a low surrogate \\uDC00-\\uDFFF"),
        RejectedCase(
            "\"\\uD83D\\u0041\"", 1, 1, 2,
            "unpaired UTF-16 surrogate \\uD83D at line 1, column 2: "
                + "a high surrogate \\uD800-\\uDBFF must be followed by a low surrogate \\uDC00-\\uDFFF"),
        RejectedCase(
            "\"\\uD83Dx\"", 1, 1, 2,
            "unpaired UTF-16 surrogate \\uD83D at line 1, column 2: "
                + "a high surrogate \\uD800-\\uDBFF must be followed by a low surrogate \\uDC00-\\uDFFF"),
        // Duplicate keys
        RejectedCase("{\"a\":1,\"a\":2}", 7, 1, 8, "duplicate key \"a\" at line 1, column 8"),
        RejectedCase("{\"a\":1,\n\"\\u0061\":2}", 8, 2, 1, "duplicate key \"a\" at line 2, column 1"),
    ]

    @Test(arguments: rejected)
    func rejectsWithExactPosition(_ c: RejectedCase) throws {
        let error = try #require(parseError(c.input))
        #expect(error.offset == c.offset)
        #expect(error.line == c.line)
        #expect(error.column == c.column)
        #expect(error.message == c.message)
        #expect(error.description == c.message)
    }

    // MARK: UTF-8

    static let invalidUTF8: [(String, [UInt8])] = [
        ("stray continuation byte", [0x80]),
        ("overlong 2-byte NUL", [0xC0, 0x80]),
        ("overlong 2-byte", [0xC1, 0xBF]),
        ("overlong 3-byte", [0xE0, 0x80, 0x80]),
        ("overlong 3-byte below U+0800", [0xE0, 0x9F, 0xBF]),
        ("encoded high surrogate U+D800", [0xED, 0xA0, 0x80]),
        ("encoded low surrogate U+DFFF", [0xED, 0xBF, 0xBF]),
        ("overlong 4-byte", [0xF0, 0x80, 0x80, 0x80]),
        ("overlong 4-byte below U+10000", [0xF0, 0x8F, 0xBF, 0xBF]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("lead byte F5", [0xF5, 0x80, 0x80, 0x80]),
        ("byte FF", [0xFF]),
        ("byte FE", [0xFE]),
        ("truncated 3-byte before the quote", [0xE2, 0x82]),
        ("truncated 4-byte", [0xF0, 0x9F, 0x98]),
        ("continuation replaced by ASCII", [0xC3, 0x41]),
        ("third byte not a continuation", [0xE2, 0x82, 0x41]),
    ]

    @Test(arguments: invalidUTF8)
    func rejectsMalformedUTF8InStrings(_ name: String, _ sequence: [UInt8]) throws {
        // Inside a string: reported at the lead byte of the sequence, column counted in scalars.
        let input = Array("[\"ab".utf8) + sequence + Array("\"]".utf8)
        let error = try #require(parseError(input))
        #expect(error.reason == .invalidUTF8(sequence[0]))
        #expect(error.offset == 4)
        #expect(error.column == 5)
        #expect(error.message.hasPrefix("invalid UTF-8 sequence starting with byte 0x"))
        // Truncated at the very end of the input.
        #expect(parseError([0x22] + sequence)?.reason == .invalidUTF8(sequence[0]))
    }

    static let validUTF8: [(String, [UInt8])] = [
        ("U+0080", [0xC2, 0x80]),
        ("U+07FF", [0xDF, 0xBF]),
        ("U+0800", [0xE0, 0xA0, 0x80]),
        ("U+D7FF", [0xED, 0x9F, 0xBF]),
        ("U+E000", [0xEE, 0x80, 0x80]),
        ("U+FFFF", [0xEF, 0xBF, 0xBF]),
        ("U+10000", [0xF0, 0x90, 0x80, 0x80]),
        ("U+1F600", [0xF0, 0x9F, 0x98, 0x80]),
        ("U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF]),
    ]

    @Test(arguments: validUTF8)
    func acceptsWellFormedUTF8(_ name: String, _ sequence: [UInt8]) throws {
        let value = try JSONParser.parse([0x22] + sequence + [0x22])
        #expect(value == .string(String(decoding: sequence, as: UTF8.self)))
        #expect(Array(try #require(value.stringValue).utf8) == sequence)
        // And with an escape before it (the copying path).
        let escaped = try JSONParser.parse(Array("\"\\n".utf8) + sequence + [0x22])
        #expect(Array(try #require(escaped.stringValue).utf8) == [0x0A] + sequence)
    }

    @Test func invalidUTF8OutsideStringsIsReported() throws {
        let error = try #require(parseError([0x5B, 0xFF, 0x5D]))
        #expect(error.reason == .invalidUTF8(0xFF))
        #expect(error.offset == 1)
    }

    // MARK: Numbers

    static let numbers: [(String, Double)] = [
        ("0", 0),
        ("-0", -0.0),
        ("-0.0", -0.0),
        ("0.1", 0.1),
        ("1E2", 100),
        ("1e-2", 0.01),
        ("-1.5e+3", -1500),
        ("100e-2", 1),
        ("390", 390),
        ("390.5", 390.5),
        ("1e308", 1e308),
        ("1e22", 1e22),
        ("1e23", 1e23),
        ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ("2.2250738585072014e-308", .leastNormalMagnitude),
        ("5e-324", .leastNonzeroMagnitude),
        ("4.9406564584124654e-324", .leastNonzeroMagnitude),
        ("2.4703282292062328e-324", .leastNonzeroMagnitude),
        ("1e-400", 0),
        ("-1e-400", -0.0),
        ("9007199254740992", 9_007_199_254_740_992),
        ("9007199254740993", 9_007_199_254_740_992),
        ("9007199254740995", 9_007_199_254_740_996),
        ("-9007199254740993", -9_007_199_254_740_992),
        ("0.30000000000000004", 0.30000000000000004),
        ("3.141592653589793", 3.141592653589793),
        ("123456789012345678901234567890", 1.2345678901234568e29),
        ("0.000000000000000000000000000001", 1e-30),
        ("1" + String(repeating: "0", count: 308), 1e308),
        ("0." + String(repeating: "0", count: 400) + "1", 0),
        ("0e999999999999999999", 0),
        ("1.00000000000000011102230246251565404236316680908203125", 1),
        ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
    ]

    @Test(arguments: numbers)
    func parsesNumbersCorrectlyRounded(_ text: String, _ expected: Double) throws {
        let value = try #require(try JSONParser.parse(text).doubleValue)
        #expect(value.bitPattern == expected.bitPattern, "\(text) → \(value), expected \(expected)")
    }

    @Test func exactIntegers() throws {
        #expect(try JSONParser.parse("42").exactInteger == 42)
        #expect(try JSONParser.parse("-9007199254740992").exactInteger == -9_007_199_254_740_992)
        #expect(try JSONParser.parse("4.5").exactInteger == nil)
        #expect(try JSONParser.parse("1e300").exactInteger == nil)
    }

    /// The fast path (Clinger) and the slow path must both agree with the correctly rounded `Double(_:)`.
    @Test func randomNumbersMatchCorrectlyRoundedConversion() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<20_000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let intDigits = Int.random(in: 1...20, using: &rng)
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<intDigits { text += String(Int.random(in: 0...9, using: &rng)) }
            if Bool.random(using: &rng) {
                text += "."
                for _ in 0..<Int.random(in: 1...20, using: &rng) { text += String(Int.random(in: 0...9, using: &rng)) }
            }
            if Bool.random(using: &rng) {
                text += ["e", "E", "e+", "e-"][Int.random(in: 0..<4, using: &rng)]
                text += String(Int.random(in: 0...40, using: &rng))
            }
            let expected = try #require(Double(text))
            let parsed = try #require(try JSONParser.parse(text).doubleValue)
            #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    // MARK: Limits

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func depthLimitDefaultsTo64() throws {
        #expect(try JSONParser.parse(Self.nested(64)).arrayValue?.count == 1)
        let error = try #require(parseError(Array(Self.nested(65).utf8)))
        #expect(error.reason == .depthLimitExceeded(limit: 64))
        #expect(error.offset == 64)
        #expect(
            error.message
                == "nesting too deep at line 1, column 65: at most 64 levels of arrays and objects are allowed")
    }

    @Test func depthCountsObjectsAndArraysAlike() throws {
        let options = JSONParser.Options(maxDepth: 3)
        #expect(try JSONParser.parse("{\"a\":[{\"b\":1}]}", options: options) == ["a": [["b": 1]]])
        let error = try #require(parseError(Array("{\"a\":[{\"b\":[]}]}".utf8), options: options))
        #expect(error.reason == .depthLimitExceeded(limit: 3))
        #expect(error.offset == 11)
        #expect(try JSONParser.parse("7", options: JSONParser.Options(maxDepth: 0)) == 7)
        #expect(parseError(Array("[]".utf8), options: JSONParser.Options(maxDepth: 0)) != nil)
    }

    @Test func depthLimitIsCappedAndDeepInputNeverOverflowsTheStack() throws {
        let error = try #require(parseError(Array(Self.nested(100_000).utf8), options: .init(maxDepth: 1 << 30)))
        #expect(error.reason == .depthLimitExceeded(limit: JSONParser.Options.maxDepthCeiling))
        let open = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
        #expect(parseError(open)?.reason == .depthLimitExceeded(limit: 64))
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(parseError(Array(objects.utf8))?.reason == .depthLimitExceeded(limit: 64))
    }

    @Test func sizeLimit() throws {
        let options = JSONParser.Options(maxSize: 11)
        #expect(try JSONParser.parse("[1,2,3,4,5]", options: options) == [1, 2, 3, 4, 5])
        let error = try #require(parseError(Array("[1,2,3,4,5] ".utf8), options: options))
        #expect(error.reason == .sizeLimitExceeded(limit: 11, size: 12))
        #expect(error.message == "document too large: 12 bytes, at most 11 are allowed")
    }

    @Test func sizeLimitDefaultsToOneMebibyte() throws {
        let limit = 1 << 20
        let exact = [0x22] + [UInt8](repeating: UInt8(ascii: "a"), count: limit - 2) + [0x22]
        #expect(try JSONParser.parse(exact).stringValue?.utf8.count == limit - 2)
        #expect(parseError(exact + [0x20])?.reason == .sizeLimitExceeded(limit: limit, size: limit + 1))
    }

    // MARK: Duplicate keys

    @Test func duplicateKeysInLargeObjectsAreFound() throws {
        var text = "{"
        for k in 0..<40 { text += "\"k\(k)\":\(k)," }
        let valid = text + "\"last\":0}"
        #expect(try JSONParser.parse(valid).objectValue?.count == 41)
        let duplicate = text + "\"k3\":0}"
        let error = try #require(parseError(Array(duplicate.utf8)))
        #expect(error.reason == .duplicateKey("k3"))
        #expect(error.offset == text.utf8.count)
    }

    @Test func sameKeyInDifferentObjectsIsFine() throws {
        #expect(try JSONParser.parse("{\"a\":{\"a\":1},\"b\":{\"a\":2}}") == ["a": ["a": 1], "b": ["a": 2]])
    }

    @Test func canonicallyEquivalentKeysAreDistinct() throws {
        // "é" precomposed and "e" + combining acute are equal as Swift Strings but are different keys.
        let value = try JSONParser.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(value.objectValue?.count == 2)
    }

    @Test(arguments: [3, 40])
    func duplicateKeysCanBeAllowedLastWins(count: Int) throws {
        var text = "{"
        for k in 0..<count { text += "\"k\(k)\":\(k)," }
        text += "\"k1\":\"again\"}"
        let value = try JSONParser.parse(text, options: .init(rejectDuplicateKeys: false))
        let object = try #require(value.objectValue)
        #expect(object.count == count)
        #expect(object.members[1].key == "k1")
        #expect(object.members[1].value == "again")
    }

    // MARK: Robustness

    /// Mutated documents: the parser must return a value or a located error, never trap or overrun.
    @Test func neverTrapsOnMutatedInput() throws {
        var rng = SplitMix64(seed: 0xF022)
        let seeds: [[UInt8]] = [
            Array("{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\uD83D\\uDE00\"], \"b\": {\"c\": \"é😀\"}}".utf8),
            Array("[0.1, 1e308, \"\\n\\t\", [[[]]], {}]".utf8),
        ]
        let interesting: [UInt8] =
            Array("{}[]\",:\\u0123456789eE.+-tfn ".utf8) + [0x00, 0x1F, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]
        for iteration in 0..<20_000 {
            var bytes = seeds[iteration % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                let byte = interesting[Int.random(in: 0..<interesting.count, using: &rng)]
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: if bytes.count > 1 { bytes.remove(at: position) }
                }
            }
            do {
                let value = try JSONParser.parse(bytes)
                #expect(try JSONParser.parse(JSONWriter.encode(value)) == value)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
    }

    @Test func errorsAreTyped() {
        do {
            _ = try JSONParser.parse("[")
            Issue.record("must throw")
        } catch {
            // `error` is statically a JSONParseError (typed throws).
            #expect(error.reason == .unexpectedEnd(expected: "a value or ']'"))
        }
    }
}
