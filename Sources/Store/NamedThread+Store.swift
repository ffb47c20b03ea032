import Threads

extension NamedThread {
    /// Starts one of the store's threads (writer, checkpoint, watch, reads: dedicated threads, not a dispatch
    /// queue, because they block in SQLite by design); a failure to start is a `StoreError`.
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) throws(StoreError) -> NamedThread {
        do {
            return try NamedThread(name: name, body)
        } catch {
            throw .invalidConfiguration("pthread_create failed with errno \(error.errno) for \(name)")
        }
    }
}
