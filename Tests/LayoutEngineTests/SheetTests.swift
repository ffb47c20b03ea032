import JSON
import Testing

@testable import LayoutEngine

/// One sheet in `env` (a JSON fragment of top-level members) with `sheet` (members of the presentation).
func sheetScene(_ env: String, _ sheet: String = "") -> String {
    #"{\#(env),"presentations":[{"id":"s","kind":"sheet"\#(sheet.isEmpty ? "" : "," + sheet)}]}"#
}

@Suite("Sheet (docs/rules.md#sheet)")
struct SheetTests {
    struct StyleCase: Sendable, CustomTestStringConvertible {
        var name: String
        var env: String
        var sheet: String
        var style: PresentationStyle
        var frame: (Double, Double, Double, Double)
        var resolved: ResolvedSheetPlacement
        var region: RegionSide?
        var codes: Set<DiagnosticCode> = []
        var testDescription: String { name }
    }

    static let phone = #""device":"test-phone""#
    static let tablet = #""device":"test-tablet""#
    static let halfOpened = #""device":"test-foldable","posture":"halfOpened""#

    // Hand computations: phone large = 844 − 47 − 10 = 787; tablet card 540×620 at ((1024−540)/2, (1366−620)/2).
    @Test(
        "sheet-style: the first rule that applies wins",
        arguments: [
            // Rule 1 regionSheet: center → leading region (docs/rules.md#region-sheet), compact region → bottom sheet.
            StyleCase(
                name: "regionSheet center → leading", env: halfOpened, sheet: #""placement":"center""#,
                style: .regionSheet,
                frame: (0, 57, 390, 787), resolved: .leading, region: .leading, codes: [.placementMovedByFold]),
            StyleCase(
                name: "regionSheet automatic → leading", env: halfOpened, sheet: "", style: .regionSheet,
                frame: (0, 57, 390, 787), resolved: .leading, region: .leading),
            StyleCase(
                name: "regionSheet trailing → trailing", env: halfOpened, sheet: #""placement":"trailing""#,
                style: .regionSheet, frame: (390, 57, 390, 787), resolved: .trailing, region: .trailing),
            // Under rtl trailing is the left half.
            StyleCase(
                name: "regionSheet trailing rtl → left", env: halfOpened + #","layoutDirection":"rtl""#,
                sheet: #""placement":"trailing""#, style: .regionSheet, frame: (0, 57, 390, 787), resolved: .trailing,
                region: .trailing),
            // Horizontal fold: the bottom region 844×390 (y 390), regular width → a card inside it:
            // 540 × min(620, 390 − 40 = 350) at x = (844 − 540)/2 = 152, y = 390 + (390 − 350)/2 = 410.
            StyleCase(
                name: "regionSheet horizontal fold → bottom region card",
                env: halfOpened + #","orientation":"landscape""#,
                sheet: "", style: .regionSheet, frame: (152, 410, 540, 350), resolved: .center, region: .bottom),
            // Rule 2 fullWindow: landscape phone (vertically compact).
            StyleCase(
                name: "fullWindow landscape phone", env: phone + #","orientation":"landscape""#,
                sheet: #""detents":["medium","large"]"#, style: .fullWindow, frame: (0, 0, 844, 390),
                resolved: .fullWidth,
                codes: [.detentsIgnored]),
            // Edge-attached: safe width 844 − 47 − 47 = 750 at x 47, height = large = 390 − 0 − 10 = 380.
            StyleCase(
                name: "fullWindow edge-attached", env: phone + #","orientation":"landscape""#,
                sheet: #""edgeAttachedInCompactHeight":true"#, style: .fullWindow, frame: (47, 10, 750, 380),
                resolved: .fullWidth),
            // …or its content's width (400), centred in the safe area: 47 + (750 − 400)/2 = 222.
            StyleCase(
                name: "fullWindow edge-attached follows content width", env: phone + #","orientation":"landscape""#,
                sheet:
                    #""edgeAttachedInCompactHeight":true,"widthFollowsContentSize":true,"contentSize":{"width":400,"height":100}"#,
                style: .fullWindow, frame: (222, 10, 400, 380), resolved: .center),
            // Rule 3 bottomSheet.
            StyleCase(
                name: "bottomSheet phone", env: phone, sheet: "", style: .bottomSheet, frame: (0, 57, 390, 787),
                resolved: .fullWidth),
            StyleCase(
                name: "bottomSheet placement has no effect", env: phone, sheet: #""placement":"trailing""#,
                style: .bottomSheet, frame: (0, 57, 390, 787), resolved: .fullWidth, codes: [.placementNoEffect]),
            // Rule 4 card.
            StyleCase(
                name: "card form", env: tablet, sheet: #""sizing":"form""#, style: .card, frame: (242, 373, 540, 620),
                resolved: .center),
            StyleCase(
                name: "card automatic = form", env: tablet, sheet: #""detents":["medium"]"#, style: .card,
                frame: (242, 373, 540, 620), resolved: .center, codes: [.detentsIgnored]),
            // page: width min(1024 − 40, 704) = 704, height 1366 − 24 − 10 = 1332 clamped to 1366 − 40 = 1326.
            StyleCase(
                name: "card page", env: tablet, sheet: #""sizing":"page""#, style: .card, frame: (160, 20, 704, 1326),
                resolved: .center),
            StyleCase(
                name: "card fitted", env: tablet, sheet: #""sizing":"fitted","contentSize":{"width":400,"height":300}"#,
                style: .card, frame: (312, 533, 400, 300), resolved: .center),
            StyleCase(
                name: "card fitted clamped", env: tablet,
                sheet: #""sizing":"fitted","contentSize":{"width":3000,"height":3000}"#,
                style: .card, frame: (20, 20, 984, 1326), resolved: .center),
            StyleCase(
                name: "card leading", env: tablet, sheet: #""placement":"leading""#, style: .card,
                frame: (20, 373, 540, 620), resolved: .leading),
            StyleCase(
                name: "card trailing", env: tablet, sheet: #""placement":"trailing""#, style: .card,
                frame: (464, 373, 540, 620), resolved: .trailing),
            StyleCase(
                name: "card leading rtl", env: tablet + #","layoutDirection":"rtl""#, sheet: #""placement":"leading""#,
                style: .card, frame: (464, 373, 540, 620), resolved: .leading),
            // Flat foldable inner display: regular → a card (120 = (780 − 540)/2, 112 = (844 − 620)/2).
            StyleCase(
                name: "card on a flat foldable", env: #""device":"test-foldable""#, sheet: "", style: .card,
                frame: (120, 112, 540, 620), resolved: .center),
        ])
    func style(_ c: StyleCase) throws {
        let r = try resolve(sheetScene(c.env, c.sheet))
        let p = try #require(r.placement("s"))
        #expect(p.status == .presented)
        #expect(p.style == c.style)
        #expect(close(p.frame, c.frame), "frame \(String(describing: p.frame))")
        #expect(p.placement?.resolved == c.resolved)
        #expect(p.region == c.region)
        #expect(r.codeSet == c.codes)
    }

    struct DetentCase: Sendable, CustomTestStringConvertible {
        var detents: String
        var heights: [Double]
        var selected: Double
        var codes: Set<DiagnosticCode> = []
        var testDescription: String { detents }
    }

    // Phone portrait: large = 844 − 47 − 10 = 787.
    @Test(
        "detent-heights: heights and default selection (smallest)",
        arguments: [
            DetentCase(detents: #""detents":["large"]"#, heights: [787], selected: 787),
            DetentCase(detents: #""detents":["large","medium"]"#, heights: [393.5, 787], selected: 393.5),
            DetentCase(
                detents: #""detents":[{"height":200},{"fraction":0.25}]"#, heights: [196.75, 200], selected: 196.75),
            DetentCase(
                detents: #""detents":[{"height":900},"medium"]"#, heights: [393.5, 787], selected: 393.5,
                codes: [.detentClamped]),
            DetentCase(
                detents: #""detents":["fitted","large"],"contentSize":{"width":390,"height":0}"#, heights: [1, 787],
                selected: 1),
            DetentCase(
                detents: #""detents":["fitted"],"contentSize":{"width":390,"height":300}"#, heights: [300],
                selected: 300),
            DetentCase(
                detents: #""detents":["fitted"],"contentSize":{"width":390,"height":1000}"#, heights: [787],
                selected: 787),
            DetentCase(
                detents: #""detents":["large","medium"],"selectedDetent":"large""#, heights: [393.5, 787], selected: 787
            ),
        ])
    func detents(_ c: DetentCase) throws {
        let r = try resolve(sheetScene(Self.phone, c.detents))
        let p = try #require(r.placement("s"))
        #expect(p.detents?.map(\.height) == c.heights)
        #expect(close(p.frame?.height ?? -1, c.selected))
        #expect(close(p.frame?.maxY ?? -1, 844))
        #expect(r.codeSet == c.codes)
    }

    @Test("sheet-fitted-axes: a page card takes the content's size on each fitted axis only")
    func fittedAxes() throws {
        let content = #""sizing":"page","contentSize":{"width":300,"height":200}"#
        func frame(_ extra: String) throws -> Rect {
            try #require(try resolve(sheetScene(Self.tablet, content + extra)).placement("s")?.frame)
        }
        let page = try frame("")
        #expect(page.width == 704)  // min(1024 − 2·20, sheet.pageWidth 704)
        let horizontal = try frame(#","fittedAxes":["horizontal"]"#)
        #expect(horizontal.width == 300 && horizontal.height == page.height)
        #expect(horizontal.x == (1024 - 300) / 2)
        let vertical = try frame(#","fittedAxes":["vertical"]"#)
        #expect(vertical.width == 704 && vertical.height == 200)
        let both = try frame(#","fittedAxes":["vertical","horizontal"]"#)
        #expect(both.width == 300 && both.height == 200)
        // Without the measured content, or with fitted sizing (both axes already), the member is refused.
        let missing = try errors(sheetScene(Self.tablet, #""sizing":"page","fittedAxes":["horizontal"]"#))
        #expect(missing.map(\.path.description) == ["/presentations/0/fittedAxes"])
        let redundant = try errors(
            sheetScene(
                Self.tablet, #""sizing":"fitted","contentSize":{"width":1,"height":1},"fittedAxes":["vertical"]"#))
        #expect(redundant.map(\.path.description) == ["/presentations/0/fittedAxes"])
    }

    @Test("detent-order: ties keep request order, selectedDetent must be requested")
    func detentOrder() throws {
        let r = try resolve(sheetScene(Self.phone, #""detents":["large",{"fraction":1},{"height":100}]"#))
        let p = try #require(r.placement("s"))
        #expect(p.detents?.map(\.detent) == [.height(100), .large, .fraction(1)])
        #expect(p.selectedDetent == .height(100))
        let e = try errors(sheetScene(Self.phone, #""detents":["large"],"selectedDetent":"medium""#))
        #expect(e.map(\.path.description) == ["/presentations/0/selectedDetent"])
    }

    @Test("constants: overrides change the rules (sheet.topGap, sheet.mediumFraction)")
    func constants() throws {
        let r = try resolve(
            #"{"device":"test-phone","constants":{"sheet.topGap":12,"sheet.mediumFraction":0.4},"presentations":[{"id":"s","kind":"sheet","detents":["medium"]}]}"#
        )
        #expect(close(r.placement("s")?.frame?.height ?? 0, 0.4 * 785))
    }

    struct InteractionCase: Sendable, CustomTestStringConvertible {
        var env: String
        var sheet: String
        var dims: Bool
        var interactive: Bool
        var testDescription: String { sheet }
    }

    @Test(
        "background-interaction: up through a detent",
        arguments: [
            InteractionCase(env: phone, sheet: "", dims: true, interactive: false),
            InteractionCase(env: phone, sheet: #""backgroundInteraction":"enabled""#, dims: false, interactive: true),
            InteractionCase(
                env: phone, sheet: #""detents":["medium","large"],"backgroundInteraction":{"upThrough":"medium"}"#,
                dims: false,
                interactive: true),
            InteractionCase(
                env: phone,
                sheet:
                    #""detents":["medium","large"],"selectedDetent":"large","backgroundInteraction":{"upThrough":"medium"}"#,
                dims: true, interactive: false),
            // A card counts as at its largest detent.
            InteractionCase(
                env: tablet, sheet: #""detents":["medium","large"],"backgroundInteraction":{"upThrough":"medium"}"#,
                dims: true,
                interactive: false),
            InteractionCase(
                env: tablet, sheet: #""detents":["medium","large"],"backgroundInteraction":{"upThrough":"large"}"#,
                dims: false,
                interactive: true),
        ])
    func backgroundInteraction(_ c: InteractionCase) throws {
        let p = try #require(try resolve(sheetScene(c.env, c.sheet)).placement("s"))
        #expect(p.dimsBackground == c.dims)
        #expect(p.backgroundInteractive == c.interactive)
    }

    @Test("dismissal: swipe and unsaved work (unsaved-changes-dismissible)")
    func dismissal() throws {
        let r = try resolve(sheetScene(Self.phone, #""hasUnsavedChanges":true"#))
        #expect(r.placement("s")?.swipeToDismiss == true)
        #expect(r.placement("s")?.tapOutsideToDismiss == true)
        #expect(r.diagnostics.map(\.code) == [.unsavedChangesDismissible])
        #expect(r.diagnostics.first?.path == "/presentations/0/hasUnsavedChanges")
        let guarded = try resolve(
            sheetScene(Self.phone, #""hasUnsavedChanges":true,"interactiveDismissDisabled":true"#))
        #expect(guarded.placement("s")?.swipeToDismiss == false)
        #expect(guarded.placement("s")?.tapOutsideToDismiss == false)
        #expect(guarded.diagnostics.isEmpty)
    }

    @Test(
        "drag-indicator",
        arguments: [
            (phone, #""detents":["medium","large"]"#, true),
            (phone, #""detents":["large"]"#, false),
            (phone, #""detents":["large",{"fraction":1}]"#, false),
            (phone, #""detents":["large"],"dragIndicator":"visible""#, true),
            (phone, #""detents":["medium","large"],"dragIndicator":"hidden""#, false),
            (halfOpened, #""detents":["medium","large"]"#, true),
            (tablet, #""detents":["medium","large"]"#, false),
        ])
    func dragIndicator(_ env: String, _ sheet: String, _ visible: Bool) throws {
        #expect(try resolve(sheetScene(env, sheet)).placement("s")?.dragIndicatorVisible == visible)
    }

    @Test("toolbar: orientation and its diagnostics")
    func toolbar() throws {
        let items =
            #""toolbar":[{"title":"Close","placement":"cancellationAction","systemImage":"xmark"},{"title":"Share"}]"#
        // Card docked trailing: vertical toolbar, the item without an icon is flagged.
        let trailing = try resolve(sheetScene(Self.tablet, #""placement":"trailing","# + items))
        #expect(trailing.placement("s")?.toolbarOrientation == .vertical)
        #expect(trailing.diagnostics.map(\.code) == [.toolbarItemMissingIcon])
        #expect(trailing.diagnostics.first?.path == "/presentations/0/toolbar/1")
        // Region sheet in the trailing region of a vertical fold.
        let region = try resolve(sheetScene(Self.halfOpened, #""placement":"trailing","# + items))
        #expect(region.placement("s")?.toolbarOrientation == .vertical)
        // Centred: horizontal, no icon needed.
        let center = try resolve(sheetScene(Self.tablet, items))
        #expect(center.placement("s")?.toolbarOrientation == .horizontal)
        #expect(center.diagnostics.isEmpty)
        // No exit in the bar.
        let noExit = try resolve(
            sheetScene(Self.tablet, #""toolbar":[{"title":"Share","systemImage":"square.and.arrow.up"}]"#))
        #expect(noExit.diagnostics.map(\.code) == [.toolbarMissingExit])
        #expect(noExit.diagnostics.first?.path == "/presentations/0/toolbar")
    }

    @Test(
        "dynamic-type-risk (fitted-accessibility-risk)",
        arguments: [
            (#""accessibility1""#, #""detents":["fitted"],"contentSize":{"width":1,"height":200}"#, true),
            (#""accessibility5""#, #""detents":[{"height":300}]"#, true),
            (#""xxxLarge""#, #""detents":["fitted"],"contentSize":{"width":1,"height":200}"#, false),
            (#""accessibility1""#, #""detents":["fitted","large"],"contentSize":{"width":1,"height":200}"#, false),
            (
                #""accessibility1""#,
                #""detents":["fitted"],"contentScrollable":true,"contentSize":{"width":1,"height":200}"#, false
            ),
        ])
    func dynamicType(_ size: String, _ sheet: String, _ risk: Bool) throws {
        let r = try resolve(sheetScene(Self.phone + #","dynamicTypeSize":"# + size, sheet))
        #expect(r.has(.fittedAccessibilityRisk) == risk)
    }

    @Test(
        "corner-radii",
        arguments: [
            (phone, "", CornerRadii(topLeading: 10, topTrailing: 10)),
            (phone, #""cornerRadius":16"#, CornerRadii(topLeading: 16, topTrailing: 16)),
            (halfOpened, "", CornerRadii(topLeading: 10, topTrailing: 10)),
            (tablet, "", CornerRadii(topLeading: 10, topTrailing: 10, bottomLeading: 10, bottomTrailing: 10)),
        ])
    func cornerRadii(_ env: String, _ sheet: String, _ radii: CornerRadii) throws {
        #expect(try resolve(sheetScene(env, sheet)).placement("s")?.cornerRadii == radii)
    }
}
