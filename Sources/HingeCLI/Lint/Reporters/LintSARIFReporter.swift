import JSON
import Resolving

/// SARIF 2.1.0 (docs/lint.md#reporters): one run whose `tool.driver.rules` lists every rule (id, default level, short
/// and full description, help, and a `helpUri` to its section of the documentation), and a result per finding with
/// `ruleId`, `level`, a physical location (`startLine`, `startColumn`, in UTF-16 code units: `columnKind`) and
/// `partialFingerprints` computed from the file, rule, pointer and combination — not the line — so a result keeps
/// its identity across runs and edits elsewhere. Results are written as files are linted.
final class LintSARIFReporter: LintReporter {
    static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    let out: LintOutput
    private var first = true
    private var buffer: [UInt8] = []

    /// `docsURL`: where the repository's `docs/` folder is published (an absolute URI, without a trailing `/`); nil,
    /// and the log carries no `informationUri` or `helpUri` (docs/lint.md#docs-url).
    init(_ out: LintOutput, docsURL: String?) {
        self.out = out
        var driver: JSONObject = [
            "name": "hinge lint",
            "version": .string(hingeVersion),
            "rules": .array(LintRules.all.map { Self.descriptor($0, docsURL: docsURL) }),
        ]
        if let docsURL { driver["informationUri"] = .string(docsURL + "/lint.md") }
        var head: [UInt8] = Array("{\"$schema\":".utf8)
        JSONWriter.appendString(Self.schema, to: &head)
        head += Array(",\"version\":\"2.1.0\",\"runs\":[{\"columnKind\":\"utf16CodeUnits\",\"tool\":".utf8)
        JSONWriter.write(.object(["driver": .object(driver)]), into: &head)
        head += Array(",\"results\":[".utf8)
        out.write(head)
    }

    static func descriptor(_ rule: LintRule, docsURL: String?) -> JSONValue {
        let link = docsURL.map { rule.link(docsURL: $0) }
        let more = "The rule is described in \(rule.documentation)."
        var d: JSONObject = [
            "id": .string(rule.id),
            "name": .string(rule.id),
            "shortDescription": ["text": .string(rule.summary)],
            "fullDescription": ["text": .string(rule.summary + " " + more)],
            "help": [
                "text": .string(rule.summary + " " + more),
                "markdown": .string(
                    link.map { "\(rule.summary) See [\(rule.documentation)](\($0))." }
                        ?? "\(rule.summary) See `\(rule.documentation)`."),
            ],
            "defaultConfiguration": ["level": .string(rule.defaultSeverity.sarifLevel)],
        ]
        if let link { d["helpUri"] = .string(link) }
        return .object(d)
    }

    func file(_ report: LintFileReport) {
        guard !report.findings.isEmpty else { return }
        let uri = Self.uri(report.displayPath)
        buffer.removeAll(keepingCapacity: true)
        for f in report.findings {
            buffer.append(contentsOf: first ? Array("\n".utf8) : Array(",\n".utf8))
            first = false
            write(f, in: report, uri: uri)
        }
        out.write(buffer)
    }

    /// One result, written straight into `buffer` (the same members a `JSONValue` would give, without the tree).
    private func write(_ f: LintFinding, in report: LintFileReport, uri: String) {
        let key = report.combinationKey(f)
        let fingerprint = Self.fingerprint(report.key, f.ruleID, f.pointer, key)
        let p = f.position
        put("{\"ruleId\":\"\(f.ruleID)\",\"ruleIndex\":\(f.ruleIndex),\"level\":\"\(f.severity.sarifLevel)\",")
        put("\"message\":{\"text\":")
        JSONWriter.appendString(f.message + (report.combinationText(f).map { " (\($0))" } ?? ""), to: &buffer)
        put("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
        JSONWriter.appendString(uri, to: &buffer)
        put("},\"region\":{\"startLine\":\(p.line),\"startColumn\":\(p.column),\"endLine\":\(p.endLine),")
        put("\"endColumn\":\(p.endColumn)}}}],")
        put("\"partialFingerprints\":{\"hingeFinding/v1\":\"\(fingerprint)\",")
        put("\"primaryLocationLineHash\":\"\(fingerprint):1\"},\"properties\":{\"pointer\":")
        JSONWriter.appendString(f.pointer, to: &buffer)
        if f.combination != nil {
            put(",\"combination\":")
            JSONWriter.appendString(key, to: &buffer)
        }
        put("}}")
    }

    private func put(_ s: String) { buffer.append(contentsOf: s.utf8) }

    func finish(_ summary: LintSummary) {
        out.write("\n],\"invocations\":[{\"executionSuccessful\":true}]}]}\n")
    }

    /// A path as a URI reference: relative paths stay relative (GitHub resolves them against the repository root),
    /// absolute ones become `file://` URIs; bytes other than unreserved characters and `/` are percent-encoded.
    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// FNV-1a (64 bits) of the parts, separated by NUL: 16 hexadecimal digits.
    static func fingerprint(_ parts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (i, part) in parts.enumerated() {
            if i > 0 { hash = (hash ^ 0) &* 0x100_0000_01b3 }
            for b in part.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
