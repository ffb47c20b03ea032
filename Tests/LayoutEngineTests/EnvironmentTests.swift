import JSON
import Testing

@testable import LayoutEngine

@Suite("Environment (docs/rules.md#environment)")
struct EnvironmentTests {
    @Test("device profiles: a copy shares the fields until one of them changes; equality compares the fields")
    func profileCopiesAreValues() {
        let original = Fixtures.foldable
        var copy = original
        #expect(copy == original)
        copy.id = "renamed"
        copy.displays[1].width = 800
        copy.builtIn = true
        #expect(original.id == "test-foldable" && original.displays[1].width == 780 && !original.builtIn)
        #expect(copy.id == "renamed" && copy.displays[1].width == 800 && copy.builtIn)
        #expect(copy != original)
        // Built apart, with the same fields: equal.
        let twin = DeviceProfile(
            id: original.id, name: original.name, kind: original.kind, displays: original.displays,
            regularWidthMin: original.regularWidthMin, regularHeightMin: original.regularHeightMin)
        #expect(twin == original)
        var other = twin
        other.regularHeightMin += 1
        #expect(other != original)
    }

    struct WindowCase: Sendable, CustomTestStringConvertible {
        var scene: String
        var display: String?
        var window: (Double, Double, Double, Double)
        var safe: (Double, Double, Double, Double)  // top, leading, bottom, trailing
        var sizeClass: (SizeClass, SizeClass)
        var testDescription: String { scene }
    }

    @Test(
        "window: device, display, orientation, window and safe area",
        arguments: [
            WindowCase(
                scene: #"{"device":"test-phone"}"#, display: "main", window: (0, 0, 390, 844), safe: (47, 0, 34, 0),
                sizeClass: (.compact, .regular)),
            WindowCase(
                scene: #"{"device":"test-phone","orientation":"landscape"}"#, display: "main", window: (0, 0, 844, 390),
                safe: (0, 47, 21, 47), sizeClass: (.compact, .compact)),
            // A window that is the whole display, given explicitly, keeps the display's insets and table.
            WindowCase(
                scene: #"{"device":"test-phone","window":{"width":390,"height":844}}"#, display: "main",
                window: (0, 0, 390, 844), safe: (47, 0, 34, 0), sizeClass: (.compact, .regular)),
            // docs/rules.md#size-classes, thresholds: a resizable window uses the thresholds, and has no insets.
            WindowCase(
                scene: #"{"device":"test-tablet","window":{"x":10,"y":20,"width":500,"height":700}}"#, display: "main",
                window: (10, 20, 500, 700), safe: (0, 0, 0, 0), sizeClass: (.compact, .regular)),
            WindowCase(
                scene: #"{"device":"test-tablet","window":{"width":700,"height":400}}"#, display: "main",
                window: (0, 0, 700, 400), safe: (0, 0, 0, 0), sizeClass: (.regular, .compact)),
            // docs/rules.md#display-choice: the default display of a foldable is inner, outer when closed.
            WindowCase(
                scene: #"{"device":"test-foldable"}"#, display: "inner", window: (0, 0, 780, 844), safe: (47, 0, 34, 0),
                sizeClass: (.regular, .regular)),
            WindowCase(
                scene: #"{"device":"test-foldable","posture":"closed"}"#, display: "outer", window: (0, 0, 390, 844),
                safe: (47, 0, 34, 0), sizeClass: (.compact, .regular)),
            WindowCase(
                scene: #"{"device":"test-foldable","display":"outer","posture":"halfOpened"}"#, display: "outer",
                window: (0, 0, 390, 844), safe: (47, 0, 34, 0), sizeClass: (.compact, .regular)),
            // Without a device: the window is required, thresholds 600/500, requested insets are semantic.
            WindowCase(
                scene:
                    #"{"window":{"width":800,"height":450},"layoutDirection":"rtl","safeArea":{"leading":30,"top":5}}"#,
                display: nil, window: (0, 0, 800, 450), safe: (5, 30, 0, 0), sizeClass: (.regular, .compact)),
            // docs/rules.md#size-classes: the request's sizeClass wins.
            WindowCase(
                scene: #"{"device":"test-tablet","sizeClass":{"horizontal":"compact","vertical":"compact"}}"#,
                display: "main", window: (0, 0, 1024, 1366), safe: (24, 0, 20, 0), sizeClass: (.compact, .compact)),
        ])
    func window(_ c: WindowCase) throws {
        let env = try resolve(c.scene).environment
        #expect(env.display == c.display)
        #expect(close(env.window, c.window))
        #expect(env.safeArea == Insets(top: c.safe.0, leading: c.safe.1, bottom: c.safe.2, trailing: c.safe.3))
        #expect(env.sizeClass == SizeClassPair(horizontal: c.sizeClass.0, vertical: c.sizeClass.1))
    }

    @Test("posture: ignored on a device that does not fold (posture-ignored)")
    func postureIgnored() throws {
        let r = try resolve(#"{"device":"test-phone","posture":"halfOpened"}"#)
        #expect(r.environment.posture == .flat)
        #expect(r.diagnostics.first?.code == .postureIgnored)
        #expect(r.diagnostics.first?.path == "/posture")
        let f = try resolve(#"{"device":"test-foldable","posture":"halfOpened"}"#)
        #expect(f.environment.posture == .halfOpened)
        #expect(!f.has(.postureIgnored))
        let none = try resolve(#"{"window":{"width":400,"height":800},"posture":"closed"}"#)
        #expect(none.has(.postureIgnored))
    }

    @Test("safe-area: a profile's physical insets mirror under rtl")
    func safeAreaRTL() throws {
        // The profile's insets are physical (leading = left): asymmetric ones swap names under rtl.
        var phone = Fixtures.phone
        phone.displays[0].landscapeSafeArea = Insets(top: 0, leading: 47, bottom: 21, trailing: 0)
        let catalog = StaticDeviceCatalog([phone])
        let value = try parse(#"{"device":"test-phone","orientation":"landscape","layoutDirection":"rtl"}"#)
        let s = try #require(Scene.decode(value, catalog: catalog).scene)
        let env = LayoutEngine.resolve(s).environment
        #expect(env.safeArea == Insets(top: 0, leading: 0, bottom: 21, trailing: 47))
    }

    struct FoldCase: Sendable, CustomTestStringConvertible {
        var scene: String
        var fold: (Axis, (Double, Double, Double, Double), FoldStateName, Bool)?
        var regions: [((Double, Double, Double, Double), RegionSide?, SizeClass)]
        var testDescription: String { scene }
    }

    @Test(
        "regions: fold and regions",
        arguments: [
            FoldCase(
                scene: #"{"device":"test-foldable"}"#, fold: (.vertical, (390, 0, 0, 844), .flat, false),
                regions: [((0, 0, 780, 844), nil, .regular)]),
            FoldCase(
                scene: #"{"device":"test-foldable","posture":"halfOpened"}"#,
                fold: (.vertical, (390, 0, 0, 844), .halfOpened, true),
                regions: [((0, 0, 390, 844), .leading, .compact), ((390, 0, 390, 844), .trailing, .compact)]),
            // Under rtl the left region is trailing; the list stays in physical order.
            FoldCase(
                scene: #"{"device":"test-foldable","posture":"halfOpened","layoutDirection":"rtl"}"#,
                fold: (.vertical, (390, 0, 0, 844), .halfOpened, true),
                regions: [((0, 0, 390, 844), .trailing, .compact), ((390, 0, 390, 844), .leading, .compact)]),
            // Landscape turns the vertical fold horizontal: top and bottom halves of 844×780.
            FoldCase(
                scene: #"{"device":"test-foldable","posture":"halfOpened","orientation":"landscape"}"#,
                fold: (.horizontal, (0, 390, 844, 0), .halfOpened, true),
                regions: [((0, 0, 844, 390), .top, .regular), ((0, 390, 844, 390), .bottom, .regular)]),
            FoldCase(
                scene: #"{"device":"test-foldable","posture":"closed"}"#, fold: nil,
                regions: [((0, 0, 390, 844), nil, .compact)]),
            // A physical hinge separates even when flat; its band belongs to no region.
            FoldCase(
                scene: #"{"device":"test-hinged"}"#, fold: (.vertical, (590, 0, 20, 900), .flat, true),
                regions: [((0, 0, 590, 900), .leading, .compact), ((610, 0, 590, 900), .trailing, .compact)]),
            // A window that the fold line does not cross has no fold.
            FoldCase(
                scene:
                    #"{"device":"test-foldable","posture":"halfOpened","window":{"x":400,"width":380,"height":844}}"#,
                fold: nil, regions: [((0, 0, 380, 844), nil, .compact)]),
            // The fold moves into window coordinates.
            FoldCase(
                scene:
                    #"{"device":"test-foldable","posture":"halfOpened","window":{"x":100,"width":680,"height":600}}"#,
                fold: (.vertical, (290, 0, 0, 600), .halfOpened, true),
                regions: [((0, 0, 290, 600), .leading, .compact), ((290, 0, 390, 600), .trailing, .compact)]),
            // Without a device, a fold in window coordinates.
            FoldCase(
                scene:
                    #"{"window":{"width":1000,"height":800},"posture":"halfOpened","fold":{"orientation":"horizontal","position":300}}"#,
                fold: (.horizontal, (0, 300, 1000, 0), .halfOpened, true),
                regions: [((0, 0, 1000, 300), .top, .regular), ((0, 300, 1000, 500), .bottom, .regular)]),
        ])
    func fold(_ c: FoldCase) throws {
        let env = try resolve(c.scene).environment
        if let f = c.fold {
            let s = try #require(env.fold)
            #expect(s.orientation == f.0)
            #expect(close(s.bounds, f.1))
            #expect(s.state == f.2)
            #expect(s.separating == f.3)
        } else {
            #expect(env.fold == nil)
        }
        #expect(env.regions.count == c.regions.count)
        for (r, e) in zip(env.regions, c.regions) {
            #expect(close(r.frame, e.0))
            #expect(r.side == e.1)
            #expect(r.sizeClass.horizontal == e.2)
        }
    }

    @Test(
        "window-size-classes: Material 3 classes",
        arguments: [
            (599.0, 479.0, MaterialWidthClass.compact, MaterialHeightClass.compact),
            (600, 480, .medium, .medium), (839, 899, .medium, .medium), (840, 900, .expanded, .expanded),
            (1199, 2000, .expanded, .expanded), (1200, 1, .large, .compact), (1599, 1, .large, .compact),
            (1600, 1, .extraLarge, .compact),
        ])
    func materialClasses(_ w: Double, _ h: Double, _ wc: MaterialWidthClass, _ hc: MaterialHeightClass) {
        #expect(WindowClass(width: w, height: h) == WindowClass(width: w, height: h))
        #expect(WindowClass(width: w, height: h).width == wc)
        #expect(WindowClass(width: w, height: h).height == hc)
    }

    @Test(
        "size-classes: thresholds at the boundary",
        arguments: [(599.0, 499.0, SizeClass.compact, SizeClass.compact), (600, 500, .regular, .regular)])
    func thresholds(_ w: Double, _ h: Double, _ hc: SizeClass, _ vc: SizeClass) throws {
        let env = try resolve(#"{"window":{"width":\#(w),"height":\#(h)}}"#).environment
        #expect(env.sizeClass == SizeClassPair(horizontal: hc, vertical: vc))
    }
}
