import Dispatch
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
}

private func format2(_ d: Double) -> String {
    let hundredths = Int((d * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
}
