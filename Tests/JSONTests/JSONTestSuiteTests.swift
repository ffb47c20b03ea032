import TestSupport
import Testing

@testable import JSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs Nicolas Seriot's JSONTestSuite (`test_parsing/`) through the parser: every `y_` file accepted, every
/// `n_` file rejected, every `i_` file parsed or rejected without crashing. The corpus is not vendored into
/// this repository; `scripts/json-test-suite.sh` points `JSON_TEST_SUITE_DIR` at it.
@Suite struct JSONTestSuite {
    static let directory: String? = getenv("JSON_TEST_SUITE_DIR").map { String(cString: $0) }

    @Test(.enabled(if: directory != nil, "set JSON_TEST_SUITE_DIR (see scripts/json-test-suite.sh) to run"))
    func testParsing() throws {
        let root = try #require(Self.directory)
        let dir = Self.isDirectory(root + "/test_parsing") ? root + "/test_parsing" : root
        let names = Self.listFiles(dir).filter { $0.hasSuffix(".json") }.sorted()
        try #require(!names.isEmpty, "no .json files in \(dir)")

        var accepted = 0
        var yes = 0
        var rejected = 0
        var no = 0
        var indeterminate = 0
        var indeterminateAccepted: [String] = []
        var strictRejected = 0
        for name in names {
            let bytes = try #require(readFile(dir + "/" + name), "cannot read \(name)")
            // The corpus checks grammar; duplicate keys are grammatical (RFC 8259 §4 "SHOULD be unique"), so they
            // are allowed here and checked separately below.
            let grammarOnly = JSONParser.Options(rejectDuplicateKeys: false)
            let result = Result { () throws(JSONParseError) in try JSONParser.parse(bytes, options: grammarOnly) }
            let strict = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
            switch name.first {
            case "y":
                yes += 1
                switch result {
                case .success(let value):
                    accepted += 1
                    if case .failure(let error) = strict {
                        strictRejected += 1
                        guard case .duplicateKey = error.reason else {
                            Issue.record("\(name) rejected by default options for another reason than a duplicate key")
                            continue
                        }
                    }
                    // What we accept we must also write back to an equal value.
                    let again = try? JSONParser.parse(JSONWriter.encode(value))
                    #expect(again == value, "\(name) does not round-trip through the writer")
                case .failure(let error):
                    Issue.record("\(name) must be accepted: \(error)")
                }
            case "n":
                no += 1
                if case .success = result {
                    Issue.record("\(name) must be rejected")
                } else if case .success = strict {
                    Issue.record("\(name) must be rejected by the default options too")
                } else {
                    rejected += 1
                }
            default:
                indeterminate += 1
                if case .success = result { indeterminateAccepted.append(name) }
            }
        }
        #expect(yes > 0 && no > 0, "expected y_ and n_ files in \(dir)")
        print(
            "JSONTestSuite: y: \(accepted)/\(yes) accepted, n: \(rejected)/\(no) rejected, "
                + "i: \(indeterminate) no crash (\(indeterminateAccepted.count) accepted); "
                + "default options reject \(strictRejected) y_ file(s) for duplicate keys only")
        print("JSONTestSuite: i_ accepted: \(indeterminateAccepted.joined(separator: ", "))")
    }

    static func isDirectory(_ path: String) -> Bool {
        guard let d = opendir(path) else { return false }
        closedir(d)
        return true
    }

    static func listFiles(_ path: String) -> [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
