import Store

extension Problem {
    /// What an operation was doing when the store failed, for the detail ("could not be read", …).
    public enum StoreOperation: String, Sendable {
        case read = "read"
        case write = "written"
        case clear = "cleared"
    }

    /// The store failed: a 503 that says what could not be done and why in a client's terms (no SQL, path or
    /// database message). The service logs `cause` in full and adds the `requestId` of that log line.
    public static func store(_ error: StoreError, _ operation: StoreOperation, what: String) -> Problem {
        Problem(
            .unavailable,
            detail: "\(what.prefix(1).uppercased() + what.dropFirst()) could not be \(operation.rawValue): "
                + "\(reason(error)). The server log has the details under this requestId.",
            cause: error)
    }

    /// A cause a client may read: no SQL, no path, no SQLite message.
    public static func reason(_ error: StoreError) -> String {
        switch error {
        case .sqlite(let f):
            switch f.primaryCode {
            case 13: return "the storage is full"  // SQLITE_FULL
            case 5, 6: return "the database is busy"  // SQLITE_BUSY, SQLITE_LOCKED
            case 8: return "the storage refuses writes"  // SQLITE_READONLY (also while the files are unusable)
            case 10: return "the storage reported an I/O error"  // SQLITE_IOERR
            default: return "the database reported an error"
            }
        case .storageUnusable: return "the database files were deleted, replaced or made unwritable"
        case .postgres(let f):
            return f.connectionLost ? "the database does not answer" : "the database reported an error"
        case .databaseUnavailable: return "the database does not answer"
        case .closed: return "the store is shutting down"
        case .queueFull: return "the request log's queue is full"
        case .corruptRow: return "a stored row is unreadable"
        default: return "the store reported an error"
        }
    }
}
