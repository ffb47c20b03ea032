/// Every diagnostic code of SPEC (§2–§6), with the section that produces it.
public enum DiagnosticCode: String, Sendable, CaseIterable {
    case postureIgnored = "posture-ignored"  // §2.1
    case chainedModal = "chained-modal"  // §3.1
    case concurrentPresentation = "concurrent-presentation"  // §3.1
    case placementMovedByFold = "placement-moved-by-fold"  // §3.2 rule 1
    case detentsIgnored = "detents-ignored"  // §3.2 rules 2, 4
    case placementNoEffect = "placement-no-effect"  // §3.2 rule 3
    case detentClamped = "detent-clamped"  // §3.2 detent heights
    case unsavedChangesDismissible = "unsaved-changes-dismissible"  // §3.2 behaviour
    case toolbarItemMissingIcon = "toolbar-item-missing-icon"  // §3.2 behaviour
    case toolbarMissingExit = "toolbar-missing-exit"  // §3.2 behaviour
    case fittedAccessibilityRisk = "fitted-accessibility-risk"  // §3.2 Dynamic Type
    case contentSpansFold = "content-spans-fold"  // §3.3, §4 overlay
    case placementIgnored = "placement-ignored"  // §3.3
    case popoverAdapted = "popover-adapted"  // §3.4
    case panelClamped = "panel-clamped"  // §3.5
    case panelSnappedToFold = "panel-snapped-to-fold"  // §3.5
    case preferNavigation = "prefer-navigation"  // §3.6
    case preferSheet = "prefer-sheet"  // §3.6
    case preferCoverOrGuard = "prefer-cover-or-guard"  // §3.6
    case arrangementInScrollContainer = "arrangement-in-scroll-container"  // §4
    case splitFollowsFold = "split-follows-fold"  // §4 split
    case secondaryHidden = "secondary-hidden"  // §4 split
    case unknownField = "unknown-field"  // §6
}

public enum Severity: String, Sendable, CaseIterable { case info, warning }

/// One entry of `diagnostics` (SPEC §5): what happened and what to do about it.
public struct Diagnostic: Sendable, Equatable {
    public var code: DiagnosticCode
    public var severity: Severity
    /// The presentation's id, nil for scene-level diagnostics.
    public var presentation: String?
    /// JSON pointer into the request.
    public var path: String
    public var message: String

    public init(code: DiagnosticCode, severity: Severity, presentation: String?, path: String, message: String) {
        self.code = code
        self.severity = severity
        self.presentation = presentation
        self.path = path
        self.message = message
    }
}

/// Collects the diagnostics of one presentation, filling in its id and path prefix.
struct PresentationDiagnostics {
    let id: String
    let index: Int
    var items: [Diagnostic] = []

    init(id: String, index: Int) {
        self.id = id
        self.index = index
    }

    /// `/presentations/<index>[/member]`, built only when a diagnostic is added.
    mutating func add(_ code: DiagnosticCode, _ severity: Severity, _ member: String = "", _ message: String) {
        var path = "/presentations/"
        path += String(index)
        if !member.isEmpty {
            path += "/"
            path += member
        }
        items.append(Diagnostic(code: code, severity: severity, presentation: id, path: path, message: message))
    }
}
