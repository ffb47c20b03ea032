import Threads

/// Lints files on worker threads and hands the results back in order (docs/lint.md#speed): workers take the next file
/// index, and the calling thread consumes result 0, 1, 2… as each is ready. Workers stay at most `window` files ahead of
/// the consumer, so results waiting to be reported take bounded memory whatever the number of files.
enum LintPipeline {
    /// Runs `work` for each index of `0..<count` and `consume` for each result, in index order, on this thread.
    /// With one worker, or when threads cannot be started, everything runs on this thread.
    static func run<R: Sendable>(
        count: Int, workers: Int, window: Int, work: @escaping @Sendable (Int) -> R, consume: (Int, R) -> Void
    ) {
        guard workers > 1, count > 1 else {
            for i in 0..<count { consume(i, work(i)) }
            return
        }
        let state = PipelineState<R>(count: count, window: max(window, workers))
        var threads: [NamedThread] = []
        for w in 0..<min(workers, count) {
            guard let t = try? NamedThread(name: "hinge-lint-\(w)", { state.workLoop(work) }) else { break }
            threads.append(t)
        }
        if threads.isEmpty {
            for i in 0..<count { consume(i, work(i)) }
            return
        }
        for i in 0..<count { consume(i, state.take(i)) }
        for t in threads { t.join() }
    }
}

/// The pipeline's shared state.
private final class PipelineState<R: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `next`, `consumed` and `results` are read and written only with `lock` held; `count` and
    // `window` are constants.
    let lock = ConditionLock()
    let count: Int
    let window: Int
    var next = 0
    var consumed = 0
    var results: [Int: R] = [:]

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    func workLoop(_ work: (Int) -> R) {
        while true {
            lock.lock()
            while next < count && next >= consumed + window { lock.wait() }
            guard next < count else {
                lock.unlock()
                return
            }
            let i = next
            next += 1
            lock.unlock()
            let r = work(i)
            lock.lock()
            results[i] = r
            lock.broadcast()
            lock.unlock()
        }
    }

    /// Result `i`, once a worker has it.
    func take(_ i: Int) -> R {
        lock.lock()
        defer { lock.unlock() }
        while results[i] == nil { lock.wait() }
        let r = results.removeValue(forKey: i)!
        consumed = i + 1
        lock.broadcast()
        return r
    }
}
