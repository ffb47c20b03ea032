import HingeCLI

/// `hinge resolve FILE`: one scene through the service's resolver, no server.
enum ResolveCommand: Subcommand {
    static let name = "resolve"
    static let summary = "resolve a scene file (or -, stdin) to JSON or SVG, no server"
    static var usage: String { ResolveCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try ResolveCommandOptions.parse(arguments, environment: environmentValue)
        return emit(ResolveCommandRunner.run(options: options))
    }
}

/// Prints a subcommand's output and returns its exit code.
func emit(_ output: CommandOutput) -> Int32 {
    CLIFiles.write(output.stdout, to: 1)
    CLIFiles.write(output.stderr, to: 2)
    return output.exitCode
}
