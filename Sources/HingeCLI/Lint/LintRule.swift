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

/// One rule the lint reports: every diagnostic code of the engine, plus `invalid-scene` and `placement-changed`.
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
        ]

    private static let positions: [String: Int] = Dictionary(
        uniqueKeysWithValues: all.enumerated().map { ($0.element.id, $0.offset) })

    /// The position of rule `id` in `all`.
    public static func index(of id: String) -> Int? { positions[id] }

    public static var ids: [String] { all.map(\.id) }

    /// The documentation anchor and summary of each engine code (docs/rules.md#diagnostics lists the same anchors).
    static func rule(for code: DiagnosticCode) -> LintRule {
        let (severity, anchor, summary) = describe(code)
        return LintRule(
            id: code.rawValue, defaultSeverity: severity, document: "docs/rules.md", anchor: anchor, summary: summary)
    }

    // One case per code, so that a new code does not compile without its entry here.
    private static func describe(_ code: DiagnosticCode) -> (LintSeverity, String, String) {
        switch code {
        case .postureIgnored: return (.info, "posture", "A posture is given for a device or window that does not fold.")
        case .chainedModal: return (.warning, "modal-stack", "A modal is presented from another modal.")
        case .concurrentPresentation:
            return (.warning, "modal-stack", "Two modals are presented from the same context at once.")
        case .placementMovedByFold:
            return (.info, "placement-moved-by-fold", "A sheet's placement would cross the fold and moves to a region.")
        case .detentsIgnored:
            return (.info, "full-window-sheet", "Detents are listed for a sheet style that ignores them.")
        case .placementNoEffect:
            return (.info, "bottom-sheet", "A sheet placement has no visible effect in this size class.")
        case .detentClamped:
            return (.info, "detent-heights", "A detent is taller than the large detent and is clamped.")
        case .unsavedChangesDismissible:
            return (.warning, "dismissal", "A sheet with unsaved changes can be swiped away.")
        case .toolbarItemMissingIcon: return (.warning, "toolbar", "A toolbar item of a vertical toolbar has no icon.")
        case .toolbarMissingExit: return (.info, "toolbar", "A sheet's toolbar has no way out.")
        case .fittedAccessibilityRisk:
            return (.warning, "dynamic-type-risk", "Fitted or fixed detents may be outgrown at large text sizes.")
        case .contentSpansFold:
            return (
                .warning, "full-screen-cover",
                "Content spans a separating fold (info for a cover, warning for an overlay)."
            )
        case .placementIgnored:
            return (.warning, "stray-placement", "A placement is given to a presentation that is not a sheet.")
        case .popoverAdapted:
            return (.info, "popover-adaptation", "A popover is shown as a sheet or a full-screen cover.")
        case .panelClamped:
            return (.info, "adaptive-panel", "An adaptive panel is larger than the window and is clamped.")
        case .panelSnappedToFold:
            return (.info, "panel-snapping", "An adaptive panel would cross the fold and snaps to a region.")
        case .preferNavigation:
            return (.info, "present-or-navigate", "The content would read better as a navigation push.")
        case .preferSheet: return (.info, "present-or-navigate", "The content would read better as a sheet.")
        case .preferCoverOrGuard:
            return (
                .warning, "present-or-navigate",
                "A decision that cannot be abandoned needs a cover or a dismissal guard."
            )
        case .arrangementInScrollContainer:
            return (.warning, "arrangement", "An ArrangementView sits inside a List or ScrollView.")
        case .splitFollowsFold: return (.info, "split", "The split follows the fold and ignores its size preferences.")
        case .secondaryHidden: return (.warning, "split", "The split's axes hide the secondary view here.")
        case .presentationCovered:
            return (
                .warning, "covered-presentation",
                "A popover (warning), or a non-modal panel over a modal (info), wholly covers a presentation."
            )
        case .unknownField: return (.warning, "unknown-fields", "A member no rule reads: often a typo.")
        }
    }
}
