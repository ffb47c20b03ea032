import CLinux
import Glibc
import LayoutEngine
import Store

/// File access of the CLI subcommands: reading a scene, writing output, finding the database.
public enum CLIFiles {
    /// A file's bytes (`-`: standard input until end of file), at most `limit` of them: a larger input (a
    /// huge file, `/dev/zero`) is refused once `limit + 1` bytes are read, never held whole. A FIFO without a
    /// writer waits in `open`; SIGINT and SIGTERM end the process there as anywhere (only `hinge serve`
    /// blocks them, to shut down gracefully). Throws a message for stderr.
    public static func read(_ path: String, limit: Int) throws(CLIError) -> [UInt8] {
        let name = path == "-" ? "standard input" : path
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError("cannot read \(TerminalText.escaped(path)): \(errnoText())") }
        }
        defer { if fd != 0 { close(fd) } }
        let tooLarge = CLIError(
            "\(TerminalText.escaped(name)) is larger than \(limit) bytes (the --max-body limit; HINGE_MAX_BODY)")
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) > limit { throw tooLarge }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let want = min(chunk.count, limit + 1 - out.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError("cannot read \(TerminalText.escaped(name)): \(errnoText())")
            }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw tooLarge }
        }
        return out
    }

    /// Writes every byte to `fd` (retrying short writes and EINTR). False when the reader went away.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { b in b.baseAddress.map { hinge_write_fully(fd, $0, b.count) == 0 } ?? true }
    }

    /// True when `path` names an existing file (`:memory:` and in-memory URIs never exist), or is a PostgreSQL
    /// URL (whether it answers and holds Hinge's tables is found out by opening it).
    public static func databaseExists(_ path: String) -> Bool {
        if isPostgresURL(path) { return true }
        if path == ":memory:" || path.contains("mode=memory") { return false }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR
    }

    /// The store at `path` when the file exists, nil when it does not — never creates a database.
    /// Throws the store's refusal (not SQLite, foreign, newer schema) as a message.
    public static func openExistingStore(_ path: String) throws(CLIError) -> Store? {
        guard databaseExists(path) else { return nil }
        do {
            // The CLI only reads: a read-only copy of a database is fine (as far as SQLite can read it).
            // With PostgreSQL, `requireWritable: false` also means: never create Hinge's tables.
            return try Store.open(Store.Configuration(path: path, maxReaders: 1, requireWritable: false))
        } catch {
            throw CLIError("cannot open the database: \(error)")
        }
    }

    /// The device catalog of `resolve` and `devices`: the store's (built-ins and custom profiles) when the
    /// database exists, else the built-ins. Only the default `./hinge.sqlite` may be missing: a database
    /// named with `--db` or `HINGE_DB` that does not exist is an error (a typo would otherwise silently drop
    /// every custom profile). Close the returned store when done.
    public static func catalog(db: String) throws(CLIError) -> (catalog: any DeviceCatalog, store: Store?) {
        if let store = try openExistingStore(db) { return (store, store) }
        if db != CLIDefaults.db && db != ":memory:" {
            throw CLIError("no database at \(db) (the built-in profiles need no --db)")
        }
        return (StaticDeviceCatalog(BuiltInDevices.all), nil)
    }

    /// `postgres://…` or `postgresql://…`: the PostgreSQL engine.
    public static func isPostgresURL(_ db: String) -> Bool { PostgresURL.isPostgres(db) }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// A runtime failure of a CLI subcommand: one message for stderr, exit code 1.
public struct CLIError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
