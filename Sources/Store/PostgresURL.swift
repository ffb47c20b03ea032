import CPostgreSQL

/// `--db postgres://user@host:port/dbname` (or `postgresql://`): what selects the PostgreSQL engine, the check
/// the store makes on it before connecting — no secret in it — and the form in which it is ever printed.
///
/// The URL is read as libpq reads it (`PQconninfoParse`), so that a secret spelled in any way libpq accepts
/// (`user:secret@host`, `?password=`, a percent-encoded key such as `?pass%77ord=`, `?sslpassword=`) is found.
/// Every printed form (the start-up line, store errors, the CLI's messages) is `redacted`: rebuilt from the
/// parsed parameters, never the text as given.
public enum PostgresURL {
    /// libpq parameters that carry a secret: refused in the URL.
    static let secretKeywords: Set<String> = ["password", "sslpassword"]

    /// Whether `db` names a PostgreSQL database rather than a SQLite path.
    public static func isPostgres(_ db: String) -> Bool {
        let lower = db.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Whether `db` is a libpq keyword/value connection string (`host=db password=…`) rather than a SQLite path:
    /// not a URL, and every `keyword=value` in it one libpq knows. Such a string is refused as `--db` (a URL is
    /// what selects PostgreSQL) and never printed: it may hold a password.
    public static func isKeywordValue(_ db: String) -> Bool {
        !isPostgres(db) && db.contains("=") && parameters(db) != nil
    }

    /// What `--db` says when it is a keyword/value string, without repeating it.
    public static let keywordValueRefusal =
        "--db looks like a PostgreSQL keyword/value connection string (host=… dbname=…), which is not shown: give "
        + "a postgres:// URL, with the password in PGPASSWORD or ~/.pgpass"

    /// The parameters libpq reads from `url`, in libpq's order; nil when libpq refuses the URL.
    static func parameters(_ url: String) -> [(keyword: String, value: String)]? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var out: [(keyword: String, value: String)] = []
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val { out.append((String(cString: keyword), String(cString: value))) }
            i += 1
        }
        return out
    }

    /// Refuses a URL libpq would not read, and one that carries a secret (`password`, `sslpassword`, however
    /// spelled): it would show in `ps`, shell histories and logs. Passwords come only from libpq's own means.
    /// The message never repeats the URL or any part of it.
    static func check(_ url: String) throws(StoreError) {
        guard isPostgres(url) else {
            throw .invalidConfiguration("the database URL must start with postgres:// or postgresql://")
        }
        guard let parameters = parameters(url) else {
            throw .invalidConfiguration(
                "the database URL is not a connection URI libpq accepts (postgres://user@host:port/dbname"
                    + "?parameter=value, with libpq's parameter names); a password never belongs in it: give it "
                    + "through PGPASSWORD or PGPASSFILE, or ~/.pgpass")
        }
        // `user:@host` sets no parameter, but says a password belongs there.
        let authority = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
        let userInfoHasPassword = authority.lastIndex(of: "@").map { authority[..<$0].contains(":") } ?? false
        if userInfoHasPassword || parameters.contains(where: { secretKeywords.contains($0.keyword) }) {
            throw .invalidConfiguration(
                "the database URL contains a password; refusing it — give the password through libpq's "
                    + "PGPASSWORD or PGPASSFILE, or ~/.pgpass, never in --db or HINGE_DB")
        }
    }

    /// The URL as printed: `postgres://user@host:port/dbname?parameter=value…` rebuilt from what libpq parsed,
    /// without any secret; `postgres://(unreadable URL)` when libpq cannot read it.
    public static func redacted(_ url: String) -> String {
        guard let parameters = parameters(url) else { return "postgres://(unreadable URL)" }
        var named: [String: String] = [:]
        var rest: [String] = []
        for (keyword, value) in parameters where !secretKeywords.contains(keyword) {
            switch keyword {
            case "user", "host", "port", "dbname": named[keyword] = value
            default: rest.append("\(keyword)=\(encoded(value))")
            }
        }
        var text = "postgres://"
        if let user = named["user"] { text += encoded(user) + "@" }
        if let host = named["host"] {
            text += host.contains(":") && !host.contains(",") ? "[\(encoded(host, keeping: ":"))]" : encoded(host)
        }
        if let port = named["port"] { text += ":" + encoded(port) }
        if let db = named["dbname"] { text += "/" + encoded(db) }
        if !rest.isEmpty { text += "?" + rest.joined(separator: "&") }
        return text
    }

    /// Percent-encoding of everything but unreserved characters (and `,`, which separates hosts): control
    /// characters in a parameter can never reach a terminal or a log line.
    static func encoded(_ s: String, keeping extra: Unicode.Scalar? = nil) -> String {
        var out = ""
        for byte in s.utf8 {
            let c = Unicode.Scalar(byte)
            switch c {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", ",": out.unicodeScalars.append(c)
            default:
                if c == extra {
                    out.unicodeScalars.append(c)
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    out += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
        }
        return out
    }
}
