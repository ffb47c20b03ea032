import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value bound to a `$n` parameter. Text, integers and booleans travel in libpq's text format; bytes in
/// binary format (no escaping, no hex). SQL text never carries a value.
enum PGValue {
    case text(String)
    case int(Int64)
    case bool(Bool)
    case bytes([UInt8])
    case null
}

/// A failed libpq call: the SQLSTATE (empty for a connection failure), the server's or libpq's message, the
/// operation (the start of the SQL, or the libpq function), and whether the connection is gone.
public struct PostgresFailure: Sendable, Equatable, CustomStringConvertible {
    public var sqlState: String
    public var message: String
    public var operation: String
    /// True when the connection was lost or could not be made (the engine reconnects with backoff).
    public var connectionLost: Bool

    public var description: String {
        "PostgreSQL error\(sqlState.isEmpty ? "" : " \(sqlState)"): \(message) — in \(operation)"
    }
}

/// One libpq connection (`PGconn`). Not thread-safe and not Sendable: one thread uses it at a time (the
/// writer thread, the listener thread, or the reader that checked it out).
final class PGConnection {
    private var conn: OpaquePointer?

    /// Connects with `PQconnectdbParams`: the URL is expanded as `dbname` (passwords come only from libpq's
    /// own means: PGPASSWORD, PGPASSFILE, ~/.pgpass), after defaults the URL may override.
    init(url: String, applicationName: String, schema: String?) throws(StoreError) {
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = ["5", applicationName, url]
        conn = PGConnection.withCStrings(keywords) { k in
            PGConnection.withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let conn, PQstatus(conn) == CONNECTION_OK else {
            let message = conn.map { PGConnection.trimmed(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            close()
            throw .postgres(
                PostgresFailure(sqlState: "", message: message, operation: "connect", connectionLost: true))
        }
        // Server notices (a connection terminated by the administrator, …) would go to stderr unformatted; the
        // engine logs what matters itself.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
        try exec("SET synchronous_commit = on")
        if let schema {
            guard let quoted = escapeIdentifier(schema) else {
                throw .invalidConfiguration("the PostgreSQL schema name cannot be quoted")
            }
            // The schema (made by whoever chose it: the tests) as an identifier quoted by libpq, given to
            // `set_config` as a parameter.
            try exec("SELECT set_config('search_path', $1, false)", [.text(quoted)])
        }
    }

    deinit { close() }

    func close() {
        if let conn { PQfinish(conn) }
        conn = nil
    }

    /// False once the connection is lost (a failed call says so) or closed.
    var isUsable: Bool { conn.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The socket, for `poll` (the listener); -1 when closed.
    var socket: Int32 { conn.map { PQsocket($0) } ?? -1 }

    /// `"name"` quoted by libpq for use as an identifier; nil when libpq refuses it.
    func escapeIdentifier(_ name: String) -> String? {
        guard let conn else { return nil }
        let bytes = Array(name.utf8)
        guard
            let p = bytes.withUnsafeBufferPointer({ b in
                b.withMemoryRebound(to: CChar.self) { PQescapeIdentifier(conn, $0.baseAddress, b.count) }
            })
        else { return nil }
        defer { PQfreemem(p) }
        return String(cString: p)
    }

    /// Runs `sql` with `values` bound to `$1…$n` (`PQexecParams`), results in binary format.
    @discardableResult
    func exec(_ sql: String, _ values: [PGValue] = []) throws(StoreError) -> PGResult {
        guard let conn else {
            throw .postgres(
                PostgresFailure(
                    sqlState: "", message: "connection is closed", operation: PGConnection.operation(sql),
                    connectionLost: true))
        }
        // Every parameter's bytes back to back in one buffer; text values NUL-terminated.
        var buffer: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [UInt32] = []
        for v in values {
            offsets.append(buffer.count)
            switch v {
            case .null:
                offsets[offsets.count - 1] = -1
                lengths.append(0)
                formats.append(0)
                types.append(0)
                continue
            case .text(let s): buffer.append(contentsOf: s.utf8)
            case .int(let i): buffer.append(contentsOf: String(i).utf8)
            case .bool(let b): buffer.append(b ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            case .bytes(let b):
                buffer.append(contentsOf: b)
                lengths.append(Int32(b.count))
                formats.append(1)
                types.append(17)  // bytea
                continue
            }
            lengths.append(Int32(buffer.count - offsets[offsets.count - 1]))
            buffer.append(0)
            formats.append(0)
            types.append(0)
        }
        buffer.append(0)  // never empty: the pointers need a base address
        let result: OpaquePointer? = buffer.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return nil }
                let pointers: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : UnsafePointer(base + $0) }
                return PQexecParams(conn, sql, Int32(values.count), types, pointers, lengths, formats, 1)
            }
        }
        return try check(result, sql)
    }

    /// Runs SQL text without parameters, possibly several statements (migrations). Never pass values here.
    func execScript(_ sql: String) throws(StoreError) {
        guard let conn else {
            throw .postgres(
                PostgresFailure(
                    sqlState: "", message: "connection is closed", operation: PGConnection.operation(sql),
                    connectionLost: true))
        }
        _ = try check(PQexec(conn, sql), sql)
    }

    private func check(_ result: OpaquePointer?, _ sql: String) throws(StoreError) -> PGResult {
        guard let result else {
            throw failure(nil, sql)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return PGResult(result) }
        let error = failure(result, sql)
        PQclear(result)
        throw error
    }

    private func failure(_ result: OpaquePointer?, _ sql: String) -> StoreError {
        var state = ""
        var message = conn.map { PGConnection.trimmed(String(cString: PQerrorMessage($0))) } ?? "connection is closed"
        if let result {
            if let s = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) { state = String(cString: s) }
            let m = PGConnection.trimmed(String(cString: PQresultErrorMessage(result)))
            if !m.isEmpty { message = m }
        }
        return .postgres(
            PostgresFailure(
                sqlState: state, message: message, operation: PGConnection.operation(sql), connectionLost: !isUsable))
    }

    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT`, or `ROLLBACK` when it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try exec("BEGIN")
        do {
            let value = try body()
            try exec("COMMIT")
            return value
        } catch {
            if isUsable { _ = try? exec("ROLLBACK") }
            throw error
        }
    }

    // MARK: Notifications (the listener)

    /// Reads what arrived on the socket; false when the connection is lost.
    func consumeInput() -> Bool {
        guard let conn else { return false }
        return PQconsumeInput(conn) == 1 && isUsable
    }

    /// The notifications received so far (channel names), emptied.
    func takeNotifications() -> [String] {
        guard let conn else { return [] }
        var channels: [String] = []
        while let n = PQnotifies(conn) {
            channels.append(String(cString: n.pointee.relname))
            PQfreemem(n)
        }
        return channels
    }

    // MARK: Helpers

    static func operation(_ sql: String) -> String {
        let line = sql.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? sql
        return line.count > 80 ? String(line.prefix(80)) + "…" : line
    }

    static func trimmed(_ s: String) -> String {
        var t = Substring(s)
        while let l = t.last, l == "\n" || l == " " { t = t.dropLast() }
        return String(t).split(separator: "\n").joined(separator: " ")
    }

    private static func withCStrings(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> OpaquePointer?
    ) -> OpaquePointer? {
        let storage = strings.map { strdup($0) }
        defer { for p in storage { free(p) } }
        // NULL-terminated, as PQconnectdbParams reads the arrays.
        let pointers: [UnsafePointer<CChar>?] = storage.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { b in b.baseAddress.flatMap(body) }
    }

}

/// A `PGresult` in binary format, cleared when released. Accessors read the column types libpq reports.
final class PGResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    var rows: Int { Int(PQntuples(result)) }
    /// Rows an INSERT, UPDATE or DELETE touched.
    var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    private func raw(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let n = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard let p = PQgetvalue(result, Int32(row), Int32(column)) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: p, count: n)
    }

    /// An integer column (int2, int4, int8: big-endian in binary format); 0 when NULL.
    func int64(_ row: Int, _ column: Int) -> Int64 {
        let b = raw(row, column)
        var v: Int64 = 0
        for byte in b { v = (v << 8) | Int64(byte) }
        switch b.count {
        case 2: return Int64(Int16(truncatingIfNeeded: v))
        case 4: return Int64(Int32(truncatingIfNeeded: v))
        default: return v
        }
    }

    func int(_ row: Int, _ column: Int) -> Int { Int(int64(row, column)) }
    func bool(_ row: Int, _ column: Int) -> Bool { raw(row, column).first == 1 }
    func text(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : String(decoding: raw(row, column), as: UTF8.self)
    }
    func bytes(_ row: Int, _ column: Int) -> [UInt8] { Array(raw(row, column)) }
}
