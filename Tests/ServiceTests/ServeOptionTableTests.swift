import ArgumentScanning
import Glibc
import TestSupport
import Testing

@testable import Service

/// The one table of `hinge serve`'s options: --help and the README's configuration table come from it.
@Suite struct ServeOptionTableTests {
    /// README.md, two folders above this file's.
    static func readme() throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = parts.joined(separator: "/") + "/README.md"
        return String(decoding: try #require(readFile(path)), as: UTF8.self)
    }

    @Test func theREADMEConfigurationTableIsTheTables() throws {
        let readme = try Self.readme()
        // The lines from the table's header to the first blank line.
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "| flag | environment | default | meaning |"))
        let table = lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n")
        if table != ServeOption.readmeTable {
            // The table to paste into the README's "Configuration" section.
            let out = "/tmp/hinge-readme-configuration-table.md"
            writeFile(out, Array((ServeOption.readmeTable + "\n").utf8))
            Issue.record(
                "README.md's configuration table differs from ServeOption.all; the expected table is in \(out)")
        }
    }

    @Test func everyOptionIsInTheHelpWithItsVariable() {
        let usage = ServeOptions.usage
        for option in ServeOption.all {
            if let flag = option.flag { #expect(usage.contains("  \(flag)"), "\(flag)") }
            #expect(usage.contains(option.variable), "\(option.variable)")
        }
        #expect(!usage.split(separator: "\n").contains { $0.count > 110 })
    }

    @Test func flagsAndVariablesAreUnique() {
        let flags = ServeOption.all.compactMap(\.flag)
        #expect(Set(flags).count == flags.count)
        #expect(Set(ServeOption.all.map(\.variable)).count == ServeOption.all.count)
    }

    @Test func everyVariableIsRead() throws {
        let env = [
            "HINGE_PUBLIC_HOSTS": "a.example, b.example", "HINGE_ACCEPT_STRATEGY": "singleAcceptor",
            "HINGE_MAX_BUFFERED_BYTES": "4096", "HINGE_COMMIT_GATHER_US": "0",
        ]
        let o = try ServeOptions.parse([], environment: { env[$0] })
        #expect(o.publicHosts == ["a.example", "b.example"])
        #expect(o.acceptStrategy == .singleAcceptor)
        #expect(o.maxBufferedBytes == 4096)
        #expect(o.commitGatherMicroseconds == 0)
        let flags = try ServeOptions.parse(
            ["--public-host", "c.example", "--public-host=d.example"], environment: { env[$0] })
        #expect(flags.publicHosts == ["c.example", "d.example"])
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--public-host", "x:80"], environment: { _ in nil })
        }
    }
}
