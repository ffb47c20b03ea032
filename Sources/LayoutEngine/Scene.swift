import JSON

// The scene a request describes: environment, presentations, arrangement. Decoding and validation are in
// SceneDecoding.swift.

public enum Orientation: String, Sendable, CaseIterable { case portrait, landscape }
public enum Posture: String, Sendable, CaseIterable { case flat, halfOpened, closed }
public enum LayoutDirection: String, Sendable, CaseIterable { case ltr, rtl }

/// `dynamicTypeSize`, in increasing order (docs/rules.md#dynamic-type-size).
public enum DynamicTypeSize: String, Sendable, CaseIterable, Comparable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5
    /// By position in the declaration (`WireNamed.ordinal`).
    public static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool { a.ordinal < b.ordinal }
    public var isAccessibility: Bool { self >= .accessibility1 }
}

/// A window request (docs/rules.md#window): size and origin on the display.
public struct WindowRequest: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double = 0, y: Double = 0, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A decoded, validated request (docs/rules.md, docs/api.md#resolve). Decode it with `Scene.decode(_:catalog:)`; every
/// `Scene` that decoding returns resolves without trapping.
public struct Scene: Sendable, Equatable {
    public var deviceID: String?
    /// The profile `deviceID` names, looked up in the catalog at decode time.
    public var profile: DeviceProfile?
    /// The display asked for (`display`), nil for the default of docs/rules.md#display-choice.
    public var displayID: String?
    public var orientation: Orientation = .portrait
    public var posture: Posture = .flat
    public var window: WindowRequest?
    /// Semantic insets as requested (leading/trailing follow `layoutDirection`).
    public var safeArea: Insets?
    public var layoutDirection: LayoutDirection = .ltr
    public var dynamicTypeSize: DynamicTypeSize = .large
    public var sizeClass: SizeClassPair?
    /// A fold given directly in window coordinates (only without a device, docs/rules.md#fold).
    public var fold: Fold?
    public var presentations: [Presentation] = []
    public var arrangement: ArrangementRequest? {
        get { arrangementBox?.request }
        set { arrangementBox = newValue.map(ArrangementBox.init) }
    }
    /// `arrangement`, behind a reference: the request takes 315 bytes (a scene with it inline took 688, with the
    /// profile's fields inline too) and is read once per resolve, while the scene is moved several times between
    /// decoding and the engine. The scene reader puts its request in directly and the engine reads it where it is
    /// (`arrangement` copies it out and in).
    var arrangementBox: ArrangementBox?
    public var constants = Constants()
    /// The constants the request's `constants` object gave, one bit per index of `Constants.definitions`: they
    /// stay when a constant set's values are put under them (`useConstants`).
    public var overriddenConstants: UInt32 = 0
    /// The request's `constantSet` (docs/rules.md#constant-sets); nil when it names none.
    public var constantSet: ConstantSetReference?
    /// Members no rule reads, in document order: each becomes an `unknown-field` warning
    /// (docs/rules.md#unknown-fields).
    public var unknownFields = JSONUnknownFields()

    public init() {}
}

/// An arrangement request kept by reference in a `Scene` (immutable: changing the scene's arrangement puts a
/// new one in).
final class ArrangementBox: Sendable, Equatable {
    let request: ArrangementRequest
    init(_ request: ArrangementRequest) { self.request = request }
    static func == (a: ArrangementBox, b: ArrangementBox) -> Bool { a === b || a.request == b.request }
}

public struct Presentation: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case sheet, fullScreenCover, popover, adaptivePanel }

    /// The kind's fields. The payloads are boxed (`indirect`): a presentation stays a few words long, so copying
    /// one is a few reference-count operations, not a copy of every field of every kind.
    public enum Content: Sendable, Equatable {
        indirect case sheet(SheetRequest)
        case fullScreenCover
        indirect case popover(PopoverRequest)
        indirect case adaptivePanel(PanelRequest)
    }

    public var id: String
    public var content: Content
    /// Index of the earlier presentation named by `presentedFrom` (docs/rules.md#modal-stack).
    public var presentedFrom: Int?
    public var intent: Intent?
    /// `placement` as written on a non-sheet, kept only to warn `placement-ignored` (docs/rules.md#stray-placement).
    public var strayPlacement: SheetPlacement?

    public var kind: Kind {
        switch content {
        case .sheet: return .sheet
        case .fullScreenCover: return .fullScreenCover
        case .popover: return .popover
        case .adaptivePanel: return .adaptivePanel
        }
    }

    public init(id: String, content: Content, presentedFrom: Int? = nil, intent: Intent? = nil) {
        self.id = id
        self.content = content
        self.presentedFrom = presentedFrom
        self.intent = intent
    }
}

/// docs/rules.md#present-or-navigate.
public struct Intent: Sendable, Equatable {
    public var hasDecision: Bool?
    public var abandonableWithoutCost: Bool?
    public init(hasDecision: Bool? = nil, abandonableWithoutCost: Bool? = nil) {
        self.hasDecision = hasDecision
        self.abandonableWithoutCost = abandonableWithoutCost
    }
}

public enum SheetPlacement: String, Sendable, CaseIterable { case automatic, center, leading, trailing }
public enum SheetSizing: String, Sendable, CaseIterable { case automatic, form, page, fitted }
public enum DragIndicator: String, Sendable, CaseIterable { case automatic, visible, hidden }
public enum ToolbarPlacement: String, Sendable, CaseIterable {
    case cancellationAction, confirmationAction, primaryAction, automatic
}

public enum BackgroundInteraction: Sendable, Equatable {
    case disabled, enabled
    case upThrough(Detent)
}

public struct ToolbarItem: Sendable, Equatable {
    public var title: String?
    public var systemImage: String?
    public var placement: ToolbarPlacement
    public init(title: String? = nil, systemImage: String? = nil, placement: ToolbarPlacement = .automatic) {
        self.title = title
        self.systemImage = systemImage
        self.placement = placement
    }
}

/// The fields of a sheet (docs/rules.md#sheet-fields).
public struct SheetRequest: Sendable, Equatable {
    public var placement: SheetPlacement = .automatic
    public var sizing: SheetSizing = .automatic
    public var detents: [Detent] = [.large]
    public var selectedDetent: Detent?
    public var contentSize: Size?
    public var backgroundInteraction: BackgroundInteraction = .disabled
    public var interactiveDismissDisabled = false
    public var hasUnsavedChanges = false
    public var dragIndicator: DragIndicator = .automatic
    public var cornerRadius: Double?
    public var toolbar: [ToolbarItem]?
    public var contentScrollable = false
    public var edgeAttachedInCompactHeight = false
    public var widthFollowsContentSize = false
    /// The axes on which a card's form or page size follows `contentSize` (`.page.fitted(horizontal:vertical:)`;
    /// docs/rules.md#sheet-fitted-axes); empty: none.
    public var fittedAxes: [Axis] = []
    public init() {}
}

public enum ArrowEdge: String, Sendable, CaseIterable { case top, bottom, leading, trailing }
public enum CompactAdaptation: String, Sendable, CaseIterable { case automatic, sheet, fullScreenCover, popover }

/// The fields of a popover (docs/rules.md#popover).
public struct PopoverRequest: Sendable, Equatable {
    public var anchor: Rect
    public var arrowEdge: ArrowEdge = .top
    public var contentSize: Size?
    public var compactAdaptation: CompactAdaptation = .automatic
    public init(anchor: Rect) { self.anchor = anchor }
}

public enum PanelAlignment: String, Sendable, CaseIterable { case leading, trailing }

/// The fields of an adaptive panel (docs/rules.md#adaptive-panel); nil means the constant.
public struct PanelRequest: Sendable, Equatable {
    public var breakpoint: Double?
    public var alignment: PanelAlignment = .trailing
    public var panelWidth: Double?
    public var panelHeight: Double?
    public var modal = false
    public var cornerRadius: Double?
    public init() {}
}
