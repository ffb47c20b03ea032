import Testing

@testable import LayoutEngine

/// docs/rules.md#covered-presentation: a presentation wholly covered by a later popover or non-modal panel.
@Suite("Covered presentations (docs/rules.md#covered-presentation)")
struct CoverageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var scene: String
        /// The `presentation-covered` diagnostics: the covered presentation, its severity and what covers it.
        var covered: [(id: String, severity: Severity, by: String)]
        var testDescription: String { name }
    }

    static let panel = #"{"id":"tools","kind":"adaptivePanel"}"#
    /// A popover far larger than the window: shrunk to the window less its margins, over the whole card.
    static func bigPopover(_ id: String) -> String {
        #"{"id":"\#(id)","kind":"popover","presentedFrom":"a","anchor":{"x":500,"y":600},"contentSize":{"width":5000,"height":5000}}"#
    }

    @Test(
        "covered-presentation: wholly covered by a later placement",
        arguments: [
            Case(
                name: "a popover that hides its presenter is a warning",
                scene: #"{"device":"test-tablet","presentations":[{"id":"a","kind":"sheet"},\#(bigPopover("p"))]}"#,
                covered: [("a", .warning, "p")]),
            Case(
                name: "a popover that is ignored hides nothing",
                scene:
                    #"{"device":"test-tablet","presentations":[{"id":"a","kind":"sheet"},\#(bigPopover("p")),\#(bigPopover("q"))]}"#,
                covered: [("a", .warning, "p")]),
            Case(
                name: "a non-modal panel listed after a sheet is drawn over it: info",
                scene:
                    #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","detents":["medium"]},{"id":"tools","kind":"adaptivePanel","panelHeight":600}]}"#,
                covered: [("s", .info, "tools")]),
            Case(
                name: "a sheet over a non-modal panel is how modals work: nothing",
                scene: #"{"device":"test-phone","presentations":[\#(panel),{"id":"s","kind":"sheet"}]}"#,
                covered: []),
            Case(
                name: "a sheet over the sheet that presents it: nothing",
                scene:
                    #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet"},{"id":"b","kind":"sheet","presentedFrom":"a"}]}"#,
                covered: []),
            Case(
                name: "a small popover over part of a side panel: nothing",
                scene:
                    #"{"device":"test-tablet","presentations":[\#(panel),{"id":"p","kind":"popover","anchor":{"x":900,"y":600}}]}"#,
                covered: []),
        ])
    func covered(_ c: Case) throws {
        let r = try resolve(c.scene)
        let found = r.diagnostics.filter { $0.code == .presentationCovered }
        #expect(found.map(\.presentation) == c.covered.map(\.id))
        #expect(found.map(\.severity) == c.covered.map(\.severity))
        for (d, e) in zip(found, c.covered) {
            let index = try #require(r.placements.firstIndex { $0.id == e.id })
            #expect(d.path == "/presentations/\(index)")
            #expect(d.message.hasPrefix("\"\(e.id)\" is wholly covered by \"\(e.by)\", presented after it"))
        }
        // After every presentation's own diagnostics.
        if !found.isEmpty { #expect(r.diagnostics.last?.code == .presentationCovered) }
    }

    /// What the warning tells the designer to do, and that a layout direction does not mirror anchors.
    @Test("covered-presentation: a popover's warning says to move its anchor")
    func popoverMessage() throws {
        let r = try resolve(
            #"{"device":"test-tablet","layoutDirection":"rtl","presentations":[{"id":"a","kind":"sheet"},\#(Self.bigPopover("p"))]}"#
        )
        let d = try #require(r.diagnostics.first { $0.code == .presentationCovered })
        #expect(d.message.hasSuffix("move its anchor (window coordinates, which rtl does not mirror) or its arrowEdge"))
    }
}
