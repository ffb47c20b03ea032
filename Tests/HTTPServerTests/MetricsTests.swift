import Dispatch
import Testing
import Threads

@testable import HTTPServer

/// The server's counters are sharded per event loop (`ShardedCounters`): whatever shard each caller names, a
/// read is the sum of every addition.
@Suite struct MetricsTests {
    @Test func shardsSumToEveryAddition() {
        let counters = ShardedCounters(slots: 3)
        let threads = 6
        let perThread = 10_000
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            let shard = LoopShard(index: t)  // threads 0…5 on shards 0…5
            for i in 0..<perThread {
                counters.add(i % 3, shard: shard)
                if i % 2 == 0 { counters.add(2, 5, shard: shard) }
            }
        }
        #expect(counters.load(0) == threads * (perThread / 3 + 1))
        #expect(counters.load(1) == threads * (perThread / 3))
        #expect(counters.load(2) == threads * (perThread / 3) + threads * (perThread / 2) * 5)
    }

    @Test func everyShardCountsTowardsTheSameSlot() {
        let counters = ShardedCounters(slots: 9)  // two cache-line rows per shard
        for index in 0..<LoopShard.count { counters.add(8, index + 1, shard: LoopShard(index: index)) }
        #expect(counters.load(8) == (1...LoopShard.count).reduce(0, +))
        #expect((0..<8).allSatisfy { counters.load($0) == 0 })
    }

    @Test func aCounterAddsAndSubtracts() {
        let c = ShardedCounter()
        c.add(5, shard: LoopShard(loopIndex: 0))
        c.subtract(2, shard: LoopShard(loopIndex: 1))
        c.add(shard: .other)
        #expect(c.load() == 4)
    }

    @Test func aRequestCarriesTheShardOfItsLoop() {
        var request = HTTPRequest(method: .GET, path: "/")
        #expect(request.shard == LoopShard(index: 1))
        request.loopIndex = 3
        #expect(request.shard == LoopShard(index: 4))
    }
}
