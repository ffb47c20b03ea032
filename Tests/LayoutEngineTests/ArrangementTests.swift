import JSON
import Testing

@testable import LayoutEngine

@Suite("Arrangement (docs/rules.md#arrangement)")
struct ArrangementTests {
    struct SplitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var env: String
        var arrangement: String
        var axis: Axis?
        var primary: (Double, Double, Double, Double)
        var secondary: (Double, Double, Double, Double)?
        var codes: [DiagnosticCode] = []
        var testDescription: String { name }
    }

    static let portrait = #""device":"test-tablet""#
    static let landscape = #""device":"test-tablet","orientation":"landscape""#
    static let halfOpened = #""device":"test-foldable","posture":"halfOpened""#

    // Tablet portrait 1024×1366 (natural axis vertical), landscape 1366×1024 (horizontal).
    @Test(
        "split: axis, fold, axes restriction, ratio/size/fixed preferences, minimum length",
        arguments: [
            SplitCase(
                name: "portrait: vertical, default ratio", env: portrait, arrangement: "", axis: .vertical,
                primary: (0, 0, 1024, 683), secondary: (0, 683, 1024, 683)),
            SplitCase(
                name: "landscape: horizontal, ratio 0.35", env: landscape, arrangement: #""secondary":{"ratio":0.35}"#,
                axis: .horizontal, primary: (0, 0, 887.9, 1024), secondary: (887.9, 0, 478.1, 1024)),
            SplitCase(
                name: "landscape rtl: primary on the right", env: landscape + #","layoutDirection":"rtl""#,
                arrangement: #""secondary":{"ratio":0.35}"#, axis: .horizontal, primary: (478.1, 0, 887.9, 1024),
                secondary: (0, 0, 478.1, 1024)),
            SplitCase(
                name: "per-axis ratio: idealVertical", env: portrait,
                arrangement:
                    #""secondary":{"ratio":{"minHorizontal":0.3,"idealHorizontal":0.35,"maxHorizontal":0.45,"idealVertical":0.4}}"#,
                axis: .vertical, primary: (0, 0, 1024, 819.6), secondary: (0, 819.6, 1024, 546.4)),
            SplitCase(
                name: "per-axis ratio without a vertical ideal: default", env: portrait,
                arrangement: #""secondary":{"ratio":{"idealHorizontal":0.35}}"#, axis: .vertical,
                primary: (0, 0, 1024, 683),
                secondary: (0, 683, 1024, 683)),
            SplitCase(
                name: "ratio ideal clamped to min", env: landscape,
                arrangement: #""secondary":{"ratio":{"minHorizontal":0.3,"idealHorizontal":0.2}}"#, axis: .horizontal,
                primary: (0, 0, 956.2, 1024), secondary: (956.2, 0, 409.8, 1024)),
            SplitCase(
                name: "size in points clamped to max", env: landscape,
                arrangement: #""secondary":{"size":{"idealHorizontal":300,"maxHorizontal":250},"ratio":0.9}"#,
                axis: .horizontal,
                primary: (0, 0, 1116, 1024), secondary: (1116, 0, 250, 1024)),
            SplitCase(
                name: "fixed size wins", env: landscape,
                arrangement:
                    #""secondary":{"fixedSize":{"horizontal":true},"contentSize":{"width":250,"height":100},"size":400}"#,
                axis: .horizontal, primary: (0, 0, 1116, 1024), secondary: (1116, 0, 250, 1024)),
            SplitCase(
                name: "a preference on the primary gives the secondary the rest", env: landscape,
                arrangement: #""primary":{"ratio":0.7}"#, axis: .horizontal, primary: (0, 0, 956.2, 1024),
                secondary: (956.2, 0, 409.8, 1024)),
            SplitCase(
                name: "minimum length", env: portrait, arrangement: #""secondary":{"ratio":0.01}"#, axis: .vertical,
                primary: (0, 0, 1024, 1322), secondary: (0, 1322, 1024, 44)),
            SplitCase(
                name: "split follows the fold", env: halfOpened, arrangement: #""secondary":{"ratio":0.2}"#,
                axis: .horizontal,
                primary: (0, 0, 390, 844), secondary: (390, 0, 390, 844), codes: [.splitFollowsFold]),
            SplitCase(
                name: "split follows a hinge, leaving its band out", env: #""device":"test-hinged""#, arrangement: "",
                axis: .horizontal, primary: (0, 0, 590, 900), secondary: (610, 0, 590, 900), codes: [.splitFollowsFold]),
            SplitCase(
                name: "axes restriction hides the secondary (fold)", env: halfOpened,
                arrangement: #""axes":["vertical"]"#,
                axis: nil, primary: (0, 0, 780, 844), secondary: nil, codes: [.secondaryHidden]),
            SplitCase(
                name: "axes restriction hides the secondary (portrait)", env: portrait,
                arrangement: #""axes":["horizontal"],"container":"list""#, axis: nil, primary: (0, 0, 1024, 1366),
                secondary: nil,
                codes: [.arrangementInScrollContainer, .secondaryHidden]),
        ])
    func split(_ c: SplitCase) throws {
        let r = try resolve(
            #"{\#(c.env),"arrangement":{"style":"split"\#(c.arrangement.isEmpty ? "" : "," + c.arrangement)}}"#)
        let a = try #require(r.arrangement)
        #expect(a.axis == c.axis)
        #expect(close(a.primary.frame, c.primary), "primary \(String(describing: a.primary.frame))")
        if let s = c.secondary {
            #expect(close(a.secondary.frame, s), "secondary \(String(describing: a.secondary.frame))")
            #expect(a.secondary.visible)
        } else {
            #expect(a.secondary.frame == nil && !a.secondary.visible)
        }
        #expect(a.primary.zIndex == 0)
        #expect(r.diagnostics.map(\.code) == c.codes)
    }

    struct OverlayCase: Sendable, CustomTestStringConvertible {
        var name: String
        var env: String
        var arrangement: String
        var primary: (Double, Double, Double, Double)
        var secondary: (Double, Double, Double, Double)
        var separated: Bool
        var codes: [DiagnosticCode] = []
        var testDescription: String { name }
    }

    @Test(
        "overlay: fold separation, edges and z-index",
        arguments: [
            OverlayCase(
                name: "no fold: overlaid", env: portrait, arrangement: "", primary: (0, 0, 1024, 1366),
                secondary: (0, 0, 1024, 1366), separated: false),
            OverlayCase(
                name: "fold: primary trailing", env: halfOpened, arrangement: "", primary: (390, 0, 390, 844),
                secondary: (0, 0, 390, 844), separated: true),
            OverlayCase(
                name: "fold rtl: primary trailing = left", env: halfOpened + #","layoutDirection":"rtl""#,
                arrangement: "",
                primary: (0, 0, 390, 844), secondary: (390, 0, 390, 844), separated: true),
            OverlayCase(
                name: "primary overlayEdge leading", env: halfOpened,
                arrangement: #""primary":{"overlayEdge":"leading"}"#,
                primary: (0, 0, 390, 844), secondary: (390, 0, 390, 844), separated: true),
            OverlayCase(
                name: "secondary overlayEdge trailing", env: halfOpened,
                arrangement: #""secondary":{"overlayEdge":"trailing"}"#,
                primary: (0, 0, 390, 844), secondary: (390, 0, 390, 844), separated: true),
            OverlayCase(
                name: "horizontal fold: primary bottom", env: halfOpened + #","orientation":"landscape""#,
                arrangement: "",
                primary: (0, 390, 844, 390), secondary: (0, 0, 844, 390), separated: true),
            OverlayCase(
                name: "axes exclude the separation", env: halfOpened, arrangement: #""axes":["vertical"]"#,
                primary: (0, 0, 780, 844), secondary: (0, 0, 780, 844), separated: false, codes: [.contentSpansFold]),
        ])
    func overlay(_ c: OverlayCase) throws {
        let r = try resolve(
            #"{\#(c.env),"arrangement":{"style":"overlay"\#(c.arrangement.isEmpty ? "" : "," + c.arrangement)}}"#)
        let a = try #require(r.arrangement)
        #expect(a.axis == nil)
        #expect(a.separated == c.separated)
        #expect(close(a.primary.frame, c.primary))
        #expect(close(a.secondary.frame, c.secondary))
        #expect(a.primary.zIndex == (c.separated ? 0 : 1))
        #expect(a.secondary.zIndex == 0)
        #expect(r.diagnostics.map(\.code) == c.codes)
        if c.codes.contains(.contentSpansFold) { #expect(r.diagnostics.first?.severity == .warning) }
    }
}
