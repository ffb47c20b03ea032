import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts completions and waits for an expected number with a deadline (no sleeps).
final class CompletionCounter: Sendable {
    private let group = DispatchGroup()
    let successes = Mutex<[RecordID]>([])
    let failures = Mutex<[StoreError]>([])

    func expect(_ n: Int) { for _ in 0..<n { group.enter() } }

    var completion: @Sendable (Result<RecordID, StoreError>) -> Void {
        { [self] result in
            switch result {
            case .success(let id): successes.withLock { $0.append(id) }
            case .failure(let e): failures.withLock { $0.append(e) }
            }
            group.leave()
        }
    }

    /// True when every expected completion arrived before the deadline.
    func wait(seconds: Int = 30) -> Bool { group.wait(timeout: .now() + .seconds(seconds)) == .success }
}

func record(
    device: String? = "iphone-16", status: Int = 200, codes: [String] = [], at ms: Int64 = 1_738_314_307_042,
    body: [UInt8] = Array(#"{"device":"iphone-16"}"#.utf8), response: [UInt8] = Array(#"{"ok":true}"#.utf8)
) -> RequestRecord {
    RequestRecord(
        receivedAt: Timestamp(millisecondsSinceEpoch: ms), durationMicros: 123, device: device, status: status,
        codes: codes, requestBody: body, responseBody: response, engineVersion: "test-1")
}

func customProfile(_ id: String = "my-phone", name: String = "My Phone", width: Double = 400) -> DeviceProfile {
    DeviceProfile(
        id: id, name: name, kind: .phone,
        displays: [
            Display(
                id: "main", width: width, height: 800, scale: 3, cornerRadius: 40,
                safeArea: Insets(top: 50, bottom: 30),
                landscapeSafeArea: Insets(leading: 50, bottom: 20, trailing: 50),
                portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact))
        ])
}

/// `n` pseudo-random bytes: a body no codec shrinks, for tests of sizes and bounds (the store compresses
/// repetitive bodies to almost nothing).
func incompressible(_ n: Int, seed: UInt64 = 42) -> [UInt8] {
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
}

/// A raw connection to inspect or tamper with a database behind the Store's back.
func rawConnection(_ path: String) throws -> Connection {
    try Connection(path: path, readOnly: false, busyTimeoutMillis: 2000)
}

/// Holds the store's writer thread in a job until the returned semaphore is signalled, so that appends queue
/// up deterministically; returns once the writer is inside the job (nil if it did not get there in 10 s).
func holdWriter(_ store: Store) -> DispatchSemaphore? {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    store.writer.submit {
        entered.signal()
        release.wait()
    }
    return entered.wait(timeout: .now() + 10) == .success ? release : nil
}

/// The calling thread's name (`/proc/thread-self/comm`), "" when it cannot be read.
func currentThreadName() -> String {
    guard let bytes = readFile("/proc/thread-self/comm") else { return "" }
    return String(decoding: bytes.filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}
