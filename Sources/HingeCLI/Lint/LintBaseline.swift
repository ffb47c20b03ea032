import JSON

/// The baseline (docs/lint.md#baseline): findings a team has accepted for now, hidden until they are fixed. An entry
/// matches a finding by file (relative to the project root), rule, pointer and combination — not by line — so an edit
/// elsewhere in the file keeps the match. Entries of a linted file that no finding matches any more are reported as
/// fixed. The file is sorted and pretty-printed, one entry per finding, so that its diffs read well.
final class LintBaseline {
    struct Entry: Hashable, Comparable {
        var file: String
        var rule: String
        var pointer: String
        var combination: String

        static func < (a: Entry, b: Entry) -> Bool {
            for (x, y) in [(a.file, b.file), (a.rule, b.rule), (a.pointer, b.pointer), (a.combination, b.combination)]
            where x != y {
                return x.utf8.lexicographicallyPrecedes(y.utf8)
            }
            return false
        }

        var json: JSONValue {
            .object([
                "combination": .string(combination), "file": .string(file), "pointer": .string(pointer),
                "rule": .string(rule),
            ])
        }
    }

    let path: String
    private(set) var entries: [Entry]
    private var matched: [Bool]
    private var byFile: [String: [Int]] = [:]
    private var positions: [Entry: Int] = [:]
    /// `--update-baseline`: the entries of this run, replacing those of the files it linted.
    private var recorded: Set<Entry> = []
    private var lintedFiles: Set<String> = []

    static let maxBytes = 64 << 20

    init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries
        matched = Array(repeating: false, count: entries.count)
        for (i, e) in entries.enumerated() {
            byFile[e.file, default: []].append(i)
            if positions[e] == nil { positions[e] = i }
        }
    }

    /// The baseline at `path`. A missing file is an empty baseline (every finding shows, so nothing passes
    /// unnoticed); `missing` is then set, for a warning.
    static func load(_ path: String, display: String, missing: inout Bool) throws(CLIError) -> LintBaseline {
        let bytes: [UInt8]
        switch LintFileSystem.kind(path) == .file ? LintFileSystem.read(path, limit: maxBytes) : nil {
        case nil:
            missing = true
            return LintBaseline(path: path, entries: [])
        case .failed(let reason)?: throw CLIError("cannot read the baseline \(display): \(reason)")
        case .tooLarge?: throw CLIError("the baseline \(display) is larger than \(maxBytes) bytes")
        case .bytes(let b)?: bytes = b
        }
        guard let value = try? JSONParser.parse(bytes, options: .init(maxSize: maxBytes)),
            let items = value["findings"]?.arrayValue
        else {
            throw CLIError("the baseline \(display) is not a baseline (a JSON object with a findings list)")
        }
        var entries: [Entry] = []
        for (i, item) in items.enumerated() {
            guard let file = item["file"]?.stringValue, let rule = item["rule"]?.stringValue,
                let pointer = item["pointer"]?.stringValue, let combination = item["combination"]?.stringValue
            else {
                throw CLIError(
                    "the baseline \(display) is invalid at /findings/\(i): each entry needs the strings file, rule, "
                        + "pointer and combination")
            }
            entries.append(Entry(file: file, rule: rule, pointer: pointer, combination: combination))
        }
        return LintBaseline(path: path, entries: entries)
    }

    static func entry(_ finding: LintFinding, in report: LintFileReport) -> Entry {
        Entry(
            file: report.key, rule: finding.ruleID, pointer: finding.pointer,
            combination: report.combinationKey(finding))
    }

    /// Removes the findings of `report` the baseline holds and returns how many; when updating, records them all
    /// instead (and hides them: they are the new baseline).
    func filter(_ report: inout LintFileReport, updating: Bool) -> Int {
        let all = report.findings.count
        if updating {
            lintedFiles.insert(report.key)
            for f in report.findings { recorded.insert(Self.entry(f, in: report)) }
            report.findings = []
            return all
        }
        guard byFile[report.key] != nil else { return 0 }
        var kept: [LintFinding] = []
        for f in report.findings {
            if let i = positions[Self.entry(f, in: report)] {
                // The first of equal entries stands for them all (a baseline edited by hand may repeat one).
                matched[i] = true
            } else {
                kept.append(f)
            }
        }
        report.findings = kept
        return all - kept.count
    }

    /// The entries of the file at `key` that nothing matched: fixed since the baseline was written. Entries of a rule
    /// that is `off` for the file are not checked, so never fixed.
    func fixed(in key: String, isOff: (String) -> Bool) -> [Entry] {
        guard let indices = byFile[key] else { return [] }
        return indices.filter { !matched[$0] && positions[entries[$0]] == $0 && !isOff(entries[$0].rule) }.map {
            entries[$0]
        }
    }

    /// Writes this run's findings, keeping the entries of files it did not lint. Returns the number of entries.
    func write() throws(CLIError) -> Int {
        var all = recorded
        for e in entries where !lintedFiles.contains(e.file) { all.insert(e) }
        let sorted = all.sorted()
        let document = JSONValue.object([
            "findings": .array(sorted.map(\.json)),
            "version": 1,
        ])
        try LintFileSystem.writeAtomically(JSONWriter.encode(document, options: .pretty) + [0x0A], to: path)
        return sorted.count
    }
}
