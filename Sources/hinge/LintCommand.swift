import HingeCLI

/// `hinge lint PATH…`: scene files checked in-process, findings to the chosen reporters.
enum LintCommand: Subcommand {
    static let name = "lint"
    static let summary = "check scene files in CI: rules, baseline, snapshots; text, JUnit, SARIF, GitHub"
    static var usage: String { LintOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try LintOptions.parse(arguments, environment: environmentValue)
        return LintRunner.run(options, environment: .process(variable: environmentValue))
    }
}
