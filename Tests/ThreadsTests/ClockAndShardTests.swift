import Glibc
import Testing

import Threads

/// The one monotonic clock, the deadlines `ConditionLock` computes with it, and the shards of state kept per
/// event loop.
@Suite struct ClockAndShardTests {
    @Test func theMonotonicClockAgreesWithClockMonotonicAndNeverGoesBack() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let before = UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        var last = MonotonicClock.nanoseconds()
        #expect(last >= before)
        for _ in 0..<1000 {
            let t = MonotonicClock.nanoseconds()
            #expect(t >= last)
            last = t
        }
        clock_gettime(CLOCK_MONOTONIC, &ts)
        #expect(last <= UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    @Test func aDeadlineIsTheClocksTimePlusTheWait() {
        let before = MonotonicClock.nanoseconds()
        let deadline = ConditionLock.deadline(afterNanoseconds: 2_500_000_000)
        let after = MonotonicClock.nanoseconds()
        let at = UInt64(deadline.tv_sec) * 1_000_000_000 + UInt64(deadline.tv_nsec)
        #expect(deadline.tv_nsec >= 0 && deadline.tv_nsec < 1_000_000_000)
        #expect(at >= before + 2_500_000_000 && at <= after + 2_500_000_000)
        #expect(!ConditionLock.hasPassed(deadline))
        #expect(ConditionLock.hasPassed(ConditionLock.deadline(afterNanoseconds: 0)))
    }

    @Test func loopNUsesShardNPlusOneAndOtherThreadsShardZero() {
        #expect(LoopShard.count == 8)
        #expect(LoopShard.other.index == 0)
        #expect(LoopShard(loopIndex: 0).index == 1)
        #expect(LoopShard(loopIndex: 6).index == 7)
        #expect(LoopShard(loopIndex: 7).index == 0)  // beyond count - 1 loops, loops share shards
        #expect(LoopShard(loopIndex: 9).index == 2)
        #expect(LoopShard(index: LoopShard.count + 3) == LoopShard(index: 3))
    }
}
