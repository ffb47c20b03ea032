/// The read connections of the PostgreSQL engine: at most `maxReaders` (one per read thread), opened on
/// demand and reused. A read that fails on a lost connection drops it (the next read connects again); a
/// read while the database is unreachable fails at once with the connection error (route: 503).
final class PostgresReaders: @unchecked Sendable {
    // Sendable proof: the connections are `ConnectionPool`'s.
    private let pool: ConnectionPool<PGConnection>

    init(maxReaders: Int, url: String, applicationName: String, schema: String?) {
        pool = ConnectionPool(
            capacity: maxReaders,
            connect: { () throws(StoreError) -> PGConnection in
                try PGConnection(url: url, applicationName: applicationName, schema: schema)
            },
            disconnect: { $0.close() })
    }

    /// Runs `body` on a read connection. An idle connection may have been closed by the server since its
    /// last use (a restart, a failover, an idle timeout): when `body` fails because the connection is lost,
    /// it runs once more on a new connection (reads change nothing, so running one twice is safe).
    func read<T>(_ body: (PGConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        var lost = false
        do {
            return try readOnce(body, lost: &lost)
        } catch {
            guard lost else { throw error }
            return try readOnce(body, lost: &lost)
        }
    }

    /// Runs `body` on one connection; `lost` tells whether a failure left that connection unusable.
    private func readOnce<T>(_ body: (PGConnection) throws(StoreError) -> T, lost: inout Bool) throws(StoreError)
        -> T
    {
        let db = try pool.checkOut()
        do {
            let value = try body(db)
            pool.checkIn(db, reusable: db.isUsable)
            return value
        } catch {
            lost = !db.isUsable
            pool.checkIn(db, reusable: !lost)
            throw error
        }
    }

    /// Closes the idle connections; those checked out close on check-in.
    func close() { pool.close() }
}
