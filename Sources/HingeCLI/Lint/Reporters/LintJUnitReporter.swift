/// JUnit XML (docs/lint.md#reporters): a `testsuite` per scene file, a `testcase` per combination (and one named
/// `scene` for what concerns the file as a whole), a `failure` per finding at or above `--fail-on`; the findings below
/// it go to the testcase's `system-out`. Written as files are linted.
final class LintJUnitReporter: LintReporter {
    let out: LintOutput
    let failOn: LintFailOn

    init(_ out: LintOutput, failOn: LintFailOn) {
        self.out = out
        self.failOn = failOn
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hinge lint\">\n")
    }

    func file(_ report: LintFileReport) {
        var cases: [(name: String, findings: [LintFinding])] = report.combinations.map { ($0.text, []) }
        var scene: [LintFinding] = []
        for f in report.findings {
            if let c = f.combination { cases[c].findings.append(f) } else { scene.append(f) }
        }
        if !scene.isEmpty || cases.isEmpty { cases.insert(("scene", scene), at: 0) }
        let failures = report.findings.filter { failOn.fails($0.severity) }.count
        let path = Self.escape(report.displayPath)
        out.write(
            "  <testsuite name=\"\(path)\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" "
                + "skipped=\"0\">\n")
        for c in cases {
            out.write("    <testcase classname=\"\(path)\" name=\"\(Self.escape(c.name))\"")
            if c.findings.isEmpty {
                out.write("/>\n")
                continue
            }
            out.write(">\n")
            var quiet = ""
            for f in c.findings {
                let line = LintTextReporter.line(f, in: report)
                if failOn.fails(f.severity) {
                    out.write(
                        "      <failure type=\"\(f.ruleID)\" message=\"\(Self.escape(f.message))\">"
                            + "\(Self.escape(String(line.dropLast())))</failure>\n")
                } else {
                    quiet += line
                }
            }
            if !quiet.isEmpty { out.write("      <system-out>\(Self.escape(quiet))</system-out>\n") }
            out.write("    </testcase>\n")
        }
        out.write("  </testsuite>\n")
    }

    func finish(_ summary: LintSummary) {
        out.write("</testsuites>\n")
    }

    /// Text for an attribute or element: the five XML escapes, and characters XML 1.0 cannot hold (C0 controls but
    /// tab, LF and CR) as U+FFFD.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
