/// A reporter (docs/lint.md#reporters): told about each scene file as soon as it is linted — its findings after the
/// baseline, in order — and once at the end, so a report is written as the run goes and never held whole in memory.
protocol LintReporter: AnyObject {
    func file(_ report: LintFileReport)
    func finish(_ summary: LintSummary)
}

/// The run's totals, kept bounded: counts, per-rule counts, the first fixed baseline entries and the first findings
/// (for a step summary).
public struct LintSummary: Sendable {
    public var failOn: LintFailOn
    public var files = 0
    public var filesWithFindings = 0
    public var combinations = 0
    public var counts: [LintSeverity: Int] = [:]
    /// Findings at or above `failOn`.
    public var failing = 0
    /// Per rule (its position in `LintRules.all`), per severity.
    public var byRule: [Int: [LintSeverity: Int]] = [:]
    /// Findings hidden by the baseline.
    public var hidden = 0
    /// Baseline entries no finding matched any more: the first `listLimit`, and how many in all.
    public var fixed: [LintBaselineEntryText] = []
    public var fixedCount = 0
    /// `--update-baseline`: the entries written.
    public var baselineWritten: Int?
    public var snapshotsWritten = 0
    /// The first `listLimit` findings, as the step summary lists them.
    public var first: [LintFindingText] = []

    static let listLimit = 100

    public init(failOn: LintFailOn) { self.failOn = failOn }

    public var total: Int { counts.values.reduce(0, +) }

    mutating func add(_ report: LintFileReport) {
        files += 1
        combinations += report.combinations.count
        if !report.findings.isEmpty { filesWithFindings += 1 }
        for f in report.findings {
            counts[f.severity, default: 0] += 1
            byRule[f.ruleIndex, default: [:]][f.severity, default: 0] += 1
            if failOn.fails(f.severity) { failing += 1 }
            if first.count < Self.listLimit { first.append(LintFindingText(f, in: report)) }
        }
    }

    mutating func addFixed(_ entries: [LintBaseline.Entry]) {
        fixedCount += entries.count
        for e in entries where fixed.count < Self.listLimit { fixed.append(LintBaselineEntryText(e)) }
    }

    /// `2 errors, 5 warnings and 1 info in 3 of 10 scene files (26 combinations); 4 hidden by the baseline`.
    public var sentence: String {
        let found =
            total == 0
            ? "no findings"
            : LintSeverity.allCases.reversed().compactMap { s -> String? in
                let n = counts[s] ?? 0
                return n == 0 ? nil : plural(n, s.rawValue, s == .info ? "infos" : s.rawValue + "s")
            }.joined(separator: ", ")
        var s =
            "\(found) in \(total == 0 ? "" : "\(filesWithFindings) of ")\(plural(files, "scene file", "scene files"))"
        s += " (\(plural(combinations, "combination", "combinations")))"
        if hidden > 0 { s += "; \(hidden) hidden by the baseline" }
        if fixedCount > 0 { s += "; \(fixedCount) baseline \(fixedCount == 1 ? "entry" : "entries") fixed" }
        if let baselineWritten { s += "; baseline written with \(plural(baselineWritten, "entry", "entries"))" }
        if snapshotsWritten > 0 { s += "; \(plural(snapshotsWritten, "snapshot", "snapshots")) written" }
        return s
    }
}

func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

/// A finding kept for a summary, with its file and combination as text.
public struct LintFindingText: Sendable {
    public var file: String
    public var position: SourcePosition
    public var severity: LintSeverity
    public var rule: String
    public var combination: String?
    public var message: String

    init(_ f: LintFinding, in report: LintFileReport) {
        file = report.displayPath
        position = f.position
        severity = f.severity
        rule = f.ruleID
        combination = report.combinationText(f)
        message = f.message
    }
}

/// A fixed baseline entry, as reporters show it.
public struct LintBaselineEntryText: Sendable {
    public var file: String
    public var rule: String
    public var pointer: String
    public var combination: String

    init(_ e: LintBaseline.Entry) {
        file = e.file
        rule = e.rule
        pointer = e.pointer
        combination = e.combination
    }

    /// `scenes/a.json /presentations/1 [chained-modal] (iphone-16/main/flat/portrait/ltr)`; `/` for the whole scene,
    /// no combination for a finding about the file.
    public var text: String {
        "\(file) \(pointer.isEmpty ? "/" : pointer) [\(rule)]" + (combination == "-" ? "" : " (\(combination))")
    }
}

/// The text reporter: `file:line:col: severity: message [rule] (combination)`, a file's findings together, then the
/// fixed baseline entries and a summary line.
final class LintTextReporter: LintReporter {
    let out: LintOutput
    private var wroteFile = false

    init(_ out: LintOutput) { self.out = out }

    /// The finding's line, escaped for a terminal (docs/lint.md#escaping): its file name, message and combination come
    /// from the scene file and its name.
    static func line(_ f: LintFinding, in report: LintFileReport) -> String {
        var s = "\(report.displayPath):\(f.position.line):\(f.position.column): \(f.severity.rawValue): "
        s += "\(f.message) [\(f.ruleID)]"
        if let c = report.combinationText(f) { s += " (\(c))" }
        return LintEscaping.terminalLine(s) + "\n"
    }

    func file(_ report: LintFileReport) {
        guard !report.findings.isEmpty else { return }
        if wroteFile { out.write("\n") }
        wroteFile = true
        for f in report.findings { out.write(f.line) }
    }

    func finish(_ summary: LintSummary) {
        if !summary.fixed.isEmpty {
            if wroteFile { out.write("\n") }
            out.write("fixed since the baseline (hinge lint --update-baseline drops them):\n")
            for e in summary.fixed { out.write("  \(LintEscaping.terminal(e.text))\n") }
            if summary.fixedCount > summary.fixed.count {
                out.write("  ... and \(summary.fixedCount - summary.fixed.count) more\n")
            }
        }
        if wroteFile || !summary.fixed.isEmpty { out.write("\n") }
        out.write(summary.sentence + "\n")
    }
}
