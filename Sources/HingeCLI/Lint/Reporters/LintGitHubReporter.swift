/// GitHub Actions (docs/lint.md#reporters): a workflow command per finding (`::error file=…,line=…,col=…,title=…::…`,
/// `::warning`, `::notice` for info) while GitHub still shows them — 10 of each type per step — then the rest as plain
/// log lines and a count; and, when `$GITHUB_STEP_SUMMARY` names a file, a Markdown summary appended to it: the totals,
/// a table of findings per rule, and the first findings.
final class LintGitHubReporter: LintReporter {
    /// GitHub shows at most this many annotations of each type (error, warning, notice) per step.
    static let annotationsPerType = 10
    /// Findings listed in the step summary.
    static let summaryRows = 20

    let out: LintOutput
    let stepSummary: LintOutput?
    /// Where `docs/` is published (docs/lint.md#docs-url): the summary links each rule to its section; nil, no links.
    let docsURL: String?
    private var annotated: [LintSeverity: Int] = [:]
    private var notAnnotated: [LintSeverity: Int] = [:]

    init(_ out: LintOutput, stepSummary: LintOutput?, docsURL: String?) {
        self.out = out
        self.stepSummary = stepSummary
        self.docsURL = docsURL
    }

    static func command(_ s: LintSeverity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    func file(_ report: LintFileReport) {
        for f in report.findings {
            guard annotated[f.severity, default: 0] < Self.annotationsPerType else {
                notAnnotated[f.severity, default: 0] += 1
                out.write(f.line)
                continue
            }
            annotated[f.severity, default: 0] += 1
            let title = f.ruleID + (report.combinationText(f).map { " (\($0))" } ?? "")
            out.write(
                "::\(Self.command(f.severity)) file=\(LintEscaping.workflowProperty(report.displayPath)),"
                    + "line=\(f.position.line),"
                    + "col=\(f.position.column),endLine=\(f.position.endLine),endColumn=\(f.position.endColumn),"
                    + "title=\(LintEscaping.workflowProperty(title))::\(LintEscaping.workflowData(f.message))\n")
        }
    }

    func finish(_ summary: LintSummary) {
        let rest = LintSeverity.allCases.reversed().compactMap { s -> String? in
            let n = notAnnotated[s] ?? 0
            return n == 0 ? nil : plural(n, Self.command(s), Self.command(s) + "s")
        }
        if !rest.isEmpty {
            out.write(
                "hinge lint: \(rest.joined(separator: ", ")) more than GitHub annotates (\(Self.annotationsPerType) "
                    + "of each type per step) are listed above as plain lines\n")
        }
        out.write("hinge lint: \(summary.sentence)\n")
        if let stepSummary { stepSummary.write(Self.markdown(summary, docsURL: docsURL)) }
    }

    /// The step summary: totals, findings per rule, the first findings.
    static func markdown(_ summary: LintSummary, docsURL: String?) -> String {
        var s = "### hinge lint\n\n\(summary.sentence.prefix(1).uppercased() + summary.sentence.dropFirst()).\n"
        if summary.failing > 0 {
            s +=
                "\n**\(plural(summary.failing, "finding", "findings")) at or above `\(summary.failOn.rawValue)`**: the "
            s += "step fails.\n"
        }
        if !summary.byRule.isEmpty {
            s += "\n| rule | errors | warnings | infos |\n|---|---:|---:|---:|\n"
            for (index, counts) in summary.byRule.sorted(by: { $0.key < $1.key }) {
                let rule = LintRules.all[index]
                s += docsURL.map { "| [`\(rule.id)`](\(rule.link(docsURL: $0))) | " } ?? "| `\(rule.id)` | "
                s += "\(counts[.error] ?? 0) | \(counts[.warning] ?? 0) | \(counts[.info] ?? 0) |\n"
            }
        }
        let rows = summary.first.prefix(summaryRows)
        if !rows.isEmpty {
            s += "\n| file | severity | rule | combination | message |\n|---|---|---|---|---|\n"
            for f in rows {
                let cell = LintEscaping.markdownCell
                s += "| \(cell("\(f.file):\(f.position.line):\(f.position.column)")) | \(f.severity.rawValue) | "
                s += "`\(f.rule)` | \(cell(f.combination ?? "")) | \(cell(f.message)) |\n"
            }
            if summary.total > rows.count { s += "\n\(summary.total - rows.count) more in the log.\n" }
        }
        if summary.fixedCount > 0 {
            s += "\n\(plural(summary.fixedCount, "baseline entry is", "baseline entries are")) fixed: "
            s += "`hinge lint --update-baseline` drops them.\n"
        }
        return s + "\n"
    }
}
