import CLinux
import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Watches the files under a running store, so that it never acknowledges writes that cannot last: the
/// database file or its WAL deleted, moved or replaced (writes would go to an unlinked inode and vanish at
/// the next start), or no longer writable.
///
/// At open it takes an `O_PATH` descriptor on each file (the very inode SQLite opened a moment before) and
/// remembers its device and inode. A check (`check()`, a few `stat`/`access` calls, ~microseconds) then
/// compares: the path missing → deleted (the open inode's link count is 0) or moved; the path naming
/// another inode → replaced; `access(W_OK)` refused → not writable. `O_PATH` descriptors matter: closing an ordinary descriptor on
/// the database would drop every POSIX lock SQLite holds on it in this process; closing an `O_PATH` one
/// does not.
///
/// What root can observe: permission bits do not apply to root (`chmod a-w` leaves the file writable for
/// it, and `access` says so); a read-only mount (`EROFS`) and the inode checks apply to every user.
final class StorageWatch: Sendable {
    struct WatchedFile: Sendable {
        let path: String
        let fd: Int32
        let device: UInt64
        let inode: UInt64
    }

    let databasePath: String
    private let files: [WatchedFile]
    /// The current problem (nil: the files are fine), as a sentence naming the path, for the log.
    private let state = Mutex<String?>(nil)
    private let unusable = Atomic<Bool>(false)
    private let onChange: (@Sendable (String?) -> Void)?

    /// Watches `path` and `path-wal` (when it exists: in WAL mode it does once the store is open).
    init(path: String, onChange: (@Sendable (String?) -> Void)?) {
        databasePath = path
        self.onChange = onChange
        var files: [WatchedFile] = []
        for p in [path, path + "-wal"] {
            let fd = hinge_open_path(p)
            guard fd >= 0 else { continue }
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                close(fd)
                continue
            }
            files.append(WatchedFile(path: p, fd: fd, device: UInt64(st.st_dev), inode: UInt64(st.st_ino)))
        }
        self.files = files
    }

    deinit { for f in files { close(f.fd) } }

    /// True while a problem stands (a relaxed load: the writer reads it before every batch).
    var isUnusable: Bool { unusable.load(ordering: .acquiring) }
    var problem: String? { state.withLock { $0 } }

    /// Checks the files now, records the result, and calls `onChange` when it changed. Returns the problem.
    @discardableResult
    func check() -> String? {
        let found = StorageWatch.inspect(files)
        let changed = state.withLock { current -> Bool in
            if current == found { return false }
            current = found
            return true
        }
        unusable.store(found != nil, ordering: .releasing)
        if changed { onChange?(found) }
        return found
    }

    static func inspect(_ files: [WatchedFile]) -> String? {
        for f in files {
            var named = stat()
            if stat(f.path, &named) != 0 {
                let reason = String(cString: strerror(errno))
                var opened = stat()
                if fstat(f.fd, &opened) == 0 && opened.st_nlink == 0 {
                    return "\(f.path) was deleted while the server runs"
                }
                return "\(f.path) was moved away or cannot be reached while the server runs (\(reason))"
            }
            if UInt64(named.st_dev) != f.device || UInt64(named.st_ino) != f.inode {
                return "\(f.path) was replaced by another file while the server runs"
            }
            if faccessat(AT_FDCWD, f.path, W_OK, AT_EACCESS) != 0 {
                return "\(f.path) is not writable (\(String(cString: strerror(errno))))"
            }
        }
        return nil
    }
}

/// A background thread that runs `StorageWatch.check` every `intervalMillis`, until stopped.
final class StorageWatchdog: @unchecked Sendable {
    // Sendable proof: `stopping` is only touched with `lock` held; `thread` is written in `start` and read
    // in `stop`, both called once by `Store` on one thread.
    private let lock = ConditionLock()
    private var stopping = false
    private var thread: NamedThread?
    private let watch: StorageWatch
    private let intervalMillis: Int

    init(watch: StorageWatch, intervalMillis: Int) {
        self.watch = watch
        self.intervalMillis = intervalMillis
    }

    func start() throws(StoreError) {
        thread = try NamedThread.start("hinge-db-watch") { [self] in self.run() }
    }

    func stop() {
        lock.withLock { stopping = true }
        lock.broadcast()
        thread?.join()
        thread = nil
    }

    private func run() {
        while true {
            lock.lock()
            if !stopping { lock.wait(milliseconds: intervalMillis) }
            let stop = stopping
            lock.unlock()
            if stop { return }
            watch.check()
        }
    }
}

/// The exclusive lock of a server on its database: `flock` on `<db>.lock` beside it, held while the store is
/// open. A separate file because SQLite takes POSIX (`fcntl`) locks on the database itself, and any
/// descriptor closed on that file would drop them. The lock file holds the owner's pid (for the message) and
/// is left in place at exit: removing it could race with a server starting.
enum DatabaseLock {
    /// Takes the lock; the descriptor keeps it until closed. Throws `.locked` when another process holds it.
    static func acquire(databasePath path: String) throws(StoreError) -> Int32 {
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let e = errno
            // The directory cannot be written: neither can the WAL beside the database be created.
            if e == EROFS || e == EACCES || e == EPERM { throw .readOnly(path: path) }
            throw .lockUnavailable(path: lockPath, detail: String(cString: strerror(e)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            let owner = readOwner(fd)
            close(fd)
            if e == EWOULDBLOCK { throw .locked(path: path, lockPath: lockPath, owner: owner) }
            throw .lockUnavailable(path: lockPath, detail: String(cString: strerror(e)))
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return fd
    }

    private static func readOwner(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 24)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: "\n"))
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
