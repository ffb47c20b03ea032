import ArgumentScanning
import HTTPServer
import Store

/// `hinge serve`'s command line and environment, read into Service's `ServeOptions` through the same
/// `CommandArguments` scanner as the other subcommands, from the one table of options (`ServeOption.all`).
/// Every flag has an environment variable; the flag wins over its variable, which wins over the default.
extension ServeOptions {
    public static var usage: String {
        var lines = [
            "USAGE: hinge serve [options]",
            "",
            "Serves the layout-resolution API over HTTP/1.1. Stops gracefully on SIGTERM or SIGINT.",
            "",
            "OPTIONS (each also an environment variable; the flag wins):",
        ]
        for option in ServeOption.all where option.flag != nil { lines += option.helpLines }
        lines.append("  -h, --help             show this help")
        lines += ["", "ENVIRONMENT ONLY:"]
        for option in ServeOption.all where option.flag == nil { lines += option.helpLines }
        return lines.joined(separator: "\n")
    }

    /// Parses `arguments` (after `serve`) over `environment`: the variables first, then the flags over them.
    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> ServeOptions
    {
        var o = ServeOptions()
        for option in ServeOption.all {
            guard let v = environment(option.variable) else { continue }
            let values = if case .list = option.value { CommandArguments.commaSeparated(v) } else { [v] }
            try option.set(&o, values, option.variable)
        }
        var given: [String: [String]] = [:]
        var scanner = CommandArguments(arguments, command: "serve")
        while let token = scanner.next() {
            switch token {
            case .positional(let p):
                throw scanner.extraArgument(p)
            case .option(let name, let inline):
                guard let option = ServeOption.all.first(where: { $0.flag == name }) else {
                    throw scanner.unknownOption(name)
                }
                let value: String
                if case .onOff = option.value {
                    if inline != nil { throw UsageError("option \(name) takes no value") }
                    value = "1"
                } else {
                    value = try scanner.value(of: name, inline: inline)
                }
                // Each value is checked where it is given, so the first bad one is the one reported.
                var probe = ServeOptions()
                try option.set(&probe, [value], name)
                given[name, default: []].append(value)
            }
        }
        // Repeated list flags replace the variable's list as a whole; another flag given twice: the last wins.
        for option in ServeOption.all {
            guard let flag = option.flag, let values = given[flag] else { continue }
            try option.set(&o, values, flag)
        }
        return o
    }
}
