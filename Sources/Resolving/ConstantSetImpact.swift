import JSON
import LayoutEngine
import Store

/// What a constant set version would move (docs/api.md#constant-set-impact): the matching records of the
/// request log that would use it (their scenes name its set without a version, or this version) resolved again
/// with it, compared with what each answered; the others counted apart by the version they used.
public enum ConstantSetImpact {
    /// One changed record: its summary and what moved.
    public struct Change: Sendable {
        public var record: RecordSummary
        public var differences: [Replay.Difference]
    }

    public struct Report: Sendable {
        public var version: String
        /// Counts of the records that would use the version (docs/api.md#constant-set-impact).
        public var replayed = 0, unchanged = 0, changed = 0, skipped = 0
        /// The records that would not use it, by the version they used.
        public var elsewhere: [Elsewhere] = []
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
        var part = Partial()
        _ = try partial(
            ids[...], version, options, log: log, devices: devices, sets: sets, into: &part, stop: { false })
        return finish(version, part, options: options)
    }

    /// Runs the report on the calling thread (the service's long-work lane), asking `stop` every
    /// `stopCheckRecords` records: nil when it answered true (the client went away, the server is stopping).
    public static func run(
        _ version: ConstantSetVersion, options: Options, log: RequestLog, devices: any DeviceCatalog,
        sets: any ConstantSetCatalog, stop: () -> Bool
    ) throws(StoreError) -> Report? {
        let ids = try selection(options, log: log)
        var part = Partial()
        guard try partial(ids[...], version, options, log: log, devices: devices, sets: sets, into: &part, stop: stop)
        else { return nil }
        return finish(version, part, options: options)
    }

    /// How many records a report reads between two questions to its `stop`.
    public static let stopCheckRecords = 256

    /// The ids of the matching records, newest first, at most `options.limit`.
    static func selection(_ options: Options, log: RequestLog) throws(StoreError) -> [RecordID] {
        var query = RecordQuery(
            device: options.device, since: options.since, until: options.until, limit: RecordQuery.maxLimit,
            constantSet: options.constantSet)
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

    /// What the records read so far show.
    struct Partial: Sendable {
        var replayed = 0, unchanged = 0, changed = 0, skipped = 0
        var elsewhere: [String: Elsewhere] = [:]
        var groups: [String: Group] = [:]
        /// The changed records after `options.after`, newest first, at most one more than a page.
        var changes: [Change] = []
    }

    /// Adds what `ids` show to `p`; false when `stop` answered true before the end.
    static func partial(
        _ ids: ArraySlice<RecordID>, _ version: ConstantSetVersion, _ options: Options, log: RequestLog,
        devices: any DeviceCatalog, sets: any ConstantSetCatalog, into p: inout Partial, stop: () -> Bool
    ) throws(StoreError) -> Bool {
        for (n, id) in ids.enumerated() {
            if n % stopCheckRecords == 0 && stop() { return false }
            guard let detail = try log.record(id: id), isReplayable(detail.summary) else {
                p.skipped += 1
                continue
            }
            switch scope(of: detail, version) {
            case .uses: break
            case .unreadable:
                p.skipped += 1
                continue
            case .apart(let used, let reason):
                p.elsewhere[used, default: Elsewhere(constantSet: used, reason: reason, records: 0)].records += 1
                continue
            }
            guard let diff = compare(detail, with: version, options: options, devices: devices, sets: sets) else {
                p.skipped += 1
                continue
            }
            p.replayed += 1
            if diff.differences.isEmpty {
                p.unchanged += 1
                continue
            }
            p.changed += 1
            count(diff, into: &p.groups)
            if options.after.map({ id.rawValue < $0 }) ?? true, p.changes.count <= options.pageLimit {
                p.changes.append(Change(record: detail.summary, differences: diff.differences))
            }
        }
        return true
    }

    /// The partials (in the order of their records, newest first) as one report.
    static func finish(_ version: ConstantSetVersion, _ p: Partial, options: Options) -> Report {
        var report = Report(version: version.reference)
        report.replayed = p.replayed
        report.unchanged = p.unchanged
        report.changed = p.changed
        report.skipped = p.skipped
        var changes = p.changes
        changes.sort { $0.record.id > $1.record.id }
        report.changes = Array(changes.prefix(options.pageLimit))
        if changes.count > options.pageLimit, let last = report.changes.last {
            report.next = last.record.id.description
        }
        report.groups = ordered(p.groups)
        report.elsewhere = p.elsewhere.values.sorted {
            ($0.records, $1.constantSet) > ($1.records, $0.constantSet)
        }
        return report
    }

    /// A problem has no placements to move; a matrix is not one scene; a truncated body is not the scene.
    static func isReplayable(_ s: RecordSummary) -> Bool {
        !s.requestTruncated && !s.responseTruncated && s.path == Replay.Operation.resolvePath && s.status == 200
    }

    /// What resolving `record` with `version` moves against its stored answer; nil when it cannot be replayed
    /// (truncated bodies, a matrix, a problem).
    static func compare(
        _ record: RecordDetail, with version: ConstantSetVersion, options: Options, devices: any DeviceCatalog,
        sets: any ConstantSetCatalog
    ) -> ImpactDiff? {
        guard isReplayable(record.summary) else { return nil }
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
}
