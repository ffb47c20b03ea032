// Helpers shared by the test targets (a plain library target, depended on by tests only): temporary
// directories, whole-file reads and writes, a loopback socket, a seeded PRNG (the HTTP client of the live tests
// is in HTTPTestClient.swift).
import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny deterministic PRNG so that random tests replay exactly.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh temporary directory (`/tmp/<prefix>-XXXXXX`), removed with its files on deinit.
public final class TemporaryDirectory {
    public let path: String

    public init(prefix: String = "hinge-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "/tmp/\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

/// A whole file's bytes, nil when it cannot be opened or read.
public func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n > 0 { out += buf[0..<n] }
        if n < buf.count { break }
    }
    return ferror(f) == 0 ? out : nil
}

public func writeFile(_ path: String, _ bytes: [UInt8]) {
    guard let f = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}

public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// A file's size in bytes, 0 when it does not exist.
public func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// A failed socket call: its name and errno.
public struct SocketError: Error, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    public var description: String { "\(operation): errno \(code)" }
}

/// A blocking TCP socket connected to 127.0.0.1:`port`, whose reads time out after
/// `receiveTimeoutSeconds` (so that a bug fails a test instead of hanging it). The caller closes it.
public func connectLoopback(port: Int, receiveTimeoutSeconds: Int) throws(SocketError) -> Int32 {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
    var tv = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard rc == 0 else {
        let code = errno
        close(fd)
        throw SocketError(operation: "connect", code: code)
    }
    return fd
}

/// A gate for tests that stop a thread at a known point: `wait` blocks until `open`; `arrive` counts
/// arrivals that `waitForArrivals` waits for. No sleeps.
public final class Gate: @unchecked Sendable {
    // @unchecked Sendable: `isOpen` and `count` are only touched with `lock` held.
    private let lock = ConditionLock()
    private var isOpen = false
    private var count = 0

    public init() {}

    public func open() {
        lock.withLock { isOpen = true }
        lock.broadcast()
    }

    public func wait() {
        lock.withLock { while !isOpen { lock.wait() } }
    }

    public func arrive() {
        lock.withLock { count += 1 }
        lock.broadcast()
    }

    /// Blocks until `arrive` was called `n` times in all.
    public func waitForArrivals(_ n: Int) {
        lock.withLock { while count < n { lock.wait() } }
    }
}

/// A plain thread for tests that need a client blocked in a call while the test goes on; `join` waits.
public final class TestThread: Sendable {
    private let thread: NamedThread

    public init(_ body: @escaping @Sendable () -> Void) {
        do {
            thread = try NamedThread(name: "test", body)
        } catch {
            fatalError("\(error)")  // a test-harness failure, not reachable from input
        }
    }

    public func join() { thread.join() }
}

/// A worker pool of one thread whose every job first arrives at `started`, then waits at `gate` until the test
/// opens it: the test knows a job is running and holds it there.
public struct HeldPool: Sendable {
    public let gate = Gate()
    public let started = Gate()
    public let pool: WorkPool

    public init(capacity: Int = 1) {
        let gate = self.gate
        let started = self.started
        pool = WorkPool(
            threads: 1, capacity: capacity,
            beforeEachJob: {
                started.arrive()
                gate.wait()
            })
    }
}
