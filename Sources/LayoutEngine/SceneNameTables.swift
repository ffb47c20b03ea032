import JSON

// The name tables the scene reader matches against, in one object (docs/rules.md#one-pass).

/// The name tables (`JSONNames`) of every member enumeration and enumerated value the scene reader matches, in one
/// object that the quiet source looks up once per request and hands down: a type's own `static let jsonNames`
/// costs a `swift_once` call at every look-up (about 36 per typical request). The tables are the types' own
/// `jsonNames`, which live as long as the program, so they are held unretained.
final class SceneNameTables: @unchecked Sendable {
    // @unchecked Sendable: every property is set in init and never changes.
    static let shared = SceneNameTables()

    let sceneMember = Unmanaged.passUnretained(SceneMember.jsonNames)
    let frameMember = Unmanaged.passUnretained(FrameMember.jsonNames)
    let insetsMember = Unmanaged.passUnretained(InsetsMember.jsonNames)
    let sizeClassMember = Unmanaged.passUnretained(SizeClassMember.jsonNames)
    let foldMember = Unmanaged.passUnretained(FoldMember.jsonNames)
    let presentationMember = Unmanaged.passUnretained(PresentationMember.jsonNames)
    let intentMember = Unmanaged.passUnretained(IntentMember.jsonNames)
    let toolbarItemMember = Unmanaged.passUnretained(ToolbarItemMember.jsonNames)
    let detentMember = Unmanaged.passUnretained(DetentMember.jsonNames)
    let backgroundInteractionMember = Unmanaged.passUnretained(BackgroundInteractionMember.jsonNames)
    let arrangementMember = Unmanaged.passUnretained(ArrangementMember.jsonNames)
    let arrangedViewMember = Unmanaged.passUnretained(ArrangedViewMember.jsonNames)
    let fixedSizeMember = Unmanaged.passUnretained(FixedSizeMember.jsonNames)
    let axisPreferenceMember = Unmanaged.passUnretained(AxisPreferenceMember.jsonNames)
    let orientation = Unmanaged.passUnretained(Orientation.jsonNames)
    let posture = Unmanaged.passUnretained(Posture.jsonNames)
    let layoutDirection = Unmanaged.passUnretained(LayoutDirection.jsonNames)
    let dynamicTypeSize = Unmanaged.passUnretained(DynamicTypeSize.jsonNames)
    let presentationKind = Unmanaged.passUnretained(Presentation.Kind.jsonNames)
    let sheetPlacement = Unmanaged.passUnretained(SheetPlacement.jsonNames)
    let sheetSizing = Unmanaged.passUnretained(SheetSizing.jsonNames)
    let dragIndicator = Unmanaged.passUnretained(DragIndicator.jsonNames)
    let toolbarPlacement = Unmanaged.passUnretained(ToolbarPlacement.jsonNames)
    let arrowEdge = Unmanaged.passUnretained(ArrowEdge.jsonNames)
    let compactAdaptation = Unmanaged.passUnretained(CompactAdaptation.jsonNames)
    let panelAlignment = Unmanaged.passUnretained(PanelAlignment.jsonNames)
    let arrangementStyle = Unmanaged.passUnretained(ArrangementStyle.jsonNames)
    let arrangementContainer = Unmanaged.passUnretained(ArrangementContainer.jsonNames)
    let edge = Unmanaged.passUnretained(Edge.jsonNames)
    let sizeClass = Unmanaged.passUnretained(SizeClass.jsonNames)
    let axis = Unmanaged.passUnretained(Axis.jsonNames)
    let detentName = Unmanaged.passUnretained(DetentName.jsonNames)
    let backgroundInteractionName = Unmanaged.passUnretained(BackgroundInteractionName.jsonNames)
}

/// An enumeration whose raw values the scene reader matches: its table among `SceneNameTables`'. (Member
/// enumerations are `SceneNamed` through `SceneMembers`.)
protocol SceneNamed: JSONStringEnumeration {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames>
}

extension SceneMember { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.sceneMember } }
extension FrameMember { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.frameMember } }
extension InsetsMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.insetsMember }
}
extension SizeClassMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.sizeClassMember }
}
extension FoldMember { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.foldMember } }
extension PresentationMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.presentationMember }
}
extension IntentMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.intentMember }
}
extension ToolbarItemMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.toolbarItemMember }
}
extension DetentMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.detentMember }
}
extension BackgroundInteractionMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.backgroundInteractionMember }
}
extension ArrangementMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.arrangementMember }
}
extension ArrangedViewMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.arrangedViewMember }
}
extension FixedSizeMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.fixedSizeMember }
}
extension AxisPreferenceMember {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.axisPreferenceMember }
}
extension Orientation: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.orientation } }
extension Posture: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.posture } }
extension LayoutDirection: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.layoutDirection }
}
extension DynamicTypeSize: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.dynamicTypeSize }
}
extension Presentation.Kind: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.presentationKind }
}
extension SheetPlacement: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.sheetPlacement }
}
extension SheetSizing: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.sheetSizing } }
extension DragIndicator: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.dragIndicator }
}
extension ToolbarPlacement: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.toolbarPlacement }
}
extension ArrowEdge: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.arrowEdge } }
extension CompactAdaptation: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.compactAdaptation }
}
extension PanelAlignment: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.panelAlignment }
}
extension ArrangementStyle: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.arrangementStyle }
}
extension ArrangementContainer: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.arrangementContainer }
}
extension Edge: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.edge } }
extension SizeClass: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.sizeClass } }
extension Axis: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.axis } }
extension DetentName: SceneNamed { static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.detentName } }
extension BackgroundInteractionName: SceneNamed {
    static func names(in t: SceneNameTables) -> Unmanaged<JSONNames> { t.backgroundInteractionName }
}
