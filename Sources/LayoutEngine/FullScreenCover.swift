/// Full-screen cover (docs/rules.md#full-screen-cover).
enum FullScreenCoverRules {
    static func resolve(into p: inout Placement, env: ResolvedEnvironment, diagnostics d: inout PresentationDiagnostics)
    {
        p.style = .fullWindow
        p.frame = env.bounds
        p.region = nil
        p.dimsBackground = false
        p.backgroundInteractive = false
        p.swipeToDismiss = false
        p.tapOutsideToDismiss = false
        p.cornerRadii = CornerRadii()
        p.transitionEdge = .bottom
        if env.separatingFold != nil {
            d.add(
                .contentSpansFold, .info, "",
                "the full-screen cover spans the fold: keep its content out of the hinge area, or use a sheet, which stays in one region"
            )
        }
    }

    /// `placement` on a non-sheet is ignored: only sheets honour it (docs/rules.md#stray-placement).
    static func warnStrayPlacement(_ presentation: Presentation, diagnostics d: inout PresentationDiagnostics) {
        guard let placement = presentation.strayPlacement else { return }
        d.add(
            .placementIgnored, .warning, "placement",
            .placementIgnored(placement, presentation.kind))
    }
}
