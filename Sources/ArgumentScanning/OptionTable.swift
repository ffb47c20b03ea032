/// One option of a subcommand, declared once in its command's `OptionTable`: its flag, its environment
/// variable, how it takes a value, its help and what it sets. Parsing, `--help` and the documents' lists of
/// options all come from it.
public struct CommandOption<Options>: Sendable {
    public enum Value: Sendable, Equatable {
        /// `--flag VALUE`; given twice, the last wins.
        case one(String)
        /// `--flag VALUE`, repeatable: every value, in order. Its variable holds a comma-separated list, which
        /// the flags replace as a whole.
        case list(String)
        /// `--flag` alone; its variable holds 1/0, true/false, yes/no or on/off.
        case onOff
    }

    /// A line of `--help`: the synopsis in the first column, the text beside it. A `\n` in the text starts
    /// a new line in the second column.
    public struct HelpRow: Sendable, Equatable {
        public let synopsis: String
        public let text: String
        public init(_ synopsis: String, _ text: String) {
            self.synopsis = synopsis
            self.text = text
        }
    }

    /// nil for a variable without a flag (a tuning knob).
    public let flag: String?
    public let variable: String?
    public let value: Value
    /// The default as the README shows it (Markdown). An option that has one shows its variable and default
    /// after its help text; the others say what they need to in the text itself.
    public let defaultText: String?
    /// The text of `--help` (plain text).
    public let help: String
    /// The README's "meaning" column (Markdown); `help` when nil.
    public let readme: String?
    /// nil: one row, the synopsis and `help`. Otherwise these rows: several for an option whose values read
    /// as forms (`--report junit=PATH`), none for one that another option's row names.
    let customRows: [HelpRow]?
    /// Applies the values given (the flags' in order, or the variable's), read from `source` (the flag or the
    /// variable, named in errors).
    let apply: @Sendable (inout Options, [String], String) throws(UsageError) -> Void

    init(
        _ flag: String?, _ value: Value, variable: String?, default defaultText: String?, help: String,
        readme: String?, rows: [HelpRow]?,
        apply: @escaping @Sendable (inout Options, [String], String) throws(UsageError) -> Void
    ) {
        self.flag = flag
        self.variable = variable
        self.value = value
        self.defaultText = defaultText
        self.help = help
        self.readme = readme
        self.customRows = rows
        self.apply = apply
    }

    /// `--flag METAVAR`, taking one value (the last one given); `set` gets it and the flag or variable it came
    /// from.
    public static func one(
        _ flag: String?, _ metavar: String, variable: String? = nil, default defaultText: String? = nil,
        help: String, readme: String? = nil, rows: [HelpRow]? = nil,
        set: @escaping @Sendable (inout Options, String, String) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(
            flag, .one(metavar), variable: variable, default: defaultText, help: help, readme: readme, rows: rows
        ) { o, values, source throws(UsageError) in try set(&o, values.last ?? "", source) }
    }

    /// `--flag METAVAR`, repeatable; `set` gets every value given, in order.
    public static func list(
        _ flag: String?, _ metavar: String, variable: String? = nil, default defaultText: String? = nil,
        help: String, readme: String? = nil, rows: [HelpRow]? = nil,
        set: @escaping @Sendable (inout Options, [String], String) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(
            flag, .list(metavar), variable: variable, default: defaultText, help: help, readme: readme, rows: rows,
            apply: set)
    }

    /// `--flag` alone, or its variable's 1/0; `set` gets true when it is given (or the variable says so).
    public static func onOff(
        _ flag: String?, variable: String? = nil, default defaultText: String? = nil, help: String,
        readme: String? = nil, rows: [HelpRow]? = nil, set: @escaping @Sendable (inout Options, Bool) -> Void
    ) -> CommandOption {
        CommandOption(
            flag, .onOff, variable: variable, default: defaultText, help: help, readme: readme, rows: rows
        ) { o, values, source throws(UsageError) in
            set(&o, try CommandArguments.onOff(values.last ?? "", source))
        }
    }

    /// `--flag METAVAR` (or the variable, for an option without a flag) as `--help` shows it.
    public var synopsis: String {
        guard let flag else { return variable ?? "" }
        switch value {
        case .one(let metavar), .list(let metavar): return "\(flag) \(metavar)"
        case .onOff: return flag
        }
    }

    /// The option's rows of `--help`. With a default, the text ends with where the variable and the default
    /// are: `(HINGE_PORT, default 8080)`.
    public var helpRows: [HelpRow] {
        if let customRows { return customRows }
        guard let variable, let defaultText else { return [HelpRow(synopsis, help)] }
        let variablePart: String
        switch value {
        case .list: variablePart = "\(variable), comma-separated"
        case .onOff: variablePart = "\(variable)=1"
        case .one: variablePart = variable
        }
        let repeatable = if case .list = value { "; repeatable" } else { "" }
        let plainDefault = defaultText.filter { $0 != "`" }
        return [HelpRow(synopsis, "\(help)\(repeatable) (\(variablePart), default \(plainDefault))")]
    }
}

/// A subcommand's options, declared once: `parse` reads the command line and the environment from it, and
/// `usage` (what `hinge COMMAND --help` prints) lists them. The header and footer are the help's prose around
/// the sections of options.
public struct OptionTable<Options>: Sendable {
    /// A heading of `--help` and the options listed under it.
    public struct Section: Sendable {
        public let heading: String
        public let options: [CommandOption<Options>]
        public init(_ heading: String, _ options: [CommandOption<Options>]) {
            self.heading = heading
            self.options = options
        }
    }

    public let command: String
    public let header: String
    public let sections: [Section]
    public let footer: String?
    /// Every option, in the order of the sections.
    public let options: [CommandOption<Options>]
    /// The column where the text of a help row starts.
    public let helpColumn: Int
    /// The error for `--flag=VALUE` of a flag that takes no value.
    let valueRefused: @Sendable (String) -> UsageError

    /// The longest line of `--help` a wrapped text reaches.
    public static var helpWidth: Int { 109 }

    public init(
        command: String, header: String, helpColumn: Int, sections: [Section], footer: String? = nil,
        valueRefused: @escaping @Sendable (String) -> UsageError = { UsageError("option \($0) takes no value") }
    ) {
        self.command = command
        self.header = header
        self.helpColumn = helpColumn
        self.sections = sections
        self.footer = footer
        self.options = sections.flatMap(\.options)
        self.valueRefused = valueRefused
    }

    /// Every flag, in the order of the sections.
    public var flags: [String] { options.compactMap(\.flag) }

    public func unknownOption(_ name: String) -> UsageError {
        CommandArguments.unknownOption(name, command: command)
    }

    public func extraArgument(_ value: String) -> UsageError {
        CommandArguments.extraArgument(value, command: command)
    }

    /// Reads the variables of `environment` into `options`, then the flags of `arguments` over them;
    /// `positional` gets each positional argument, in order (it throws `extraArgument` for one too many).
    /// Each flag's value is checked where it is given, so the first bad one is the one reported; then each
    /// option gets its values, in the order of the table: a flag given twice keeps the last, a repeatable
    /// one's values replace its variable's list.
    public func parse(
        _ arguments: [String], into options: inout Options, environment: (String) -> String?,
        positional: (String) throws(UsageError) -> Void
    ) throws(UsageError) {
        for option in self.options {
            guard let variable = option.variable, let v = environment(variable) else { continue }
            let values = if case .list = option.value { CommandArguments.commaSeparated(v) } else { [v] }
            try option.apply(&options, values, variable)
        }
        var given = [[String]](repeating: [], count: self.options.count)
        var scanner = CommandArguments(arguments, command: command)
        while let token = scanner.next() {
            switch token {
            case .positional(let p):
                try positional(p)
            case .option(let name, let inline):
                guard let i = self.options.firstIndex(where: { $0.flag == name }) else { throw unknownOption(name) }
                let value: String
                if case .onOff = self.options[i].value {
                    if inline != nil { throw valueRefused(name) }
                    value = "1"
                } else {
                    value = try scanner.value(of: name, inline: inline)
                }
                var probe = options
                try self.options[i].apply(&probe, [value], name)
                given[i].append(value)
            }
        }
        for (i, option) in self.options.enumerated() where !given[i].isEmpty {
            try option.apply(&options, given[i], option.flag ?? "")
        }
    }

    /// `hinge COMMAND [--flag METAVAR] …`: every flag in brackets, a repeatable one followed by `…`, wrapped at
    /// `helpWidth` under the first flag (docs/http.md shows serve's).
    public var synopsis: String {
        let lead = "hinge \(command) "
        let indent = String(repeating: " ", count: lead.count)
        var lines: [String] = []
        var line = lead
        for option in options where option.flag != nil {
            var item = "[\(option.synopsis)]"
            if case .list = option.value { item += "…" }
            if line.count > lead.count && line.count + 1 + item.count > Self.helpWidth {
                lines.append(line)
                line = indent
            }
            line += (line.count > lead.count ? " " : "") + item
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// What `hinge COMMAND --help` prints: the header, each section with its options' rows (`-h, --help` at the
    /// end of the last section that has flags), and the footer, separated by blank lines.
    public var usage: String {
        var blocks = [header]
        let helpSection = sections.lastIndex { $0.options.contains { $0.flag != nil } }
        for (i, section) in sections.enumerated() {
            var lines = [section.heading]
            for option in section.options {
                for row in option.helpRows { lines += Self.lines(of: row, column: helpColumn) }
            }
            if i == helpSection { lines += Self.lines(of: .init("-h, --help", "show this help"), column: helpColumn) }
            blocks.append(lines.joined(separator: "\n"))
        }
        if let footer { blocks.append(footer) }
        return blocks.joined(separator: "\n\n")
    }

    /// A row as lines: the synopsis indented by two, the text from `column` (on the next line when the synopsis
    /// reaches it), wrapped at `helpWidth`; each `\n` of the text starts a new line.
    static func lines(of row: CommandOption<Options>.HelpRow, column: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        var line = "  " + row.synopsis
        if line.count < column {
            line += String(repeating: " ", count: column - line.count)
        } else {
            lines.append(line)
            line = indent
        }
        for (n, paragraph) in row.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if n > 0 {
                lines.append(line)
                line = indent
            }
            for word in paragraph.split(separator: " ") {
                if line.count > column && line.count + 1 + word.count > helpWidth {
                    lines.append(line)
                    line = indent
                }
                line += (line.count > column ? " " : "") + word
            }
        }
        lines.append(line)
        return lines
    }
}
