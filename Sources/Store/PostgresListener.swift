import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The PostgreSQL engine's listener: one thread (`hinge-db-listen`) with its own connection that `LISTEN`s on
/// the engine's channel, waits in `poll` on `PQsocket`, reads with `PQconsumeInput`/`PQnotifies`, and on each
/// notification reloads every profile into the snapshots. After any (re)connection it reloads everything,
/// since notifications sent while it was disconnected are lost.
///
/// It is also the engine's connector: when the database is unreachable (at start or later) it retries with
/// backoff, logging each attempt (the URL holds no password); the first success after an unreachable start
/// migrates the schema and makes the engine ready.
final class PostgresListener: @unchecked Sendable {
    // Sendable proof: `stopping` and `thread` are only touched with `lock` held or, for `thread`, by
    // `start`/`stop`, which the engine calls once each from one thread; `hasConnected` only by the listener
    // thread (`connect`).
    private let lock = ConditionLock()
    private var stopping = false
    /// Whether a connection succeeded before (`EngineHooks.reconnected` tells the first from the others).
    private var hasConnected = false
    private var thread: NamedThread?
    private unowned let engine: PostgresEngine

    init(engine: PostgresEngine) { self.engine = engine }

    func start() throws(StoreError) {
        thread = try NamedThread.start("hinge-db-listen") { [self] in self.run() }
    }

    func stop() {
        lock.withLock { stopping = true }
        lock.broadcast()
        thread?.join()
        thread = nil
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// Waits `millis` or until `stop`; true when stopping.
    private func pause(_ millis: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if !stopping { lock.wait(milliseconds: millis) }
        return stopping
    }

    private func run() {
        var db: PGConnection?
        // Not ready: `PostgresEngine.open` made the first attempt and logged it.
        var attempts = engine.ready.load(ordering: .acquiring) ? 0 : 1
        var delay = engine.backoff.initialMillis
        while !isStopping {
            guard let connection = db else {
                switch connect() {
                case .success(let c):
                    db = c
                    if attempts > 0 {
                        engine.log("store: \(engine.displayName): connected after \(attempts) failed attempt(s)")
                    }
                    attempts = 0
                    delay = engine.backoff.initialMillis
                case .failure(let error):
                    attempts += 1
                    let line = "store: \(engine.displayName): connection attempt \(attempts) failed: \(error.message)"
                    engine.setListenerProblem(line)
                    engine.log(line + "; next attempt in \(delay) ms")
                    if error.permanent {
                        engine.log("store: \(engine.displayName): giving up: \(error.message)")
                        while !pause(60_000) {}
                        return
                    }
                    if pause(delay) { return }
                    delay = min(delay * 2, engine.backoff.maxMillis)
                }
                continue
            }
            // A notification that arrived while the last reload ran its queries was read off the socket by
            // libpq then and waits in its queue: `poll` would not see it. Take those first.
            if !connection.takeNotifications().isEmpty {
                if !reload(on: connection) {
                    connection.close()
                    db = nil
                }
                continue
            }
            var p = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, 250)
            if n < 0 { continue }  // EINTR
            if n == 0 && connection.isUsable { continue }
            guard connection.consumeInput() else {
                connection.close()
                db = nil
                let line = "store: \(engine.displayName): the listener's connection was lost"
                engine.setListenerProblem(line)
                engine.log(line + "; reconnecting with backoff")
                continue
            }
            if !connection.takeNotifications().isEmpty {
                if !reload(on: connection) {
                    connection.close()
                    db = nil
                }
            }
        }
        db?.close()
    }

    /// Reloads every profile on `connection`; false when that failed and left the connection unusable.
    private func reload(on connection: PGConnection) -> Bool {
        do {
            try engine.reload(connection)
            return true
        } catch {
            return connection.isUsable
        }
    }

    struct ConnectFailure: Error {
        var message: String
        /// A refusal a retry cannot fix (a newer schema): the listener stops trying.
        var permanent: Bool
    }

    /// Connects, initialises the engine if it is not ready yet, listens and reloads every profile.
    private func connect() -> Result<PGConnection, ConnectFailure> {
        do {
            let db = try engine.connect()
            if !engine.ready.load(ordering: .acquiring) {
                let loaded = try engine.initialize(db)
                for w in loaded.warnings { engine.log("store: \(w)") }
                engine.ready.store(true, ordering: .releasing)
            }
            guard let channel = db.escapeIdentifier(engine.channel) else {
                return .failure(ConnectFailure(message: "the channel name cannot be quoted", permanent: true))
            }
            // An identifier quoted by libpq: LISTEN takes no parameters.
            try db.exec("LISTEN " + channel)
            try engine.reload(db)
            engine.setListenerProblem(nil)
            engine.reconnected(first: !hasConnected)
            hasConnected = true
            return .success(db)
        } catch {
            switch error {
            case .schemaTooNew, .foreignDatabase: return .failure(ConnectFailure(message: "\(error)", permanent: true))
            case .postgres(let f): return .failure(ConnectFailure(message: f.message, permanent: false))
            default: return .failure(ConnectFailure(message: "\(error)", permanent: false))
            }
        }
    }
}
