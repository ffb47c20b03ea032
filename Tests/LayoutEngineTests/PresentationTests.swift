import JSON
import Testing

@testable import LayoutEngine

func presentationScene(_ env: String, _ presentations: String) -> String {
    #"{\#(env),"presentations":[\#(presentations)]}"#
}

@Suite("Presentations other than sheets (docs/rules.md#presentations)")
struct PresentationTests {
    static let phone = #""device":"test-phone""#
    static let tablet = #""device":"test-tablet""#
    static let halfOpened = #""device":"test-foldable","posture":"halfOpened""#

    struct StackCase: Sendable, CustomTestStringConvertible {
        var name: String
        var presentations: String
        var statuses: [PlacementStatus]
        var codes: [DiagnosticCode]
        var testDescription: String { name }
    }

    @Test(
        "modal-stack: chaining and concurrency",
        arguments: [
            StackCase(
                name: "second modal from the same context is ignored",
                presentations: #"{"id":"a","kind":"sheet"},{"id":"b","kind":"fullScreenCover"}"#,
                statuses: [.presented, .ignored], codes: [.concurrentPresentation]),
            StackCase(
                name: "chained modal",
                presentations: #"{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet","presentedFrom":"a"}"#,
                statuses: [.presented, .presented], codes: [.chainedModal]),
            StackCase(
                name: "a presenter shows one modal at a time",
                presentations:
                    #"{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet","presentedFrom":"a"},{"id":"c","kind":"popover","anchor":{"x":0,"y":0},"presentedFrom":"a"}"#,
                statuses: [.presented, .presented, .ignored], codes: [.chainedModal, .concurrentPresentation]),
            StackCase(
                name: "nothing is presented from an ignored presentation",
                presentations:
                    #"{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet"},{"id":"c","kind":"sheet","presentedFrom":"b"}"#,
                statuses: [.presented, .ignored, .ignored], codes: [.concurrentPresentation, .concurrentPresentation]),
            StackCase(
                name: "a non-modal panel does not block a sheet",
                presentations: #"{"id":"p","kind":"adaptivePanel"},{"id":"a","kind":"sheet"}"#,
                statuses: [.presented, .presented], codes: []),
            StackCase(
                name: "a modal panel does",
                presentations: #"{"id":"p","kind":"adaptivePanel","modal":true},{"id":"a","kind":"sheet"}"#,
                statuses: [.presented, .ignored], codes: [.concurrentPresentation]),
            StackCase(
                name: "a sheet from a non-modal panel is not chained",
                presentations: #"{"id":"p","kind":"adaptivePanel"},{"id":"b","kind":"sheet","presentedFrom":"p"}"#,
                statuses: [.presented, .presented], codes: []),
            StackCase(
                name: "a sheet from a non-modal panel is presented from the root (docs/rules.md#panel-context)",
                presentations:
                    #"{"id":"a","kind":"sheet"},{"id":"p","kind":"adaptivePanel"},{"id":"b","kind":"sheet","presentedFrom":"p"}"#,
                statuses: [.presented, .presented, .ignored], codes: [.concurrentPresentation]),
        ])
    func modalStack(_ c: StackCase) throws {
        let r = try resolve(presentationScene(Self.tablet, c.presentations))
        #expect(r.placements.map(\.status) == c.statuses)
        #expect(r.diagnostics.map(\.code) == c.codes)
        for p in r.placements where p.status == .ignored {
            #expect(p.frame == nil && p.style == nil && p.dimsBackground == nil)
        }
    }

    @Test("full-screen-cover")
    func cover() throws {
        let plain = try resolve(presentationScene(Self.phone, #"{"id":"c","kind":"fullScreenCover"}"#))
        let p = try #require(plain.placement("c"))
        #expect(p.style == .fullWindow)
        #expect(close(p.frame, (0, 0, 390, 844)))
        #expect(p.dimsBackground == false && p.backgroundInteractive == false && p.swipeToDismiss == false)
        #expect(plain.diagnostics.isEmpty)
        let folded = try resolve(
            presentationScene(Self.halfOpened, #"{"id":"c","kind":"fullScreenCover","placement":"trailing"}"#))
        #expect(close(folded.placement("c")?.frame, (0, 0, 780, 844)))
        #expect(folded.placement("c")?.region == nil)
        #expect(folded.diagnostics.map(\.code) == [.placementIgnored, .contentSpansFold])
        #expect(folded.diagnostics.map(\.severity) == [.warning, .info])
    }

    struct PopoverCase: Sendable, CustomTestStringConvertible {
        var name: String
        var env: String
        var popover: String
        var style: PresentationStyle
        var frame: (Double, Double, Double, Double)
        var arrowEdge: ArrowEdge?
        var adapted: Bool = false
        var region: RegionSide? = nil
        var testDescription: String { name }
    }

    @Test(
        "popover: compact adaptation, flipping and clamping, fold-aware",
        arguments: [
            // Below the anchor, centred on it (122 − 160 = −38), clamped to the 10 pt margin.
            PopoverCase(
                name: "top edge sits below, clamped", env: tablet,
                popover: #""anchor":{"x":100,"y":100,"width":44,"height":44}"#,
                style: .popover, frame: (10, 144, 320, 320), arrowEdge: .top),
            // 12 pt below (1356 − 1344) is too small: flips above (1300 − 320 = 980), x = 522 − 160.
            PopoverCase(
                name: "flips above", env: tablet, popover: #""anchor":{"x":500,"y":1300,"width":44,"height":44}"#,
                style: .popover, frame: (362, 980, 320, 320), arrowEdge: .bottom),
            PopoverCase(
                name: "bottom edge flips below", env: tablet,
                popover: #""anchor":{"x":500,"y":100,"width":44,"height":44},"arrowEdge":"bottom""#, style: .popover,
                frame: (362, 144, 320, 320), arrowEdge: .top),
            // leading edge → on the anchor's trailing side (right in ltr), centred vertically: 622 − 160.
            PopoverCase(
                name: "leading edge ltr", env: tablet,
                popover: #""anchor":{"x":100,"y":600,"width":44,"height":44},"arrowEdge":"leading""#, style: .popover,
                frame: (144, 462, 320, 320), arrowEdge: .leading),
            // Under rtl the trailing side is the left: 90 pt of room, so it flips to the right.
            PopoverCase(
                name: "leading edge rtl flips", env: tablet + #","layoutDirection":"rtl""#,
                popover: #""anchor":{"x":100,"y":600,"width":44,"height":44},"arrowEdge":"leading""#, style: .popover,
                frame: (144, 462, 320, 320), arrowEdge: .trailing),
            PopoverCase(
                name: "content size, clamped at the trailing edge", env: tablet,
                popover: #""anchor":{"x":900,"y":50,"width":44,"height":44},"contentSize":{"width":200,"height":100}"#,
                style: .popover, frame: (814, 94, 200, 100), arrowEdge: .top),
            // Compact width: a sheet with medium/large selected large (docs/rules.md#popover-adaptation).
            PopoverCase(
                name: "adapted to a sheet on a phone", env: phone,
                popover: #""anchor":{"x":10,"y":100,"width":44,"height":44}"#,
                style: .bottomSheet, frame: (0, 57, 390, 787), arrowEdge: nil, adapted: true),
            PopoverCase(
                name: "compactAdaptation popover keeps it", env: phone,
                popover: #""anchor":{"x":10,"y":100,"width":44,"height":44},"compactAdaptation":"popover""#,
                style: .popover,
                frame: (10, 144, 320, 320), arrowEdge: .top),
            PopoverCase(
                name: "compactAdaptation fullScreenCover", env: phone,
                popover: #""anchor":{"x":10,"y":100,"width":44,"height":44},"compactAdaptation":"fullScreenCover""#,
                style: .fullWindow, frame: (0, 0, 390, 844), arrowEdge: nil, adapted: true),
            PopoverCase(
                name: "vertically compact → cover",
                env: tablet + #","sizeClass":{"horizontal":"regular","vertical":"compact"}"#,
                popover: #""anchor":{"x":10,"y":100,"width":44,"height":44}"#, style: .fullWindow,
                frame: (0, 0, 1024, 1366),
                arrowEdge: nil, adapted: true),
            PopoverCase(
                name: "vertically compact, adaptation popover",
                env: tablet + #","sizeClass":{"horizontal":"regular","vertical":"compact"}"#,
                popover: #""anchor":{"x":100,"y":100,"width":44,"height":44},"compactAdaptation":"popover""#,
                style: .popover,
                frame: (10, 144, 320, 320), arrowEdge: .top),
            // Folded: the anchor's region (trailing, compact) → a region sheet there.
            PopoverCase(
                name: "folded: region sheet in the anchor's region", env: halfOpened,
                popover: #""anchor":{"x":600,"y":100,"width":44,"height":44}"#, style: .regionSheet,
                frame: (390, 57, 390, 787),
                arrowEdge: nil, adapted: true, region: .trailing),
            // Folded, kept as a popover: clamped into the trailing region [400, 780 − 10 − 320 = 450].
            PopoverCase(
                name: "folded: clamped into the anchor's region", env: halfOpened,
                popover: #""anchor":{"x":600,"y":100,"width":44,"height":44},"compactAdaptation":"popover""#,
                style: .popover,
                frame: (450, 144, 320, 320), arrowEdge: .top, region: .trailing),
        ])
    func popover(_ c: PopoverCase) throws {
        let r = try resolve(presentationScene(c.env, #"{"id":"p","kind":"popover",\#(c.popover)}"#))
        let p = try #require(r.placement("p"))
        #expect(p.style == c.style)
        #expect(close(p.frame, c.frame), "frame \(String(describing: p.frame))")
        #expect(p.arrowEdge == c.arrowEdge)
        #expect((p.adaptedFrom == .popover) == c.adapted)
        #expect(r.has(.popoverAdapted) == c.adapted)
        #expect(p.region == c.region)
    }

    struct PanelCase: Sendable, CustomTestStringConvertible {
        var name: String
        var env: String
        var panel: String
        var style: PresentationStyle
        var frame: (Double, Double, Double, Double)
        var codes: [DiagnosticCode] = []
        var testDescription: String { name }
    }

    @Test(
        "adaptive-panel: breakpoint, alignment, RTL, clamping and fold snapping",
        arguments: [
            PanelCase(
                name: "side panel trailing", env: tablet, panel: "", style: .sidePanel, frame: (664, 0, 360, 1366)),
            PanelCase(
                name: "side panel trailing rtl", env: tablet + #","layoutDirection":"rtl""#, panel: "",
                style: .sidePanel,
                frame: (0, 0, 360, 1366)),
            PanelCase(
                name: "side panel leading", env: tablet, panel: #""alignment":"leading""#, style: .sidePanel,
                frame: (0, 0, 360, 1366)),
            PanelCase(
                name: "side panel leading rtl", env: tablet + #","layoutDirection":"rtl""#,
                panel: #""alignment":"leading""#,
                style: .sidePanel, frame: (664, 0, 360, 1366)),
            PanelCase(
                name: "bottom panel on a phone", env: phone, panel: "", style: .bottomPanel, frame: (0, 524, 390, 320)),
            PanelCase(
                name: "breakpoint above the width", env: tablet, panel: #""breakpoint":1100"#, style: .bottomPanel,
                frame: (0, 1046, 1024, 320)),
            PanelCase(
                name: "breakpoint is inclusive", env: #""window":{"width":700,"height":500}"#, panel: "",
                style: .sidePanel,
                frame: (340, 0, 360, 500)),
            PanelCase(
                name: "too wide: clamped", env: tablet, panel: #""panelWidth":2000"#, style: .sidePanel,
                frame: (0, 0, 1024, 1366),
                codes: [.panelClamped]),
            PanelCase(
                name: "too tall: clamped", env: #""window":{"width":600,"height":300}"#, panel: "", style: .bottomPanel,
                frame: (0, 0, 600, 300), codes: [.panelClamped]),
            PanelCase(
                name: "fits its region: no snap", env: halfOpened, panel: "", style: .sidePanel,
                frame: (420, 0, 360, 844)),
            PanelCase(
                name: "crosses a vertical fold: snaps", env: halfOpened, panel: #""panelWidth":500"#, style: .sidePanel,
                frame: (390, 0, 390, 844), codes: [.panelSnappedToFold]),
            PanelCase(
                name: "side panel across a horizontal fold: bottom region",
                env: halfOpened + #","orientation":"landscape""#,
                panel: "", style: .sidePanel, frame: (484, 390, 360, 390), codes: [.panelSnappedToFold]),
            PanelCase(
                name: "bottom panel across a vertical fold: its alignment region",
                env:
                    #""window":{"width":600,"height":800},"posture":"halfOpened","fold":{"orientation":"vertical","position":300}"#,
                panel: "", style: .bottomPanel, frame: (300, 480, 300, 320), codes: [.panelSnappedToFold]),
            PanelCase(
                name: "bottom panel taller than the bottom region",
                env:
                    #""window":{"width":600,"height":800},"posture":"halfOpened","fold":{"orientation":"horizontal","position":600}"#,
                panel: "", style: .bottomPanel, frame: (0, 600, 600, 200), codes: [.panelSnappedToFold]),
        ])
    func panel(_ c: PanelCase) throws {
        let r = try resolve(
            presentationScene(c.env, #"{"id":"p","kind":"adaptivePanel"\#(c.panel.isEmpty ? "" : "," + c.panel)}"#))
        let p = try #require(r.placement("p"))
        #expect(p.style == c.style)
        #expect(close(p.frame, c.frame), "frame \(String(describing: p.frame))")
        #expect(r.diagnostics.map(\.code) == c.codes)
    }

    @Test("adaptive-panel: corners, transition edge, content axis, modality")
    func panelBehaviour() throws {
        let side = try #require(
            try resolve(presentationScene(Self.tablet, #"{"id":"p","kind":"adaptivePanel"}"#)).placement("p"))
        #expect(side.cornerRadii == CornerRadii(topLeading: 24, bottomLeading: 24))
        #expect(side.transitionEdge == .trailing && side.contentAxis == .vertical)
        #expect(side.backgroundInteractive == true && side.dimsBackground == false && side.tapOutsideToDismiss == false)
        let leading = try #require(
            try resolve(
                presentationScene(
                    Self.tablet, #"{"id":"p","kind":"adaptivePanel","alignment":"leading","cornerRadius":12}"#)
            ).placement("p"))
        #expect(leading.cornerRadii == CornerRadii(topTrailing: 12, bottomTrailing: 12))
        #expect(leading.transitionEdge == .leading)
        let bottom = try #require(
            try resolve(presentationScene(Self.phone, #"{"id":"p","kind":"adaptivePanel","modal":true}"#)).placement(
                "p"))
        #expect(bottom.cornerRadii == CornerRadii(topLeading: 24, topTrailing: 24))
        #expect(bottom.transitionEdge == .bottom && bottom.contentAxis == .horizontal)
        #expect(
            bottom.backgroundInteractive == false && bottom.tapOutsideToDismiss == true && bottom.dimsBackground == true
        )
    }

    @Test(
        "present-or-navigate",
        arguments: [
            (#"{"id":"a","kind":"sheet","intent":{"hasDecision":false}}"#, [DiagnosticCode.preferNavigation]),
            (
                #"{"id":"a","kind":"fullScreenCover","intent":{"hasDecision":true,"abandonableWithoutCost":true}}"#,
                [.preferSheet]
            ),
            (#"{"id":"a","kind":"sheet","intent":{"abandonableWithoutCost":false}}"#, [.preferCoverOrGuard]),
            (
                #"{"id":"a","kind":"sheet","interactiveDismissDisabled":true,"intent":{"abandonableWithoutCost":false}}"#,
                []
            ),
            (#"{"id":"a","kind":"sheet","intent":{"abandonableWithoutCost":true}}"#, []),
            (#"{"id":"a","kind":"fullScreenCover","intent":{"abandonableWithoutCost":false}}"#, []),
        ])
    func presentOrNavigate(_ presentation: String, _ codes: [DiagnosticCode]) throws {
        #expect(try resolve(presentationScene(Self.phone, presentation)).diagnostics.map(\.code) == codes)
    }
}
