import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Request-log throughput: 4 producer threads append as fast as they can; the writer group-commits.
/// Not a timed test (numbers on shared machines are noisy): it runs only with HINGE_STORE_BENCH=1 and
/// prints its figures. Bodies are pseudo-random, so every codec stores them at their full size (the worst case).
/// `HINGE_STORE_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter StoreBenchmark`
@Suite("Benchmark", .serialized, .enabled(if: getenv("HINGE_STORE_BENCH") != nil))
struct StoreBenchmark {
    /// Both engines (PostgreSQL with HINGE_TEST_POSTGRES_URL), each at both queue capacities.
    @Test(arguments: EngineTarget.all, [16_384, 1_000_000])
    func appendThroughputWithFourProducers(engine: EngineTarget, queueCapacity: Int) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.queueCapacity = queueCapacity }
        let producers = 4
        let perProducer = 50_000
        // Body sizes: HINGE_STORE_BENCH_BODY bytes each (default 1000 request, 2000 response).
        let size = getenv("HINGE_STORE_BENCH_BODY").flatMap { Int(String(cString: $0)) }
        let request =
            Array(#"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet"}]}"#.utf8)
            + incompressible(max(0, (size ?? 1000) - 70), seed: 1)
        let response = incompressible(size ?? 2_000, seed: 2)
        let counter = CompletionCounter()
        counter.expect(producers * perProducer)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        DispatchQueue.concurrentPerform(iterations: producers) { p in
            for i in 0..<perProducer {
                store.requestLog.append(
                    RequestRecord(
                        receivedAt: .now(), durationMicros: 250, device: p % 2 == 0 ? "iphone-16" : "ipad-mini",
                        status: i % 10 == 0 ? 422 : 200, codes: i % 3 == 0 ? ["detents-ignored", "prefer-sheet"] : [],
                        requestBody: request, responseBody: response, engineVersion: "bench"),
                    completion: counter.completion)
            }
        }
        var produced = timespec()
        clock_gettime(CLOCK_MONOTONIC, &produced)
        #expect(counter.wait(seconds: 300))
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        func seconds(_ a: timespec, _ b: timespec) -> Double {
            Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
        }
        let c = store.counters
        let total = seconds(start, end)
        print(
            """
            [store-bench] engine=\(engine) capacity=\(queueCapacity) producers=\(producers) appends=\(producers * perProducer) \
            enqueue=\(String(format2(seconds(start, produced))))s total=\(String(format2(total)))s \
            committed=\(c.recordsWritten) (\(Int(Double(c.recordsWritten) / total))/s) rejected=\(c.recordsRejected) \
            commits=\(c.commits) avgBatch=\(c.commits > 0 ? c.recordsWritten / c.commits : 0) maxBatch=\(c.maxBatchSize) \
            pruned=\(c.recordsPruned)
            """)
        store.close()
    }

    /// Paced: 4 producers together offer HINGE_STORE_BENCH_RATE appends/s (default 25 000) for 4 s; does
    /// the writer keep up (no rejections, queue drained, latency from append to completion)?
    @Test func pacedAppendsKeepUp() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("bench.sqlite")))
        let rate = getenv("HINGE_STORE_BENCH_RATE").flatMap { Int(String(cString: $0)) } ?? 25_000
        let size = getenv("HINGE_STORE_BENCH_BODY").flatMap { Int(String(cString: $0)) }
        let request = incompressible(size ?? 1000, seed: 1)
        let response = incompressible(size ?? 2_000, seed: 2)
        let producers = 4
        let perProducer = rate  // 4 s at rate/4 each
        let counter = CompletionCounter()
        counter.expect(producers * perProducer)
        let latencies = Mutex<[Int]>([])
        let begin = monoMicros()
        DispatchQueue.concurrentPerform(iterations: producers) { p in
            let interval = Double(producers) * 1e6 / Double(rate)  // µs between this producer's appends
            for i in 0..<perProducer {
                let due = begin + Int(Double(i) * interval)
                if i % 50 == 0 {
                    let wait = due - monoMicros()
                    if wait > 0 { usleep(UInt32(wait)) }  // pacing a load generator, not synchronisation
                }
                let t0 = monoMicros()
                store.requestLog.append(
                    RequestRecord(
                        receivedAt: .now(), durationMicros: 250, device: "iphone-16", status: 200,
                        codes: i % 3 == 0 ? ["detents-ignored"] : [], requestBody: request, responseBody: response,
                        engineVersion: "bench")
                ) { result in
                    let l = monoMicros() - t0
                    latencies.withLock { $0.append(l) }
                    counter.completion(result)
                }
            }
        }
        #expect(counter.wait(seconds: 300))
        let elapsed = Double(monoMicros() - begin) / 1e6
        let c = store.counters
        let sorted = latencies.withLock { $0.sorted() }
        func pct(_ q: Double) -> Int {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
        }
        print(
            """
            [store-bench] paced rate=\(rate)/s body=\(request.count)+\(response.count)B appends=\(producers * perProducer) \
            elapsed=\(format2(elapsed))s committed=\(c.recordsWritten) rejected=\(c.recordsRejected) commits=\(c.commits) \
            avgBatch=\(c.commits > 0 ? c.recordsWritten / c.commits : 0) maxBatch=\(c.maxBatchSize) \
            latency p50=\(pct(0.5))µs p99=\(pct(0.99))µs max=\(sorted.last ?? 0)µs
            """)
        store.close()
    }
}

/// Writer CPU per record: one producer appends rounds of `HINGE_STORE_BENCH_BATCH` records
/// (default 50) while a job holds the writer, then releases it, so that every round is one transaction of
/// exactly that many records, and waits for the round's completions. Bodies: `HINGE_STORE_BENCH_BODY`
/// bytes each, default 652 + 3644 (a typical resolve); three codes per record. Prints the CPU time of the
/// writer and checkpoint threads (`/proc/self/task/*/schedstat`) divided by the records.
/// `HINGE_STORE_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter StoreBenchmarkCosts/writerCPUPerRecord`
@Suite("Benchmark: writer CPU and listing scans", .serialized, .enabled(if: getenv("HINGE_STORE_BENCH") != nil))
struct StoreBenchmarkCosts {
    @Test func writerCPUPerRecord() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("bench.sqlite"), maxRecords: 1_000_000))
        let records = envInt("HINGE_STORE_BENCH_RECORDS") ?? 50_000
        let batch = envInt("HINGE_STORE_BENCH_BATCH") ?? 50
        let size = envInt("HINGE_STORE_BENCH_BODY")
        let request = incompressible(size ?? 652, seed: 1)
        let response = incompressible(size ?? 3_644, seed: 2)
        let writer = try #require(threadID(named: "hinge-db-writer"))
        let checkpoint = threadID(named: "hinge-db-ckpt")
        let writer0 = threadCPUNanos(writer)
        let checkpoint0 = checkpoint.map(threadCPUNanos) ?? 0
        let begin = monoMicros()
        var done = 0
        while done < records {
            let n = min(batch, records - done)
            let release = try #require(holdWriter(store), "the writer thread did not take the job")
            let counter = CompletionCounter()
            counter.expect(n)
            for i in 0..<n {
                store.requestLog.append(
                    RequestRecord(
                        receivedAt: .now(), durationMicros: 250, device: i % 2 == 0 ? "iphone-16" : "ipad-mini",
                        status: i % 10 == 0 ? 422 : 200, codes: ["detents-ignored", "prefer-sheet", "chained-modal"],
                        requestBody: request, responseBody: response, engineVersion: "bench"),
                    completion: counter.completion)
            }
            release.signal()
            #expect(counter.wait(seconds: 60))
            done += n
        }
        let elapsed = Double(monoMicros() - begin) / 1e6
        let writerNanos = threadCPUNanos(writer) - writer0
        let checkpointNanos = checkpoint.map { threadCPUNanos($0) - checkpoint0 } ?? 0
        let c = store.counters
        #expect(c.recordsWritten == records && c.commitFailures == 0)
        print(
            """
            [store-bench] writer-cpu records=\(records) batch=\(batch) body=\(request.count)+\(response.count)B \
            codes=3 elapsed=\(format2(elapsed))s commits=\(c.commits) \
            writer=\(format2(Double(writerNanos) / Double(records) / 1000))µs/record \
            checkpoint=\(format2(Double(checkpointNanos) / Double(records) / 1000))µs/record
            """)
        store.close()
    }

    /// Listings over `HINGE_STORE_BENCH_RECORDS` records (default 100 000, bodies 652 + 3644 B): each query
    /// runs 7 times on a read connection; prints the median and the fastest, in ms, with the query plan.
    /// `HINGE_STORE_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter StoreBenchmarkCosts/listingTimes`
    @Test func listingTimes() throws {
        let dir = TemporaryDirectory()
        let records = envInt("HINGE_STORE_BENCH_RECORDS") ?? 100_000
        let store = try Store.open(.init(path: dir.file("bench.sqlite"), maxRecords: records))
        let size = envInt("HINGE_STORE_BENCH_BODY")
        let request = incompressible(size ?? 652, seed: 1)
        let response = incompressible(size ?? 3_644, seed: 2)
        let base = Timestamp.now().millisecondsSinceEpoch - Int64(records)
        let devices = ["iphone-se-3", "iphone-16", "iphone-16-pro-max", "ipad-mini", "ipad-pro-11"]
        let codeSets: [[String]] = [
            [], [], ["detents-ignored"], ["prefer-sheet", "detents-ignored"], ["chained-modal"],
        ]
        var appended = 0
        while appended < records {
            let n = min(1000, records - appended)
            let counter = CompletionCounter()
            counter.expect(n)
            for i in appended..<(appended + n) {
                store.requestLog.append(
                    RequestRecord(
                        receivedAt: Timestamp(millisecondsSinceEpoch: base + Int64(i)), durationMicros: 250,
                        device: devices[i % devices.count], status: i % 10 == 0 ? 422 : 200,
                        codes: codeSets[(i / 7) % codeSets.count], requestBody: request, responseBody: response,
                        engineVersion: "bench"),
                    completion: counter.completion)
            }
            #expect(counter.wait(seconds: 120))
            appended += n
        }
        #expect(try store.requestLog.count() == records)
        let cases: [(String, RecordQuery)] = [
            ("newest 50", RecordQuery()),
            ("device=iphone-16", RecordQuery(device: "iphone-16")),
            ("code=chained-modal", RecordQuery(code: "chained-modal")),
            ("status=422", RecordQuery(status: 422)),
            ("device=no-such-device", RecordQuery(device: "no-such-device")),
            ("status=599", RecordQuery(status: 599)),
            ("code=no-such-code", RecordQuery(code: "no-such-code")),
            ("code=detents (a prefix of a code)", RecordQuery(code: "detents")),
            (
                "since/until before the first record",
                RecordQuery(
                    since: Timestamp(millisecondsSinceEpoch: base - 10),
                    until: Timestamp(millisecondsSinceEpoch: base - 5))
            ),
            ("device+status+code", RecordQuery(device: "iphone-se-3", status: 422, code: "detents-ignored")),
        ]
        for (name, query) in cases {
            var times: [Double] = []
            var found = 0
            for _ in 0..<7 {
                let t0 = monoMicros()
                found = try store.requestLog.list(query).items.count
                times.append(Double(monoMicros() - t0) / 1000)
            }
            times.sort()
            print(
                "[store-bench] list \(name): \(found) items, median \(format2(times[3])) ms, min \(format2(times[0])) ms"
            )
        }
        store.close()
    }
}

private func envInt(_ name: String) -> Int? { getenv(name).flatMap { Int(String(cString: $0)) } }

/// The id of this process's thread named `name` (`/proc/self/task/*/comm`; Linux only). A Store thread
/// names itself when it starts, possibly after `Store.open` returned: look for up to a second.
private func threadID(named name: String) -> String? {
    for _ in 0..<100 {
        if let tid = findThread(named: name) { return tid }
        usleep(10_000)
    }
    return nil
}

private func findThread(named name: String) -> String? {
    guard let dir = opendir("/proc/self/task") else { return nil }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        let tid = withUnsafeBytes(of: entry.pointee.d_name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        guard tid.first?.isNumber == true, let comm = readFile("/proc/self/task/" + tid + "/comm") else { continue }
        if comm.split(separator: 0x0A).first.map({ String(decoding: $0, as: UTF8.self) }) == name { return tid }
    }
    return nil
}

/// Nanoseconds the thread spent on a CPU (first field of `/proc/self/task/TID/schedstat`).
private func threadCPUNanos(_ tid: String) -> Int {
    guard let bytes = readFile("/proc/self/task/" + tid + "/schedstat") else { return 0 }
    return Int(String(decoding: bytes, as: UTF8.self).split(separator: " ").first ?? "") ?? 0
}

private func format2(_ d: Double) -> String {
    let hundredths = Int((d * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
}

private func monoMicros() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000 + t.tv_nsec / 1000
}
