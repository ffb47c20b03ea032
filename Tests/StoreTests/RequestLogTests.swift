import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Request log")
struct RequestLogTests {
    @Test(arguments: EngineTarget.all) func appendThenListGetAndFilter(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.maxBodyBytes = 16 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(6)
        let base: Int64 = 1_738_314_307_042
        store.requestLog.append(
            record(device: "iphone-16", status: 200, codes: ["a", "b", "a"], at: base), completion: counter.completion)
        store.requestLog.append(
            record(device: "ipad-mini", status: 200, codes: ["b"], at: base + 1000), completion: counter.completion)
        store.requestLog.append(
            record(device: nil, status: 422, codes: [], at: base + 2000), completion: counter.completion)
        store.requestLog.append(
            record(device: "iphone-16", status: 200, codes: ["c"], at: base + 3000), completion: counter.completion)
        store.requestLog.append(
            record(device: "iphone-16", status: 400, at: base + 4000, body: Array(repeating: 0x41, count: 100)),
            completion: counter.completion)
        store.requestLog.append(
            record(device: "", status: 200, at: base + 5000, body: []), completion: counter.completion)
        #expect(counter.wait())
        #expect(counter.failures.withLock { $0.isEmpty })
        let ids = counter.successes.withLock { $0 }
        #expect(Set(ids).count == 6)

        let all = try store.requestLog.list(RecordQuery())
        #expect(all.items.count == 6 && all.next == nil)
        #expect(all.items.map(\.id) == ids.sorted(by: >))  // newest first
        let first = try #require(all.items.last)
        #expect(first.codes == ["a", "b", "a"] && first.device == "iphone-16")
        #expect(all.items.allSatisfy { $0.replicaID == "test-replica" })
        #expect(first.receivedAt.iso8601 == "2025-01-31T09:05:07.042Z")
        #expect(all.items.first?.device == "")  // empty string is not NULL
        #expect(all.items[3].device == nil)

        #expect(try store.requestLog.list(RecordQuery(device: "iphone-16")).items.count == 3)
        #expect(try store.requestLog.list(RecordQuery(status: 200)).items.count == 4)
        #expect(try store.requestLog.list(RecordQuery(code: "b")).items.count == 2)
        #expect(try store.requestLog.list(RecordQuery(code: "a")).items.count == 1)
        #expect(try store.requestLog.list(RecordQuery(code: "zzz")).items.isEmpty)
        let window = RecordQuery(
            since: Timestamp(millisecondsSinceEpoch: base + 1000), until: Timestamp(millisecondsSinceEpoch: base + 3000)
        )
        #expect(try store.requestLog.list(window).items.count == 3)
        #expect(try store.requestLog.list(RecordQuery(device: "iphone-16", status: 200, code: "c")).items.count == 1)

        let truncated = try #require(try store.requestLog.record(id: all.items[1].id))
        #expect(truncated.requestBody == Array(repeating: 0x41, count: 16))
        #expect(truncated.summary.requestTruncated && truncated.summary.requestSize == 100)
        #expect(!truncated.summary.responseTruncated)
        let detail = try #require(try store.requestLog.record(id: first.id))
        #expect(detail.requestBody == Array(#"{"device":"iphone-16"}"#.utf8).prefix(16).map { $0 })
        #expect(detail.responseBody == Array(#"{"ok":true}"#.utf8))
        #expect(try store.requestLog.record(id: RecordID(rawValue: 9999)) == nil)
        #expect(try store.requestLog.record(id: all.items[0].id)?.requestBody == [])
    }

    @Test(arguments: EngineTarget.all) func cursorPagingVisitsEveryRecordOnceNewestFirst(_ engine: EngineTarget) throws
    {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(23)
        for i in 0..<23 {
            store.requestLog.append(record(status: i % 2 == 0 ? 200 : 422), completion: counter.completion)
        }
        #expect(counter.wait())
        var seen: [RecordID] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try store.requestLog.list(RecordQuery(limit: 5, cursor: cursor))
            seen += page.items.map(\.id)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages == 5)
        #expect(seen == counter.successes.withLock { $0 }.sorted(by: >))
        // Filters and cursor together.
        let evens = try store.requestLog.list(RecordQuery(status: 200, limit: 10))
        #expect(evens.items.count == 10 && evens.next != nil)
        let rest = try store.requestLog.list(RecordQuery(status: 200, limit: 10, cursor: evens.next))
        #expect(rest.items.count == 2 && rest.next == nil)
        #expect(throws: StoreError.self) { _ = try store.requestLog.list(RecordQuery(cursor: "bogus")) }
    }

    @Test(arguments: EngineTarget.all) func clearDeletesEverythingAndIdsAreNeverReused(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open()
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(5)
        for _ in 0..<5 { store.requestLog.append(record(codes: ["x"]), completion: counter.completion) }
        #expect(counter.wait())
        try store.requestLog.clear()
        #expect(try store.requestLog.count() == 0)
        #expect(try store.requestLog.list(RecordQuery(code: "x")).items.isEmpty)
        let after = CompletionCounter()
        after.expect(1)
        store.requestLog.append(record(), completion: after.completion)
        #expect(after.wait())
        let maxBefore = counter.successes.withLock { $0.max() }!
        #expect(after.successes.withLock { $0 }.first! > maxBefore)
    }

    @Test(arguments: EngineTarget.all) func pruningKeepsTheNewestMaxRecords(_ engine: EngineTarget) throws {
        let database = try TestDatabase(engine)
        let store = try database.open { $0.maxRecords = 10 }
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(200)
        for i in 0..<200 {
            store.requestLog.append(record(status: 200 + i % 3), completion: counter.completion)
            if i % 20 == 19 { store.requestLog.flush() }  // several batches, so several prunes
        }
        #expect(counter.wait())
        store.requestLog.flush()
        let slack = 1  // max(1, min(1024, 10 / 64))
        let count = try store.requestLog.count()
        #expect(count >= 10 && count <= 10 + slack)
        let newest = counter.successes.withLock { $0 }.sorted(by: >).prefix(10)
        #expect(Array(try store.requestLog.list(RecordQuery()).items.map(\.id).prefix(10)) == Array(newest))
        #expect(store.counters.recordsPruned == 200 - count)
        if case .sqlite = engine { try expectBodiesMatchRecords(store) }
    }
}
