import Testing

@testable import LayoutEngine

/// The response encoder copies an enumeration's JSON text from `QuotedNameTable` by the case's one-byte tag.
/// Each table must be usable (otherwise the encoder silently takes the slower `rawValue` path) and hold
/// exactly the quoted raw value of every case.
@Suite("Quoted enumeration names")
struct QuotedNamesTests {
    private func check<E: QuotedNames>(_ type: E.Type) {
        let table = E.quotedNames(in: .shared)
        #expect(table.usable, "\(E.self): the table is not usable")
        guard table.usable else { return }
        for c in E.allCases {
            let written = Array(table.name(unsafeBitCast(c, to: UInt8.self)))
            #expect(written == Array("\"\(c.rawValue)\"".utf8), "\(E.self).\(c.rawValue)")
        }
    }

    @Test("every table holds the quoted raw value of each case, by tag")
    func tables() {
        check(SizeClass.self)
        check(DiagnosticCode.self)
        check(Severity.self)
        check(DynamicTypeSize.self)
        check(Axis.self)
        check(FoldStateName.self)
        check(LayoutDirection.self)
        check(Orientation.self)
        check(Posture.self)
        check(RegionSide.self)
        check(Presentation.Kind.self)
        check(ArrowEdge.self)
        check(SheetPlacement.self)
        check(ResolvedSheetPlacement.self)
        check(PlacementStatus.self)
        check(PresentationStyle.self)
        check(Edge.self)
        check(ArrangementStyle.self)
        check(MaterialWidthClass.self)
        check(MaterialHeightClass.self)
    }

    @Test("an enumeration without a one-byte tag is left to its raw value")
    func unusableTable() {
        enum Single: String, CaseIterable { case only }  // size 0: no tag to index by
        #expect(!QuotedNameTable(Single.self).usable)
        enum Pair: String, CaseIterable { case first, second }
        #expect(QuotedNameTable(Pair.self).usable)
    }
}
