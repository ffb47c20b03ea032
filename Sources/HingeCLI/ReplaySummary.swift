import ArgumentScanning
import JSON
import LayoutEngine
import Resolving
import Store

/// Options of `hinge replay`.
public struct ReplayCommandOptions: Sendable, Equatable {
    public var db = CLIDefaults.db
    /// Inclusive bounds on `receivedAt`.
    public var since: Timestamp?
    public var until: Timestamp?
    /// Replay at most this many records (the newest); nil: all.
    public var limit: Int?
    /// `--constant-set NAME[@N]`: instead of replaying, report what this version would move
    /// (docs/api.md#constant-set-impact).
    public var constantSet: ConstantSetReference?

    public init() {}

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError)
        -> ReplayCommandOptions
    {
        var o = ReplayCommandOptions()
        try table.parse(arguments, into: &o, environment: environment) { p throws(UsageError) in
            throw table.extraArgument(p)
        }
        if let since = o.since, let until = o.until, since > until {
            throw UsageError("--since (\(since)) is after --until (\(until))")
        }
        return o
    }

    /// The options of `hinge replay`: parsing and `--help` come from it.
    public static let table = OptionTable<ReplayCommandOptions>(
        command: "replay",
        header: """
            USAGE: hinge replay [options]

            Replays the recorded requests of the request log with this binary's engine and the database's
            device profiles (as POST /v1/requests/{id}/replay does, newest first) and prints a summary: how
            many were replayed, unchanged, changed and skipped (stored truncated), and for each changed record
            its id and its first differing JSON pointers. On a terminal, progress is shown on standard error.
            """,
        helpColumn: 17,
        sections: [
            .init(
                "OPTIONS:",
                [
                    CLIDefaults.databaseOption(
                        help: "the database to replay: a SQLite file or a postgres:// URL (HINGE_DB, default\n"
                            + "./hinge.sqlite); it must exist"
                    ) { o, db in o.db = db },
                    .one(
                        "--since", "T",
                        help: "only records received at or after T (ISO 8601, e.g. 2025-01-31T09:05:07Z)"
                    ) {
                        o, v, name throws(UsageError) in o.since = try timestamp(v, name)
                    },
                    .one("--until", "T", help: "only records received at or before T") {
                        o, v, name throws(UsageError) in o.until = try timestamp(v, name)
                    },
                    .one("--limit", "N", help: "replay at most the newest N records") { o, v, _ throws(UsageError) in
                        guard let n = Int(v), n >= 1 else {
                            throw UsageError("--limit must be a positive integer, got '\(v)'")
                        }
                        o.limit = n
                    },
                    .one(
                        "--constant-set", "NAME[@N]",
                        help: "report what this version of the database would move instead: each resolution\n"
                            + "that would use it (its scene names the set without a version, or this version)\n"
                            + "resolved again with it, the others counted apart by the version they used (POST\n"
                            + "/v1/constant-sets/{name}/versions/{n}/impact); exit 1 if anything moves"
                    ) { o, v, _ throws(UsageError) in
                        guard let ref = ConstantSetReference(v), !ref.isDefault else {
                            throw UsageError("--constant-set needs a set's name or name@version, got '\(v)'")
                        }
                        o.constantSet = ref
                    },
                ])
        ],
        footer: """
            EXIT STATUS:
              0  every replayed record gave the same answer (also when there was nothing to replay)
              1  at least one record changed, or the database is missing or unreadable
              2  usage error
            """)

    /// A `--since` or `--until` value.
    static func timestamp(_ value: String, _ name: String) throws(UsageError) -> Timestamp {
        guard let t = Timestamp(iso8601: value) else {
            throw UsageError("\(name) must be an ISO 8601 timestamp such as 2025-01-31T09:05:07Z, got '\(value)'")
        }
        return t
    }
}

/// The totals of a replay run and the changed records, for the report.
public struct ReplaySummary: Sendable, Equatable {
    public struct Changed: Sendable, Equatable {
        public var id: RecordID
        public var path: String
        /// The first few differing JSON pointers.
        public var paths: [String]
        /// How many differences there were in all (capped at `Replay.maxDifferences`).
        public var differenceCount: Int
    }

    /// How many differing paths a changed record lists.
    public static let pathsShown = 5

    public private(set) var unchanged = 0
    public private(set) var changed: [Changed] = []
    public private(set) var skipped: [ReplayOutcome.SkipReason: Int] = [:]

    public init() {}

    /// Records actually resolved again (unchanged + changed).
    public var replayed: Int { unchanged + changed.count }
    public var skippedCount: Int { skipped.values.reduce(0, +) }
    /// Records looked at (replayed + skipped).
    public var processed: Int { replayed + skippedCount }
    /// 0 when nothing changed, 1 otherwise.
    public var exitCode: Int32 { changed.isEmpty ? 0 : 1 }

    public mutating func add(_ outcome: ReplayOutcome, id: RecordID, path: String) {
        switch outcome {
        case .unchanged: unchanged += 1
        case .changed(let differences):
            changed.append(
                Changed(
                    id: id, path: path, paths: differences.prefix(Self.pathsShown).map(\.path.description),
                    differenceCount: differences.count))
        case .skipped(let reason): skipped[reason, default: 0] += 1
        }
    }

    /// The report printed on standard output.
    public var report: String {
        var s = "replayed \(replayed), unchanged \(unchanged), changed \(changed.count), skipped \(skippedCount)"
        let reasons = [ReplayOutcome.SkipReason.truncated, .gone].compactMap { r in
            skipped[r].map { "\($0) \(r.rawValue)" }
        }
        if !reasons.isEmpty { s += " (\(reasons.joined(separator: ", ")))" }
        s += "\n"
        for c in changed {
            let more = c.differenceCount > c.paths.count ? ", … (\(c.differenceCount) differences)" : ""
            let shown = c.paths.map { $0.isEmpty ? "(root)" : TerminalText.escaped($0) }.joined(separator: ", ")
            s += "changed \(c.id) \(TerminalText.escaped(c.path)): \(shown)\(more)\n"
        }
        return s
    }
}

/// `hinge replay`: pages through the log newest first, then replays each record.
public enum ReplayCommandRunner {
    /// Ids (and paths) of the records to replay, newest first, at most `options.limit`.
    public static func selection(_ log: RequestLog, options: ReplayCommandOptions) throws(StoreError) -> [RecordID] {
        var ids: [RecordID] = []
        var cursor: String? = nil
        repeat {
            let remaining = options.limit.map { $0 - ids.count } ?? RecordQuery.maxLimit
            if remaining <= 0 { break }
            let page = try log.list(
                RecordQuery(
                    since: options.since, until: options.until, limit: min(RecordQuery.maxLimit, remaining),
                    cursor: cursor))
            ids += page.items.map(\.id)
            cursor = page.next
        } while cursor != nil
        return ids
    }

    /// Replays the selection; `progress(done, total)` is called after each record.
    public static func run(
        log: RequestLog, catalog: any DeviceCatalog, options: ReplayCommandOptions,
        constantSets: (any ConstantSetCatalog)? = nil, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(StoreError) -> ReplaySummary {
        let ids = try selection(log, options: options)
        var summary = ReplaySummary()
        for (i, id) in ids.enumerated() {
            if let record = try log.record(id: id) {
                summary.add(
                    Replay.outcome(of: record, catalog: catalog, constantSets: constantSets), id: id,
                    path: record.summary.path)
            } else {
                summary.add(.skipped(.gone), id: id, path: "")
            }
            progress(i + 1, ids.count)
        }
        return summary
    }
}

extension ReplayCommandRunner {
    /// Opens the database (which must exist), replays and reports.
    public static func run(options: ReplayCommandOptions, progress: (Int, Int) -> Void = { _, _ in }) -> CommandOutput {
        guard CLIFiles.databaseExists(options.db) else {
            return .failure(
                "hinge replay: no database at \(options.db) (give the one 'hinge serve' recorded into with --db or HINGE_DB)"
            )
        }
        do throws(CLIError) {
            guard let store = try CLIFiles.openExistingStore(options.db) else {
                return .failure("hinge replay: no database at \(options.db)")
            }
            defer { store.close() }
            if let ref = options.constantSet { return impact(ref, store: store, options: options) }
            do throws(StoreError) {
                let summary = try run(
                    log: store.requestLog, catalog: store, options: options, constantSets: store.constantSets,
                    progress: progress)
                return CommandOutput(exitCode: summary.exitCode, stdout: Array(summary.report.utf8))
            } catch {
                return .failure("hinge replay: cannot read the request log: \(error)")
            }
        } catch {
            return .failure("hinge replay: \(error)")
        }
    }
}

extension ReplayCommandRunner {
    /// `--constant-set`: the impact report of that version over the selected records.
    static func impact(_ ref: ConstantSetReference, store: Store, options: ReplayCommandOptions) -> CommandOutput {
        guard case .found(let version) = store.constantSets.lookup(ref, includeRetired: true) else {
            return .failure("hinge replay: no constant set version \(TerminalText.escaped(ref.description))")
        }
        var o = ConstantSetImpact.Options()
        o.since = options.since
        o.until = options.until
        o.limit = min(options.limit ?? ConstantSetImpact.Options.maxRecords, ConstantSetImpact.Options.maxRecords)
        o.pageLimit = ConstantSetImpact.Options.maxPage
        do throws(StoreError) {
            let r = try ConstantSetImpact.run(
                version, options: o, log: store.requestLog, devices: store, sets: store.constantSets)
            var s = "\(r.version): replayed \(r.replayed), unchanged \(r.unchanged), changed \(r.changed), "
            s += "skipped \(r.skipped)\n"
            for e in r.elsewhere {
                s += "apart \(TerminalText.escaped(e.constantSet)) (\(e.reason.rawValue)): \(e.records) record"
                s += e.records == 1 ? "\n" : "s\n"
            }
            for g in r.groups {
                let typical = g.typical.map { " typical \($0 > 0 ? "+" : "")\(ConstantSetDrafts.fmt($0))" } ?? ""
                let detent = g.detent.map { " [\(TerminalText.escaped($0))]" } ?? ""
                s +=
                    "moved \(TerminalText.escaped(g.pattern))\(detent) \(g.direction.rawValue): \(g.records) record"
                    + "\(g.records == 1 ? "" : "s")\(typical)\n"
            }
            for c in r.changes {
                let shown = c.differences.prefix(ReplaySummary.pathsShown).map {
                    TerminalText.escaped($0.path.description)
                }
                s += "changed \(c.record.id) (\(c.record.constantSet ?? "default")): \(shown.joined(separator: ", "))\n"
            }
            return CommandOutput(exitCode: r.changed == 0 ? 0 : 1, stdout: Array(s.utf8))
        } catch {
            return .failure("hinge replay: cannot read the request log: \(error)")
        }
    }
}
