import ArgumentScanning
import Glibc
import LayoutEngine
import Resolving
import TestSupport
import Testing

@testable import HingeCLI

/// What the CLI reads and prints of hostile input: bounded reads, and stored text escaped for the terminal.
@Suite struct CLIBoundsTests {
    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("big.json")
        writeFile(path, [UInt8](repeating: 0x20, count: 2048))
        #expect(try CLIFiles.read(path, limit: 2048).count == 2048)
        #expect {
            _ = try CLIFiles.read(path, limit: 2047)
        } throws: { error in "\(error)".contains("larger than 2047 bytes") }
    }

    @Test func anEndlessInputIsRefusedAfterTheLimit() {
        #expect {
            _ = try CLIFiles.read("/dev/zero", limit: 1 << 20)
        } throws: { error in "\(error)".contains("/dev/zero is larger than 1048576 bytes") }
    }

    @Test func maxBodyIsAnOptionAndAVariable() throws {
        let flag = try ResolveCommandOptions.parse(["s.json", "--max-body", "10"], environment: { _ in nil })
        #expect(flag.maxBody == 10)
        let variable = try ResolveCommandOptions.parse(
            ["s.json"], environment: { $0 == "HINGE_MAX_BODY" ? "20" : nil })
        #expect(variable.maxBody == 20)
        #expect(try ResolveCommandOptions.parse(["s.json"], environment: { _ in nil }).maxBody == 1 << 20)
        #expect(throws: UsageError.self) {
            _ = try ResolveCommandOptions.parse(["s.json", "--max-body", "-1"], environment: { _ in nil })
        }
    }

    @Test func aKeywordValueDatabaseStringIsAUsageErrorThatDoesNotRepeatIt() {
        let db = "host=db.example password=hunter2"
        let parses: [() throws -> Void] = [
            { _ = try ResolveCommandOptions.parse(["s.json", "--db", db], environment: { _ in nil }) },
            { _ = try ResolveCommandOptions.parse(["s.json"], environment: { $0 == "HINGE_DB" ? db : nil }) },
            { _ = try DevicesCommandOptions.parse(["--db", db], environment: { _ in nil }) },
            { _ = try LintOptions.parse(["scenes"], environment: { $0 == "HINGE_DB" ? db : nil }) },
        ]
        for parse in parses {
            #expect {
                try parse()
            } throws: { error in
                error is UsageError && !"\(error)".contains("hunter2") && "\(error)".contains("postgres://")
            }
        }
    }

    @Test func controlCharactersOfStoredNamesAreEscapedInTheTable() {
        var profile = DeviceProfile(
            id: "rogue", name: "\u{1B}[2J\u{1B}]0;pwned\u{07}Rogue\u{202E}", kind: .phone,
            displays: [
                Display(
                    id: "main", width: 390, height: 844, scale: 3, cornerRadius: 0,
                    safeArea: Insets(top: 0, leading: 0, bottom: 0, trailing: 0),
                    landscapeSafeArea: Insets(top: 0, leading: 0, bottom: 0, trailing: 0),
                    portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
                    landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact))
            ])
        profile.builtIn = false
        let table = DevicesCommandRunner.table([profile])
        #expect(!table.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(table.contains(#"\x1b[2J\x1b]0;pwned\x07Rogue\u{202e}"#))
        #expect(TerminalText.escaped("plain · text") == "plain · text")
    }
}
