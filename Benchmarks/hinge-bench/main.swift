// hinge-bench: in-process benchmark of the layout engine (CONTRIBUTING.md#performance).
//
//   swift run -c release hinge-bench
//
// Prints ns/op for resolve alone and for decode + resolve + encode (bytes in, bytes out) on a small, a
// typical and a large scene, and — in the same run — Foundation's JSONDecoder + JSONEncoder on the typical
// scene through equivalent Codable structs. Ratios within one run are what to compare; absolute numbers on
// shared machines are noisy. Each figure is the best of 7 rounds of thread CPU time.
import Foundation
import JSON
import LayoutEngine
import Store
import Synchronization

#if HINGE_SWIFTUI
    import SwiftUIBridge
#endif

// MARK: - Devices

/// The built-in catalog the server seeds its database with (the scenes name its devices).
let catalog = StaticDeviceCatalog(BuiltInDevices.all)

// MARK: - Scenes

let small = #"{"device":"iphone-16","presentations":[{"id":"sheet","kind":"sheet","detents":["medium","large"]}]}"#

/// Benchmarks/scenes/typical.json (the HTTP load test posts the same file).
let typical = #"""
    {"device": "iphone-duo", "posture": "halfOpened",
     "presentations": [
       {"id": "tools", "kind": "adaptivePanel"},
       {"id": "editor", "kind": "sheet", "placement": "trailing", "detents": ["medium", "large"],
        "backgroundInteraction": {"upThrough": "medium"},
        "toolbar": [{"title": "Cancel", "placement": "cancellationAction", "systemImage": "xmark"},
                    {"title": "Save", "placement": "confirmationAction", "systemImage": "checkmark"}]},
       {"id": "help", "kind": "popover", "presentedFrom": "editor", "anchor": {"x": 120, "y": 200, "width": 44, "height": 44}}
     ],
     "arrangement": {"style": "split", "secondary": {"ratio": 0.35}}}
    """#

/// 50 presentations of every kind, each presented from the one before it (a deep chain), on the iPhone Duo.
let large: String = {
    var items: [String] = []
    for i in 0..<50 {
        let from = i == 0 ? "" : #","presentedFrom":"p\#(i - 1)""#
        switch i % 4 {
        case 0:
            items.append(
                #"{"id":"p\#(i)","kind":"sheet","placement":"trailing","detents":["medium","large",{"height":300}]\#(from)}"#
            )
        case 1:
            items.append(
                #"{"id":"p\#(i)","kind":"popover","anchor":{"x":\#(i * 13 % 700),"y":\#(i * 29 % 800),"width":44,"height":44},"compactAdaptation":"popover"\#(from)}"#
            )
        case 2: items.append(#"{"id":"p\#(i)","kind":"adaptivePanel","modal":true\#(from)}"#)
        default: items.append(#"{"id":"p\#(i)","kind":"fullScreenCover"\#(from)}"#)
        }
    }
    return
        #"{"device":"iphone-duo","posture":"halfOpened","presentations":[\#(items.joined(separator: ","))],"arrangement":{"style":"overlay"}}"#
}()

// MARK: - Harness

@inline(never)
func consume<T>(_ x: T) { withExtendedLifetime(x) {} }

/// This thread's CPU time in ns: unlike wall time it does not count the time the thread waits for a
/// core, so the figures stay comparable on a machine shared with compilers (cache effects remain).
func threadCPUTime() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
}

/// Best of `rounds` timings of `iterations` calls, in CPU ns per call.
func measure(iterations: Int, rounds: Int = 7, _ body: () -> Int) -> Double {
    var best = Double.infinity
    var sink = 0
    for _ in 0..<rounds {
        let start = threadCPUTime()
        for _ in 0..<iterations { sink &+= body() }
        best = min(best, (threadCPUTime() - start) / Double(iterations))
    }
    consume(sink)
    return best
}

func decodeScene(_ bytes: [UInt8]) -> Scene {
    guard let document = try? JSONParser.document(bytes),
        let scene = Scene.decode(document.root, catalog: catalog).scene
    else {
        print("benchmark scene does not decode")
        exit(1)
    }
    return scene
}

/// Bytes in, bytes out: what POST /v1/resolve does apart from HTTP, as `Resolver` does it: the one-pass
/// reader first, and for a body it declines the parsed document decoded directly (no `JSONValue` tree).
@inline(never)
func pipeline(_ bytes: [UInt8]) -> Int {
    if let scene = bytes.withUnsafeBufferPointer({ Scene.decodeInOnePass($0, catalog: catalog) }) {
        return LayoutEngine.resolve(scene).encoded.count
    }
    guard let document = try? JSONParser.document(bytes),
        case .scene(let scene) = Scene.decode(document.root, catalog: catalog)
    else { return -1 }
    return LayoutEngine.resolve(scene).encoded.count
}

// MARK: - Run

// HINGE_BENCH_DUMP=DIR: only write the small, typical and large scenes' requests and the pipeline's
// responses (DIR/NAME.request.json, DIR/NAME.response.json), to compare builds byte for byte with `cmp`.
if let directory = ProcessInfo.processInfo.environment["HINGE_BENCH_DUMP"] {
    for (name, text) in [("small", small), ("typical", typical), ("large", large)] {
        let request = Array(text.utf8)
        guard let document = try? JSONParser.document(request),
            case .scene(let scene) = Scene.decode(document.root, catalog: catalog)
        else {
            print("\(name): the scene does not decode")
            exit(1)
        }
        let response = LayoutEngine.resolve(scene).encoded
        try Data(request).write(to: URL(fileURLWithPath: "\(directory)/\(name).request.json"))
        try Data(response).write(to: URL(fileURLWithPath: "\(directory)/\(name).response.json"))
    }
    exit(0)
}

// HINGE_BENCH_CODECS=1: only the request log's body codecs (docs/store.md#body-codec) on the typical scene (on
// its device and on the iPhone SE), the small and the large scenes' requests and responses: stored bytes (frames
// included), compress and decompress CPU µs per record (request + response). The typical and large scenes'
// bodies are in no built-in dictionary; the small scene's are almost one of dictionary 1's records.
if ProcessInfo.processInfo.environment["HINGE_BENCH_CODECS"] != nil {
    let codecs: [BodyCodec] = [
        .stored, .lz4(), .lz4(acceleration: 4), .lz4Dictionary(1), .lz4Dictionary(), .lz4Dictionary(acceleration: 4),
        .zstd(level: -5), .zstd(level: -1), .zstd(level: 1), .zstd(level: 3), .zstd(level: 6), .zstd(level: 9),
    ]
    print(
        "zstd \(BodyCodec.libraryVersion(.zstd) ?? "not loaded"), lz4 \(BodyCodec.libraryVersion(.lz4) ?? "not loaded")"
    )
    // The typical scene on a built-in phone whose answers dictionary 2 does not hold (it holds the iPhone 16's,
    // the iPad Pro 11's and the iPhone Duo's).
    let typicalSE = typical.replacingOccurrences(
        of: #""device": "iphone-duo", "posture": "halfOpened","#, with: #""device": "iphone-se-3","#)
    for (name, text) in [
        ("typical", typical), ("typical on iphone-se-3", typicalSE), ("small", small), ("large", large),
    ] {
        let request = Array(text.utf8)
        let response = LayoutEngine.resolve(decodeScene(request)).encoded
        print("")
        print("\(name) scene: request \(request.count) B, response \(response.count) B")
        print("codec | request B | response B | ratio | compress µs | decompress µs")
        for codec in codecs where codec.active == codec {
            let frames = (codec.encode(request), codec.encode(response))
            let iterations = name == "large" ? 2_000 : 20_000
            let compress = measure(iterations: iterations) {
                codec.encode(request).count + codec.encode(response).count
            }
            let decompress = measure(iterations: iterations) {
                var n = 0
                if case .success(let b) = BodyCodec.decode(frames.0, format: .framed) { n += b.count }
                if case .success(let b) = BodyCodec.decode(frames.1, format: .framed) { n += b.count }
                return n
            }
            let ratio = Double(request.count + response.count) / Double(frames.0.count + frames.1.count)
            print(
                "\(codec) | \(frames.0.count) | \(frames.1.count) | \(String(format: "%.2f", ratio)) | "
                    + "\(String(format: "%.2f", compress / 1000)) | \(String(format: "%.2f", decompress / 1000))")
        }
    }
    exit(0)
}

// HINGE_BENCH_RECORD=BATCH: only the request log's writer: HINGE_BENCH_RECORDS (default 40,000) records of the
// typical scene (request and response, compressed as the server stores them) committed in transactions of
// exactly BATCH records, into a fresh database in HINGE_BENCH_DIR (default /tmp), pruning off. The writer is
// held in a job while a batch is appended, so every commit holds BATCH records (the server's batches vary with
// load). Prints the CPU time per record of the writer thread, the checkpoint thread and this thread (framing
// the bodies, queueing), from /proc/self/task; and the file's bytes per record after close. Compare with
// `Benchmarks/sqlite_floor.c` at the same batch size and stored bytes (BENCHMARKS.md, "Request log");
// HINGE_BENCH_RECORD_STEP=1 runs the harness of its FLOOR_HANDOFF=2 instead (see below).
if let batchText = ProcessInfo.processInfo.environment["HINGE_BENCH_RECORD"] {
    let environment = ProcessInfo.processInfo.environment
    let batch = max(1, Int(batchText) ?? 10)
    let total = environment["HINGE_BENCH_RECORDS"].flatMap { Int($0) } ?? 40_000
    let path = (environment["HINGE_BENCH_DIR"] ?? "/tmp") + "/hinge-bench-record-\(getpid()).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let store: Store
    do {
        var configuration = Store.Configuration(path: path, maxRecords: 1 << 40, maxLogBytes: 1 << 50)
        if let pages = environment["HINGE_BENCH_WAL_CHECKPOINT_PAGES"].flatMap({ Int($0) }) {
            configuration.walCheckpointPages = pages
        }
        if let pages = environment["HINGE_BENCH_WAL_MAX_PAGES"].flatMap({ Int($0) }) {
            configuration.walMaxPages = pages
        }
        store = try Store.open(configuration)
    } catch {
        print("cannot open \(path): \(error)")
        exit(1)
    }
    let request = Array(typical.utf8)
    let response = LayoutEngine.resolve(decodeScene(request)).encoded
    let record = RequestRecord(
        receivedAt: .now(), durationMicros: 120, device: "iphone-duo", status: 200,
        codes: ["chained-modal", "popover-adapted", "split-follows-fold"], requestBody: request,
        responseBody: response, engineVersion: LayoutEngine.version)
    let self_ = "/proc/self/task"
    /// CPU seconds (utime + stime) of this process's threads, by name.
    func threadCPU() -> [String: Double] {
        var out: [String: Double] = [:]
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: self_)) ?? [] {
            guard let comm = try? String(contentsOfFile: "\(self_)/\(tid)/comm", encoding: .utf8),
                let stat = try? String(contentsOfFile: "\(self_)/\(tid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            out[name, default: 0] += ticks / hz
        }
        return out
    }
    let failures = Atomic<Int>(0)
    // HINGE_BENCH_RECORD_STEP=1: in step instead, as clients that wait for their answers are: each batch is
    // queued in one operation (`RequestLog.append(contentsOf:)`, which wakes the writer once) and the next is
    // made only when every record of this one is done, so the writer sleeps between commits. The same harness
    // as `sqlite_floor`'s FLOOR_HANDOFF=2.
    var stepSeconds: Double?
    if environment["HINGE_BENCH_RECORD_STEP"] == "1" {
        let done = DispatchSemaphore(value: 0)
        let batchRecords = [RequestRecord](repeating: record, count: batch)
        var seconds = 0.0
        var appended = 0
        let before = threadCPU()
        while appended < total {
            let n = min(batch, total - appended)
            var t0 = timespec()
            var t1 = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
            store.requestLog.append(contentsOf: n == batch ? batchRecords : Array(batchRecords.prefix(n))) { result in
                if case .failure = result { failures.wrappingAdd(1, ordering: .relaxed) }
                done.signal()
            }
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1)
            seconds += Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
            for _ in 0..<n { done.wait() }
            appended += n
        }
        let after = threadCPU()
        stepSeconds = seconds
        reportRecordBench(before: before, after: after, appendingSeconds: seconds)
    }
    func reportRecordBench(before: [String: Double], after: [String: Double], appendingSeconds: Double) {
        let counters = store.counters
        store.close()
        var st = stat()
        let fileBytes = stat(path, &st) == 0 ? Int(st.st_size) : 0
        for suffix in ["", "-wal", "-shm", ".lock"] { unlink(path + suffix) }
        let us = { (name: String) in ((after[name] ?? 0) - (before[name] ?? 0)) / Double(total) * 1e6 }
        print(
            (stepSeconds == nil ? "" : "in step: ")
                + String(
                    format:
                        "batches of %d, %d records (%d commits, %d failed): CPU µs per record: writer %.1f, "
                        + "checkpoint %.1f, writer + checkpoint %.1f, appending thread %.1f; file %d B per record",
                    batch, total, counters.commits, failures.load(ordering: .relaxed),
                    us("hinge-db-writer"), us("hinge-db-ckpt"), us("hinge-db-writer") + us("hinge-db-ckpt"),
                    appendingSeconds / Double(total) * 1e6, fileBytes / max(total, 1)))
        exit(0)
    }
    guard var release = store.holdWriter() else {
        print("the writer is closed")
        exit(1)
    }
    let before = threadCPU()
    var main = timespec()
    var appended = 0
    var mainSeconds = 0.0
    while appended < total {
        var t0 = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
        for _ in 0..<min(batch, total - appended) {
            store.requestLog.append(record) { result in
                if case .failure = result { failures.wrappingAdd(1, ordering: .relaxed) }
            }
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &main)
        mainSeconds += Double(main.tv_sec - t0.tv_sec) + Double(main.tv_nsec - t0.tv_nsec) / 1e9
        appended += batch
        // The previous hold ends on another thread while the next one queues behind the batch: the writer
        // commits the batch, then waits in the next hold.
        let previous = release
        DispatchQueue.global().async { previous() }
        guard let next = store.holdWriter() else { break }
        release = next
    }
    let after = threadCPU()
    release()
    reportRecordBench(before: before, after: after, appendingSeconds: mainSeconds)
}

// HINGE_BENCH_DUMP=dir: only write the encoded responses of the small, typical and large scenes to dir/small.json,
// dir/typical.json and dir/large.json, and of each scene file given as an argument to dir/<file name> (its errors
// when it does not decode), to compare the bytes two builds write (`cmp`).
if let dir = ProcessInfo.processInfo.environment["HINGE_BENCH_DUMP"] {
    var outputs = [
        ("small.json", Array(small.utf8)), ("typical.json", Array(typical.utf8)), ("large.json", Array(large.utf8)),
    ]
    for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
            print("cannot read \(path)")
            exit(1)
        }
        outputs.append(((path as NSString).lastPathComponent, Array(data)))
    }
    for (name, bytes) in outputs {
        // A file that does not decode writes its errors instead.
        var response = Data("undecodable".utf8)
        if let document = try? JSONParser.document(bytes) {
            switch Scene.decode(document.root, catalog: catalog) {
            case .scene(let scene): response = Data(LayoutEngine.resolve(scene).encoded)
            case .invalid(let errors, _): response = Data("\(errors)".utf8)
            }
        }
        guard FileManager.default.createFile(atPath: dir + "/" + name, contents: response) else {
            print("cannot write \(dir)/\(name)")
            exit(1)
        }
    }
    exit(0)
}

// HINGE_BENCH_SWIFT_PARSE=DIR: only read every .swift file under DIR and parse each, on this thread, with the toolchain's
// parser, keeping nothing: the floor `hinge scenes` is measured against (Benchmarks/scenes.sh, docs/swiftui.md#speed).
#if HINGE_SWIFTUI
    if let dir = ProcessInfo.processInfo.environment["HINGE_BENCH_SWIFT_PARSE"] {
        let paths = (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        let files = paths.map { path in
            SwiftSourceFile(path: path, bytes: Array(FileManager.default.contents(atPath: dir + "/" + path) ?? Data()))
        }
        print("\(files.count) files, \(SwiftUIReader.parseOnly(files)) top-level statements")
        exit(0)
    }
#endif

// HINGE_BENCH_STAGES=1: the typical pipeline with each stage timed inside it (read, resolve, encode, and the drop of the
// scene, the resolution and the body), best of 15 rounds of 20,000: where a change to the pipeline's time lands,
// which the stages timed alone (each on warm data of its own) do not show. Wall time (CLOCK_MONOTONIC) around each
// stage: the clock reads add about 20 ns to each.
if ProcessInfo.processInfo.environment["HINGE_BENCH_STAGES"] != nil {
    let bytes = Array(typical.utf8)
    func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
    var best = [UInt64](repeating: .max, count: 4)
    var sink = 0
    for _ in 0..<15 {
        var total = [UInt64](repeating: 0, count: 4)
        for _ in 0..<20_000 {
            var t = (UInt64(0), UInt64(0), UInt64(0))
            let start = now()
            do {
                guard let scene = bytes.withUnsafeBufferPointer({ Scene.decodeInOnePass($0, catalog: catalog) }) else {
                    exit(1)
                }
                t.0 = now()
                let resolution = LayoutEngine.resolve(scene)
                t.1 = now()
                let body = resolution.encoded
                t.2 = now()
                sink &+= body.count
            }
            let end = now()
            total[0] &+= t.0 &- start
            total[1] &+= t.1 &- t.0
            total[2] &+= t.2 &- t.1
            total[3] &+= end &- t.2
        }
        for i in 0..<4 { best[i] = min(best[i], total[i] / 20_000) }
    }
    consume(sink)
    print(
        "typical pipeline, by stage inside it (ns/op): read \(best[0]), resolve \(best[1]), encode \(best[2]), drop \(best[3]); sum \(best.reduce(0, +))"
    )
    exit(0)
}

// HINGE_BENCH_PROFILE=1: only loop the typical pipeline, for `perf record`.
// HINGE_BENCH_PROFILE=resolve (or decode, encode, parse, onepass): only that step. HINGE_BENCH_ITERATIONS=n: loop n times (200,000 by
// default; a few thousand are enough under `valgrind --tool=callgrind`). HINGE_BENCH_SCENE=small or large: loop that
// scene instead of the typical one.
if let mode = ProcessInfo.processInfo.environment["HINGE_BENCH_PROFILE"] {
    let bytes: [UInt8]
    switch ProcessInfo.processInfo.environment["HINGE_BENCH_SCENE"] {
    case "small": bytes = Array(small.utf8)
    case "large": bytes = Array(large.utf8)
    default: bytes = Array(typical.utf8)
    }
    let scene = decodeScene(bytes)
    let iterations = ProcessInfo.processInfo.environment["HINGE_BENCH_ITERATIONS"].flatMap { Int($0) } ?? 200_000
    var sink = 0
    guard let document = try? JSONParser.document(bytes) else { exit(1) }
    let resolution = LayoutEngine.resolve(scene)
    for _ in 0..<iterations {
        switch mode {
        case "resolve": sink &+= LayoutEngine.resolve(scene).placements.count
        case "decode": sink &+= Scene.decode(document.root, catalog: catalog).scene?.presentations.count ?? 0
        case "encode": sink &+= resolution.encoded.count
        case "parse": sink &+= (try? JSONParser.document(bytes)) == nil ? 0 : 1
        case "onepass":
            let scene = bytes.withUnsafeBufferPointer { Scene.decodeInOnePass($0, catalog: catalog) }
            sink &+= scene?.presentations.count ?? 0
        case "tree": sink &+= (try? JSONParser.parse(bytes)) == nil ? 0 : 1
        default: sink &+= pipeline(bytes)
        }
    }
    print(sink)
    exit(0)
}

let cases: [(String, String, Int)] = [
    ("small (1 sheet)", small, 20_000), ("typical (3 + arrangement)", typical, 20_000), ("large (50)", large, 1_000),
]
print("hinge-bench — engine \(LayoutEngine.version); ns/op (thread CPU time), best of 7 rounds")
print("")
print(
    "case".padding(toLength: 28, withPad: " ", startingAt: 0),
    "resolve".padding(toLength: 12, withPad: " ", startingAt: 0), "decode+resolve+encode")
var typicalPipeline = 0.0
for (name, text, n) in cases {
    let bytes = Array(text.utf8)
    let scene = decodeScene(bytes)
    let r = measure(iterations: n) { LayoutEngine.resolve(scene).placements.count }
    let p = measure(iterations: n) { pipeline(bytes) }
    if name.hasPrefix("typical") { typicalPipeline = p }
    print(
        name.padding(toLength: 28, withPad: " ", startingAt: 0), String(format: "%-12.0f", r), String(format: "%.0f", p)
    )
}

let typicalData = Data(typical.utf8)
let dto = responseDTO(Array(typical.utf8))
let decoder = JSONDecoder()
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let foundation = measure(iterations: 5_000) {
    guard let scene = try? decoder.decode(SceneDTO.self, from: typicalData), let out = try? encoder.encode(dto) else {
        return -1
    }
    return (scene.presentations?.count ?? 0) + out.count
}
print("")
print(
    "Foundation JSONDecoder + JSONEncoder (.sortedKeys), typical scene, codec only (no layout): \(String(format: "%.0f", foundation)) ns/op"
)
print(
    "hinge decode+resolve+encode vs Foundation decode+encode: \(String(format: "%.1f", foundation / typicalPipeline))× faster"
)

// MARK: - Where the typical pipeline spends its time
do {
    let bytes = Array(typical.utf8)
    guard let document = try? JSONParser.document(bytes) else { exit(1) }
    let scene = decodeScene(bytes)
    let resolution = LayoutEngine.resolve(scene)
    let resolutionTree = resolution.json
    let parse = measure(iterations: 20_000) { (try? JSONParser.document(bytes)) == nil ? 0 : 1 }
    let decode = measure(iterations: 20_000) {
        Scene.decode(document.root, catalog: catalog).scene?.presentations.count ?? 0
    }
    let onePass = measure(iterations: 20_000) {
        bytes.withUnsafeBufferPointer { Scene.decodeInOnePass($0, catalog: catalog) }?.presentations.count ?? 0
    }
    let tree = measure(iterations: 20_000) { (try? JSONParser.parse(bytes)) == nil ? 0 : 1 }
    let build = measure(iterations: 20_000) { resolution.json == .null ? 0 : 1 }
    let write = measure(iterations: 20_000) { JSONWriter.encode(resolutionTree).count }
    let direct = measure(iterations: 20_000) { resolution.encoded.count }
    let resolveOnly = measure(iterations: 20_000) { LayoutEngine.resolve(scene).placements.count }
    print("")
    print(
        "typical, by stage (ns/op): one-pass read \(Int(onePass)) (the general path instead: parse \(Int(parse)), decode \(Int(decode))), resolve \(Int(resolveOnly)), encode directly \(Int(direct)) (\(resolution.encoded.count) bytes); tree + writer instead: build \(Int(build)) + write \(Int(write)); the request as a JSONValue tree (JSONParser.parse) \(Int(tree))"
    )
}
