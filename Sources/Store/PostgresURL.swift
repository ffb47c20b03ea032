/// `--db postgres://user@host:port/dbname` (or `postgresql://`): what selects the PostgreSQL engine, and the
/// one check the store makes on it before libpq sees it — no password in the URL.
enum PostgresURL {
    /// Whether `db` names a PostgreSQL database rather than a SQLite path.
    static func isPostgres(_ db: String) -> Bool {
        let lower = db.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Refuses a URL that carries a password (`user:secret@host`, or a `password=` parameter): it would show
    /// in `ps`, shell histories and logs. Passwords come only from libpq's own means. The message never
    /// repeats the URL.
    static func check(_ url: String) throws(StoreError) {
        let lower = url.lowercased()
        let prefix = lower.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        guard lower.hasPrefix(prefix) else {
            throw .invalidConfiguration("the database URL must start with postgres:// or postgresql://")
        }
        let rest = url.dropFirst(prefix.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var password = false
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { password = true }
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") {
                let key = pair.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
                if key == "password" { password = true }
            }
        }
        if password {
            throw .invalidConfiguration(
                "the database URL contains a password; refusing it — give the password through libpq's "
                    + "PGPASSWORD or PGPASSFILE, or ~/.pgpass, never in --db or HINGE_DB")
        }
    }
}
