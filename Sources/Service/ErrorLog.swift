import HTTPServer
import JSON
import Store
import Synchronization
import Threads

/// The service's `error` lines on the log (standard error by default): what failed, with the SQL, the
/// paths and SQLite's message that a problem detail never shows, and the request id that the problem
/// carries (`requestId`), so that an operator can find the line from a client's report.
///
/// Lines are written whatever `--log-level` is (`error` is the highest level). A broken store can fail
/// every request: beyond `linesPerSecond` lines in one second the rest are counted and reported as one
/// line in the next second, so the log cannot be flooded.
final class ErrorLog: Sendable {
    let fileDescriptor: Int32
    let linesPerSecond: Int
    private struct Window {
        var second: Int64 = 0
        var lines = 0
        var suppressed = 0
    }
    private let window = Mutex(Window())

    init(fileDescriptor: Int32 = 2, linesPerSecond: Int = 20) {
        self.fileDescriptor = fileDescriptor
        self.linesPerSecond = linesPerSecond
    }

    /// A new request id: 16 hex digits, random (unique enough to find one line in a log).
    static func newRequestID() -> String {
        let n = UInt64.random(in: 1...UInt64.max)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `error: <message>` as one line (newlines in the message become spaces), rate-limited.
    func error(_ message: String) {
        let second = Int64(MonotonicClock.nanoseconds() / 1_000_000_000)
        let (write, suppressedBefore) = window.withLock { w -> (Bool, Int) in
            var reported = 0
            if w.second != second {
                reported = w.suppressed
                w = Window(second: second, lines: 0, suppressed: 0)
            }
            if w.lines >= linesPerSecond {
                w.suppressed += 1
                return (false, reported)
            }
            w.lines += 1
            return (true, reported)
        }
        if suppressedBefore > 0 {
            emit("error: \(suppressedBefore) more error lines were suppressed in the previous second")
        }
        if write { emit("error: " + message) }
    }

    private func emit(_ line: String) {
        var text = String(line.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) + "\n"
        text.withUTF8 { _ = writeFully(UnsafeRawBufferPointer($0), to: fileDescriptor) }  // dropped if it fails
    }
}
