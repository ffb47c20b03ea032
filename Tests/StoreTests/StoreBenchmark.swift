import Dispatch
import Synchronization
import Testing

@testable import Store

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Request-log throughput: 4 producer threads append as fast as they can; the writer group-commits.
/// Not a timed test (numbers on shared machines are noisy): it runs only with HINGE_STORE_BENCH=1 and
/// prints its figures. `HINGE_STORE_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter StoreBenchmark`
@Suite("Benchmark", .serialized, .enabled(if: getenv("HINGE_STORE_BENCH") != nil))
struct StoreBenchmark {
    @Test(arguments: [16_384, 1_000_000])
    func appendThroughputWithFourProducers(queueCapacity: Int) throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("bench.sqlite"), queueCapacity: queueCapacity))
        let producers = 4
        let perProducer = 50_000
        // Body sizes: HINGE_STORE_BENCH_BODY bytes each (default 1000 request, 2000 response).
        let size = getenv("HINGE_STORE_BENCH_BODY").flatMap { Int(String(cString: $0)) }
        let request = Array(#"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet"}]}"#.utf8)
            + Array(repeating: UInt8(0x20), count: max(0, (size ?? 1000) - 70))
        let response = Array(repeating: UInt8(0x61), count: size ?? 2_000)
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
            [store-bench] capacity=\(queueCapacity) producers=\(producers) appends=\(producers * perProducer) \
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
        let request = Array(repeating: UInt8(0x20), count: size ?? 1000)
        let response = Array(repeating: UInt8(0x61), count: size ?? 2_000)
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
        func pct(_ q: Double) -> Int { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
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
