import HingeCLI

/// `hinge scenes PATH…`: the scenes SwiftUI source presents, as JSON (docs/swiftui.md#scenes-command).
enum ScenesCommand: Subcommand {
    static let name = "scenes"
    static let summary = "read the scenes SwiftUI source presents, as JSON"
    static var usage: String { ScenesCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        emit(ScenesCommandRunner.run(try ScenesCommandOptions.parse(arguments)))
    }
}
