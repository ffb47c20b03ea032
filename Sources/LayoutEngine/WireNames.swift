import JSON

// The API's enumerations and their names on the wire, each name written once: as its case's raw value. Every
// table the scene reader matches names against and the response encoder copies them from is made from the raw
// values (docs/rules.md#one-pass).

/// An enumeration of the API's vocabulary: the values a request or a response spells as strings (`"sheet"`,
/// `"halfOpened"`), or the names of the members of one kind of request object (`PresentationMember`). A case's
/// raw value is its name on the wire; nothing else spells it. The tables that match a name and write one are
/// made from `allCases` (`WireNameTables`), and `init?(rawValue:)` is the one Swift synthesises.
///
/// A conforming enumeration has no payloads and fewer than 256 cases, so a case is stored as its position in
/// `allCases`, in one byte (none when it is the only case): the reader turns a matched position into its case and
/// the encoder a case into its position without `allCases` (`WireNamesTests` checks every enumeration).
protocol WireNamed: JSONStringEnumeration {
    /// This enumeration's case in `WireEnumeration`, which picks its tables.
    static var wireEnumeration: WireEnumeration { get }
}

extension WireNamed {
    /// The case's position in `allCases`: its stored byte.
    @inline(__always)
    var ordinal: Int { withUnsafeBytes(of: self) { $0.isEmpty ? 0 : Int($0[0]) } }

    /// The case at position `i` of `allCases` (a position a table of this enumeration gave), without `allCases`.
    @inline(__always)
    static func ofOrdinal(_ i: Int) -> Self { caseOfOrdinal(i) }

    /// The names to match, for `ObjectReader.enumeration` (device profiles) and the reporting source: the shared
    /// table.
    public static var jsonNames: JSONNames { WireNameTables.shared.names(Self.self).takeUnretainedValue() }
}

/// The case of `E` whose position in `allCases` is `i`, for an enumeration whose cases have no payload (then a case
/// is stored as its position: one byte, none when it is the only case) and fewer than 256 cases. Read without
/// making `allCases`.
@inline(__always)
func caseOfOrdinal<E: CaseIterable>(_ i: Int) -> E {
    precondition(MemoryLayout<E>.size <= 1, "caseOfOrdinal: a case without payload, fewer than 256 cases")
    return withUnsafeBytes(of: UInt8(truncatingIfNeeded: i)) { $0.load(as: E.self) }
}

/// Every `WireNamed` enumeration, one case each. `WireNameTables` makes the tables of each `type`, and an
/// enumeration's `wireEnumeration` is the position of its tables, a constant wherever they are looked up. A new
/// enumeration is a case here: its conformance asks for the case, and the case for its `type`.
enum WireEnumeration: Int, CaseIterable {
    // The members of the request's objects (the scene reader's).
    case sceneMember, frameMember, insetsMember, sizeClassMember, foldMember, presentationMember, intentMember
    case toolbarItemMember, detentMember, backgroundInteractionMember, arrangementMember, arrangedViewMember
    case fixedSizeMember, axisPreferenceMember
    // Values of a request (or of a device profile); the response repeats some.
    case orientation, posture, layoutDirection, dynamicTypeSize, presentationKind, sheetPlacement, sheetSizing
    case dragIndicator, toolbarPlacement, arrowEdge, compactAdaptation, panelAlignment, arrangementStyle
    case arrangementContainer, edge, sizeClass, axis, detentName, backgroundInteractionName, deviceKind
    // Values of a response only.
    case diagnosticCode, severity, foldStateName, regionSide, resolvedSheetPlacement, placementStatus
    case presentationStyle, materialWidthClass, materialHeightClass

    var type: any WireNamed.Type {
        switch self {
        case .sceneMember: return SceneMember.self
        case .frameMember: return FrameMember.self
        case .insetsMember: return InsetsMember.self
        case .sizeClassMember: return SizeClassMember.self
        case .foldMember: return FoldMember.self
        case .presentationMember: return PresentationMember.self
        case .intentMember: return IntentMember.self
        case .toolbarItemMember: return ToolbarItemMember.self
        case .detentMember: return DetentMember.self
        case .backgroundInteractionMember: return BackgroundInteractionMember.self
        case .arrangementMember: return ArrangementMember.self
        case .arrangedViewMember: return ArrangedViewMember.self
        case .fixedSizeMember: return FixedSizeMember.self
        case .axisPreferenceMember: return AxisPreferenceMember.self
        case .orientation: return Orientation.self
        case .posture: return Posture.self
        case .layoutDirection: return LayoutDirection.self
        case .dynamicTypeSize: return DynamicTypeSize.self
        case .presentationKind: return Presentation.Kind.self
        case .sheetPlacement: return SheetPlacement.self
        case .sheetSizing: return SheetSizing.self
        case .dragIndicator: return DragIndicator.self
        case .toolbarPlacement: return ToolbarPlacement.self
        case .arrowEdge: return ArrowEdge.self
        case .compactAdaptation: return CompactAdaptation.self
        case .panelAlignment: return PanelAlignment.self
        case .arrangementStyle: return ArrangementStyle.self
        case .arrangementContainer: return ArrangementContainer.self
        case .edge: return Edge.self
        case .sizeClass: return SizeClass.self
        case .axis: return Axis.self
        case .detentName: return DetentName.self
        case .backgroundInteractionName: return BackgroundInteractionName.self
        case .deviceKind: return DeviceProfile.Kind.self
        case .diagnosticCode: return DiagnosticCode.self
        case .severity: return Severity.self
        case .foldStateName: return FoldStateName.self
        case .regionSide: return RegionSide.self
        case .resolvedSheetPlacement: return ResolvedSheetPlacement.self
        case .placementStatus: return PlacementStatus.self
        case .presentationStyle: return PresentationStyle.self
        case .materialWidthClass: return MaterialWidthClass.self
        case .materialHeightClass: return MaterialHeightClass.self
        }
    }
}

extension SceneMember { static var wireEnumeration: WireEnumeration { .sceneMember } }
extension FrameMember { static var wireEnumeration: WireEnumeration { .frameMember } }
extension InsetsMember { static var wireEnumeration: WireEnumeration { .insetsMember } }
extension SizeClassMember { static var wireEnumeration: WireEnumeration { .sizeClassMember } }
extension FoldMember { static var wireEnumeration: WireEnumeration { .foldMember } }
extension PresentationMember { static var wireEnumeration: WireEnumeration { .presentationMember } }
extension IntentMember { static var wireEnumeration: WireEnumeration { .intentMember } }
extension ToolbarItemMember { static var wireEnumeration: WireEnumeration { .toolbarItemMember } }
extension DetentMember { static var wireEnumeration: WireEnumeration { .detentMember } }
extension BackgroundInteractionMember { static var wireEnumeration: WireEnumeration { .backgroundInteractionMember } }
extension ArrangementMember { static var wireEnumeration: WireEnumeration { .arrangementMember } }
extension ArrangedViewMember { static var wireEnumeration: WireEnumeration { .arrangedViewMember } }
extension FixedSizeMember { static var wireEnumeration: WireEnumeration { .fixedSizeMember } }
extension AxisPreferenceMember { static var wireEnumeration: WireEnumeration { .axisPreferenceMember } }
extension Orientation: WireNamed { static var wireEnumeration: WireEnumeration { .orientation } }
extension Posture: WireNamed { static var wireEnumeration: WireEnumeration { .posture } }
extension LayoutDirection: WireNamed { static var wireEnumeration: WireEnumeration { .layoutDirection } }
extension DynamicTypeSize: WireNamed { static var wireEnumeration: WireEnumeration { .dynamicTypeSize } }
extension Presentation.Kind: WireNamed { static var wireEnumeration: WireEnumeration { .presentationKind } }
extension SheetPlacement: WireNamed { static var wireEnumeration: WireEnumeration { .sheetPlacement } }
extension SheetSizing: WireNamed { static var wireEnumeration: WireEnumeration { .sheetSizing } }
extension DragIndicator: WireNamed { static var wireEnumeration: WireEnumeration { .dragIndicator } }
extension ToolbarPlacement: WireNamed { static var wireEnumeration: WireEnumeration { .toolbarPlacement } }
extension ArrowEdge: WireNamed { static var wireEnumeration: WireEnumeration { .arrowEdge } }
extension CompactAdaptation: WireNamed { static var wireEnumeration: WireEnumeration { .compactAdaptation } }
extension PanelAlignment: WireNamed { static var wireEnumeration: WireEnumeration { .panelAlignment } }
extension ArrangementStyle: WireNamed { static var wireEnumeration: WireEnumeration { .arrangementStyle } }
extension ArrangementContainer: WireNamed { static var wireEnumeration: WireEnumeration { .arrangementContainer } }
extension Edge: WireNamed { static var wireEnumeration: WireEnumeration { .edge } }
extension SizeClass: WireNamed { static var wireEnumeration: WireEnumeration { .sizeClass } }
extension Axis: WireNamed { static var wireEnumeration: WireEnumeration { .axis } }
extension DetentName: WireNamed { static var wireEnumeration: WireEnumeration { .detentName } }
extension BackgroundInteractionName: WireNamed {
    static var wireEnumeration: WireEnumeration { .backgroundInteractionName }
}
extension DeviceProfile.Kind: WireNamed { static var wireEnumeration: WireEnumeration { .deviceKind } }
extension DiagnosticCode: WireNamed { static var wireEnumeration: WireEnumeration { .diagnosticCode } }
extension Severity: WireNamed { static var wireEnumeration: WireEnumeration { .severity } }
extension FoldStateName: WireNamed { static var wireEnumeration: WireEnumeration { .foldStateName } }
extension RegionSide: WireNamed { static var wireEnumeration: WireEnumeration { .regionSide } }
extension ResolvedSheetPlacement: WireNamed {
    static var wireEnumeration: WireEnumeration { .resolvedSheetPlacement }
}
extension PlacementStatus: WireNamed { static var wireEnumeration: WireEnumeration { .placementStatus } }
extension PresentationStyle: WireNamed { static var wireEnumeration: WireEnumeration { .presentationStyle } }
extension MaterialWidthClass: WireNamed { static var wireEnumeration: WireEnumeration { .materialWidthClass } }
extension MaterialHeightClass: WireNamed { static var wireEnumeration: WireEnumeration { .materialHeightClass } }

/// The tables of every `WireEnumeration`, made together on first use and never freed: the names to match
/// (`JSONNames`) and the quoted names to copy (`QuotedNameTable`). The scene reader and the response encoder
/// read `shared` once per request and hand it down, and a look-up is then a load at a constant offset: a table in
/// a `static let` of its own enumeration would cost a `swift_once` call at every look-up (375 instructions more
/// per typical request in the `pipeline` stage of Benchmarks/instructions.sh, of 45,300).
struct WireNameTables: @unchecked Sendable {
    // @unchecked Sendable: the entries are written in init only, and never freed.
    static let shared = WireNameTables()

    struct Entry {
        /// Retained once, never released: a look-up neither retains nor releases it.
        let names: Unmanaged<JSONNames>
        let quoted: QuotedNameTable
        /// The enumeration, to check that a `wireEnumeration` is its own (debug builds).
        let type: any WireNamed.Type
    }

    /// By `WireEnumeration.rawValue`.
    private let entries: UnsafeMutablePointer<Entry>

    private init() {
        let all = WireEnumeration.allCases
        entries = .allocate(capacity: all.count)
        for e in all { (entries + e.rawValue).initialize(to: Self.make(e.type)) }
    }

    private static func make<E: WireNamed>(_: E.Type) -> Entry {
        Entry(names: .passRetained(JSONNames(E.self)), quoted: QuotedNameTable(E.self), type: E.self)
    }

    @inline(__always)
    private func entry<E: WireNamed>(_: E.Type) -> UnsafeMutablePointer<Entry> {
        let p = entries + E.wireEnumeration.rawValue
        assert(ObjectIdentifier(p.pointee.type) == ObjectIdentifier(E.self), "\(E.self): another's wireEnumeration")
        return p
    }

    /// The names of `E`'s cases, to match.
    @inline(__always)
    func names<E: WireNamed>(_: E.Type) -> Unmanaged<JSONNames> { entry(E.self).pointee.names }

    /// The quoted names of `E`'s cases, to write.
    @inline(__always)
    func quoted<E: WireNamed>(_: E.Type) -> QuotedNameTable { entry(E.self).pointee.quoted }
}

/// The quoted raw values of an enumeration's cases (`"name"`, quotes included), one buffer for them all,
/// indexed by the case's position in `allCases`. Made once per enumeration (`WireNameTables`) and never freed.
/// When the cases are not stored as their positions in one byte (checked when the table is made), `usable` is
/// false and the encoder writes `rawValue`.
struct QuotedNameTable: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init, and never freed.
    let usable: Bool
    private let bytes: UnsafeMutablePointer<UInt8>
    /// `starts[i]`…`starts[i + 1]`: case `i`'s bytes.
    private let starts: UnsafeMutablePointer<Int>

    init<E: RawRepresentable & CaseIterable>(_ type: E.Type) where E.RawValue == String {
        let cases = Array(E.allCases)
        let total = cases.reduce(0) { $0 + $1.rawValue.utf8.count + 2 }
        bytes = .allocate(capacity: max(total, 1))
        starts = .allocate(capacity: cases.count + 1)
        var at = 0
        var usable = MemoryLayout<E>.size == 1 && !cases.isEmpty
        for (i, c) in cases.enumerated() {
            starts[i] = at
            bytes[at] = UInt8(ascii: "\"")
            for b in c.rawValue.utf8 {
                at += 1
                bytes[at] = b
            }
            bytes[at + 1] = UInt8(ascii: "\"")
            at += 2
            if usable && Int(unsafeBitCast(c, to: UInt8.self)) != i { usable = false }
        }
        starts[cases.count] = at
        self.usable = usable
    }

    /// The quoted name of the case at position `i`.
    @inline(__always) func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + starts[i], count: starts[i + 1] - starts[i])
    }
}
