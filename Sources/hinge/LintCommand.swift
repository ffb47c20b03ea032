import Glibc
import HingeCLI

/// `hinge lint PATH…`: scene files checked in-process, findings to the chosen reporters.
enum LintCommand: Subcommand {
    static let name = "lint"
    static let summary = "check scene files in CI: rules, baseline, snapshots; text, JUnit, SARIF, GitHub"
    static var usage: String { LintOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        try LintOptions.checkRawArguments(rawArguments())
        let options = try LintOptions.parse(arguments, environment: environmentValue)
        return LintRunner.run(options, environment: .process(variable: environmentValue))
    }

    /// The process's arguments as the bytes it was given (Swift's `CommandLine.arguments` repairs bad UTF-8).
    private static func rawArguments() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            CommandLine.unsafeArgv[i].map { p in
                Array(UnsafeBufferPointer(start: p, count: strlen(p))).map(UInt8.init(bitPattern:))
            }
        }
    }
}
