import ArgumentScanning
import Store

/// The database path of the CLI subcommands: `--db` wins over `HINGE_DB`, which wins over `./hinge.sqlite`
/// (the same default as `hinge serve`).
enum CLIDefaults {
    static let db = Store.Configuration.defaultPath
    static func db(environment: (String) -> String?) throws(UsageError) -> String {
        if let v = environment("HINGE_DB"), !v.isEmpty { return try database(v) }
        return db
    }

    /// A `--db` value (or `HINGE_DB`'s) as the subcommands take it: a path or a `postgres://` URL. A libpq
    /// keyword/value string is refused without being repeated (it may hold a password).
    static func database(_ value: String) throws(UsageError) -> String {
        if PostgresURL.isKeywordValue(value) { throw UsageError(PostgresURL.keywordValueRefusal) }
        return value
    }
    /// The most bytes a subcommand reads from a scene file: the server's default request-body limit.
    static let maxBody = 1024 * 1024
    static func maxBody(parsing s: String, _ name: String) throws(UsageError) -> Int {
        guard let n = Int(s), n >= 0, n <= 1 << 40 else {
            throw UsageError("\(name) must be an integer in 0...\(1 << 40), got '\(TerminalText.escaped(s))'")
        }
        return n
    }
}
