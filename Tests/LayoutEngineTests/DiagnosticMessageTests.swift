import JSON
import Testing

@testable import LayoutEngine

/// Diagnostics keep their message as parts (`DiagnosticMessage`) until read or encoded. Each case must render
/// exactly the text its rule means, as a plain interpolation would build it: the expected strings below are
/// those interpolations.
@Suite("Deferred diagnostic texts")
struct DiagnosticMessageTests {
    @Test("every message case renders the text its rule interpolates")
    func messagesRenderAsBefore() {
        let pw = 812.5
        let w = 752.0
        let h = 331.25
        let names = ["editor", "a \"quoted\" id"]
        var cases: [(DiagnosticMessage, String)] = [
            (.fixed("a fixed text"), "a fixed text"),
            (.text("any text"), "any text"),
            (.unknownField("colour"), "unknown field \"colour\" is ignored: check its spelling and where it is nested"),
            (
                .postureIgnored(.halfOpened, device: "iphone-16"),
                "posture \"halfOpened\" is ignored: device \"iphone-16\" does not fold; the scene is resolved flat"
            ),
            (
                .postureIgnored(.closed, device: nil),
                "posture \"closed\" is ignored: the scene has no device and no fold; give a foldable device or a \"fold\" to model a posture"
            ),
            (
                .arrangementInScrollContainer(.scrollView),
                "the arrangement sits in a scrollView: Apple advises against putting ArrangementView inside a List or ScrollView; let each view scroll on its own"
            ),
            (
                .secondaryHidden(.vertical, allowed: [.horizontal]),
                "the split needs the vertical axis here but axes allow only horizontal: only the primary view is shown; allow both axes or give the secondary content another way in"
            ),
            (
                .secondaryHidden(.horizontal, allowed: []),
                "the split needs the horizontal axis here but axes allow only : only the primary view is shown; allow both axes or give the secondary content another way in"
            ),
            (
                .splitFollowsFold(.leading, .trailing),
                "the split follows the fold: the primary view takes the leading region and the secondary the trailing region; size preferences do not apply while the device is folded"
            ),
            (
                .splitFollowsFold(nil, .bottom),
                "the split follows the fold: the primary view takes the  region and the secondary the bottom region; size preferences do not apply while the device is folded"
            ),
            (
                .overlayCannotSeparate(.horizontal),
                "the overlay cannot separate along the horizontal axis, which axes exclude: both views stay overlaid across the fold; allow the horizontal axis"
            ),
            (
                .panelWider(pw, window: w),
                "the \(fmt(pw)) pt side panel is wider than the \(fmt(w)) pt window: clamped to the window width; lower panelWidth"
            ),
            (
                .panelTaller(h, window: w),
                "the \(fmt(h)) pt bottom panel is taller than the \(fmt(w)) pt window: clamped to the window height; lower panelHeight"
            ),
            (
                .panelSnapped(side: false, .trailing),
                "the bottom panel would cross the fold: it snaps to the trailing region; size it to fit that region to avoid the jump"
            ),
            (
                .popoverAsSheet(folded: false),
                "the popover is shown as a sheet (medium and large detents) because the window is horizontally compact; set compactAdaptation to \"popover\" to keep a popover"
            ),
            (
                .popoverAsCover(folded: true),
                "the popover is shown as a full-screen cover: the anchor's region is horizontally compact and compactAdaptation is \"fullScreenCover\""
            ),
            (
                .popoverAsCoverVerticallyCompact,
                "the popover is shown as a full-screen cover: the window is vertically compact; set compactAdaptation to \"popover\" to keep a popover"
            ),
            (
                .presenterNotOnScreen(names[1], id: "help"),
                "\"\(names[1])\" is not on screen (it was ignored), so nothing can be presented from it: present \"help\" after it is dismissed"
            ),
            (
                .presenterBusy(names[0]),
                "\"\(names[0])\" already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"
            ),
            (
                .panelContextBusy(names[1], context: nil),
                "\"\(names[1])\" is a non-modal panel in the root's view hierarchy, so this is presented from the root, which already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"
            ),
            (
                .panelContextBusy(names[0], context: names[1]),
                "\"\(names[0])\" is a non-modal panel in the view hierarchy of \"\(names[1])\", so this is presented from \"\(names[1])\", which already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"
            ),
            (
                .chainedModal(names[0]),
                "a modal presented from the modal \"\(names[0])\": chained modals stack interruptions; consider navigating inside \"\(names[0])\" instead"
            ),
            (
                .placementIgnored(.leading, .popover),
                "placement \"leading\" is ignored: only sheets honour presentationPlacement; remove it from this popover"
            ),
            (
                .detentClamped(.height(900.5), h),
                "detent \(Detent.height(900.5).text) is taller than the large detent here: clamped to \(fmt(h)) pt (window or region height − top safe area − sheet.topGap)"
            ),
            (
                .fittedAccessibilityRisk(.accessibility3),
                "at accessibility3 text the content may outgrow a sheet whose detents are all fitted or fixed heights: make the content scrollable or add the \"large\" detent"
            ),
            (
                .placementMovedByFold(.center, .leading),
                "placement \"center\" would cross the fold: the sheet moves to the leading region (only trailing takes the trailing half)"
            ),
            (
                .placementNoEffectCompactHeight(.trailing),
                "trailing placement has no visible effect in a compact-height window: the sheet spans the window's width"
            ),
            (
                .placementNoEffectCompactWidth(.leading, region: true),
                "leading placement has no visible effect on a compact-width region: the sheet spans the full width"
            ),
            (
                .detentsIgnoredByCard(region: false),
                "detents are ignored by a card in a regular-width window: its size comes from sizing (form, page or fitted)"
            ),
        ]
        for (i, title) in [String?.some("Save"), nil].enumerated() {
            cases.append(
                (
                    .toolbarItemMissingIcon(title: title, index: i),
                    "toolbar item \(title.map { "\"\($0)\"" } ?? "\(i)") has no systemImage: the sheet sits at the trailing edge with a vertical toolbar, which shows icons; give it a systemImage"
                ))
        }
        for (message, expected) in cases {
            #expect(message.rendered == expected)
            let d = Diagnostic(
                code: .unknownField, severity: .info, presentation: nil, path: .fixed("/x"), message: message)
            #expect(d.message == expected)
            #expect(
                d == Diagnostic(code: .unknownField, severity: .info, presentation: nil, path: "/x", message: expected))
        }
    }

    @Test("paths render as the rules build them")
    func pathsRenderAsBefore() {
        #expect(DiagnosticPath.presentation(index: 3, member: "", item: -1).rendered == "/presentations/3")
        #expect(
            DiagnosticPath.presentation(index: 0, member: "placement", item: -1).rendered
                == "/presentations/0/placement")
        #expect(
            DiagnosticPath.presentation(index: 12, member: "toolbar", item: 4).rendered == "/presentations/12/toolbar/4"
        )
        #expect(DiagnosticPath.pointer(JSONPointer(["a/b", "c~d"])).rendered == "/a~1b/c~0d")
        var d = Diagnostic(code: .postureIgnored, severity: .info, presentation: nil, path: "/posture", message: "m")
        d.path = "/other"
        d.message = "changed"
        #expect(d.path == "/other" && d.message == "changed")
    }
}
