import ArgumentScanning
import Glibc
import HTTPServer
import HingeCLI
import TestSupport
import Testing

@testable import Service

/// The one table of `hinge serve`'s options: --help and the README's configuration table come from it.
@Suite struct ServeOptionTableTests {
    /// A document of the repository (README.md, docs/http.md), two folders above this file's.
    static func document(_ name: String) throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = parts.joined(separator: "/") + "/" + name
        return String(decoding: try #require(readFile(path)), as: UTF8.self)
    }

    @Test func theREADMEConfigurationTableIsTheTables() throws {
        let readme = try Self.document("README.md")
        // The lines from the table's header to the first blank line.
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "| flag | environment | default | meaning |"))
        let table = lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n")
        if table != ServeOptions.readmeTable {
            // The table to paste into the README's "Configuration" section.
            let out = "/tmp/hinge-readme-configuration-table.md"
            writeFile(out, Array((ServeOptions.readmeTable + "\n").utf8))
            Issue.record(
                "README.md's configuration table differs from ServeOptions.table; the expected table is in \(out)")
        }
    }

    @Test func theHTTPDocumentsSynopsisIsTheTables() throws {
        let block = "```text\n\(ServeOptions.table.synopsis)\n```"
        if !(try Self.document("docs/http.md").contains(block)) {
            // The block to paste into docs/http.md's "hinge serve" section.
            let out = "/tmp/hinge-serve-synopsis.md"
            writeFile(out, Array((block + "\n").utf8))
            Issue.record(
                "docs/http.md's synopsis of hinge serve differs from ServeOptions.table; the expected block is in \(out)"
            )
        }
    }

    @Test func everyOptionIsInTheHelpWithItsVariable() throws {
        let usage = ServeOptions.usage
        for option in ServeOptions.table.options {
            if let flag = option.flag { #expect(usage.contains("  \(flag)"), "\(flag)") }
            let variable = try #require(option.variable, "every option of hinge serve has a variable")
            #expect(usage.contains(variable), "\(variable)")
        }
        #expect(!usage.split(separator: "\n").contains { $0.count > 110 })
    }

    @Test func flagsAndVariablesAreUnique() {
        let options = ServeOptions.table.options
        let flags = ServeOptions.table.flags
        #expect(Set(flags).count == flags.count)
        let variables = options.compactMap(\.variable)
        #expect(variables.count == options.count)
        #expect(Set(variables).count == options.count)
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

    /// Every entry with a value it sets, and what that value sets: each flag parses in both forms, and each
    /// variable alone, into what its check says (which does not hold without it).
    @Test func everyEntryParsesFromItsFlagAndItsVariable() throws {
        let samples: [(String, String, (ServeOptions) -> Bool)] = [
            ("HINGE_HOST", "0.0.0.0", { $0.host == "0.0.0.0" }),
            ("HINGE_PORT", "9000", { $0.port == 9000 }),
            ("HINGE_DB", "/tmp/x.sqlite", { $0.db == "/tmp/x.sqlite" }),
            ("HINGE_REPLICA_ID", "web-7", { $0.replicaID == "web-7" }),
            ("HINGE_THREADS", "3", { $0.threads == 3 }),
            ("HINGE_MAX_BODY", "10", { $0.maxBody == 10 }),
            ("HINGE_API_KEY", "k", { $0.apiKey == "k" }),
            ("HINGE_PAIRING_TOKEN", "0123456789abcdef", { $0.pairingToken == "0123456789abcdef" }),
            ("HINGE_NO_RECORD", "1", { $0.noRecord }),
            ("HINGE_MAX_RECORDS", "5", { $0.maxRecords == 5 }),
            ("HINGE_MAX_LOG_BYTES", "2097152", { $0.maxLogBytes == 2_097_152 }),
            ("HINGE_COMMIT_GATHER_US", "0", { $0.commitGatherMicroseconds == 0 }),
            ("HINGE_MAX_RESPONSE_BYTES", "4096", { $0.maxResponseBytes == 4096 }),
            ("HINGE_MAX_MATRIX_WORK", "77", { $0.maxMatrixWork == 77 }),
            ("HINGE_MAX_BUFFERED_BYTES", "8192", { $0.maxBufferedBytes == 8192 }),
            ("HINGE_LOG_LEVEL", "warn", { $0.logLevel == .warn }),
            ("HINGE_CORS_ORIGINS", "null", { $0.corsOrigins == ["null"] }),
            ("HINGE_PUBLIC_HOSTS", "a.example", { $0.publicHosts == ["a.example"] }),
            ("HINGE_ACCEPT_STRATEGY", "singleAcceptor", { $0.acceptStrategy == .singleAcceptor }),
        ]
        let options = ServeOptions.table.options
        #expect(samples.map(\.0).sorted() == options.compactMap(\.variable).sorted())
        for (variable, value, check) in samples {
            #expect(!check(try ServeOptions.parse([], environment: { _ in nil })), "\(variable) is the default")
            #expect(check(try ServeOptions.parse([], environment: { $0 == variable ? value : nil })), "\(variable)")
            let option = try #require(options.first { $0.variable == variable })
            guard let flag = option.flag else { continue }
            let forms = if case .onOff = option.value { [[flag]] } else { [[flag, value], ["\(flag)=\(value)"]] }
            for form in forms {
                #expect(check(try ServeOptions.parse(form, environment: { _ in nil })), "\(form)")
            }
        }
    }

    @Test func anUnknownFlagGetsTheMessageOfEverySubcommand() {
        let expected = UsageError("unknown option '--bogus' for 'hinge serve' (see hinge serve --help)")
        for arguments in [["--bogus"], ["--port", "1", "--bogus"], ["--bogus=1"]] {
            #expect(throws: expected, "\(arguments)") { try ServeOptions.parse(arguments, environment: { _ in nil }) }
        }
    }

    /// One request-body limit: HTTPServer's default, `--max-body`'s and the largest scene file `hinge resolve`
    /// reads (the CLI does not link HTTPServer, so its copy is held equal here).
    @Test func theBodyLimitIsOneNumber() throws {
        let limit = Configuration.defaultMaxBodyBytes
        #expect(limit == 1 << 20)
        #expect(Configuration().maxBodyBytes == limit)
        #expect(HTTPParser.Limits().maxBodyBytes == limit)
        #expect(ServeOptions().maxBody == limit)
        #expect(ResolveCommandOptions(file: "-").maxBody == limit)
        #expect(try ResolveCommandOptions.parse(["-"], environment: { _ in nil }).maxBody == limit)
        #expect(ResolveCommandOptions.usage.contains("default \(limit)"))
    }
}
