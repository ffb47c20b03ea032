import HingeCLI

/// `hinge devices [ID]`: the device profiles, as a table or one profile's JSON.
enum DevicesCommand: Subcommand {
    static let name = "devices"
    static let summary = "list the device profiles, or show one as JSON"
    static var usage: String { DevicesCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try DevicesCommandOptions.parse(arguments, environment: environmentValue)
        return emit(DevicesCommandRunner.run(options: options))
    }
}
