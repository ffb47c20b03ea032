import Threads

/// A bounded set of database connections of one kind (SQLite readers in `DatabasePool`, PostgreSQL readers
/// in `PostgresReaders`): opened on demand up to `capacity`, reused, and waited for while all are checked
/// out. A connection given back as not reusable is closed, and the next check-out may open a fresh one.
final class ConnectionPool<C>: @unchecked Sendable {
    // Sendable proof: `idle`, `open` and `closed` are only touched with `lock` held; a checked-out
    // connection is used by the one thread that checked it out.
    private let lock = ConditionLock()
    private var idle: [C] = []
    private var open = 0
    private var closed = false
    private let capacity: Int
    private let connect: () throws(StoreError) -> C
    private let disconnect: (C) -> Void

    init(capacity: Int, connect: @escaping () throws(StoreError) -> C, disconnect: @escaping (C) -> Void) {
        self.capacity = max(1, capacity)
        self.connect = connect
        self.disconnect = disconnect
    }

    /// An idle connection, a new one while fewer than `capacity` are open, or the next one given back.
    func checkOut() throws(StoreError) -> C {
        lock.lock()
        while true {
            if closed {
                lock.unlock()
                throw .closed
            }
            if let c = idle.popLast() {
                lock.unlock()
                return c
            }
            if open < capacity {
                open += 1
                lock.unlock()
                do {
                    return try connect()
                } catch {
                    lock.withLock { open -= 1 }
                    lock.signal()
                    throw error
                }
            }
            lock.wait()
        }
    }

    /// Gives `c` back: kept for the next check-out when `reusable` (and the pool is open), else closed.
    func checkIn(_ c: C, reusable: Bool) {
        lock.lock()
        if reusable && !closed {
            idle.append(c)
            lock.unlock()
        } else {
            open -= 1
            lock.unlock()
            disconnect(c)
        }
        lock.signal()
    }

    /// Closes the idle connections; those checked out close on check-in.
    func close() {
        let all: [C] = lock.withLock {
            closed = true
            let all = idle
            idle.removeAll()
            open -= all.count
            return all
        }
        lock.broadcast()
        for c in all { disconnect(c) }
    }
}
