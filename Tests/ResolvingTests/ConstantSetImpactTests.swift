import JSON
import LayoutEngine
import Store
import TestSupport
import Testing

@testable import Resolving

/// The impact report as the service's long-work lane runs it (docs/api.md#constant-set-impact): the report of
/// the CLI's run while never asked to stop, nothing once its `stop` answers true.
@Suite struct ConstantSetImpactTests {
    @Test func theLanesRunGivesTheCLIsReportAndStopsWhenAsked() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let gap = try #require(Constants.definitions.firstIndex { $0.key == "sheet.topGap" })
        _ = try store.constantSets.create(
            name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [(gap, 12)], note: nil, sources: [:]))
        let context = ConstantSetContext(catalog: store.constantSets)
        // 2,400 records made while acme@1 is the latest: a sheet naming acme, a cover naming acme that does not
        // move, and a sheet with the defaults, which acme@2 would not touch.
        let bodies = [
            #"{"device":"iphone-16","constantSet":"acme","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#,
            #"{"device":"iphone-16","constantSet":"acme","presentations":[{"id":"c","kind":"fullScreenCover"}]}"#,
            #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#,
        ].map { Array($0.utf8) }
        for i in 0..<2400 {
            recordResolution(bodies[i % 3], index: i, store: store, context: context)
        }
        store.requestLog.flush()
        let v2 = try store.constantSets.create(
            name: "acme", draft: ConstantSetDraft(basedOn: nil, overrides: [(gap, 20)], note: nil, sources: [:]))
        var options = ConstantSetImpact.Options()
        options.pageLimit = 7
        let one = try ConstantSetImpact.run(
            v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets)
        // The lane's run: asked to stop every 256 records, it ends early with nil; never asked, it is the CLI's.
        let lane = try #require(
            try ConstantSetImpact.run(
                v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets, stop: { false }))
        var asked = 0
        let stopped = try ConstantSetImpact.run(
            v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets,
            stop: {
                asked += 1
                return asked == 3
            })
        #expect(stopped == nil && asked == 3)
        #expect((one.replayed, one.unchanged, one.changed, one.skipped) == (1600, 800, 800, 0))
        #expect((lane.replayed, lane.unchanged, lane.changed, lane.skipped) == (1600, 800, 800, 0))
        #expect(one.elsewhere == [.init(constantSet: "default", reason: .noSet, records: 800)])
        #expect(lane.elsewhere == one.elsewhere)
        #expect(lane.groups == one.groups)
        // acme@1 (12) → 20 moves its sheets down by 8.
        let y = one.groups.filter { $0.pattern == "/placements/*/frame/y" }
        #expect(y.map(\.direction) == [.increase] && y.first?.typical == 8 && y.first?.records == 800)
        #expect(lane.changes.map(\.record.id) == one.changes.map(\.record.id) && lane.next == one.next)
        #expect(one.changes.count == 7 && one.next == one.changes.last?.record.id.description)
    }
}
