import ArgumentScanning

/// `hinge serve`'s command line and environment, read into Service's `ServeOptions` by its one table of
/// options (`ServeOptions.table`), through the same `CommandArguments` scanner as the other subcommands.
/// Every flag has an environment variable; the flag wins over its variable, which wins over the default.
extension ServeOptions {
    public static var usage: String { table.usage }

    /// Parses `arguments` (after `serve`) over `environment`: the variables first, then the flags over them.
    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> ServeOptions
    {
        var o = ServeOptions()
        try table.parse(arguments, into: &o, environment: environment) { p throws(UsageError) in
            throw table.extraArgument(p)
        }
        return o
    }
}
