import Testing

@testable import LayoutEngine

/// Every diagnostic code of the spec, with a scene that produces it.
@Suite("Diagnostic coverage")
struct DiagnosticCoverageTests {
    static let table: [(DiagnosticCode, String)] = [
        (.postureIgnored, #"{"device":"test-phone","posture":"halfOpened"}"#),
        (
            .chainedModal,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet","presentedFrom":"a"}]}"#
        ),
        (
            .concurrentPresentation,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet"}]}"#
        ),
        (
            .placementMovedByFold,
            #"{"device":"test-foldable","posture":"halfOpened","presentations":[{"id":"a","kind":"sheet","placement":"center"}]}"#
        ),
        (
            .detentsIgnored,
            #"{"device":"test-tablet","presentations":[{"id":"a","kind":"sheet","detents":["medium"]}]}"#
        ),
        (
            .placementNoEffect,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","placement":"trailing"}]}"#
        ),
        (
            .detentClamped,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","detents":[{"height":5000}]}]}"#
        ),
        (
            .unsavedChangesDismissible,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","hasUnsavedChanges":true}]}"#
        ),
        (
            .toolbarItemMissingIcon,
            #"{"device":"test-tablet","presentations":[{"id":"a","kind":"sheet","placement":"trailing","toolbar":[{"title":"Done","placement":"confirmationAction"}]}]}"#
        ),
        (
            .toolbarMissingExit,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","toolbar":[{"title":"Share","systemImage":"square.and.arrow.up"}]}]}"#
        ),
        (
            .fittedAccessibilityRisk,
            #"{"device":"test-phone","dynamicTypeSize":"accessibility3","presentations":[{"id":"a","kind":"sheet","detents":["fitted"],"contentSize":{"width":390,"height":200}}]}"#
        ),
        (
            .contentSpansFold,
            #"{"device":"test-foldable","posture":"halfOpened","presentations":[{"id":"a","kind":"fullScreenCover"}]}"#
        ),
        (
            .placementIgnored,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"fullScreenCover","placement":"center"}]}"#
        ),
        (
            .popoverAdapted,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"popover","anchor":{"x":10,"y":10}}]}"#
        ),
        (
            .panelClamped,
            #"{"device":"test-tablet","presentations":[{"id":"a","kind":"adaptivePanel","panelWidth":4000}]}"#
        ),
        (
            .panelSnappedToFold,
            #"{"device":"test-foldable","posture":"halfOpened","presentations":[{"id":"a","kind":"adaptivePanel","panelWidth":600}]}"#
        ),
        (
            .preferNavigation,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","intent":{"hasDecision":false}}]}"#
        ),
        (
            .preferSheet,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"fullScreenCover","intent":{"abandonableWithoutCost":true}}]}"#
        ),
        (
            .preferCoverOrGuard,
            #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","intent":{"abandonableWithoutCost":false}}]}"#
        ),
        (.arrangementInScrollContainer, #"{"device":"test-phone","arrangement":{"container":"scrollView"}}"#),
        (.splitFollowsFold, #"{"device":"test-foldable","posture":"halfOpened","arrangement":{"style":"split"}}"#),
        (
            .secondaryHidden,
            #"{"device":"test-foldable","posture":"halfOpened","arrangement":{"style":"split","axes":["vertical"]}}"#
        ),
        (.unknownField, #"{"device":"test-phone","colour":"blue"}"#),
        (
            .presentationCovered,
            #"{"device":"test-tablet","presentations":[{"id":"a","kind":"sheet"},{"id":"p","kind":"popover","presentedFrom":"a","anchor":{"x":500,"y":600},"contentSize":{"width":5000,"height":5000}}]}"#
        ),
    ]

    @Test("Every diagnostic code of the spec is in the table")
    func tableIsComplete() {
        #expect(Set(Self.table.map(\.0)) == Set(DiagnosticCode.allCases))
    }

    @Test("Each diagnostic code is produced, with a message and a pointer", arguments: table)
    func produced(_ code: DiagnosticCode, _ scene: String) throws {
        let r = try resolve(scene)
        let d = try #require(r.diagnostics.first { $0.code == code })
        #expect(d.message.count > 30)
        #expect(d.path.hasPrefix("/"))
    }
}
