import ArgumentScanning
import Store

/// The database path of the CLI subcommands: `--db` wins over `HINGE_DB`, which wins over `./hinge.sqlite`
/// (the same default as `hinge serve`).
enum CLIDefaults {
    static let db = Store.Configuration.defaultPath

    /// A `--db` value (or `HINGE_DB`'s) as the subcommands take it: a path or a `postgres://` URL. A libpq
    /// keyword/value string is refused without being repeated (it may hold a password).
    static func database(_ value: String) throws(UsageError) -> String {
        if PostgresURL.isKeywordValue(value) { throw UsageError(PostgresURL.keywordValueRefusal) }
        return value
    }

    /// `--db PATH` (and `HINGE_DB`, where an empty value counts as unset) of `resolve`, `devices`, `replay` and
    /// `constant-sets`, with its help text.
    static func databaseOption<Options>(
        help: String, _ assign: @escaping @Sendable (inout Options, String) -> Void
    ) -> CommandOption<Options> {
        .one("--db", "PATH", variable: "HINGE_DB", help: help) { o, value, source throws(UsageError) in
            if source == "HINGE_DB" && value.isEmpty { return }
            assign(&o, try database(value))
        }
    }

    /// The most bytes a subcommand reads from a scene file: the server's default request-body limit
    /// (`Configuration.defaultMaxBodyBytes` of HTTPServer, which the CLI does not link; a test holds them equal).
    static let maxBody = 1 << 20
    static func maxBody(parsing s: String, _ name: String) throws(UsageError) -> Int {
        guard let n = Int(s), n >= 0, n <= 1 << 40 else {
            throw UsageError("\(name) must be an integer in 0...\(1 << 40), got '\(TerminalText.escaped(s))'")
        }
        return n
    }
}
