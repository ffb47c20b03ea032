import Glibc
import SwiftCodeModel
import Threads

/// A Swift file to read: the path shown for it, and its bytes.
public struct SwiftSourceFile: Sendable {
    public var path: String
    public var bytes: [UInt8]
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// SwiftUI source → scenes (docs/swiftui.md#read). Files that cannot present are never parsed; the others are
/// parsed, and their views read, on `jobs` threads.
public enum SwiftUIReader {
    /// The processors online: the default number of threads.
    public static var processors: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Reads `files` (paths as they are to be shown; the order is the output's). A file is parsed when it names a
    /// presenting modifier or `ArrangementView`, or calls a presenting custom modifier read elsewhere, or declares
    /// what presented content uses (a view, an extension, a custom modifier the other files need).
    public static func read(_ files: [SwiftSourceFile], jobs: Int = processors) -> SceneReport {
        let texts = files.map { LineTable.withoutByteOrderMark($0.bytes) }
        let paths = files.map(\.path)
        var lowered = [CodeFile?](repeating: nil, count: files.count)
        /// Parses the files not parsed yet that `matches`; true when it parsed any.
        @discardableResult
        func parse(where matches: @escaping @Sendable ([UInt8]) -> Bool) -> Bool {
            let candidates = lowered.indices.filter { lowered[$0] == nil }
            let more = ParallelMap.map(candidates.count, jobs: jobs) { k -> CodeFile? in
                matches(texts[candidates[k]]) ? SyntaxLowering.lower(texts[candidates[k]], file: candidates[k]) : nil
            }
            var added = false
            for (k, f) in more.enumerated() where f != nil {
                lowered[candidates[k]] = f
                added = true
            }
            return added
        }

        // 1. Files that can present, scanned and parsed on the threads.
        let first = ParallelMap.map(texts.count, jobs: jobs) { i -> CodeFile? in
            SwiftSourceScan.mentions(SwiftSourceScan.presentingNames, in: texts[i])
                ? SyntaxLowering.lower(texts[i], file: i) : nil
        }
        for (i, f) in first.enumerated() { lowered[i] = f }

        // 2. Files that present through a declaration of step 1 (a custom modifier, a helper in an extension).
        let presenting = PresentingDeclarations(ProjectIndex(files: lowered.compactMap { $0 }))
        parse(where: {
            SwiftSourceScan.mentions(presenting.calls, in: $0) || SwiftSourceScan.declares(presenting.types, in: $0)
        })

        // 3. Read the views; files that declare what presented content uses and was not found are parsed, and the
        //    views read again (a few rounds at most: each round only adds files).
        var results: [SceneExtractor.FileResult] = []
        for round in 0..<3 {
            let index = ProjectIndex(files: lowered.compactMap { $0 })
            let extractor = SceneExtractor(index: index, paths: paths)
            results = ParallelMap.map(index.files.count, jobs: jobs) { k in extractor.scenes(in: index.files[k]) }
            let missing = results.reduce(into: Set<String>()) {
                $0.formUnion($1.missingTypes.union($1.missingFunctions))
            }
            guard round < 2, parse(where: { SwiftSourceScan.declares(missing, in: $0) }) else { break }
        }

        return SceneReport(
            files: files.count, parsedFiles: lowered.count { $0 != nil }, scenes: results.flatMap(\.scenes))
    }

    /// Whether a file's bytes name a presenting modifier or `ArrangementView` (the scan `read` starts with).
    public static func mayPresent(_ bytes: [UInt8]) -> Bool {
        SwiftSourceScan.mentions(SwiftSourceScan.presentingNames, in: LineTable.withoutByteOrderMark(bytes))
    }

    /// Parses each file on this thread and drops the trees: the parser's own cost, the floor `read` is measured
    /// against (Benchmarks/scenes.sh). Returns the number of top-level statements, so the work is not optimised
    /// away.
    public static func parseOnly(_ files: [SwiftSourceFile]) -> Int {
        files.reduce(0) { $0 + SyntaxLowering.parseOnly(LineTable.withoutByteOrderMark($1.bytes)) }
    }
}

/// What the files parsed so far declare that presents: custom modifiers (`extension View` functions) and
/// `ViewModifier`s whose bodies present, and types whose extensions hold presenting helpers. A file that calls one of
/// the first, or declares one of the last, can present too.
struct PresentingDeclarations {
    var calls: [[UInt8]] = []
    var types = Set<String>()

    init(_ index: ProjectIndex) {
        let presentingCalls: Set<String> = ["sheet", "fullScreenCover", "popover", "adaptivePanel"]
        func presents(_ body: [CodeStatement]) -> Bool {
            var found = false
            for s in body {
                CodeWalk.forEachCall(in: s) { c in
                    if let n = CodeWalk.calleeName(c.callee), presentingCalls.contains(n) { found = true }
                }
            }
            return found
        }
        var names = Set<String>()
        for (name, functions) in index.modifiers where functions.contains(where: { presents($0.body) }) {
            names.insert(name)
        }
        for file in index.files {
            for t in file.types {
                let bodies = t.functions.map(\.body) + t.properties.compactMap(\.getter)
                guard bodies.contains(where: presents) else { continue }
                if t.isViewModifier { names.insert(t.name) }
                if t.kind == .extensionOf { types.insert(t.name) }
            }
        }
        calls = names.sorted().map { Array($0.utf8) }
    }
}

/// `work(0..<count)` on up to `jobs` threads of a `WorkPool`, results in index order.
enum ParallelMap {
    static func map<R: Sendable>(_ count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> R) -> [R] {
        let threads = min(jobs, count)
        guard threads > 1 else { return (0..<count).map(work) }
        let slots = ResultSlots<R>(count: count)
        let pool = WorkPool(threads: threads, capacity: threads, name: "hinge-scenes", nice: 0)
        for _ in 0..<threads {
            let job: WorkPool.Job = {
                while let i = slots.claim() { slots.store(i, work(i)) }
            }
            if !pool.submit(job) { job() }
        }
        pool.close()
        return slots.results()
    }
}

/// The results of `ParallelMap`, filled by its threads.
private final class ResultSlots<R: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `next` and `slots` are read and written only with `lock` held.
    private let lock = ConditionLock()
    private var next = 0
    private var slots: [R?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next index to work on, nil when all are taken.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ i: Int, _ r: R) {
        lock.lock()
        slots[i] = r
        lock.unlock()
    }

    /// Every result (after the pool has closed, so every index was stored).
    func results() -> [R] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
