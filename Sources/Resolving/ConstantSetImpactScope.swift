import JSON
import LayoutEngine
import Store

extension ConstantSetImpact {
    /// Why a record is listed apart from what a version moves (docs/api.md#constant-set-impact).
    public enum Apart: String, Sendable {
        /// The scene names no set (or `default`): it resolves with the built-in values, which no stored version
        /// changes.
        case noSet
        /// The scene names another set.
        case otherSet
        /// The scene pins another version of this set (`acme@1` while the report is about `acme@3`).
        case otherVersion
    }

    /// The records of one version they used (`name@n`, or `default`), listed apart.
    public struct Elsewhere: Sendable, Equatable {
        public var constantSet: String
        public var reason: Apart
        public var records: Int
    }

    /// Whether a record would use the version.
    enum Scope: Equatable {
        /// Its scene names the set without a version (its latest), or names this very version.
        case uses
        /// The version it used and why it would not use this one.
        case apart(String, Apart)
        /// Its request does not name a set it used (written by another release).
        case unreadable
    }

    static func scope(of record: RecordDetail, _ version: ConstantSetVersion) -> Scope {
        // The log keeps the version used: a record of the defaults or of another set needs no reading.
        guard let used = record.summary.constantSet else { return .apart(ConstantSetReference.defaultName, .noSet) }
        guard ConstantSetReference(used)?.name == version.name else { return .apart(used, .otherSet) }
        // The flat document (no value tree): only one member is read, before the resolve parses the body again.
        guard let document = try? JSONParser.document(record.requestBody),
            let named = document.root.member("constantSet")?.stringValue.flatMap({ ConstantSetReference($0) })
        else { return .unreadable }
        return named.version == nil || named.version == version.version ? .uses : .apart(used, .otherVersion)
    }

    /// Which way a change goes.
    public enum Direction: String, Sendable, Comparable {
        case increase, decrease
        /// Not two numbers: a style, a status, a member that appears or goes.
        case other

        public static func < (a: Direction, b: Direction) -> Bool { a.rank < b.rank }
        private var rank: Int {
            switch self {
            case .increase: 0
            case .decrease: 1
            case .other: 2
            }
        }
    }

    /// Changes of one member (a pointer pattern, array indices as `*`, and the detent it belongs to) in one
    /// direction.
    public struct Group: Sendable, Equatable {
        public var pattern: String
        /// The `detent` of the `detents` element the member is in (`medium`, `large`, …), else nil.
        public var detent: String?
        public var direction: Direction
        public var records: Int
        /// The median of the changes (after − before), for numbers.
        public var typical: Double?
        var deltas: [Double]

        var key: String { pattern + "|" + (detent ?? "") + "|" + direction.rawValue }

        init(pattern: String, detent: String?, direction: Direction) {
            self.pattern = pattern
            self.detent = detent
            self.direction = direction
            self.records = 0
            self.typical = nil
            self.deltas = []
        }
    }

    /// The groups of one changed record's differences, each counted once for the record.
    static func count(_ diff: ImpactDiff, into groups: inout [String: Group]) {
        var counted = Set<String>()
        for (k, d) in diff.differences.enumerated() {
            var delta: Double?
            var direction = Direction.other
            if let a = d.before.doubleValue, let b = d.after.doubleValue {
                delta = b - a
                direction = b > a ? .increase : .decrease
            }
            let g = Group(pattern: diff.patterns[k], detent: diff.detents[k], direction: direction)
            let key = g.key
            if groups[key] == nil { groups[key] = g }
            // In place: a copy of the group out of the dictionary would copy its deltas on every append.
            groups[key]?.records += counted.insert(key).inserted ? 1 : 0
            if let delta { groups[key]?.deltas.append(delta) }
        }
    }

    /// The groups in the report's order: most records first, then by pattern, detent and direction.
    static func ordered(_ groups: [String: Group]) -> [Group] {
        groups.values.map { g in
            var g = g
            let sorted = g.deltas.sorted()
            g.typical = sorted.isEmpty ? nil : sorted[sorted.count / 2]
            g.deltas = []
            return g
        }.sorted {
            if $0.records != $1.records { return $0.records > $1.records }
            if $0.pattern != $1.pattern { return $0.pattern < $1.pattern }
            if $0.detent != $1.detent { return ($0.detent ?? "") < ($1.detent ?? "") }
            return $0.direction < $1.direction
        }
    }

    /// The report as `POST …/impact` answers it.
    public static func json(_ r: Report) -> JSONValue {
        .object([
            "constantSet": .string(r.version),
            "counts": .object([
                "replayed": .number(Double(r.replayed)), "unchanged": .number(Double(r.unchanged)),
                "changed": .number(Double(r.changed)), "skipped": .number(Double(r.skipped)),
                "elsewhere": .number(Double(r.elsewhere.reduce(0) { $0 + $1.records })),
            ]),
            "elsewhere": .array(
                r.elsewhere.map { e in
                    .object([
                        "constantSet": .string(e.constantSet), "reason": .string(e.reason.rawValue),
                        "records": .number(Double(e.records)),
                    ])
                }),
            "groups": .array(
                r.groups.map { g in
                    .object([
                        "pattern": .string(g.pattern), "detent": g.detent.map { .string($0) } ?? .null,
                        "direction": .string(g.direction.rawValue), "records": .number(Double(g.records)),
                        "typical": g.typical.map { .number($0) } ?? .null,
                    ])
                }),
            "changes": .array(
                r.changes.map { c in
                    .object([
                        "id": .string(c.record.id.description), "device": c.record.device.map { .string($0) } ?? .null,
                        "constantSet": .string(c.record.constantSet ?? "default"),
                        "differences": .array(
                            c.differences.map { d in
                                .object(["path": .string(d.path.description), "before": d.before, "after": d.after])
                            }),
                    ])
                }),
            "next": r.next.map { .string($0) } ?? .null,
        ])
    }
}
