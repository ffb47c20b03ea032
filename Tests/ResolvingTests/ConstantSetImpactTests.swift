import JSON
import LayoutEngine
import Store
import Synchronization
import TestSupport
import Testing

@testable import Resolving

/// The impact report's two-job run (docs/api.md#constant-set-impact) gives the report of the one-job run: the
/// halves' counts, groups and pages merged.
@Suite struct ConstantSetImpactTests {
    @Test func theTwoJobRunGivesTheSameReportAsOneJob() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let gap = try #require(Constants.definitions.firstIndex { $0.key == "sheet.topGap" })
        let v1 = try store.constantSets.create(
            name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [(gap, 12)], note: nil, sources: [:]))
        let v2 = try store.constantSets.create(
            name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [(gap, 20)], note: nil, sources: [:]))
        let context = ConstantSetContext(catalog: store.constantSets)
        // 2,400 records: a sheet pinned to acme@1, a sheet with the defaults, and a cover that does not move.
        let bodies = [
            #"{"device":"iphone-16","constantSet":"acme@1","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#,
            #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#,
            #"{"device":"iphone-16","presentations":[{"id":"c","kind":"fullScreenCover"}]}"#,
        ].map { Array($0.utf8) }
        for i in 0..<2400 {
            let body = bodies[i % 3]
            let out = Resolver.resolve(body: body, catalog: store, constantSets: context)
            store.requestLog.append(
                RequestRecord(
                    receivedAt: Timestamp(millisecondsSinceEpoch: 1000 + Int64(i)), durationMicros: 1,
                    device: "iphone-16", status: 200, codes: [], requestBody: body, responseBody: out.json,
                    engineVersion: "1", constantSet: out.constantSet)
            ) { _ in }
        }
        store.requestLog.flush()
        var options = ConstantSetImpact.Options()
        options.pageLimit = 7
        let one = try ConstantSetImpact.run(
            v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets)
        let report = Mutex<ConstantSetImpact.Report?>(nil)
        var spawned = 0
        ConstantSetImpact.run(
            v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets,
            spawn: { job in
                spawned += 1
                job()
                return true
            }, completion: { result in report.withLock { $0 = try? result.get() } })
        let two = try #require(report.withLock { $0 })
        #expect(spawned == 1)
        #expect((one.replayed, one.unchanged, one.changed, one.skipped) == (2400, 800, 1600, 0))
        #expect((two.replayed, two.unchanged, two.changed, two.skipped) == (2400, 800, 1600, 0))
        #expect(two.groups == one.groups)
        // acme@1 (12) → 20 moves its sheets by 8, the defaults' (10) by 10: the median of 800 of each is 10.
        #expect(one.groups.first { $0.pattern == "/placements/*/frame/y" }?.typical == 10)
        #expect(two.changes.map(\.record.id) == one.changes.map(\.record.id) && two.next == one.next)
        #expect(one.changes.count == 7 && one.next == one.changes.last?.record.id.description)
        _ = v1
    }
}
