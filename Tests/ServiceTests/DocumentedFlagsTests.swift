import ArgumentScanning
import Glibc
import HingeCLI
import TestSupport
import Testing

@testable import Service

/// The documents name only flags the commands have: every `--flag` of a `hinge COMMAND …` the README and docs/
/// show is in that command's option table.
@Suite struct DocumentedFlagsTests {
    static let flags: [String: [String]] = [
        "serve": ServeOptions.table.flags,
        "resolve": ResolveCommandOptions.table.flags,
        "devices": DevicesCommandOptions.table.flags,
        "replay": ReplayCommandOptions.table.flags,
        "lint": LintOptions.table.flags,
        "constant-sets": ConstantSetsCommandOptions.table.flags,
    ]

    /// The repository's root, three folders above this file.
    static var root: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    /// README.md and every Markdown file of docs/.
    static func documents() throws -> [String] {
        let directory = try #require(opendir(root + "/docs"))
        defer { closedir(directory) }
        var names = ["README.md"]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".md") { names.append("docs/" + name) }
        }
        return names
    }

    /// The flags of each `hinge COMMAND …` of `text`, up to the end of its line (continued by `\`), a code
    /// span's end, a comment or the next command of a pipeline.
    static func uses(in text: String) throws -> [(command: String, flag: String)] {
        let pattern = try Regex("hinge (serve|resolve|devices|replay|lint|constant-sets)\\b([^`#|;&\\n]*)")
        var uses: [(String, String)] = []
        for match in text.replacing("\\\n", with: " ").matches(of: pattern) {
            guard let command = match.output[1].substring, let rest = match.output[2].substring else { continue }
            for token in rest.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "(" }) where token.hasPrefix("--")
            {
                let flag = token.prefix { $0 == "-" || ("a"..."z").contains($0) }
                uses.append((String(command), String(flag)))
            }
        }
        return uses
    }

    @Test func everyFlagADocumentGivesACommandIsInItsTable() throws {
        var checked = 0
        for name in try Self.documents() {
            let text = String(decoding: try #require(readFile(Self.root + "/" + name)), as: UTF8.self)
            for (command, flag) in try Self.uses(in: text) where flag != "--help" {
                #expect(Self.flags[command]?.contains(flag) == true, "\(name): hinge \(command) has no \(flag)")
                checked += 1
            }
        }
        #expect(checked > 50, "the documents' commands were not found")
    }

    @Test func aFlagACommandDoesNotHaveIsFound() throws {
        let uses = try Self.uses(
            in: "Run `hinge lint a.json --fail-on error --colour`, or\nhinge devices \\\n  --kind phone")
        #expect(uses.map(\.flag) == ["--fail-on", "--colour", "--kind"])
        #expect(uses.map(\.command) == ["lint", "lint", "devices"])
        #expect(Self.flags["lint"]?.contains("--colour") == false)
    }
}
