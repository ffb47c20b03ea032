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

/// A response handed over on the loop's own thread.
struct HandedOverResponse {
    let fd: Int32
    let connectionID: UInt64
    let response: HTTPResponse
}

/// The way into a loop: what responders hand to it (responses, jobs) and what other threads send it
/// (connections handed off by another loop, shutdown). Responders reach it without knowing the loop's type.
///
/// - From another thread, a message goes into a mutex-guarded inbox and, when the inbox was empty, one
///   `write(2)` on an eventfd wakes the loop, so a batch of responses costs one wake-up. The loop takes the
///   whole inbox at once (`take`), swapping arrays so that neither side allocates once both have grown.
/// - On the loop's own thread (a handler answering at once, a job the loop runs), a response is handed over
///   without lock or wake-up, and the loop delivers it as soon as the handler or job returns
///   (`nextHandedOver`): the loop's own code does the delivering, specialised for its transport.
final class ResponseQueue: Sendable {
    /// The eventfd the loop watches; written when the inbox goes from empty to not empty.
    let wakeFD: Int32
    private let inbox = Mutex<[LoopMessage]>([])
    private let threadID = Atomic<UInt>(0)
    /// Responses handed over on the loop's thread, oldest first: `handedOverFirst`, then the `later` ones
    /// not yet taken (`laterTaken` of them are). A handler answers once, so the first slot is nearly always
    /// all there is, and handing over costs two stores. Only the loop's thread touches them
    /// (`isCurrentThread`), so they need no lock; exclusivity is not checked at run time (no access is held
    /// across a call that could reach them again).
    @exclusivity(unchecked) nonisolated(unsafe) private var handedOverFirst: HandedOverResponse?
    @exclusivity(unchecked) nonisolated(unsafe) private var later: [HandedOverResponse] = []
    @exclusivity(unchecked) nonisolated(unsafe) private var laterTaken = 0

    init() throws(SystemError) {
        let fd = hinge_eventfd_create()
        if fd < 0 { throw SystemError("eventfd", errno) }
        wakeFD = fd
    }

    // Responders keep the queue alive: the eventfd is never closed while one could still write it.
    deinit { Glibc.close(wakeFD) }

    /// Makes the calling thread the loop's thread (the loop does it when it starts).
    func bindToCurrentThread() { threadID.store(Self.currentThread, ordering: .relaxed) }

    var isCurrentThread: Bool { threadID.load(ordering: .relaxed) == Self.currentThread }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Sends `response` to connection `fd` if it is still connection `connectionID`: handed over on the loop's
    /// thread, queued from any other.
    func deliver(fd: Int32, connectionID: UInt64, response: consuming HTTPResponse) {
        if isCurrentThread {
            let handed = HandedOverResponse(fd: fd, connectionID: connectionID, response: response)
            // The first slot holds the oldest response waiting: it takes one only when nothing else waits.
            if handedOverFirst == nil && laterTaken == later.count {
                handedOverFirst = handed
            } else {
                later.append(handed)
            }
        } else {
            send(.response(fd: fd, connectionID: connectionID, response: response))
        }
    }

    /// Runs `job` on the loop's thread: now when called there, else after the loop drains its inbox.
    func run(_ job: @escaping @Sendable () -> Void) {
        if isCurrentThread { job() } else { send(.job(job)) }
    }

    /// The next response handed over on the loop's thread, in the order they came; nil when none is left
    /// (the list is then emptied, keeping its capacity). The loop's thread only; delivering one may hand over
    /// more, which a nested call takes in turn.
    @inline(__always) func nextHandedOver() -> HandedOverResponse? {
        if let first = handedOverFirst.take() { return first }
        return later.isEmpty ? nil : nextLater()
    }

    private func nextLater() -> HandedOverResponse? {
        if laterTaken < later.count {
            defer { laterTaken += 1 }
            return later[laterTaken]
        }
        later.removeAll(keepingCapacity: true)
        laterTaken = 0
        return nil
    }

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
