import CLinux
import Glibc
import Synchronization

/// Work handed to a loop from other threads.
enum LoopMessage: Sendable {
    case response(fd: Int32, connectionID: UInt64, response: HTTPResponse)
    /// A socket accepted by another loop (handed to the least loaded one).
    case connection(Int32)
    case shutdown(deadlineNanoseconds: UInt64)
    /// Work handed back to the loop by another thread (`HTTPResponder.onLoop`).
    case job(@Sendable () -> Void)
}

/// The way into a loop from other threads: responses from worker and writer threads, connections handed off by
/// another loop, shutdown, jobs. A message goes into a mutex-guarded inbox and, when the inbox was empty, one
/// `write(2)` on an eventfd wakes the loop, so a batch of responses costs one wake-up. The loop takes the whole
/// inbox at once (`take`), swapping arrays so that neither side allocates once both have grown.
///
/// It also knows the loop's thread (`isCurrentThread`): a responder on that thread hands its response to the
/// loop directly, without the inbox.
final class ResponseQueue: Sendable {
    /// The eventfd the loop watches; written when the inbox goes from empty to not empty.
    let wakeFD: Int32
    private let inbox = Mutex<[LoopMessage]>([])
    private let threadID = Atomic<UInt>(0)

    init() throws(SystemError) {
        let fd = hinge_eventfd_create()
        if fd < 0 { throw SystemError("eventfd", errno) }
        wakeFD = fd
    }

    // Responders keep their loop, and so its queue, alive: the eventfd is never closed while one could still
    // write it.
    deinit { Glibc.close(wakeFD) }

    /// Makes the calling thread the loop's thread (the loop does it when it starts).
    func bindToCurrentThread() { threadID.store(Self.currentThread, ordering: .relaxed) }

    var isCurrentThread: Bool { threadID.load(ordering: .relaxed) == Self.currentThread }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Queues a message and wakes the loop if the inbox was empty (one wake-up per batch).
    func send(_ message: LoopMessage) {
        let wasEmpty = inbox.withLock { box -> Bool in
            let empty = box.isEmpty
            box.append(message)
            return empty
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(wakeFD, $0.baseAddress, 8) }
        }
    }

    /// Whether messages wait (the in-memory tests' stand-in for the eventfd's readiness).
    var hasMessages: Bool { inbox.withLock { !$0.isEmpty } }

    /// Clears the wake-up and moves every queued message into `messages`, which must be empty; the inbox keeps
    /// the buffer `messages` had.
    func take(into messages: inout [LoopMessage]) {
        var counter: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &counter) { Glibc.read(wakeFD, $0.baseAddress, 8) }
        inbox.withLock { swap(&$0, &messages) }
    }

    /// Wake-ups written since the last `take` (reads and clears the eventfd's counter; tests).
    func wakeUpsPending() -> UInt64 {
        var counter: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &counter) { Glibc.read(wakeFD, $0.baseAddress, 8) }
        return n == 8 ? counter : 0
    }
}
