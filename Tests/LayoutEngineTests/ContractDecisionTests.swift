import JSON
import Testing

@testable import LayoutEngine

/// One test per decision of docs/rules.md (the places where the model of SwiftUI had to choose). Each test is
/// named after the anchor of its decision, so `docs/rules.md#<name>` and the test find each other.
@Suite("Contract decisions (docs/rules.md)")
struct ContractDecisionTests {
    static let halfOpened = #""device":"test-foldable","posture":"halfOpened""#

    /// A scene without a device: a window and a fold given directly in window coordinates.
    static func folded(_ w: Double, _ h: Double, _ orientation: String, at position: Double, thickness: Double = 0)
        -> String
    {
        #""window":{"width":\#(w),"height":\#(h)},"posture":"halfOpened","fold":{"orientation":"\#(orientation)","position":\#(position),"thickness":\#(thickness)}"#
    }

    @Test("hinge-band: the band is centred on the fold line and belongs to neither region")
    func hingeBand() throws {
        let env = try resolve("{" + Self.folded(400, 800, "vertical", at: 150, thickness: 10) + "}").environment
        let fold = try #require(env.fold)
        #expect(close(fold.bounds, (145, 0, 10, 800)))
        #expect(
            env.regions.map(\.frame) == [
                Rect(x: 0, y: 0, width: 145, height: 800), Rect(x: 155, y: 0, width: 245, height: 800),
            ])
        // A band that reaches the window's edge would leave an empty region: reported, not separating.
        let edge = try resolve("{" + Self.folded(400, 800, "vertical", at: 4, thickness: 10) + "}").environment
        #expect(edge.fold?.separating == false)
        #expect(edge.regions.count == 1)
    }

    @Test("fold-outside-window: a given fold must cross the window; a device's fold outside a window is absent")
    func foldOutsideWindow() throws {
        let given = try errors(
            #"{"window":{"width":400,"height":800},"fold":{"orientation":"vertical","position":400}}"#)
        #expect(given.map(\.path.description) == ["/fold/position"])
        // The inner display's fold is at x=390; a window from x=400 does not contain it.
        let r = try resolve(
            #"{"device":"test-foldable","posture":"halfOpened","window":{"x":400,"width":380,"height":844}}"#)
        #expect(r.environment.fold == nil)
        #expect(r.environment.regions.count == 1 && r.environment.regions[0].side == nil)
        #expect(r.diagnostics.isEmpty)
    }

    @Test("posture-without-fold: a folding device keeps its posture on a display without a fold")
    func postureWithoutFold() throws {
        let outer = try resolve(#"{"device":"test-foldable","display":"outer","posture":"halfOpened"}"#)
        #expect(outer.environment.posture == .halfOpened)
        #expect(outer.environment.fold == nil)
        #expect(outer.environment.regions.count == 1)
        #expect(!outer.has(.postureIgnored))
        // A device without any fold ignores the posture, with a diagnostic.
        let phone = try resolve(#"{"device":"test-phone","posture":"halfOpened"}"#)
        #expect(phone.environment.posture == .flat && phone.has(.postureIgnored))
    }

    @Test("off-centre-fold-rotation: landscape keeps the fold's position along the new axis")
    func offCentreFoldRotation() throws {
        var profile = Fixtures.hinged
        profile.id = "off-centre"
        profile.displays[0] = Display(
            id: "main", width: 800, height: 1000, scale: 2, cornerRadius: 0, safeArea: .zero, landscapeSafeArea: .zero,
            fold: Fold(orientation: .vertical, position: 300, thickness: 0),
            portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
            landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular))
        let catalog = StaticDeviceCatalog([profile])
        let value = try parse(#"{"device":"off-centre","posture":"halfOpened","orientation":"landscape"}"#)
        let s = try #require(Scene.decode(value, catalog: catalog).scene)
        let env = LayoutEngine.resolve(s).environment
        #expect(close(env.window, (0, 0, 1000, 800)))
        let fold = try #require(env.fold)
        #expect(fold.orientation == .horizontal)
        #expect(close(fold.bounds, (0, 300, 1000, 0)))
        #expect(env.regions.map(\.side) == [.top, .bottom])
        #expect(close(env.regions[0].frame, (0, 0, 1000, 300)) && close(env.regions[1].frame, (0, 300, 1000, 500)))
    }

    @Test("profile-safe-area-is-physical: a profile's insets are left/right, a request's follow the layout direction")
    func profileSafeAreaIsPhysical() throws {
        var phone = Fixtures.phone
        phone.displays[0].landscapeSafeArea = Insets(top: 0, leading: 50, bottom: 21, trailing: 10)
        let catalog = StaticDeviceCatalog([phone])
        func env(_ text: String) throws -> ResolvedEnvironment {
            LayoutEngine.resolve(try #require(Scene.decode(try parse(text), catalog: catalog).scene)).environment
        }
        let ltr = try env(#"{"device":"test-phone","orientation":"landscape"}"#)
        let rtl = try env(#"{"device":"test-phone","orientation":"landscape","layoutDirection":"rtl"}"#)
        #expect(ltr.safeArea == Insets(top: 0, leading: 50, bottom: 21, trailing: 10))
        #expect(rtl.safeArea == Insets(top: 0, leading: 10, bottom: 21, trailing: 50))  // the left inset is still 50
        // A request's insets are semantic: the same leading inset under either direction.
        let asked = try env(
            #"{"device":"test-phone","window":{"width":500,"height":390},"orientation":"landscape","layoutDirection":"rtl","safeArea":{"leading":30}}"#
        )
        #expect(asked.safeArea == Insets(leading: 30))
    }

    @Test("region-sheet-horizontal-fold: placement.resolved comes from the bottom region's own rules")
    func regionSheetHorizontalFold() throws {
        // A compact bottom region (400×450): a bottom sheet, resolved fullWidth, placement-no-effect.
        let compact = try resolve(
            presentationScene(
                Self.folded(400, 900, "horizontal", at: 450), #"{"id":"s","kind":"sheet","placement":"center"}"#))
        let c = try #require(compact.placement("s"))
        #expect(c.style == .regionSheet && c.region == .bottom)
        #expect(c.placement?.resolved == .fullWidth)
        #expect(compact.has(.placementNoEffect) && !compact.has(.placementMovedByFold))
        // A regular-width bottom region (1000×450): a card, resolved as the card's placement.
        let regular = try resolve(
            presentationScene(
                Self.folded(1000, 900, "horizontal", at: 450), #"{"id":"s","kind":"sheet","placement":"leading"}"#))
        let r = try #require(regular.placement("s"))
        #expect(r.style == .regionSheet && r.region == .bottom)
        #expect(r.placement?.resolved == .leading)
        #expect(close(r.frame, (20, 450 + (450 - 410) / 2, 540, 410)))
        #expect(!regular.has(.placementMovedByFold) && !regular.has(.placementNoEffect))
    }

    @Test(
        "placement-moved-by-fold: only an explicit placement that lands elsewhere",
        arguments: [("automatic", false), ("center", true), ("leading", false), ("trailing", false)])
    func placementMovedByFold(_ placement: String, _ moved: Bool) throws {
        let r = try resolve(
            presentationScene(Self.halfOpened, #"{"id":"s","kind":"sheet","placement":"\#(placement)"}"#))
        #expect(r.has(.placementMovedByFold) == moved)
        let expected: ResolvedSheetPlacement = placement == "trailing" ? .trailing : .leading
        #expect(r.placement("s")?.placement?.resolved == expected)
        // A horizontal fold has no leading/trailing region: nothing is moved by it.
        let h = try resolve(
            presentationScene(
                Self.folded(1000, 900, "horizontal", at: 450), #"{"id":"s","kind":"sheet","placement":"\#(placement)"}"#
            ))
        #expect(!h.has(.placementMovedByFold))
    }

    @Test("card-in-region: a regular-width region holds a card, centred or docked inside the region")
    func cardInRegion() throws {
        let env = Self.folded(1600, 900, "vertical", at: 800)
        let centred = try resolve(presentationScene(env, #"{"id":"s","kind":"sheet","placement":"center"}"#))
        let c = try #require(centred.placement("s"))
        #expect(c.style == .regionSheet && c.region == .leading)
        #expect(close(c.frame, (130, 140, 540, 620)))  // centred in the 800×900 leading region
        #expect(c.placement?.resolved == .leading)  // the region's side
        #expect(c.cornerRadii == .all(10) && c.detents == nil && c.selectedDetent == nil)
        let trailing = try #require(
            try resolve(presentationScene(env, #"{"id":"s","kind":"sheet","placement":"trailing"}"#)).placement("s"))
        #expect(close(trailing.frame, (1040, 140, 540, 620)))  // docked at the margin of the trailing region
        #expect(trailing.toolbarOrientation == .vertical)
    }

    @Test("popover-as-cover: a popover shown as a cover is a cover with adaptedFrom popover")
    func popoverAsCover() throws {
        let phone = #""device":"test-phone""#
        let popover =
            #"{"id":"p","kind":"popover","anchor":{"x":10,"y":10,"width":40,"height":40},"compactAdaptation":"fullScreenCover"}"#
        let r = try resolve(presentationScene(phone, popover))
        let p = try #require(r.placement("p"))
        #expect(p.kind == .popover && p.style == .fullWindow && p.adaptedFrom == .popover)
        #expect(close(p.frame, (0, 0, 390, 844)))
        #expect(p.placement == nil && p.arrowEdge == nil && p.detents == nil)
        #expect(p.dimsBackground == false && p.swipeToDismiss == false && p.tapOutsideToDismiss == false)
        #expect(r.has(.popoverAdapted))
        // Vertically compact with a regular width: a cover by the vertical rule, reported the same way.
        let low = try resolve(
            presentationScene(
                #""window":{"width":900,"height":400}"#, #"{"id":"p","kind":"popover","anchor":{"x":10,"y":10}}"#))
        let q = try #require(low.placement("p"))
        #expect(q.style == .fullWindow && q.adaptedFrom == .popover && q.placement == nil)
    }

    @Test("panel-modality: a modal panel dims its background and dismisses on a tap outside")
    func panelModality() throws {
        let tablet = #""device":"test-tablet""#
        let modal = try #require(
            try resolve(presentationScene(tablet, #"{"id":"p","kind":"adaptivePanel","modal":true}"#)).placement("p"))
        #expect(
            modal.dimsBackground == true && modal.backgroundInteractive == false && modal.tapOutsideToDismiss == true)
        #expect(modal.swipeToDismiss == false)
        let plain = try #require(
            try resolve(presentationScene(tablet, #"{"id":"p","kind":"adaptivePanel"}"#)).placement("p"))
        #expect(
            plain.dimsBackground == false && plain.backgroundInteractive == true && plain.tapOutsideToDismiss == false)
    }

    @Test(
        "tap-outside-to-dismiss: a sheet dismisses on a tap outside when it can be swiped away and dims",
        arguments: [
            (#""backgroundInteraction":"disabled""#, true),
            (#""backgroundInteraction":"disabled","interactiveDismissDisabled":true"#, false),
            (#""backgroundInteraction":"enabled""#, false),
            (
                #""detents":["medium","large"],"selectedDetent":"medium","backgroundInteraction":{"upThrough":"medium"}"#,
                false
            ),
            (
                #""detents":["medium","large"],"selectedDetent":"large","backgroundInteraction":{"upThrough":"medium"}"#,
                true
            ),
        ])
    func tapOutsideToDismiss(_ fields: String, _ tap: Bool) throws {
        let r = try resolve(presentationScene(#""device":"test-phone""#, #"{"id":"s","kind":"sheet",\#(fields)}"#))
        #expect(r.placement("s")?.tapOutsideToDismiss == tap)
    }

    @Test("panel-snapping-across-axis: a panel crossed along its length keeps its thickness in the region")
    func panelSnappingAcrossAxis() throws {
        // A side panel (full height) across a horizontal fold: its width, the bottom region's height.
        let side = try resolve(
            presentationScene(Self.folded(1000, 800, "horizontal", at: 400), #"{"id":"p","kind":"adaptivePanel"}"#))
        #expect(side.placement("p")?.style == .sidePanel)
        #expect(close(side.placement("p")?.frame, (640, 400, 360, 400)))
        #expect(side.placement("p")?.region == .bottom && side.has(.panelSnappedToFold))
        // A bottom panel (full width) across a vertical fold: its height, the alignment region's width.
        let leading = try resolve(
            presentationScene(
                Self.folded(600, 800, "vertical", at: 300), #"{"id":"p","kind":"adaptivePanel","alignment":"leading"}"#)
        )
        #expect(leading.placement("p")?.style == .bottomPanel)
        #expect(close(leading.placement("p")?.frame, (0, 480, 300, 320)))
        #expect(leading.placement("p")?.region == .leading && leading.has(.panelSnappedToFold))
    }

    @Test("up-through-unrequested-detent: upThrough compares heights, whether or not the detent is listed")
    func upThroughUnrequestedDetent() throws {
        // Phone: large = 844 − 47 − 10 = 787; medium = 393.5.
        func dims(_ limit: String) throws -> Bool? {
            let sheet =
                #"{"id":"s","kind":"sheet","detents":["medium","large"],"selectedDetent":"medium","backgroundInteraction":{"upThrough":\#(limit)}}"#
            return try resolve(presentationScene(#""device":"test-phone""#, sheet)).placement("s")?.dimsBackground
        }
        #expect(try dims(#"{"height":400}"#) == false)  // 393.5 ≤ 400: undimmed
        #expect(try dims(#"{"height":300}"#) == true)
        #expect(try dims(#"{"fraction":0.5}"#) == false)  // the same height as medium
        #expect(try dims(#""large""#) == false)
    }

    @Test("default-selected-detent: the smallest detent, the first listed on a tie")
    func defaultSelectedDetent() throws {
        func selected(_ detents: String) throws -> Detent? {
            try resolve(
                presentationScene(#""device":"test-phone""#, #"{"id":"s","kind":"sheet","detents":\#(detents)}"#)
            )
            .placement("s")?.selectedDetent
        }
        #expect(try selected(#"["large",{"fraction":0.5},"medium"]"#) == .fraction(0.5))
        #expect(try selected(#"["large","medium",{"fraction":0.5}]"#) == .medium)
        #expect(try selected(#"[{"height":100},"medium"]"#) == .height(100))
    }

    @Test("arrangement-size-number: a bare size or ratio applies to both axes")
    func arrangementSizeNumber() throws {
        func secondary(_ env: String, _ view: String) throws -> Rect? {
            try resolve(#"{\#(env),"arrangement":{"secondary":\#(view)}}"#).arrangement?.secondary.frame
        }
        let wide = #""window":{"width":1000,"height":600}"#
        let tall = #""window":{"width":600,"height":1000}"#
        #expect(close(try secondary(wide, #"{"size":300}"#), (700, 0, 300, 600)))
        #expect(close(try secondary(tall, #"{"size":300}"#), (0, 700, 600, 300)))
        #expect(close(try secondary(tall, #"{"ratio":0.25}"#), (0, 750, 600, 250)))
    }

    @Test(
        "ratio-without-vertical-share: a per-axis preference without idealVertical leaves a vertical split at the default"
    )
    func ratioWithoutVerticalShare() throws {
        let r = try resolve(
            #"{"window":{"width":600,"height":1000},"arrangement":{"secondary":{"ratio":{"idealHorizontal":0.2}}}}"#)
        #expect(r.arrangement?.axis == .vertical)
        #expect(close(r.arrangement?.secondary.frame, (0, 500, 600, 500)))
        let s = try resolve(
            #"{"window":{"width":600,"height":1000},"arrangement":{"secondary":{"size":{"maxHorizontal":100}}}}"#)
        #expect(close(s.arrangement?.secondary.frame, (0, 500, 600, 500)))
    }

    @Test("overlay-edges: an overlayEdge across the fold's axis is ignored")
    func overlayEdges() throws {
        // A vertical fold separates leading from trailing: `top` says nothing about that, so the primary takes
        // its default (trailing) region; an ignored edge on the primary lets the secondary's edge decide.
        let env = Self.folded(800, 600, "vertical", at: 400)
        let ignored = try resolve(#"{\#(env),"arrangement":{"style":"overlay","primary":{"overlayEdge":"top"}}}"#)
        #expect(ignored.arrangement?.primary.region == .trailing)
        #expect(ignored.arrangement?.separated == true)
        #expect(ignored.diagnostics.isEmpty)
        let other = try resolve(
            #"{\#(env),"arrangement":{"style":"overlay","primary":{"overlayEdge":"bottom"},"secondary":{"overlayEdge":"trailing"}}}"#
        )
        #expect(other.arrangement?.primary.region == .leading)
        #expect(other.arrangement?.secondary.region == .trailing)
    }

    @Test("derived-size-classes: a profile without sizeClasses gets them from its thresholds")
    func derivedSizeClasses() throws {
        func decode(_ text: String) throws -> (DeviceProfile?, [String]) {
            let mapper = JSONMapper()
            let p = DeviceProfile.decode(try parse(text), mapper: mapper)
            return (p, mapper.errors.map(\.path.description))
        }
        // Default thresholds 600 × 500: 400×900 is compact/regular in portrait, regular/compact in landscape.
        let (phone, e1) = try decode(
            #"{"id":"x","name":"X","kind":"phone","displays":[{"id":"main","width":400,"height":900}]}"#)
        #expect(e1.isEmpty)
        let d = try #require(phone?.displays.first)
        #expect(d.portraitSizeClass == SizeClassPair(horizontal: .compact, vertical: .regular))
        #expect(d.landscapeSizeClass == SizeClassPair(horizontal: .regular, vertical: .compact))
        // The profile's own thresholds, inclusive at the boundary.
        let (tablet, _) = try decode(
            #"{"id":"t","name":"T","kind":"tablet","regularWidthMin":800,"regularHeightMin":400,"displays":[{"id":"main","width":800,"height":1000}]}"#
        )
        let t = try #require(tablet?.displays.first)
        #expect(t.portraitSizeClass == SizeClassPair(horizontal: .regular, vertical: .regular))
        #expect(t.landscapeSizeClass == SizeClassPair(horizontal: .regular, vertical: .regular))
        // A table, when given, is used as written and must be complete.
        let (given, _) = try decode(
            #"{"id":"g","name":"G","kind":"phone","displays":[{"id":"main","width":400,"height":900,"sizeClasses":{"portrait":{"horizontal":"regular","vertical":"regular"},"landscape":{"horizontal":"compact","vertical":"compact"}}}]}"#
        )
        #expect(given?.displays.first?.portraitSizeClass == SizeClassPair(horizontal: .regular, vertical: .regular))
        let (_, e2) = try decode(
            #"{"id":"h","name":"H","kind":"phone","displays":[{"id":"main","width":400,"height":900,"sizeClasses":{"portrait":{"horizontal":"regular","vertical":"regular"}}}]}"#
        )
        #expect(e2 == ["/displays/0/sizeClasses/landscape"])
        // The derived table is stored and served like a written one.
        #expect(phone?.json["displays"]?[0]?["sizeClasses"]?["landscape"]?["horizontal"] == "regular")
    }

    @Test("profile-violations: a repeated display id is listed with every other violation")
    func profileViolations() throws {
        func violations(_ displays: String, name: String = #""name":"X","#) throws -> [String] {
            let mapper = JSONMapper()
            let text = #"{"id":"x",\#(name)"kind":"phone","displays":[\#(displays)]}"#
            #expect(DeviceProfile.decode(try parse(text), mapper: mapper) == nil)
            return mapper.errors.map { "\($0.path.description) \($0.message.hasPrefix("duplicate") ? $0.message : "")" }
        }
        let main = #"{"id":"main","width":400,"height":900}"#
        let repeated = #"duplicate display id "main""#
        // Alone.
        #expect(try violations(main + "," + main) == [#"/displays/1/id \#(repeated)"#])
        // The first display has a bad width: it is refused, and its id still counts.
        #expect(
            try violations(#"{"id":"main","width":-1,"height":900},"# + main)
                == ["/displays/0/width ", #"/displays/1/id \#(repeated)"#])
        // The repeating display is itself broken: both of its violations, the id first as in the body.
        #expect(
            try violations(
                main + #",{"id":"main","width":400,"height":900,"fold":{"orientation":"vertical","position":500}}"#)
                == [#"/displays/1/id \#(repeated)"#, "/displays/1/fold/position "])
        // With a violation of the profile itself, and a third display repeating the id again.
        #expect(
            try violations(#"{"id":"main","height":900},"# + main + "," + main, name: "")
                == ["/name ", "/displays/0/width ", #"/displays/1/id \#(repeated)"#, #"/displays/2/id \#(repeated)"#])
        // An id that is itself invalid is reported as such, not compared.
        let long = String(repeating: "m", count: 65)
        #expect(
            try violations(#"{"id":"\#(long)","width":400,"height":900},{"id":"\#(long)","width":400,"height":900}"#)
                == ["/displays/0/id ", "/displays/1/id "])
    }
}
