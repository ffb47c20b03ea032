/// Present or navigate (docs/rules.md#present-or-navigate): advice from the presentation's declared intent.
enum PresentOrNavigateRules {
    static func advise(_ p: Presentation, swipeToDismiss: Bool?, diagnostics d: inout PresentationDiagnostics) {
        guard let intent = p.intent else { return }
        if intent.hasDecision == false {
            d.add(
                .preferNavigation, .info, "intent/hasDecision",
                "nothing to confirm or cancel: push this screen onto the navigation stack instead of presenting it")
        }
        if intent.abandonableWithoutCost == true, p.kind == .fullScreenCover {
            d.add(
                .preferSheet, .info, "intent/abandonableWithoutCost",
                "it can be abandoned without cost, so a full-screen cover's forced exit is unnecessary: use a sheet, which can be swiped away"
            )
        }
        // A sheet that cannot be swiped away (or whose swipe state is unknown because it was ignored)
        // follows the request's interactiveDismissDisabled.
        var swipe = swipeToDismiss
        if swipe == nil, case .sheet(let s) = p.content { swipe = !s.interactiveDismissDisabled }
        if intent.abandonableWithoutCost == false, p.kind == .sheet, swipe == true {
            d.add(
                .preferCoverOrGuard, .warning, "intent/abandonableWithoutCost",
                "abandoning it has a cost but a swipe dismisses the sheet: use a full-screen cover, or set interactiveDismissDisabled and confirm the exit explicitly"
            )
        }
    }
}
