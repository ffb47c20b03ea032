import CSQLite
import Threads

/// The connections of one database file: one writer and a small pool of read-only readers.
///
/// Under WAL, readers never wait for the writer and see the last committed state. An in-memory database
/// (`:memory:`) cannot be shared between connections without shared-cache mode, whose table locks make a
/// reader fail with `SQLITE_LOCKED` (which the busy timeout does not cover) while the writer commits; so in
/// that mode reads use the writer connection, serialised by its lock — a commit is short, and `:memory:` is
/// for tests and demos.
final class DatabasePool: @unchecked Sendable {
    // Sendable proof: `writer` is only touched while `writerLock` is held; the readers are `ConnectionPool`'s.
    let path: String
    let inMemory: Bool
    private let writerLock = ConditionLock()
    private let writer: Connection
    private let readers: ConnectionPool<Connection>

    init(writer: Connection, path: String, inMemory: Bool, maxReaders: Int, busyTimeoutMillis: Int) {
        self.writer = writer
        self.path = path
        self.inMemory = inMemory
        self.readers = ConnectionPool(
            capacity: maxReaders,
            connect: { () throws(StoreError) -> Connection in
                let db = try Connection(path: path, readOnly: true, busyTimeoutMillis: busyTimeoutMillis)
                try db.execute("PRAGMA query_only = ON")
                return db
            },
            disconnect: { $0.close() })
    }

    /// Runs `body` on the writer connection. Only the writer thread and `Store.open`/`close` call this.
    func write<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try body(writer)
    }

    /// Runs `body` on a read-only connection inside a read transaction (one consistent snapshot).
    func read<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        if inMemory {
            return try write { (db) throws(StoreError) -> T in
                try db.transaction(immediate: false) { () throws(StoreError) -> T in try body(db) }
            }
        }
        let db = try readers.checkOut()
        var healthy = true
        defer { readers.checkIn(db, reusable: healthy) }
        do {
            return try db.transaction(immediate: false) { () throws(StoreError) -> T in try body(db) }
        } catch {
            // A reader that failed (I/O error, file replaced) is not reused: the next read opens a fresh one.
            if case .sqlite = error { healthy = false }
            throw error
        }
    }

    /// Closes the idle readers and the writer. Readers checked out at this moment close on check-in.
    func close() {
        readers.close()
        writerLock.withLock {
            // Checkpoint so that a clean shutdown leaves a self-contained database file.
            if !inMemory { _ = try? writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
            writer.close()
        }
    }
}
