import CSQLite

/// One sqlite3 connection, GRDB-style: checked open and close, extended result codes, a busy timeout, a cache
/// of persistent prepared statements keyed by SQL, transactions with `BEGIN IMMEDIATE` (docs/store.md).
///
/// Not thread-safe and not Sendable: a connection is used by one thread at a time, which `DatabasePool`
/// guarantees (its writer behind a lock, each reader checked out by one caller at a time).
final class Connection {
    let path: String
    private(set) var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    let readOnly: Bool

    /// Opens and configures a connection. `path` may be a `file:` URI.
    init(path: String, readOnly: Bool, busyTimeoutMillis: Int) throws(StoreError) {
        self.path = path
        self.readOnly = readOnly
        var db: OpaquePointer?
        // NOMUTEX: each connection is used by one thread at a time (see the type's comment), so SQLite's
        // per-connection mutex is pure overhead. URI so that `file:…?mode=memory` names work.
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw .sqlite(SQLiteFailure(extendedCode: rc, message: message, operation: "sqlite3_open_v2 \(path)"))
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeoutMillis))
        // Defensive mode: no writable_schema, no journal_mode=OFF tricks that could corrupt the file;
        // no double-quoted string literals (a typo'd column name must be an error, not a string).
        var current: Int32 = 0
        _ = hinge_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &current)
        _ = hinge_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DML, 0, &current)
        _ = hinge_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DDL, 0, &current)
    }

    deinit { close() }

    /// Finalizes every cached statement, then closes. `sqlite3_close` (not `_v2`) so that a statement we
    /// forgot shows up as an error in debug instead of a silently leaked zombie connection.
    func close() {
        guard let db = handle else { return }
        for (_, s) in statements { sqlite3_finalize(s) }
        statements.removeAll()
        if sqlite3_close(db) != SQLITE_OK {
            // Unfinalized statements outside the cache: finalize them all, then close for real.
            var s = sqlite3_next_stmt(db, nil)
            while let stmt = s {
                s = sqlite3_next_stmt(db, stmt)
                sqlite3_finalize(stmt)
            }
            sqlite3_close_v2(db)
        }
        handle = nil
    }

    func failure(_ rc: Int32, _ operation: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return .sqlite(SQLiteFailure(extendedCode: rc, message: message, operation: operation))
    }

    /// The extended code of the last failure on this connection (`rc`, a primary code, when closed).
    func extendedErrorCode(_ rc: Int32) -> Int32 { handle.map { sqlite3_extended_errcode($0) } ?? rc }

    private func requireHandle(_ operation: String) throws(StoreError) -> OpaquePointer {
        guard let handle else {
            throw .sqlite(
                SQLiteFailure(extendedCode: SQLITE_MISUSE, message: "connection is closed", operation: operation))
        }
        return handle
    }

    /// Runs SQL text that takes no parameters (pragmas, DDL, BEGIN/COMMIT). Never pass values here.
    func execute(_ sql: String) throws(StoreError) {
        let db = try requireHandle(sql)
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &error)
        if let error { sqlite3_free(error) }
        if rc != SQLITE_OK { throw failure(sqlite3_extended_errcode(db), sql) }
    }

    /// `PRAGMA name = value` for an integer setting computed at run time (a PRAGMA takes no bound
    /// parameter): the text is built from a compile-time name and an `Int`, so no outside text can reach it.
    func setPragma(_ name: StaticString, to value: Int) throws(StoreError) {
        try execute("PRAGMA " + name.description + " = " + String(value))
    }

    /// A cached prepared statement, reset and cleared of bindings, for the duration of `body`. A failing
    /// statement is evicted from the cache (and finalized) so that the next use prepares it afresh.
    func withStatement<T>(_ sql: String, _ body: (Statement) throws(StoreError) -> T) throws(StoreError) -> T {
        let db = try requireHandle(sql)
        let stmt: OpaquePointer
        if let cached = statements[sql] {
            stmt = cached
        } else {
            var s: OpaquePointer?
            let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil)
            guard rc == SQLITE_OK, let s else { throw failure(sqlite3_extended_errcode(db), sql) }
            statements[sql] = s
            stmt = s
        }
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        do {
            let result = try body(Statement(handle: stmt, connection: self, sql: sql))
            sqlite3_reset(stmt)
            return result
        } catch {
            statements[sql] = nil
            sqlite3_finalize(stmt)
            throw error
        }
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` for writes (takes the write lock up front, so the
    /// busy timeout applies at BEGIN instead of a deadlock-prone upgrade later), `BEGIN DEFERRED` for reads.
    /// Rolls back on any error.
    /// `BEGIN` and `COMMIT` are cached statements like any other (`sqlite3_exec` would parse them each time).
    func transaction<T>(immediate: Bool = true, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try withStatement(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED") { (s) throws(StoreError) in
            try s.stepAndUnbind()
        }
        do {
            let result = try body()
            try withStatement("COMMIT") { (s) throws(StoreError) in try s.stepAndUnbind() }
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back if a transaction is open (SQLite may already have rolled back after SQLITE_FULL).
    func rollback() {
        guard let db = handle, sqlite3_get_autocommit(db) == 0 else { return }
        _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
    }

    /// True when SQLite opened the main database read-only (it does so silently for a file it may not write).
    var isReadOnly: Bool { handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? false }

    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ values: SQLValue...) throws(StoreError) {
        try withStatement(sql) { (s) throws(StoreError) in
            try s.bind(values)
            while try s.step() {}
        }
    }

    /// The first column of the first row, or nil when there is no row.
    func scalarInt(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Int64? {
        try withStatement(sql) { (s) throws(StoreError) -> Int64? in
            try s.bind(values)
            guard try s.step(), !s.isNull(0) else { return nil }
            return s.int64(0)
        }
    }

    func scalarText(_ sql: String, _ values: SQLValue...) throws(StoreError) -> String? {
        try withStatement(sql) { (s) throws(StoreError) -> String? in
            try s.bind(values)
            guard try s.step() else { return nil }
            return s.text(0)
        }
    }
}

/// A value to bind. Values always travel as bound parameters, never inside SQL text.
enum SQLValue {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])

    static func optional(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
    static func optional(_ i: Int64?) -> SQLValue { i.map { .int($0) } ?? .null }
}

/// A prepared statement borrowed from the connection's cache for one use.
struct Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    let sql: String

    func bind(_ values: [SQLValue]) throws(StoreError) {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    func bind(_ value: SQLValue, at index: Int32) throws(StoreError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .int(let i): rc = sqlite3_bind_int64(handle, index, i)
        case .double(let d): rc = sqlite3_bind_double(handle, index, d)
        case .text(let s):
            // A nil pointer would bind NULL instead of '': bind the empty string explicitly.
            var s = s
            rc = s.withUTF8 { buf in
                buf.isEmpty
                    ? sqlite3_bind_text(handle, index, "", 0, hinge_sqlite3_transient())
                    : sqlite3_bind_text(handle, index, buf.baseAddress, Int32(buf.count), hinge_sqlite3_transient())
            }
        case .blob(let b):
            rc = b.withUnsafeBytes { buf in
                buf.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : sqlite3_bind_blob(handle, index, buf.baseAddress, Int32(buf.count), hinge_sqlite3_transient())
            }
        }
        if rc != SQLITE_OK { throw connection.failure(rc, sql) }
    }

    // MARK: The writer's hot path (one statement reused for a whole batch, no `SQLValue` arrays, no copies)
    // Each step of the hot path leaves the statement reset with its bindings cleared, ready for the next row
    // and with no `SQLITE_STATIC` pointer left bound.

    func bindInt(_ value: Int64, at index: Int32) throws(StoreError) {
        let rc = sqlite3_bind_int64(handle, index, value)
        if rc != SQLITE_OK { throw connection.failure(rc, sql) }
    }

    /// Binds `bytes[range]` as text without a copy (`SQLITE_STATIC`), or NULL when `range` is nil. The bytes
    /// must stay alive and unchanged until `stepAndUnbind()`, and `bytes` must have an address even for an
    /// empty range (a nil pointer would bind NULL instead of '').
    func bindStaticText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>?, at index: Int32) throws(StoreError) {
        let rc: Int32
        if let range, let base = bytes.baseAddress {
            precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
            rc = UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(to: CChar.self, capacity: range.count) {
                sqlite3_bind_text(handle, index, $0, Int32(range.count), nil)
            }
        } else {
            precondition(range == nil, "bindStaticText: a buffer without storage")
            rc = sqlite3_bind_null(handle, index)
        }
        if rc != SQLITE_OK { throw connection.failure(rc, sql) }
    }

    /// Steps a statement that returns no row, then resets it and clears its bindings.
    func stepAndUnbind() throws(StoreError) {
        if let failure = finishStep(sqlite3_step(handle)) { throw failure }
    }

    /// Binds `bytes` without copying (`SQLITE_STATIC`) and steps once: SQLite reads the bytes only during
    /// the step, while `withUnsafeBytes` keeps them alive; the parameters are unbound before returning so
    /// that no dangling pointer stays bound.
    func stepBindingBlobs(_ a: [UInt8], at ia: Int32, _ b: [UInt8], at ib: Int32) throws(StoreError) {
        let failure: StoreError? = a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                // A nil pointer would bind NULL, not an empty blob: bind empty blobs as zeroblob(0).
                var rc =
                    pa.isEmpty
                    ? sqlite3_bind_zeroblob(handle, ia, 0)
                    : sqlite3_bind_blob(handle, ia, pa.baseAddress, Int32(pa.count), nil)
                if rc == SQLITE_OK {
                    rc =
                        pb.isEmpty
                        ? sqlite3_bind_zeroblob(handle, ib, 0)
                        : sqlite3_bind_blob(handle, ib, pb.baseAddress, Int32(pb.count), nil)
                }
                if rc == SQLITE_OK { rc = sqlite3_step(handle) }
                return finishStep(rc)
            }
        }
        if let failure { throw failure }
    }

    /// After the step of a statement that returns no row: its failure (read before the reset), if any; then
    /// resets and clears the bindings.
    private func finishStep(_ rc: Int32) -> StoreError? {
        let failure =
            rc == SQLITE_DONE || rc == SQLITE_ROW ? nil : connection.failure(connection.extendedErrorCode(rc), sql)
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        return failure
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(connection.extendedErrorCode(rc), sql)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    func blob(_ column: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, column))
        guard n > 0, let p = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
