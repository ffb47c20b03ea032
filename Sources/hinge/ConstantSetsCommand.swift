import HingeCLI

/// `hinge constant-sets`: list, show, export and import the constant sets of the database.
enum ConstantSetsCommand: Subcommand {
    static let name = "constant-sets"
    static let summary = "list, show, export or import the constant sets of the database"
    static var usage: String { ConstantSetsCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try ConstantSetsCommandOptions.parse(arguments, environment: environmentValue)
        return emit(ConstantSetsCommandRunner.run(options: options))
    }
}
