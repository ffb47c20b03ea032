import HTTPServer
import Resolving
import Threads

/// Which requests leave the event loop for the worker pool (`ServiceContext.work`), and the pool's size.
///
/// A typical resolve (a few KB, well under a millisecond) stays on its loop: handing it to a thread and
/// back costs more than it does. A request that could hold a loop for long goes to the pool, so that the
/// loop's other connections (and `/healthz`) keep being answered meanwhile.
enum HeavyWork {
    /// Bodies larger than this (a large scene, a large matrix request) are parsed and resolved on the pool.
    static let inlineBodyBytes = 64 * 1024
    /// A matrix body larger than this is planned on the pool too: planning parses the whole body into a value
    /// tree, and forty such bodies at once (slow readers asking for multi-MB answers) would hold a loop for
    /// tens of milliseconds. A studio's matrix request is a few hundred bytes.
    static let inlineMatrixBodyBytes = 8 * 1024
    /// A matrix whose work (combinations × scene nodes, `Matrix.Plan.work`) is above this runs on the pool:
    /// about a millisecond of CPU (see `Matrix.Limits.maxWork` for the cost of a unit). A matrix with pictures
    /// runs there whatever its work, as every picture does.
    static let inlineMatrixWork = 2_000
    /// Jobs that may wait for a worker thread beyond those running; a full queue answers 503.
    static func queueCapacity(threads: Int) -> Int { 4 * threads }

    /// The default pool: one thread per core.
    static func makePool() -> WorkPool {
        let threads = Configuration.coreCount
        return WorkPool(threads: threads, capacity: queueCapacity(threads: threads))
    }
}

extension ServiceContext {
    /// Runs `job` where `request`'s body is read: on the loop when it is at most `HeavyWork.inlineBodyBytes`,
    /// on the worker pool otherwise (`offload`). `job` is told whether it runs on the loop; an error it throws is
    /// answered. For writes that check a body; the resolve route keeps its own test, free of the closure's
    /// allocation.
    func readingBody(
        of request: HTTPRequest, _ reply: Reply,
        _ job: @escaping @Sendable (_ onLoop: Bool) throws(RouteError) -> Void
    ) throws(RouteError) {
        if request.body.count <= HeavyWork.inlineBodyBytes { return try job(true) }
        try offload(reply) { () throws(RouteError) in try job(false) }
    }

    /// Runs `job` on the worker pool (an error it throws is answered from there); throws the 503 with
    /// `Retry-After: 1` when the pool is full (or closed).
    func offload(_ reply: Reply, _ job: @escaping @Sendable () throws(RouteError) -> Void) throws(RouteError) {
        let submitted = work.submit {
            do throws(RouteError) { try job() } catch { reply.send(error) }
        }
        if submitted { return }
        metrics.workRefusals.add(1, ordering: .relaxed)
        throw RouteError(
            status: .serviceUnavailable,
            detail: "The server is busy with other heavy requests (\(work.threads) running, \(work.capacity) waiting); "
                + "retry shortly.",
            headers: ["Retry-After": "1"])
    }
}
