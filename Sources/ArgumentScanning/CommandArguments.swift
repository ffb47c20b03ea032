/// A command-line problem: one line for stderr, exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The one scanner over a subcommand's arguments, shared by every subcommand through its `OptionTable`.
/// Accepts `--flag value` and `--flag=value`; a lone `-` and anything not starting with `-` is positional;
/// `--` ends the options (everything after it is positional).
public struct CommandArguments {
    public enum Token: Equatable, Sendable {
        /// `--flag` with its inline `=value`, if any.
        case option(name: String, inline: String?)
        case positional(String)
    }

    private let arguments: [String]
    private var index = 0
    private var optionsEnded = false
    private let command: String

    public init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// The next token, or nil at the end.
    public mutating func next() -> Token? {
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") { return .positional(arg) }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                return .option(name: String(arg[..<eq]), inline: String(arg[arg.index(after: eq)...]))
            }
            return .option(name: arg, inline: nil)
        }
        return nil
    }

    /// The value of option `name`: its inline `=value`, else the next argument.
    public mutating func value(of name: String, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
        index += 1
        return arguments[index - 1]
    }

    public func unknownOption(_ name: String) -> UsageError { Self.unknownOption(name, command: command) }

    public func extraArgument(_ value: String) -> UsageError { Self.extraArgument(value, command: command) }

    public static func unknownOption(_ name: String, command: String) -> UsageError {
        UsageError("unknown option '\(name)' for 'hinge \(command)' (see hinge \(command) --help)")
    }

    public static func extraArgument(_ value: String, command: String) -> UsageError {
        UsageError("unexpected argument '\(value)' for 'hinge \(command)' (see hinge \(command) --help)")
    }

    /// `value` as one of `E`'s raw values, or a usage error naming the choices.
    public static func choice<E: RawRepresentable & CaseIterable>(_ value: String, _ name: String, _: E.Type)
        throws(UsageError)
        -> E where E.RawValue == String
    {
        guard let e = E(rawValue: value) else {
            throw UsageError(
                "\(name) must be one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), got '\(value)'")
        }
        return e
    }

    /// An on/off value (an environment variable's): 1/0, true/false, yes/no or on/off; empty is off.
    public static func onOff(_ value: String, _ name: String) throws(UsageError) -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw UsageError("\(name) must be 1/0, true/false, yes/no or on/off, got '\(value)'")
        }
    }

    /// The entries of a comma-separated list, without the spaces and tabs around them, empty ones dropped.
    public static func commaSeparated(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { entry in
            var s = entry[...]
            while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
            while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
            return s.isEmpty ? nil : String(s)
        }
    }
}
