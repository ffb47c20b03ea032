import ArgumentScanning
import Glibc
import HingeCLI
import Resolving
import Service

/// A subcommand of `hinge`. Each lives in its own file (`ServeCommand.swift`, `ResolveCommand.swift`,
/// `DevicesCommand.swift`, `ReplayCommand.swift`, `LintCommand.swift`, `ConstantSetsCommand.swift`, `ScenesCommand.swift`) and
/// is listed in `CommandLineInterface.commands`.
protocol Subcommand: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    /// Runs with the arguments after the subcommand's name; returns the exit code.
    /// Throw `UsageError` for a bad flag (printed on one line, exit code 2).
    static func run(_ arguments: [String]) throws -> Int32
}

enum CommandLineInterface {
    static let commands: [any Subcommand.Type] = {
        var commands: [any Subcommand.Type] = [
            ServeCommand.self, ResolveCommand.self, DevicesCommand.self, ReplayCommand.self, LintCommand.self,
            ConstantSetsCommand.self,
        ]
        #if HINGE_SWIFTUI
            commands.append(ScenesCommand.self)
        #endif
        return commands
    }()

    static var help: String {
        var s = "hinge \(hingeVersion) — layout resolution service\n\nUSAGE: hinge <command> [options]\n\nCOMMANDS:\n"
        for c in commands { s += "  \(c.name.padding(12))\(c.summary)\n" }
        s += "\nOPTIONS:\n  -h, --help    show this help\n  --version     print the version\n\n"
        s += "Run 'hinge <command> --help' for a command's options.\n"
        return s
    }

    static func run(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            printErr("hinge: missing command (see hinge --help)")
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            print(help, terminator: "")
            return 0
        case "--version":
            print("hinge \(hingeVersion)")
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            printErr("hinge: unknown command '\(first)' (see hinge --help)")
            return 2
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.usage)
            return 0
        }
        do {
            return try command.run(rest)
        } catch let e as UsageError {
            printErr("hinge \(command.name): \(e.message)")
            return 2
        } catch {
            printErr("hinge \(command.name): \(error)")
            return 1
        }
    }
}

func printErr(_ s: String) {
    var line = s + "\n"
    line.withUTF8 { p in _ = write(2, p.baseAddress, p.count) }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// The process environment as a lookup function.
func environmentValue(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    return String(cString: v)
}
