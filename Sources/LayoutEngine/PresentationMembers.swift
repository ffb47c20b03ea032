import JSON

// The members of a presentation, each declared once (docs/rules.md#one-pass): `PresentationDraft.read` names
// it, says which kinds have it, reads its value with one value reader and sets its field. Both readers run it
// with their own value readers (`PresentationMemberReading`): the general decoder's report every problem with its
// pointer (SceneDecoding+Presentations.swift), the one-pass reader's decline (SceneOnePassDecoding+Presentations.swift).

/// The members of a presentation, in the order the general decoder reads them (and reports their errors): the
/// members every presentation has first, `contentSize` before the detents that may need it.
enum PresentationMember: UInt8, CaseIterable {
    case id, kind, presentedFrom, intent, placement
    case anchor, arrowEdge, sizing, contentSize, compactAdaptation
    case detents, selectedDetent, backgroundInteraction, interactiveDismissDisabled, hasUnsavedChanges
    case dragIndicator, breakpoint, alignment, panelWidth, panelHeight, modal, cornerRadius
    case toolbar, contentScrollable, edgeAttachedInCompactHeight, widthFollowsContentSize

    static let count = allCases.count

    /// The member of raw value `k` (< `count`), without the synthesized initializer's comparison with each case:
    /// the raw values are the cases' positions, which is how such an enumeration is stored.
    @inline(__always)
    init(position k: Int) {
        assert(k >= 0 && k < Self.count)
        self = unsafeBitCast(UInt8(truncatingIfNeeded: k), to: PresentationMember.self)
    }
}

/// The kinds of presentation a member belongs to; `withoutKind`: read even when the kind is missing or unknown
/// (the members that say what the presentation is).
struct PresentationKinds: OptionSet {
    let rawValue: UInt8
    static let sheet = PresentationKinds(rawValue: 1)
    static let fullScreenCover = PresentationKinds(rawValue: 2)
    static let popover = PresentationKinds(rawValue: 4)
    static let adaptivePanel = PresentationKinds(rawValue: 8)
    static let withoutKind = PresentationKinds(rawValue: 16)
    static let everyKind: PresentationKinds = [.sheet, .fullScreenCover, .popover, .adaptivePanel]
    static let always: PresentationKinds = [.everyKind, .withoutKind]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ kind: Presentation.Kind) {
        switch kind {
        case .sheet: self = .sheet
        case .fullScreenCover: self = .fullScreenCover
        case .popover: self = .popover
        case .adaptivePanel: self = .adaptivePanel
        }
    }
}

/// What a presentation's members set, whatever its kind; each reader makes the `Presentation` of it.
struct PresentationDraft {
    var id: String?
    var kind: Presentation.Kind?
    var presentedFrom: Int?
    var intent: Intent?
    var placement: SheetPlacement?
    var sheet = SheetRequest()
    var anchor: Rect?
    var popover = PopoverRequest(anchor: Rect(x: 0, y: 0, width: 0, height: 0))
    var panel = PanelRequest()
    var cornerRadius: Double?
    var contentSize: Size?
    var selectedDetent: Detent?

    /// Reads member `m` with `r`: the one declaration of each member's name, kinds, value and field. Each arm calls
    /// one value reader of `r`, which gets the member's name and kinds.
    @inline(__always)
    mutating func read<R: PresentationMemberReading>(_ m: PresentationMember, _ r: inout R) {
        switch m {
        case .id: id = r.string("id", .always, SceneLimits.idLength, required: true)
        case .kind: kind = r.enumeration("kind", .always, required: true)
        case .presentedFrom: presentedFrom = r.presenter("presentedFrom", .always, of: id)
        case .intent: intent = r.intent("intent", .always)
        case .placement: placement = r.enumeration("placement", .everyKind, required: false)
        case .anchor: anchor = r.anchor("anchor", .popover)
        case .arrowEdge: popover.arrowEdge = r.enumeration("arrowEdge", .popover, required: false) ?? .top
        case .sizing: sheet.sizing = r.enumeration("sizing", .sheet, required: false) ?? .automatic
        case .contentSize: contentSize = r.size("contentSize", [.sheet, .popover])
        case .compactAdaptation:
            popover.compactAdaptation = r.enumeration("compactAdaptation", .popover, required: false) ?? .automatic
        case .detents:
            if let d = r.detents("detents", .sheet, contentSize: contentSize) { sheet.detents = d }
        case .selectedDetent: selectedDetent = r.selectedDetent("selectedDetent", .sheet, among: sheet.detents)
        case .backgroundInteraction:
            sheet.backgroundInteraction =
                r.backgroundInteraction("backgroundInteraction", .sheet, contentSize: contentSize) ?? .disabled
        case .interactiveDismissDisabled:
            sheet.interactiveDismissDisabled = r.bool("interactiveDismissDisabled", .sheet) ?? false
        case .hasUnsavedChanges: sheet.hasUnsavedChanges = r.bool("hasUnsavedChanges", .sheet) ?? false
        case .dragIndicator: sheet.dragIndicator = r.enumeration("dragIndicator", .sheet, required: false) ?? .automatic
        case .breakpoint: panel.breakpoint = r.number("breakpoint", .adaptivePanel, 0...100_000)
        case .alignment: panel.alignment = r.enumeration("alignment", .adaptivePanel, required: false) ?? .trailing
        case .panelWidth: panel.panelWidth = r.number("panelWidth", .adaptivePanel, SceneLimits.size)
        case .panelHeight: panel.panelHeight = r.number("panelHeight", .adaptivePanel, SceneLimits.size)
        case .modal: panel.modal = r.bool("modal", .adaptivePanel) ?? false
        case .cornerRadius: cornerRadius = r.number("cornerRadius", [.sheet, .adaptivePanel], 0...10_000)
        case .toolbar: sheet.toolbar = r.toolbar("toolbar", .sheet)
        case .contentScrollable: sheet.contentScrollable = r.bool("contentScrollable", .sheet) ?? false
        case .edgeAttachedInCompactHeight:
            sheet.edgeAttachedInCompactHeight = r.bool("edgeAttachedInCompactHeight", .sheet) ?? false
        case .widthFollowsContentSize:
            sheet.widthFollowsContentSize = r.bool("widthFollowsContentSize", .sheet) ?? false
        }
    }
}

/// The value readers of one decoding path, one per type of value. Each gets the member's name and kinds (which the
/// one-pass reader, having matched the key already, ignores) and returns nil for an absent, `null` or refused value.
protocol PresentationMemberReading {
    mutating func string(
        _ name: StaticString, _ kinds: PresentationKinds, _ length: ClosedRange<Int>, required: Bool
    ) -> String?
    mutating func enumeration<E: JSONStringEnumeration>(
        _ name: StaticString, _ kinds: PresentationKinds, required: Bool
    ) -> E?
    mutating func bool(_ name: StaticString, _ kinds: PresentationKinds) -> Bool?
    mutating func number(_ name: StaticString, _ kinds: PresentationKinds, _ range: ClosedRange<Double>) -> Double?
    /// `{"width", "height"}`, both required, 0…100,000.
    mutating func size(_ name: StaticString, _ kinds: PresentationKinds) -> Size?
    /// `x` and `y` required, `width` and `height` 0 when absent; the member is required.
    mutating func anchor(_ name: StaticString, _ kinds: PresentationKinds) -> Rect?
    mutating func intent(_ name: StaticString, _ kinds: PresentationKinds) -> Intent?
    /// The index of an earlier presentation named by its id (not `id`, the presentation's own).
    mutating func presenter(_ name: StaticString, _ kinds: PresentationKinds, of id: String?) -> Int?
    /// 1…`maxDetents` detents; a fitted one needs `contentSize`.
    mutating func detents(_ name: StaticString, _ kinds: PresentationKinds, contentSize: Size?) -> [Detent]?
    /// One of `detents`.
    mutating func selectedDetent(_ name: StaticString, _ kinds: PresentationKinds, among detents: [Detent]) -> Detent?
    mutating func backgroundInteraction(
        _ name: StaticString, _ kinds: PresentationKinds, contentSize: Size?
    ) -> BackgroundInteraction?
    /// Up to `maxToolbarItems` items.
    mutating func toolbar(_ name: StaticString, _ kinds: PresentationKinds) -> [ToolbarItem]?
}

/// What `PresentationDraft.read` declares, gathered once by running it with `Declarations`: each member's name
/// and kinds, the members of each kind as bits (`1 << rawValue`), and the one-pass reader's key look-up.
enum PresentationMemberTable {
    /// Each member's name and kinds, in `PresentationMember` order.
    static let declared: [(name: StaticString, kinds: PresentationKinds, required: Bool)] =
        PresentationMember.allCases.map { m in
            var d = Declarations()
            var draft = PresentationDraft()
            draft.read(m, &d)
            precondition(d.calls == 1, "member \(m) reads \(d.calls) values")
            return (d.name, d.kinds, d.required)
        }
    /// The member a key names: `ordinal(of:)` gives its `rawValue`.
    static let keys = JSONNames(names: declared.map { $0.name.description })
    /// The members read whatever the kind (`withoutKind`).
    static let always = members { $0.contains(.withoutKind) }
    static let sheet = members { $0.contains(.sheet) }
    static let fullScreenCover = members { $0.contains(.fullScreenCover) }
    static let popover = members { $0.contains(.popover) }
    static let adaptivePanel = members { $0.contains(.adaptivePanel) }
    /// The members that must be there on the kinds that have them.
    static let required: UInt32 = declared.indices.reduce(0) { declared[$1].required ? $0 | 1 << UInt32($1) : $0 }

    private static func members(where included: (PresentationKinds) -> Bool) -> UInt32 {
        declared.indices.reduce(0) { included(declared[$1].kinds) ? $0 | 1 << UInt32($1) : $0 }
    }

    /// The members a presentation of `kind` may have.
    @inline(__always)
    static func members(of kind: Presentation.Kind) -> UInt32 {
        switch kind {
        case .sheet: sheet
        case .fullScreenCover: fullScreenCover
        case .popover: popover
        case .adaptivePanel: adaptivePanel
        }
    }

    @inline(__always)
    static func member(_ key: UnsafeBufferPointer<UInt8>) -> PresentationMember? {
        guard let k = keys.ordinal(of: key) else { return nil }
        return PresentationMember(position: k)
    }

    static func name(_ m: PresentationMember) -> StaticString { declared[Int(m.rawValue)].name }
}

extension PresentationDraft {
    /// Reads the members of `members` (bits, `PresentationMemberTable`) in their order.
    mutating func read<R: PresentationMemberReading>(members: UInt32, _ r: inout R) {
        var bits = members
        while bits != 0 {
            read(PresentationMember(position: bits.trailingZeroBitCount), &r)
            bits &= bits &- 1
        }
    }
}

/// The value reader that reads nothing: it notes the name and kinds each member declares.
private struct Declarations: PresentationMemberReading {
    var name: StaticString = ""
    var kinds: PresentationKinds = []
    var required = false
    var calls = 0

    mutating func note(_ name: StaticString, _ kinds: PresentationKinds, required: Bool = false) {
        self.name = name
        self.kinds = kinds
        self.required = required
        calls += 1
    }

    mutating func string(_ n: StaticString, _ k: PresentationKinds, _: ClosedRange<Int>, required: Bool) -> String? {
        note(n, k, required: required)
        return nil
    }
    mutating func enumeration<E: JSONStringEnumeration>(_ n: StaticString, _ k: PresentationKinds, required: Bool)
        -> E?
    {
        note(n, k, required: required)
        return nil
    }
    mutating func bool(_ n: StaticString, _ k: PresentationKinds) -> Bool? {
        note(n, k)
        return nil
    }
    mutating func number(_ n: StaticString, _ k: PresentationKinds, _: ClosedRange<Double>) -> Double? {
        note(n, k)
        return nil
    }
    mutating func size(_ n: StaticString, _ k: PresentationKinds) -> Size? {
        note(n, k)
        return nil
    }
    mutating func anchor(_ n: StaticString, _ k: PresentationKinds) -> Rect? {
        note(n, k, required: true)
        return nil
    }
    mutating func intent(_ n: StaticString, _ k: PresentationKinds) -> Intent? {
        note(n, k)
        return nil
    }
    mutating func presenter(_ n: StaticString, _ k: PresentationKinds, of id: String?) -> Int? {
        note(n, k)
        return nil
    }
    mutating func detents(_ n: StaticString, _ k: PresentationKinds, contentSize: Size?) -> [Detent]? {
        note(n, k)
        return nil
    }
    mutating func selectedDetent(_ n: StaticString, _ k: PresentationKinds, among: [Detent]) -> Detent? {
        note(n, k)
        return nil
    }
    mutating func backgroundInteraction(_ n: StaticString, _ k: PresentationKinds, contentSize: Size?)
        -> BackgroundInteraction?
    {
        note(n, k)
        return nil
    }
    mutating func toolbar(_ n: StaticString, _ k: PresentationKinds) -> [ToolbarItem]? {
        note(n, k)
        return nil
    }
}
