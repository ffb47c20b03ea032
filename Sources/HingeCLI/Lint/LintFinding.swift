/// One combination a scene is checked in: the device, its display, the posture, orientation and layout direction.
/// Values come from the resolution's environment (what the scene resolved to), or, for a combination the scene
/// cannot be resolved in, from what was asked (`-` where nothing was).
public struct LintCombination: Sendable, Hashable {
    public var device: String
    public var display: String
    public var posture: String
    public var orientation: String
    public var direction: String
    /// The text size, only when the matrix names text sizes (`--dynamic-type-sizes`).
    public var dynamicTypeSize: String?

    public init(
        device: String, display: String, posture: String, orientation: String, direction: String,
        dynamicTypeSize: String? = nil
    ) {
        self.device = device
        self.display = display
        self.posture = posture
        self.orientation = orientation
        self.direction = direction
        self.dynamicTypeSize = dynamicTypeSize
    }

    /// `iphone-duo/inner/halfOpened/portrait/ltr` (and `/accessibility3` when the matrix names text sizes): the key
    /// the baseline and the snapshots match by.
    public var key: String {
        let k = "\(device)/\(display)/\(posture)/\(orientation)/\(direction)"
        return dynamicTypeSize.map { k + "/" + $0 } ?? k
    }

    /// `iphone-duo inner, halfOpened, portrait, ltr` (and `, accessibility3`): how reporters show it.
    public var text: String {
        let t = "\(device) \(display), \(posture), \(orientation), \(direction)"
        return dynamicTypeSize.map { t + ", " + $0 } ?? t
    }
}

/// A line and column in a scene file (docs/lint.md#positions): both 1-based; the column counts UTF-16 code units
/// from the start of the line (SARIF's default `columnKind`), a tab counting one. The end is the position just past
/// the value when it is a scalar on one line, else just past its first character.
public struct SourcePosition: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int
    public var endLine: Int
    public var endColumn: Int

    public init(line: Int, column: Int, endLine: Int? = nil, endColumn: Int? = nil) {
        self.line = line
        self.column = column
        self.endLine = endLine ?? line
        self.endColumn = endColumn ?? column + 1
    }

    public static let start = SourcePosition(line: 1, column: 1)

    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One finding: a rule broken at a position of a scene file, in one combination (or in none, for a file that is not
/// JSON).
public struct LintFinding: Sendable, Equatable {
    /// The position of the rule in `LintRules.all`.
    public var ruleIndex: Int
    public var severity: LintSeverity
    /// The JSON pointer the finding is about: into the scene for a diagnostic or a violation, into the resolution
    /// (`/placements/0/frame/y`) for a moved placement.
    public var pointer: String
    public var position: SourcePosition
    /// The position of the combination in the file's list, nil for the file as a whole.
    public var combination: Int?
    public var message: String
    /// The text reporter's line, `file:line:col: severity: message [rule] (combination)` and a line feed: written
    /// by the worker that linted the file (`LintFileReport.render`), so that the thread reporting in order only
    /// copies it.
    public var line = ""

    public var rule: LintRule { LintRules.all[ruleIndex] }
    public var ruleID: String { rule.id }

    public init(
        ruleIndex: Int, severity: LintSeverity, pointer: String, position: SourcePosition, combination: Int?,
        message: String
    ) {
        self.ruleIndex = ruleIndex
        self.severity = severity
        self.pointer = pointer
        self.position = position
        self.combination = combination
        self.message = message
    }

    /// Position, then rule, then combination, then message: the order reporters list a file's findings in.
    static func precedes(_ a: LintFinding, _ b: LintFinding) -> Bool {
        if a.position != b.position { return a.position < b.position }
        if a.ruleIndex != b.ruleIndex { return a.ruleIndex < b.ruleIndex }
        if a.combination != b.combination { return (a.combination ?? -1) < (b.combination ?? -1) }
        if a.pointer != b.pointer { return a.pointer < b.pointer }
        return a.message < b.message
    }
}

/// The outcome of linting one scene file: its findings after the configuration, before the baseline.
public struct LintFileReport: Sendable {
    /// The path as the user named it (`examples/lint/scenes/settings.json`): what reporters print.
    public var displayPath: String
    /// The path relative to the project root (the configuration's directory, else the current one): what the
    /// baseline and the snapshots are keyed by, so they match from any working directory.
    public var key: String
    public var combinations: [LintCombination]
    /// Sorted (`LintFinding.precedes`).
    public var findings: [LintFinding]
    /// The file could not be read (a message for standard error): the run exits 2.
    public var unreadable: String?
    /// Snapshot files written (`--update-snapshots`): 0 or 1.
    public var snapshotsWritten = 0
    /// A snapshot could not be written (a message for standard error): the run exits 2.
    public var snapshotError: String?

    public init(displayPath: String, key: String) {
        self.displayPath = displayPath
        self.key = key
        combinations = []
        findings = []
    }

    func combinationText(_ finding: LintFinding) -> String? { finding.combination.map { combinations[$0].text } }

    /// Sorts the findings and writes each one's text line.
    mutating func render() {
        findings.sort(by: LintFinding.precedes)
        for i in findings.indices { findings[i].line = LintTextReporter.line(findings[i], in: self) }
    }
    func combinationKey(_ finding: LintFinding) -> String { finding.combination.map { combinations[$0].key } ?? "-" }
}
