// The rule behind each diagnostic code (docs/rules.md#diagnostics).

/// The rule that produces a diagnostic code, as `hinge lint` lists it and the design-tool plugins link to it.
public struct DiagnosticRule: Sendable, Equatable {
    /// The rule's anchor in docs/rules.md (the first of the code's row in docs/rules.md#diagnostics).
    public let anchor: String
    /// The code's severity; where it depends on the case, the graver one.
    public let severity: Severity
    /// One sentence: what the code finds.
    public let summary: String
}

extension DiagnosticCode {
    /// The rule behind the code. `hinge lint`'s rule catalog is made from it; plugins/shared/drawing.js
    /// (`RULE_ANCHORS`) cannot import it, and `DiagnosticRuleTests` holds it to the same anchors, and to
    /// docs/rules.md#diagnostics.
    public var rule: DiagnosticRule {
        switch self {
        case .postureIgnored:
            return DiagnosticRule(
                anchor: "posture", severity: .info,
                summary: "A posture is given for a device or window that does not fold.")
        case .chainedModal:
            return DiagnosticRule(
                anchor: "modal-stack", severity: .warning, summary: "A modal is presented from another modal.")
        case .concurrentPresentation:
            return DiagnosticRule(
                anchor: "modal-stack", severity: .warning,
                summary: "Two modals are presented from the same context at once.")
        case .placementMovedByFold:
            return DiagnosticRule(
                anchor: "placement-moved-by-fold", severity: .info,
                summary: "A sheet's placement would cross the fold and moves to a region.")
        case .detentsIgnored:
            return DiagnosticRule(
                anchor: "full-window-sheet", severity: .info,
                summary: "Detents are listed for a sheet style that ignores them.")
        case .placementNoEffect:
            return DiagnosticRule(
                anchor: "bottom-sheet", severity: .info,
                summary: "A sheet placement has no visible effect in this size class.")
        case .detentClamped:
            return DiagnosticRule(
                anchor: "detent-heights", severity: .info,
                summary: "A detent is taller than the large detent and is clamped.")
        case .unsavedChangesDismissible:
            return DiagnosticRule(
                anchor: "dismissal", severity: .warning, summary: "A sheet with unsaved changes can be swiped away.")
        case .toolbarItemMissingIcon:
            return DiagnosticRule(
                anchor: "toolbar", severity: .warning, summary: "A toolbar item of a vertical toolbar has no icon.")
        case .toolbarMissingExit:
            return DiagnosticRule(anchor: "toolbar", severity: .info, summary: "A sheet's toolbar has no way out.")
        case .fittedAccessibilityRisk:
            return DiagnosticRule(
                anchor: "dynamic-type-risk", severity: .warning,
                summary: "Fitted or fixed detents may be outgrown at large text sizes.")
        case .contentSpansFold:
            return DiagnosticRule(
                anchor: "full-screen-cover", severity: .warning,
                summary: "Content spans a separating fold (info for a cover, warning for an overlay).")
        case .placementIgnored:
            return DiagnosticRule(
                anchor: "stray-placement", severity: .warning,
                summary: "A placement is given to a presentation that is not a sheet.")
        case .popoverAdapted:
            return DiagnosticRule(
                anchor: "popover-adaptation", severity: .info,
                summary: "A popover is shown as a sheet or a full-screen cover.")
        case .panelClamped:
            return DiagnosticRule(
                anchor: "adaptive-panel", severity: .info,
                summary: "An adaptive panel is larger than the window and is clamped.")
        case .panelSnappedToFold:
            return DiagnosticRule(
                anchor: "panel-snapping", severity: .info,
                summary: "An adaptive panel would cross the fold and snaps to a region.")
        case .preferNavigation:
            return DiagnosticRule(
                anchor: "present-or-navigate", severity: .info,
                summary: "The content would read better as a navigation push.")
        case .preferSheet:
            return DiagnosticRule(
                anchor: "present-or-navigate", severity: .info, summary: "The content would read better as a sheet.")
        case .preferCoverOrGuard:
            return DiagnosticRule(
                anchor: "present-or-navigate", severity: .warning,
                summary: "A decision that cannot be abandoned needs a cover or a dismissal guard.")
        case .arrangementInScrollContainer:
            return DiagnosticRule(
                anchor: "arrangement", severity: .warning,
                summary: "An ArrangementView sits inside a List or ScrollView.")
        case .splitFollowsFold:
            return DiagnosticRule(
                anchor: "split", severity: .info,
                summary: "The split follows the fold and ignores its size preferences.")
        case .secondaryHidden:
            return DiagnosticRule(
                anchor: "split", severity: .warning, summary: "The split's axes hide the secondary view here.")
        case .unknownField:
            return DiagnosticRule(
                anchor: "unknown-fields", severity: .warning, summary: "A member no rule reads: often a typo.")
        case .presentationCovered:
            return DiagnosticRule(
                anchor: "covered-presentation", severity: .warning,
                summary: "A popover (warning), or a non-modal panel over a modal (info), wholly covers a presentation.")
        }
    }
}
