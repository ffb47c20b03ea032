import Threads

/// The read connections of the PostgreSQL engine: at most `maxReaders` (one per read thread), opened on
/// demand and reused. A read that fails on a lost connection drops it (the next read connects again); a
/// read while the database is unreachable fails at once with the connection error (route: 503).
final class PostgresReaders: @unchecked Sendable {
    // Sendable proof: `idle`, `open` and `closed` are only touched with `lock` held; a checked-out
    // connection is used by the one thread that checked it out.
    private let lock = ConditionLock()
    private var idle: [PGConnection] = []
    private var open = 0
    private var closed = false
    private let maxReaders: Int
    private let url: String
    private let applicationName: String
    private let schema: String?

    init(maxReaders: Int, url: String, applicationName: String, schema: String?) {
        self.maxReaders = max(1, maxReaders)
        self.url = url
        self.applicationName = applicationName
        self.schema = schema
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
        let db = try checkOut()
        do {
            let value = try body(db)
            checkIn(db)
            return value
        } catch {
            lost = !db.isUsable
            checkIn(db)
            throw error
        }
    }

    private func checkOut() throws(StoreError) -> PGConnection {
        lock.lock()
        while true {
            if closed {
                lock.unlock()
                throw .closed
            }
            if let db = idle.popLast() {
                lock.unlock()
                return db
            }
            if open < maxReaders {
                open += 1
                lock.unlock()
                do {
                    return try PGConnection(url: url, applicationName: applicationName, schema: schema)
                } catch {
                    lock.withLock { open -= 1 }
                    lock.signal()
                    throw error
                }
            }
            lock.wait()
        }
    }

    private func checkIn(_ db: PGConnection) {
        lock.lock()
        if db.isUsable && !closed {
            idle.append(db)
            lock.unlock()
        } else {
            open -= 1
            lock.unlock()
            db.close()
        }
        lock.signal()
    }

    /// Closes the idle connections; those checked out close on check-in.
    func close() {
        let all: [PGConnection] = lock.withLock {
            closed = true
            let all = idle
            idle.removeAll()
            open -= all.count
            return all
        }
        lock.broadcast()
        for db in all { db.close() }
    }
}
