/// JUnit XML (docs/lint.md#reporters): a `testsuite` per scene file, a `testcase` per combination (and one named
/// `scene` for what concerns the file as a whole), a `failure` per testcase with findings at or above `--fail-on`; the findings below
/// it go to the testcase's `system-out`; a testcase has one `failure`, listing all its failing findings. Written as files are linted.
final class LintJUnitReporter: LintReporter {
    let out: LintOutput
    let failOn: LintFailOn
    private var buffer: [UInt8] = []

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
        // One `failure` per failing testcase, so `failures` counts the failure elements and never exceeds `tests`.
        let failures = cases.filter { $0.findings.contains { failOn.fails($0.severity) } }.count
        buffer.removeAll(keepingCapacity: true)
        put("  <testsuite name=\"")
        Self.escape(report.displayPath, into: &buffer)
        put("\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n")
        for c in cases {
            put("    <testcase classname=\"")
            Self.escape(report.displayPath, into: &buffer)
            put("\" name=\"")
            Self.escape(c.name, into: &buffer)
            guard !c.findings.isEmpty else {
                put("\"/>\n")
                continue
            }
            put("\">\n")
            let failing = c.findings.filter { failOn.fails($0.severity) }
            let quiet = c.findings.filter { !failOn.fails($0.severity) }
            if let first = failing.first {
                put("      <failure type=\"\(first.ruleID)\" message=\"")
                let more = failing.count > 1 ? " (and \(failing.count - 1) more)" : ""
                Self.escape(LintEscaping.terminal(first.message) + more, into: &buffer)
                put("\">")
                for (i, f) in failing.enumerated() {
                    Self.escape(f.line, into: &buffer, dropLast: i == failing.count - 1 ? 1 : 0)
                }
                put("</failure>\n")
            }
            if !quiet.isEmpty {
                put("      <system-out>")
                for f in quiet { Self.escape(f.line, into: &buffer) }
                put("</system-out>\n")
            }
            put("    </testcase>\n")
        }
        put("  </testsuite>\n")
        out.write(buffer)
    }

    private func put(_ s: String) { buffer.append(contentsOf: s.utf8) }

    func finish(_ summary: LintSummary) {
        out.write("</testsuites>\n")
    }

    /// Text for an attribute or element: the five XML escapes, and what XML 1.0 cannot hold (C0 controls but tab, LF
    /// and CR; U+FFFE and U+FFFF) as U+FFFD. Works on the UTF-8 bytes; `dropLast` bytes at the end are left out.
    static func escape(_ s: String, into out: inout [UInt8], dropLast: Int = 0) {
        var s = s
        s.withUTF8 { bytes in
            let end = max(0, bytes.count - dropLast)
            var i = 0
            while i < end {
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&apos;".utf8)
                case 0x09, 0x0A, 0x0D: out.append(b)
                case 0..<0x20: out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                case 0xEF where i + 2 < end && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    i += 2
                default: out.append(b)
                }
                i += 1
            }
        }
    }

    /// `escape` as a String (tests).
    static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
