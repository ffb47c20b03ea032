import TestSupport
import Testing

@testable import Store

/// What a designer's title and filters need from a record: where it came from (`client`), the posture of a
/// foldable's scene, and a time that never goes back as ids grow (docs/store.md#record-time). Both engines.
@Suite("Request log: client, posture and record times")
struct RecordOriginTests {
    static let base: Int64 = 1_738_314_307_042

    static func record(_ ms: Int64, client: String? = nil, posture: String? = nil, device: String = "iphone-16")
        -> RequestRecord
    {
        var r = StoreTests.record(device: device, at: ms)
        r.client = client
        r.posture = posture
        return r
    }

    @Test(arguments: EngineTarget.all) func clientAndPostureAreStoredAndTheClientFilters(_ engine: EngineTarget) throws
    {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let log = store.requestLog
        let rows: [(String?, String?, String)] = [
            ("studio", "halfOpened", "iphone-duo"), (nil, nil, "iphone-16"), ("plugin.figma_2-x", nil, "iphone-16"),
            ("studio", nil, "ipad-mini"), ("Studio", "closed", "iphone-duo"), ("studio", "flat", "iphone-duo"),
            ("studio-live", nil, "iphone-16"),
        ]
        let counter = CompletionCounter()
        counter.expect(rows.count)
        for (i, row) in rows.enumerated() {
            log.append(
                Self.record(Self.base + Int64(i), client: row.0, posture: row.1, device: row.2),
                completion: counter.completion)
        }
        #expect(counter.wait())
        #expect(counter.failures.withLock { $0.isEmpty })
        let all = try log.list(RecordQuery()).items.reversed().map { $0 }
        #expect(all.map(\.client) == rows.map(\.0))
        #expect(all.map(\.posture) == rows.map(\.1))
        let detail = try #require(try log.record(id: all[0].id))
        #expect(detail.summary.client == "studio" && detail.summary.posture == "halfOpened")

        // Exact, case-sensitive, whole names: `studio` is neither `Studio` nor `studio-live`.
        #expect(try log.list(RecordQuery(client: "studio")).items.map(\.id) == [all[5].id, all[3].id, all[0].id])
        #expect(try log.list(RecordQuery(client: "Studio")).items.map(\.id) == [all[4].id])
        #expect(try log.list(RecordQuery(client: "stud")).items.isEmpty)
        #expect(
            try log.list(RecordQuery(device: "iphone-duo", client: "studio")).items.map(\.id) == [all[5].id, all[0].id])
        // Paged: each matching record once, newest first.
        let first = try log.list(RecordQuery(limit: 2, client: "studio"))
        #expect(first.items.map(\.id) == [all[5].id, all[3].id])
        let second = try log.list(RecordQuery(limit: 2, cursor: first.next, client: "studio"))
        #expect(second.items.map(\.id) == [all[0].id] && second.next == nil)
    }

    /// Records queued out of the order of their times, as event loops queue them when a request that arrived
    /// first is answered last: ids follow the queue, and each time is raised to the time before it, within a
    /// batch, across batches and across a restart.
    @Test(arguments: EngineTarget.all) func timesNeverDecreaseAsIdsIncrease(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        do {
            let store = try database.open()
            defer { store.close() }
            let offsets: [Int64] = [5, 0, 3, 10, 2, 10, 11]
            let counter = CompletionCounter()
            counter.expect(offsets.count + 1)
            let release = try #require(holdWriter(store), "the writer thread did not take the job")
            for o in offsets { store.requestLog.append(Self.record(Self.base + o), completion: counter.completion) }
            release.signal()  // one batch
            store.requestLog.flush()
            store.requestLog.append(Self.record(Self.base + 1), completion: counter.completion)  // the next batch
            #expect(counter.wait())
            let items = try store.requestLog.list(RecordQuery()).items.reversed().map { $0 }
            #expect(items.map(\.id) == counter.successes.withLock { $0 }.sorted())
            #expect(items.map { $0.receivedAt.millisecondsSinceEpoch - Self.base } == [5, 5, 5, 10, 10, 10, 11, 11])
        }
        // After a restart the floor is the newest stored record's time.
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(2)
        store.requestLog.append(Self.record(Self.base), completion: counter.completion)
        store.requestLog.append(Self.record(Self.base + 20), completion: counter.completion)
        #expect(counter.wait())
        let newest = try store.requestLog.list(RecordQuery(limit: 2)).items
        #expect(newest.map { $0.receivedAt.millisecondsSinceEpoch - Self.base } == [20, 11])
    }
}
