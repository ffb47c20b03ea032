/// Every error the Store reports. The service maps them to HTTP (see docs/store.md):
/// `builtInReadOnly` → 403, `notFound` → 404, `preconditionFailed` → 412, `invalidQuery` → 400,
/// `queueFull`/`closed`/`sqlite` on a write → the request still answers, the failure is counted.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A SQLite call failed: its extended result code, SQLite's message and the SQL or C function.
    case sqlite(SQLiteFailure)
    /// The file exists but is not a SQLite database (or is corrupt/encrypted). Never overwritten.
    case notADatabase(path: String, detail: String)
    /// The file is a SQLite database that belongs to another application (it has tables but no Hinge
    /// migration table, or a foreign `application_id`). Never modified.
    case foreignDatabase(path: String, detail: String)
    /// The database was migrated by a newer Hinge: this binary refuses to touch it.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The request-log queue holds `capacity` records already; the record was not accepted.
    case queueFull(capacity: Int)
    /// The store was closed.
    case closed
    /// Built-in device profiles are read-only (route: 403).
    case builtInReadOnly(id: String)
    /// No device profile or record with this id (route: 404).
    case notFound(id: String)
    /// A constant set that was retired: it takes no new version.
    case retired(name: String)
    /// The write's `WritePrecondition` does not hold for the current profile (route: 412). `current` is
    /// nil when the profile does not exist.
    case preconditionFailed(id: String, current: EntityTag?)
    /// A stored value could not be read back (a profile whose JSON no longer validates, …).
    case corruptRow(table: String, id: String, detail: String)
    /// A field of a `RecordQuery` is malformed: a cursor this store did not return (route: 400).
    case invalidQuery(parameter: String, detail: String)
    /// An invalid configuration value (for example `maxRecords` < 1).
    case invalidConfiguration(String)
    /// A PostgreSQL call failed (the engine of a `postgres://` database): SQLSTATE, message, operation.
    case postgres(PostgresFailure)
    /// The PostgreSQL database does not answer (not reached yet, or lost and not reconnected yet), or its
    /// schema is not ready: the detail says which (no password: URLs with one are refused).
    case databaseUnavailable(String)
    /// The database file (or its directory) cannot be written: a read-only file or mount. Refused at open.
    case readOnly(path: String)
    /// Another process (a second `hinge serve`) holds the database's lock file.
    case locked(path: String, lockPath: String, owner: Int?)
    /// The lock file could not be created or locked (its directory is not writable, …).
    case lockUnavailable(path: String, detail: String)
    /// The files under the running store are unusable (deleted, replaced, not writable): writes are refused
    /// rather than acknowledged into a file that will not be there after a restart. The detail names the file.
    case storageUnusable(String)

    public var description: String {
        switch self {
        case .sqlite(let f): return f.description
        case .notADatabase(let path, let detail):
            return "\(path) is not a SQLite database or is corrupt (\(detail)); refusing to start and leaving the file "
                + "untouched — move it away or choose another --db"
        case .foreignDatabase(let path, let detail):
            let kind = PostgresURL.isPostgres(path) ? "PostgreSQL database" : "SQLite database"
            return "\(path) is a \(kind) that does not belong to Hinge (\(detail)); refusing to start and "
                + "leaving it untouched — choose another --db"
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) has schema version \(found) but this binary knows versions up to \(supported): it was "
                + "written by a newer Hinge; refusing to start and leaving it untouched — run the newer release"
        case .queueFull(let capacity):
            return "request log queue is full (\(capacity) records pending); record dropped"
        case .closed: return "the store is closed"
        case .builtInReadOnly(let id): return "device profile \"\(id)\" is built in and read-only"
        case .notFound(let id): return "\"\(id)\" not found"
        case .retired(let name): return "constant set \"\(name)\" was retired"
        case .preconditionFailed(let id, let current):
            return "the write's precondition does not hold for \"\(id)\" (\(current?.quoted ?? "no current profile"))"
        case .corruptRow(let table, let id, let detail): return "row \"\(id)\" of \(table) is unreadable: \(detail)"
        case .invalidQuery(let parameter, let detail): return "invalid \(parameter): \(detail)"
        case .invalidConfiguration(let detail): return "invalid store configuration: \(detail)"
        case .readOnly(let path):
            return "\(path) is read-only (the file, its directory or its file system): hinge writes to its "
                + "database; refusing to start — make it writable or choose another --db"
        case .locked(let path, let lockPath, let owner):
            return "\(path) is in use by another hinge serve (\(owner.map { "pid \($0), " } ?? "")lock \(lockPath)); "
                + "refusing to start — stop the other server or choose another --db"
        case .lockUnavailable(let path, let detail):
            return "cannot lock \(path) (\(detail)); refusing to start — check the directory's permissions"
        case .storageUnusable(let detail): return "the store refuses writes: \(detail)"
        case .postgres(let f): return f.description
        case .databaseUnavailable(let detail): return "the database is unavailable: \(detail)"
        }
    }
}

/// A failed SQLite call.
public struct SQLiteFailure: Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_FULL` = 13, `SQLITE_READONLY_DBMOVED` = 1032, …).
    public var extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`) at the time of the failure.
    public var message: String
    /// The SQL text, or the C function for calls that run no SQL (`sqlite3_open_v2 /path`).
    public var operation: String

    public init(extendedCode: Int32, message: String, operation: String) {
        self.extendedCode = extendedCode
        self.message = message
        self.operation = operation
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_BUSY`, …).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    public var description: String { "SQLite error \(extendedCode): \(message) — in \(operation)" }
}
