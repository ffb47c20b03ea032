import Dispatch
import Testing

@testable import HTTPServer

/// The server's counters are sharded per thread (`ShardedCounters`): whatever shard each thread uses, a read
/// is the sum of every addition.
@Suite struct MetricsTests {
    @Test func shardsSumToEveryAddition() {
        let counters = ShardedCounters(slots: 3)
        let threads = 6
        let perThread = 10_000
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            CounterShard.set(t)  // threads 0…5 on shards 0…5; the pool's threads may repeat, which is fine
            for i in 0..<perThread {
                counters.add(i % 3)
                if i % 2 == 0 { counters.add(2, 5) }
            }
        }
        #expect(counters.load(0) == threads * (perThread / 3 + 1))
        #expect(counters.load(1) == threads * (perThread / 3))
        #expect(counters.load(2) == threads * (perThread / 3) + threads * (perThread / 2) * 5)
    }

    @Test func shardIndexWrapsAndDefaultsToZero() {
        CounterShard.set(0)
        #expect(CounterShard.current == 0)
        CounterShard.set(CounterShard.count + 3)
        #expect(CounterShard.current == 3)
        CounterShard.set(0)
    }

    @Test func aCounterAddsAndSubtracts() {
        let c = ShardedCounter()
        c.add(5)
        c.subtract(2)
        #expect(c.load() == 3)
    }
}
