import JSON
import Testing

@testable import LayoutEngine

/// docs/rules.md#panel-context: a non-modal panel is part of the view hierarchy that holds it, so what it presents
/// that context presents; a modal panel is its own context.
extension ContractDecisionTests {
    struct PanelContextCase: Sendable, CustomTestStringConvertible {
        var name: String
        var presentations: String
        var statuses: [PlacementStatus]
        /// Every diagnostic, in order: code, path and the exact message.
        var diagnostics: [(DiagnosticCode, String, String)]
        var testDescription: String { name }
    }

    static let rootBusy =
        "an earlier modal is still up: SwiftUI ignores a second presentation from the same context; give it presentedFrom (the modal on top) or present it after dismissing the first"
    static let secondFromContext =
        "already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"

    static let panelContextCases: [PanelContextCase] = [
        PanelContextCase(
            name: "a sheet from a root panel occupies the root: a later root sheet is ignored",
            presentations:
                #"{"id":"p","kind":"adaptivePanel"},{"id":"a","kind":"sheet","presentedFrom":"p"},{"id":"b","kind":"sheet"}"#,
            statuses: [.presented, .presented, .ignored],
            diagnostics: [(.concurrentPresentation, "/presentations/2", rootBusy)]),
        PanelContextCase(
            name: "a root panel cannot present while the root shows a modal",
            presentations:
                #"{"id":"a","kind":"sheet"},{"id":"p","kind":"adaptivePanel"},{"id":"b","kind":"fullScreenCover","presentedFrom":"p"}"#,
            statuses: [.presented, .presented, .ignored],
            diagnostics: [
                (
                    .concurrentPresentation, "/presentations/2",
                    "\"p\" is a non-modal panel in the root's view hierarchy, so this is presented from the root, which "
                        + secondFromContext
                )
            ]),
        PanelContextCase(
            name: "a sheet from a root panel is not chained, and the panel's second one is ignored",
            presentations:
                #"{"id":"p","kind":"adaptivePanel"},{"id":"a","kind":"sheet","presentedFrom":"p"},{"id":"b","kind":"sheet","presentedFrom":"p"}"#,
            statuses: [.presented, .presented, .ignored],
            diagnostics: [
                (
                    .concurrentPresentation, "/presentations/2",
                    "\"p\" is a non-modal panel in the root's view hierarchy, so this is presented from the root, which "
                        + secondFromContext
                )
            ]),
        PanelContextCase(
            name: "a panel presented from a root panel is in the root's hierarchy too",
            presentations:
                #"{"id":"p","kind":"adaptivePanel"},{"id":"q","kind":"adaptivePanel","presentedFrom":"p"},{"id":"a","kind":"sheet","presentedFrom":"q"},{"id":"b","kind":"sheet"}"#,
            statuses: [.presented, .presented, .presented, .ignored],
            diagnostics: [(.concurrentPresentation, "/presentations/3", rootBusy)]),
        PanelContextCase(
            name: "a panel inside a sheet presents from the sheet",
            presentations:
                #"{"id":"s","kind":"sheet"},{"id":"p","kind":"adaptivePanel","presentedFrom":"s"},{"id":"q","kind":"adaptivePanel","presentedFrom":"p"},{"id":"a","kind":"sheet","presentedFrom":"q"},{"id":"b","kind":"sheet","presentedFrom":"s"},{"id":"c","kind":"sheet","presentedFrom":"p"},{"id":"d","kind":"sheet","presentedFrom":"a"}"#,
            statuses: [.presented, .presented, .presented, .presented, .ignored, .ignored, .presented],
            diagnostics: [
                (
                    .chainedModal, "/presentations/3/presentedFrom",
                    "a modal presented from the modal \"s\": chained modals stack interruptions; consider navigating inside \"s\" instead"
                ),
                (.concurrentPresentation, "/presentations/4", "\"s\" " + secondFromContext),
                (
                    .concurrentPresentation, "/presentations/5",
                    "\"p\" is a non-modal panel in the view hierarchy of \"s\", so this is presented from \"s\", which "
                        + secondFromContext
                ),
                (
                    .chainedModal, "/presentations/6/presentedFrom",
                    "a modal presented from the modal \"a\": chained modals stack interruptions; consider navigating inside \"a\" instead"
                ),
            ]),
        PanelContextCase(
            name: "a modal panel stays its own context",
            presentations:
                #"{"id":"m","kind":"adaptivePanel","modal":true},{"id":"a","kind":"sheet","presentedFrom":"m"},{"id":"b","kind":"sheet","presentedFrom":"m"}"#,
            statuses: [.presented, .presented, .ignored],
            diagnostics: [
                (
                    .chainedModal, "/presentations/1/presentedFrom",
                    "a modal presented from the modal \"m\": chained modals stack interruptions; consider navigating inside \"m\" instead"
                ),
                (.concurrentPresentation, "/presentations/2", "\"m\" " + secondFromContext),
            ]),
        PanelContextCase(
            name: "a panel inside an ignored sheet is not on screen",
            presentations:
                #"{"id":"s","kind":"sheet"},{"id":"t","kind":"sheet"},{"id":"p","kind":"adaptivePanel","presentedFrom":"t"},{"id":"a","kind":"sheet","presentedFrom":"p"}"#,
            statuses: [.presented, .ignored, .ignored, .ignored],
            diagnostics: [
                (.concurrentPresentation, "/presentations/1", rootBusy),
                (
                    .concurrentPresentation, "/presentations/2/presentedFrom",
                    "\"t\" is not on screen (it was ignored), so nothing can be presented from it: present \"p\" after it is dismissed"
                ),
                (
                    .concurrentPresentation, "/presentations/3/presentedFrom",
                    "\"p\" is not on screen (it was ignored), so nothing can be presented from it: present \"a\" after it is dismissed"
                ),
            ]),
    ]

    @Test("panel-context: a non-modal panel presents from the context that holds it", arguments: panelContextCases)
    func panelContext(_ c: PanelContextCase) throws {
        let r = try resolve(#"{"device":"test-tablet","presentations":[\#(c.presentations)]}"#)
        #expect(r.placements.map(\.status) == c.statuses)
        #expect(r.diagnostics.map(\.code) == c.diagnostics.map(\.0))
        #expect(r.diagnostics.map(\.path) == c.diagnostics.map(\.1))
        #expect(r.diagnostics.map(\.message) == c.diagnostics.map(\.2))
        #expect(r.diagnostics.allSatisfy { $0.severity == .warning })
        for (i, p) in r.placements.enumerated() where p.status == .ignored {
            #expect(p.frame == nil && p.style == nil, "placement \(i) is ignored but placed")
        }
    }
}
