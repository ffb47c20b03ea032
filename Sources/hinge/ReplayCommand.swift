import Glibc
import HingeCLI

/// `hinge replay`: every recorded request resolved again; exit 1 when any answer changed.
enum ReplayCommand: Subcommand {
    static let name = "replay"
    static let summary = "replay the request log with this engine; exit 1 if any answer changed"
    static var usage: String { ReplayCommandOptions.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try ReplayCommandOptions.parse(arguments, environment: environmentValue)
        let terminal = isatty(2) == 1
        var shown = false
        let output = ReplayCommandRunner.run(options: options) { done, total in
            // A `\r`-updated line, at most ~100 updates per run, only on a terminal.
            guard terminal, done == total || done % max(1, total / 100) == 0 else { return }
            CLIFiles.write(Array("\rreplayed \(done)/\(total)".utf8), to: 2)
            shown = true
        }
        if shown { CLIFiles.write(Array("\r\u{1B}[K".utf8), to: 2) }
        return emit(output)
    }
}
