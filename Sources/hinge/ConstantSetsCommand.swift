import HingeCLI

/// `hinge constant-sets`: list, show, export, import and create the constant sets of the database (create also
/// through a server).
enum ConstantSetsCommand: Subcommand {
    static let name = "constant-sets"
    static let summary = "list, show, export, import or create the constant sets of the database"
    static var usage: String { ConstantSetsCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try ConstantSetsCommandOptions.parse(arguments, environment: environmentValue)
        return emit(ConstantSetsCommandRunner.run(options: options))
    }
}
