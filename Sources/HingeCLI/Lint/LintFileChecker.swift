import JSON
import LayoutEngine
import Resolving
import Store

/// Lints one scene file: reads it, resolves it in each combination through `LintResolver`, turns every diagnostic and
/// violation into a finding at its line and column, applies the rule settings and checks the snapshot. Pure apart from
/// reading the file and its snapshot (and writing the snapshot when updating), so workers run it side by side.
struct LintFileChecker: Sendable {
    let catalog: any DeviceCatalog
    let config: LintConfig
    /// The flags' matrix and rule settings, over the configuration's.
    let matrix: LintMatrix
    let rules: [String: LintRuleSetting]
    let constants: [String: Double]
    let snapshots: LintSnapshots?
    /// The constant sets of the database and `--constant-set`.
    var constantSets = ConstantSetContext()

    /// The largest scene file read: the parser's limit for a request body.
    static var maxFileBytes: Int { JSONParser.Options.default.maxSize }

    /// The rule settings for the scene at `key`: the configuration's, under the flags'.
    func ruleSettings(for key: String) -> [String: LintRuleSetting] {
        config.settings(for: key).rules.merging(rules) { _, flag in flag }
    }

    func check(_ source: LintSource) -> LintFileReport {
        var report = LintFileReport(displayPath: source.displayPath, key: source.key)
        let settings = config.settings(for: source.key)
        var findings = LintFindingBuilder(rules: settings.rules.merging(rules) { _, flag in flag })
        if let problem = source.problem {
            report.unreadable = problem
            return report
        }
        let bytes: [UInt8]
        switch LintFileSystem.read(source.absolutePath, limit: Self.maxFileBytes) {
        case .failed(let reason):
            report.unreadable = "cannot read \(LintEscaping.terminal(source.displayPath)): \(reason)"
            return report
        case .tooLarge(let size):
            findings.add(
                LintRules.invalidScene, .error, pointer: "", at: .start, combination: nil,
                message: "document too large: \(size) bytes, at most \(Self.maxFileBytes) are allowed")
            report.findings = findings.findings
            report.render()
            return report
        case .bytes(let b): bytes = b
        }
        let text = SourceText(file: bytes)
        if text.hadByteOrderMark {
            findings.add(
                LintRules.invalidScene, .error, pointer: "", at: .start, combination: nil,
                message: "byte order mark at line 1, column 1: JSON text must not start with U+FEFF, and the API "
                    + "refuses it (400): save the file as UTF-8 without a byte order mark")
        }
        let document: JSONDocument
        do throws(JSONParseError) {
            document = try JSONParser.document(text.bytes)
        } catch {
            findings.add(
                LintRules.invalidScene, .error, pointer: "", at: text.position(at: error.offset), combination: nil,
                message: error.message)
            report.findings = findings.findings
            report.render()
            return report
        }
        resolveCombinations(
            document, body: text.bytes, positions: .json(PositionCache(text: text)), settings: settings.matrix,
            findings: &findings, report: &report)
        report.findings = findings.findings
        report.render()
        return report
    }

    func resolveCombinations(
        _ document: JSONDocument, body: [UInt8], positions: PositionLocator, settings: LintMatrix,
        findings: inout LintFindingBuilder, report: inout LintFileReport
    ) {
        let root = document.root
        let matrix = settings.overlaid(by: self.matrix)
        let sceneDevice = root.member("device")?.stringValue
        let overridesList = matrix.combinations(sceneDevice: sceneDevice, catalog: catalog)
        let value = matrix.isEmpty && constants.isEmpty ? JSONValue.null : root.value
        var positions = positions
        var entries: [JSONValue] = []
        for overrides in overridesList {
            for size in matrix.textSizes {
                let index = report.combinations.count
                switch LintResolver.resolve(
                    body: body, value: value, overrides: overrides, constants: constants, dynamicTypeSize: size,
                    catalog: catalog, constantSets: constantSets)
                {
                case .resolved(let resolution):
                    var combination = Self.combination(resolution.environment)
                    if size != nil { combination.dynamicTypeSize = resolution.environment.dynamicTypeSize.rawValue }
                    report.combinations.append(combination)
                    for d in resolution.diagnostics {
                        findings.add(
                            d.code.rawValue, LintSeverity(d.severity), pointer: d.path, at: positions[d.path],
                            combination: index, message: d.message)
                    }
                    if snapshots != nil { entries.append(LintSnapshots.entry(resolution)) }
                case .refused(let violations):
                    var combination = Self.combination(asked: overrides, scene: root)
                    combination.dynamicTypeSize = size?.rawValue
                    report.combinations.append(combination)
                    for v in violations {
                        let at = v.offset.map { positions.position(at: $0) } ?? positions[v.pointer]
                        let invalid = v.rule == LintRules.invalidScene
                        // A violation's message is about its pointer (`is required`): say which, as the API's list does.
                        let message = invalid && !v.pointer.isEmpty ? "\(v.pointer): \(v.message)" : v.message
                        findings.add(
                            v.rule, invalid ? .error : .warning, pointer: v.pointer, at: at, combination: index,
                            message: message)
                    }
                    if snapshots != nil { entries.append(LintSnapshots.entry(nil)) }
                }
            }
        }
        guard let snapshots else { return }
        let outcome = snapshots.check(key: report.key, combinations: report.combinations.map(\.key), entries: entries)
        report.snapshotsWritten = outcome.written ? 1 : 0
        report.snapshotError = outcome.error
        for change in outcome.changes {
            findings.add(
                LintRules.placementChanged, .error, pointer: change.pointer, at: positions[change.location],
                combination: change.combination, message: change.message)
        }
    }

    static func combination(_ e: ResolvedEnvironment) -> LintCombination {
        LintCombination(
            device: e.device ?? "-", display: e.display ?? "-", posture: e.posture.rawValue,
            orientation: e.orientation.rawValue, direction: e.layoutDirection.rawValue)
    }

    /// A combination the scene was refused in: what was asked, else what the scene says, else `-`.
    static func combination(asked o: SceneOverrides?, scene: JSONNode) -> LintCombination {
        func written(_ key: StaticString) -> String { scene.member(key)?.stringValue ?? "-" }
        return LintCombination(
            device: o?.device ?? written("device"), display: "-", posture: o?.posture?.rawValue ?? written("posture"),
            orientation: o?.orientation?.rawValue ?? written("orientation"),
            direction: o?.layoutDirection?.rawValue ?? written("layoutDirection"))
    }
}

/// Where a pointer of a linted scene is written: in a scene file, or in the Swift source a scene was read from.
struct PositionLocator {
    private var cache: PositionCache?
    private var find: ((String) -> SourcePosition)?

    static func json(_ cache: PositionCache) -> PositionLocator { PositionLocator(cache: cache, find: nil) }

    /// A scene read from Swift: each pointer at the member it points at, else its closest written parent (the
    /// presenting modifier), else the view (`ExtractedScene.position(of:)`, which `find` asks).
    static func swift(_ find: @escaping (String) -> SourcePosition) -> PositionLocator {
        PositionLocator(cache: nil, find: find)
    }

    subscript(pointer: String) -> SourcePosition {
        mutating get {
            if let find { return find(pointer) }
            return cache?[pointer] ?? .start
        }
    }

    /// The position of a byte offset of the body: in a scene file, where it is; in a Swift scene, the view's.
    func position(at offset: Int) -> SourcePosition {
        if let find { return find("") }
        return cache?.text.position(at: offset) ?? .start
    }
}

/// The positions of a file's pointers, each found once.
struct PositionCache {
    let text: SourceText
    var known: [String: SourcePosition] = [:]

    init(text: SourceText) { self.text = text }

    subscript(pointer: String) -> SourcePosition {
        mutating get {
            if let p = known[pointer] { return p }
            let p = text.position(of: pointer)
            known[pointer] = p
            return p
        }
    }
}

/// Collects a file's findings with the rule settings applied: a rule set `off` gives none, a severity replaces the
/// engine's.
struct LintFindingBuilder {
    let rules: [String: LintRuleSetting]
    private(set) var findings: [LintFinding] = []

    init(rules: [String: LintRuleSetting]) { self.rules = rules }

    mutating func add(
        _ rule: String, _ severity: LintSeverity, pointer: String, at position: SourcePosition, combination: Int?,
        message: String
    ) {
        guard let index = LintRules.index(of: rule) else { return }
        var severity = severity
        switch rules[rule] {
        case .off?: return
        case .severity(let s)?: severity = s
        case nil: break
        }
        findings.append(
            LintFinding(
                ruleIndex: index, severity: severity, pointer: pointer, position: position, combination: combination,
                message: message))
    }
}
