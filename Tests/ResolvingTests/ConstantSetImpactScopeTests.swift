import JSON
import LayoutEngine
import Store
import TestSupport
import Testing

@testable import Resolving

/// The impact report's scope and groups (docs/api.md#constant-set-impact): only the records that would use the
/// version are resolved again, the others are counted apart by the version they used, and each member moves in
/// one direction per group; every number checked against single resolves of the same scenes.
@Suite struct ConstantSetImpactScopeTests {
    static func sheet(_ set: String?, detent: String) -> [UInt8] {
        let named = set.map { #""constantSet":"\#($0)","# } ?? ""
        return Array(
            #"{"device":"iphone-16",\#(named)"presentations":[{"id":"s","kind":"sheet","detents":["\#(detent)"]}]}"#
                .utf8)
    }

    /// ds@1 (topGap 12, medium 0.5) is the latest while the records are made; then ds@2 (topGap 20, medium 0.6).
    struct Log {
        let dir = TemporaryDirectory()
        let store: Store
        let v2: ConstantSetVersion
        /// The detents of the scenes that name ds without a version.
        static let moving = ["large", "large", "large", "medium", "medium"]

        init() throws {
            store = try Store.open(.init(path: dir.file("hinge.sqlite")))
            let gap = try #require(Constants.definitions.firstIndex { $0.key == "sheet.topGap" })
            let medium = try #require(Constants.definitions.firstIndex { $0.key == "sheet.mediumFraction" })
            for name in ["ds", "acme"] {
                _ = try store.constantSets.create(
                    name: name,
                    draft: ConstantSetDraft(
                        basedOn: nil, overrides: [(gap, 12), (medium, 0.5)], note: nil, sources: [:]))
            }
            let apart =
                Array(repeating: ConstantSetImpactScopeTests.sheet("ds@1", detent: "large"), count: 2)
                + Array(repeating: ConstantSetImpactScopeTests.sheet(nil, detent: "large"), count: 4) + [
                    ConstantSetImpactScopeTests.sheet("acme", detent: "medium")
                ]
            let context = ConstantSetContext(catalog: store.constantSets)
            for (i, body) in (Log.moving.map { ConstantSetImpactScopeTests.sheet("ds", detent: $0) } + apart)
                .enumerated()
            {
                recordResolution(body, index: i, store: store, context: context)
            }
            store.requestLog.flush()
            v2 = try store.constantSets.create(
                name: "ds",
                draft: ConstantSetDraft(
                    basedOn: ConstantSetReference(name: "ds", version: 1), overrides: [(gap, 20), (medium, 0.6)],
                    note: nil, sources: [:]))
        }

        func report(_ configure: (inout ConstantSetImpact.Options) -> Void = { _ in }) throws
            -> ConstantSetImpact.Report
        {
            var options = ConstantSetImpact.Options()
            configure(&options)
            return try ConstantSetImpact.run(
                v2, options: options, log: store.requestLog, devices: store, sets: store.constantSets)
        }
    }

    /// The numeric leaves of a resolution with their pointer pattern and detent, as the report names them.
    static func leaves(_ v: JSONValue, pattern: String = "", detent: String? = nil, into out: inout [String: Double]) {
        switch v {
        case .number(let d): out[pattern + "|" + (detent ?? "")] = d
        case .object(let o):
            for m in o.members where m.key != "constantSet" {
                leaves(m.value, pattern: pattern + "/" + m.key, detent: detent, into: &out)
            }
        case .array(let a):
            for e in a {
                let d = pattern.hasSuffix("/detents") ? e["detent"]?.stringValue : detent
                leaves(e, pattern: pattern + "/*", detent: d, into: &out)
            }
        default: break
        }
    }

    /// Group key → (records, deltas), from resolving each scene once with ds@1 and once with ds@2.
    static func expected(_ log: Log) throws -> [String: (records: Int, deltas: [Double])] {
        var groups: [String: (records: Int, deltas: [Double])] = [:]
        let context = ConstantSetContext(catalog: log.store.constantSets)
        for detent in Log.moving {
            func resolved(_ version: String) throws -> [String: Double] {
                let out = Resolver.resolve(
                    body: sheet(version, detent: detent), catalog: log.store, constantSets: context)
                #expect(RecordFacts(resolve: out, request: []).constantSet == version)
                var flat: [String: Double] = [:]
                leaves(try JSONParser.parse(out.json), into: &flat)
                return flat
            }
            let before = try resolved("ds@1")
            let after = try resolved("ds@2")
            for (key, a) in before {
                guard let b = after[key], b != a else { continue }
                let group = key + "|" + (b > a ? "increase" : "decrease")
                groups[group, default: (0, [])].records += 1
                groups[group, default: (0, [])].deltas.append(b - a)
            }
        }
        return groups
    }

    @Test func onlyTheRecordsNamingTheSetUnpinnedMoveAndTheOthersAreCountedApart() throws {
        let log = try Log()
        defer { log.store.close() }
        let r = try log.report()
        #expect((r.replayed, r.changed, r.unchanged, r.skipped) == (5, 5, 0, 0))
        #expect(
            r.elsewhere == [
                .init(constantSet: "default", reason: .noSet, records: 4),
                .init(constantSet: "ds@1", reason: .otherVersion, records: 2),
                .init(constantSet: "acme@1", reason: .otherSet, records: 1),
            ])
        #expect(r.changes.allSatisfy { $0.record.constantSet == "ds@1" } && r.changes.count == 5)
        let json = ConstantSetImpact.json(r)
        #expect(json["counts"]?["elsewhere"] == 7)
        #expect(json["elsewhere"]?[1] == .object(["constantSet": "ds@1", "reason": "otherVersion", "records": 2]))
    }

    @Test func eachMemberMovesInOneDirectionPerGroupAsSingleResolvesMoveIt() throws {
        let log = try Log()
        defer { log.store.close() }
        let r = try log.report()
        let expected = try Self.expected(log)
        #expect(!expected.isEmpty)
        var got: [String: (records: Int, typical: Double?)] = [:]
        for g in r.groups {
            got[g.pattern + "|" + (g.detent ?? "") + "|" + g.direction.rawValue] = (g.records, g.typical)
        }
        #expect(Set(got.keys) == Set(expected.keys))
        for (key, e) in expected {
            let sorted = e.deltas.sorted()
            #expect(got[key]?.records == e.records, "\(key)")
            #expect(got[key]?.typical == sorted[sorted.count / 2], "\(key)")
        }
        // The large sheets come down (topGap grows) while the medium ones rise (their fraction grows): frame/y
        // moves both ways, in two groups, each with its own sign.
        let y = r.groups.filter { $0.pattern == "/placements/*/frame/y" }
        #expect(y.map(\.direction) == [.increase, .decrease] && y.map(\.records) == [3, 2])
        #expect(y.allSatisfy { ($0.typical ?? 0) * ($0.direction == .increase ? 1 : -1) > 0 })
        let detents = Set(r.groups.filter { $0.pattern == "/placements/*/detents/*/height" }.compactMap(\.detent))
        #expect(detents == ["large", "medium"])
    }

    @Test func aFilterBySetReadsOnlyTheRecordsOfThatVersion() throws {
        let log = try Log()
        defer { log.store.close() }
        let r = try log.report { $0.constantSet = "ds@1" }
        #expect((r.replayed, r.changed) == (5, 5))
        #expect(r.elsewhere == [.init(constantSet: "ds@1", reason: .otherVersion, records: 2)])
        let none = try log.report { $0.constantSet = "default" }
        #expect(none.replayed == 0 && none.elsewhere == [.init(constantSet: "default", reason: .noSet, records: 4)])
        let body = Array(#"{"constantSet":"ds@1","limit":10}"#.utf8)
        #expect((try? ConstantSetImpact.Options.decode(body).get())?.constantSet == "ds@1")
        guard case .failure(let problem) = ConstantSetImpact.Options.decode(Array(#"{"constantSet":"ds"}"#.utf8))
        else { throw Failure("a set without its version is refused") }
        #expect(String(decoding: problem.document, as: UTF8.self).contains("/constantSet"))
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
