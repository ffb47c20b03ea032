import JSON
import LayoutEngine
import Store
import Synchronization

/// What a constant set version would move (docs/api.md#constant-set-impact): the matching records of the
/// request log resolved again with that version instead of the one each used, compared with what each answered.
public enum ConstantSetImpact {
    public struct Options: Sendable, Equatable {
        public static let maxRecords = 100_000
        public static let maxPage = 500
        public var since: Timestamp?
        public var until: Timestamp?
        public var device: String?
        /// Records replayed at most (newest first). Default 10 000.
        public var limit = 10_000
        /// Numbers that differ by at most this much count as unchanged (points). Default 0.
        public var tolerance = 0.0
        /// Changed records listed on this page, and the `next` of the previous page.
        public var pageLimit = 50
        public var after: Int64?

        public init() {}

        /// The body of `POST …/impact` (empty: every default).
        public static func decode(_ body: [UInt8]) -> Result<Options, ResolveProblem> {
            var o = Options()
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(o) }
            let value: JSONValue
            switch ResolveProblem.parse(body) {
            case .failure(let problem): return .failure(problem)
            case .success(let v): value = v
            }
            guard case .object(let root) = value else {
                return .failure(.invalid([JSONIssue(path: .root, message: "expected an object")], what: "request"))
            }
            var issues: [JSONIssue] = []
            for m in root.members {
                let at = JSONPointer([m.key])
                func int(_ range: ClosedRange<Int>) -> Int? {
                    guard let d = m.value.doubleValue, d == d.rounded(), d >= Double(range.lowerBound),
                        d <= Double(range.upperBound)
                    else {
                        issues.append(
                            JSONIssue(
                                path: at, message: "expected an integer from \(range.lowerBound) to \(range.upperBound)"
                            ))
                        return nil
                    }
                    return Int(d)
                }
                switch m.key {
                case "since", "until":
                    guard let t = m.value.stringValue.flatMap({ Timestamp(iso8601: $0) }) else {
                        issues.append(
                            JSONIssue(path: at, message: "expected an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"))
                        continue
                    }
                    if m.key == "since" { o.since = t } else { o.until = t }
                case "device":
                    guard let d = m.value.stringValue, DeviceProfile.isValidID(d) else {
                        issues.append(JSONIssue(path: at, message: "expected a device id"))
                        continue
                    }
                    o.device = d
                case "limit": o.limit = int(1...maxRecords) ?? o.limit
                case "pageLimit": o.pageLimit = int(1...maxPage) ?? o.pageLimit
                case "after":
                    guard let text = m.value.stringValue, let id = RecordID(text) else {
                        issues.append(JSONIssue(path: at, message: "expected the next of the previous page"))
                        continue
                    }
                    o.after = id.rawValue
                case "tolerance":
                    guard let t = m.value.doubleValue, t >= 0, t <= 1000 else {
                        issues.append(JSONIssue(path: at, message: "expected a number from 0 to 1000"))
                        continue
                    }
                    o.tolerance = t
                default:
                    issues.append(
                        JSONIssue(
                            path: at,
                            message: "unknown member (since, until, device, limit, tolerance, pageLimit, after)"))
                }
            }
            return issues.isEmpty ? .success(o) : .failure(.invalid(issues, what: "request"))
        }
    }

    /// One changed record: its summary and what moved.
    public struct Change: Sendable {
        public var record: RecordSummary
        public var differences: [Replay.Difference]
    }

    /// Changes of one pointer pattern (array indices as `*`).
    public struct Group: Sendable, Equatable {
        public var pattern: String
        public var records: Int
        /// The median of the numeric changes (after − before), when there are any.
        public var typical: Double?
        var deltas: [Double]
    }

    public struct Report: Sendable {
        public var version: String
        public var replayed = 0, unchanged = 0, changed = 0, skipped = 0
        public var groups: [Group] = []
        public var changes: [Change] = []
        public var next: String?
    }

    /// Runs the report on the calling thread (the CLI's).
    public static func run(
        _ version: ConstantSetVersion, options: Options, log: RequestLog, devices: any DeviceCatalog,
        sets: any ConstantSetCatalog
    ) throws(StoreError) -> Report {
        let ids = try selection(options, log: log)
        let part = try partial(ids[...], version, options, log: log, devices: devices, sets: sets)
        return finish(version, [part], options: options)
    }

    /// Runs the report as two jobs, the calling thread's and one given to `spawn` (the worker pool; when it
    /// refuses, the calling thread does both halves), and calls `completion` from the last to finish. On a
    /// 2-core server the report then takes both cores while the event loops keep their priority in the
    /// scheduler's eyes as any thread's.
    public static func run(
        _ version: ConstantSetVersion, options: Options, log: RequestLog, devices: any DeviceCatalog,
        sets: any ConstantSetCatalog, spawn: (@escaping @Sendable () -> Void) -> Bool,
        completion: @escaping @Sendable (Result<Report, StoreError>) -> Void
    ) {
        let ids: [RecordID]
        do throws(StoreError) { ids = try selection(options, log: log) } catch { return completion(.failure(error)) }
        let middle = ids.count / 2
        let halves = [ids[..<middle], ids[middle...]]
        let results = Mutex<[Result<Partial, StoreError>]>([])
        let work: @Sendable (ArraySlice<RecordID>) -> Void = { slice in
            let result = Result { () throws(StoreError) in
                try partial(slice, version, options, log: log, devices: devices, sets: sets)
            }
            let all: [Result<Partial, StoreError>]? = results.withLock { r in
                r.append(result)
                return r.count == 2 ? r : nil
            }
            guard let all else { return }
            do throws(StoreError) {
                completion(
                    .success(finish(version, try all.map { (r) throws(StoreError) in try r.get() }, options: options)))
            } catch {
                completion(.failure(error))
            }
        }
        let second = halves[1]
        if ids.count < 2000 || !spawn({ work(second) }) {
            work(halves[0])
            work(second)
        } else {
            work(halves[0])
        }
    }

    /// The ids of the matching records, newest first, at most `options.limit`.
    static func selection(_ options: Options, log: RequestLog) throws(StoreError) -> [RecordID] {
        var query = RecordQuery(
            device: options.device, since: options.since, until: options.until, limit: RecordQuery.maxLimit)
        var ids: [RecordID] = []
        while ids.count < options.limit {
            query.limit = min(RecordQuery.maxLimit, options.limit - ids.count)
            let page = try log.list(query)
            ids += page.items.map(\.id)
            guard let next = page.next else { break }
            query.cursor = next
        }
        return ids
    }

    /// What one job found over its records.
    struct Partial: Sendable {
        var replayed = 0, unchanged = 0, changed = 0, skipped = 0
        var groups: [String: Group] = [:]
        /// The changed records after `options.after`, newest first, at most one more than a page.
        var changes: [Change] = []
    }

    static func partial(
        _ ids: ArraySlice<RecordID>, _ version: ConstantSetVersion, _ options: Options, log: RequestLog,
        devices: any DeviceCatalog, sets: any ConstantSetCatalog
    ) throws(StoreError) -> Partial {
        var p = Partial()
        for id in ids {
            guard let detail = try log.record(id: id),
                let diff = compare(detail, with: version, options: options, devices: devices, sets: sets)
            else {
                p.skipped += 1
                continue
            }
            p.replayed += 1
            let differences = diff.differences
            if differences.isEmpty {
                p.unchanged += 1
                continue
            }
            p.changed += 1
            var counted = Set<String>()
            for (d, pattern) in zip(differences, diff.patterns) {
                // In place: a copy of the group out of the dictionary would copy its deltas on every append.
                let first = counted.insert(pattern).inserted
                p.groups[pattern, default: Group(pattern: pattern, records: 0, typical: nil, deltas: [])].records +=
                    first ? 1 : 0
                if let a = d.before.doubleValue, let b = d.after.doubleValue { p.groups[pattern]?.deltas.append(b - a) }
            }
            if options.after.map({ id.rawValue < $0 }) ?? true, p.changes.count <= options.pageLimit {
                p.changes.append(Change(record: detail.summary, differences: differences))
            }
        }
        return p
    }

    /// The partials (in the order of their records, newest first) as one report.
    static func finish(_ version: ConstantSetVersion, _ parts: [Partial], options: Options) -> Report {
        var report = Report(version: version.reference)
        var groups: [String: Group] = [:]
        var changes: [Change] = []
        for p in parts {
            report.replayed += p.replayed
            report.unchanged += p.unchanged
            report.changed += p.changed
            report.skipped += p.skipped
            changes += p.changes
            for (pattern, g) in p.groups {
                groups[pattern, default: Group(pattern: pattern, records: 0, typical: nil, deltas: [])].records +=
                    g.records
                groups[pattern]?.deltas += g.deltas
            }
        }
        changes.sort { $0.record.id > $1.record.id }
        report.changes = Array(changes.prefix(options.pageLimit))
        if changes.count > options.pageLimit, let last = report.changes.last {
            report.next = last.record.id.description
        }
        report.groups = groups.values.map { g in
            var g = g
            let sorted = g.deltas.sorted()
            g.typical = sorted.isEmpty ? nil : sorted[sorted.count / 2]
            g.deltas = []
            return g
        }.sorted { ($0.records, $1.pattern) > ($1.records, $0.pattern) }
        return report
    }

    /// What resolving `record` with `version` moves against its stored answer; nil when it cannot be replayed
    /// (truncated bodies, a matrix, a problem).
    static func compare(
        _ record: RecordDetail, with version: ConstantSetVersion, options: Options, devices: any DeviceCatalog,
        sets: any ConstantSetCatalog
    ) -> ImpactDiff? {
        let s = record.summary
        // A problem has no placements to move; a matrix is not one scene.
        if s.requestTruncated || s.responseTruncated || s.path != Replay.Operation.resolvePath || s.status != 200 {
            return nil
        }
        let context = ConstantSetContext(
            catalog: sets, pin: ConstantSetReference(name: version.name, version: version.version), includeRetired: true
        )
        let after = Resolver.resolve(body: record.requestBody, catalog: devices, constantSets: context)
        // The new answer as a tree straight from the resolution (the bytes it encodes to parse back to it).
        let answer = after.resolution.flatMap { after.isProblem ? nil : $0.json } ?? (try? JSONParser.parse(after.json))
        guard var before = try? JSONParser.parse(record.responseBody), var now = answer else { return nil }
        // The version's own name differs by design.
        before = without("constantSet", before)
        now = without("constantSet", now)
        var diff = ImpactDiff(tolerance: options.tolerance)
        var path: [ImpactDiff.Step] = []
        diff.walk(before, now, path: &path)
        return diff
    }

    static func without(_ key: String, _ v: JSONValue) -> JSONValue {
        guard case .object(var o) = v else { return v }
        o.members.removeAll { $0.key == key }
        return .object(o)
    }

    /// The report as `POST …/impact` answers it.
    public static func json(_ r: Report) -> JSONValue {
        .object([
            "constantSet": .string(r.version),
            "counts": .object([
                "replayed": .number(Double(r.replayed)), "unchanged": .number(Double(r.unchanged)),
                "changed": .number(Double(r.changed)), "skipped": .number(Double(r.skipped)),
            ]),
            "groups": .array(
                r.groups.map { g in
                    .object([
                        "pattern": .string(g.pattern), "records": .number(Double(g.records)),
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
