import LayoutEngine

/// How much a finding matters (docs/lint.md#rules). The engine's diagnostics are `info` or `warning`; the lint adds
/// `error`, for its own rules and for whatever a configuration raises.
public enum LintSeverity: String, Sendable, CaseIterable, Comparable {
    case info, warning, error

    var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: LintSeverity, b: LintSeverity) -> Bool { a.rank < b.rank }

    init(_ engine: Severity) {
        switch engine {
        case .info: self = .info
        case .warning: self = .warning
        }
    }

    /// SARIF's name for the level (`note` for info).
    var sarifLevel: String {
        switch self {
        case .info: return "note"
        case .warning: return "warning"
        case .error: return "error"
        }
    }
}

/// `--fail-on`: the least severity that makes the run fail (exit 1), or `never`.
public enum LintFailOn: String, Sendable, CaseIterable {
    case error, warning, info, never

    /// The threshold, nil for `never`.
    var threshold: LintSeverity? {
        switch self {
        case .error: return .error
        case .warning: return .warning
        case .info: return .info
        case .never: return nil
        }
    }

    func fails(_ severity: LintSeverity) -> Bool { threshold.map { severity >= $0 } ?? false }
}

/// A rule's setting in a configuration: a severity that replaces the engine's, or `off`.
public enum LintRuleSetting: Sendable, Equatable {
    case off
    case severity(LintSeverity)

    static let names = ["off"] + LintSeverity.allCases.map(\.rawValue)

    init?(name: String) {
        if name == "off" {
            self = .off
        } else if let s = LintSeverity(rawValue: name) {
            self = .severity(s)
        } else {
            return nil
        }
    }
}

/// One rule the lint reports: every diagnostic code of the engine, plus `invalid-scene` and `placement-changed`, and
/// the two a Swift source gives before any resolution: `present-by-item` and `unresolved` (docs/lint.md#swift).
public struct LintRule: Sendable, Equatable {
    /// The rule id: the diagnostic's code.
    public let id: String
    /// The severity a finding has when no configuration changes it (the engine's, for its codes; `content-spans-fold`
    /// is `info` for a cover and `warning` for an overlay, listed as `warning`).
    public let defaultSeverity: LintSeverity
    /// The documentation: a document of the repository and an anchor in it (`docs/rules.md`, `modal-stack`).
    public let document: String
    public let anchor: String
    /// One sentence: what the rule finds.
    public let summary: String

    /// `docs/rules.md#modal-stack`: where the rule is described, relative to the repository.
    public var documentation: String { "\(document)#\(anchor)" }

    /// The section's address under `docsURL`, where the repository's `docs/` folder is published.
    func link(docsURL: String) -> String {
        "\(docsURL)/\(document.hasPrefix("docs/") ? String(document.dropFirst(5)) : document)#\(anchor)"
    }
}

/// The rule catalog, in a fixed order (the SARIF `ruleIndex` is a position in it).
public enum LintRules {
    public static let invalidScene = "invalid-scene"
    public static let placementChanged = "placement-changed"
    /// Source-level rules of a Swift source (docs/lint.md#swift): read by the SwiftUI bridge, not the engine.
    public static let presentByItem = "present-by-item"
    public static let unresolved = "unresolved"

    public static let all: [LintRule] =
        DiagnosticCode.allCases.map(rule(for:)) + [
            LintRule(
                id: invalidScene, defaultSeverity: .error, document: "docs/rules.md", anchor: "validation",
                summary:
                    "The scene is not JSON, or the API would refuse it (400 or 422): one finding per violation, at its "
                    + "position."),
            LintRule(
                id: placementChanged, defaultSeverity: .error, document: "docs/lint.md", anchor: "snapshots",
                summary:
                    "A placement differs from its snapshot (a frame, style, status or detent height moved by more "
                    + "than the tolerance)."),
            LintRule(
                id: presentByItem, defaultSeverity: .warning, document: "docs/swiftui.md", anchor: "present-by-item",
                summary:
                    "A Swift presentation driven by a boolean whose content reads an optional: present(item:) says "
                    + "what the content needs."),
            LintRule(
                id: unresolved, defaultSeverity: .info, document: "docs/swiftui.md", anchor: "unresolved",
                summary:
                    "A Swift scene depends on something only running the code knows (a measured size, a computed "
                    + "value): the lint checks it with a stand-in."),
        ]

    private static let positions: [String: Int] = Dictionary(
        uniqueKeysWithValues: all.enumerated().map { ($0.element.id, $0.offset) })

    /// The position of rule `id` in `all`.
    public static func index(of id: String) -> Int? { positions[id] }

    public static var ids: [String] { all.map(\.id) }

    /// The rule of an engine code: its `DiagnosticCode.rule`, which docs/rules.md#diagnostics lists too.
    static func rule(for code: DiagnosticCode) -> LintRule {
        let rule = code.rule
        return LintRule(
            id: code.rawValue, defaultSeverity: LintSeverity(rule.severity), document: "docs/rules.md",
            anchor: rule.anchor, summary: rule.summary)
    }
}
