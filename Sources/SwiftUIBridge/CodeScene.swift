import LayoutEngine
import SwiftCodeModel

/// The part of a scene that SwiftUI code says (docs/swiftui.md#read): the presentations and the arrangement. What
/// only layout knows — the device and window, where a popover's presenting view lies, the measured size of content —
/// is supplied by the caller when the scene is written out (`json(context:)`, `SceneContext`).
///
/// A member is nil when the code does not write it, so the engine's default applies; the reader never guesses one.
public struct CodeScene: Sendable, Equatable {
    public var presentations: [CodePresentation]
    public var arrangement: CodeArrangement?

    public init(presentations: [CodePresentation] = [], arrangement: CodeArrangement? = nil) {
        self.presentations = presentations
        self.arrangement = arrangement
    }
}

/// Where a popover attaches to its presenting view: `attachmentAnchor`.
public enum AttachmentAnchor: Sendable, Equatable {
    /// `.rect(.bounds)`: the presenting view's frame (SwiftUI's default).
    case bounds
    /// `.point(UnitPoint)`: a point of the presenting view's frame, in fractions of its size.
    case point(x: Double, y: Double)
    /// `.rect(.rect(CGRect(…)))`: a rectangle in the presenting view's coordinates.
    case rect(Rect)
}

/// One presentation as the code writes it. The members are those of docs/api.md's presentation, by the same names.
public struct CodePresentation: Sendable, Equatable {
    public var id: String
    public var kind: Presentation.Kind
    /// The id of the presentation whose content presents this one.
    public var presentedFrom: String?

    // A sheet's members (docs/rules.md#sheet-fields); `placement` is kept on any kind, as the API takes it.
    public var placement: SheetPlacement?
    public var sizing: SheetSizing?
    /// `.presentationSizing(.page.fitted(horizontal: true, vertical: false))`: the axes on which the size follows
    /// the content, beside `sizing` (docs/rules.md#sheet-fitted-axes).
    public var fittedAxes: [Axis]?
    public var detents: [Detent]?
    public var selectedDetent: Detent?
    public var backgroundInteraction: BackgroundInteraction?
    public var interactiveDismissDisabled: Bool?
    public var dragIndicator: DragIndicator?
    /// A sheet's or a panel's `cornerRadius`.
    public var cornerRadius: Double?
    public var toolbar: [ToolbarItem]?
    public var contentScrollable: Bool?

    // A popover's.
    public var attachmentAnchor: AttachmentAnchor?
    public var arrowEdge: ArrowEdge?
    public var compactAdaptation: CompactAdaptation?

    // An adaptive panel's (docs/rules.md#adaptive-panel).
    public var breakpoint: Double?
    public var alignment: PanelAlignment?
    public var panelWidth: Double?
    public var panelHeight: Double?
    public var modal: Bool?

    public init(id: String, kind: Presentation.Kind, presentedFrom: String? = nil) {
        self.id = id
        self.kind = kind
        self.presentedFrom = presentedFrom
    }

    /// Whether layout must measure the content: a fitted detent, fitted sizing or a fitted axis. The engine then
    /// needs `contentSize`, which the caller supplies (`SceneContext.contentSize`).
    public var measuresContent: Bool {
        guard kind == .sheet else { return false }
        return sizing == .fitted || !(fittedAxes ?? []).isEmpty || (detents ?? []).contains(.fitted)
            || selectedDetent == .fitted
    }
}

/// `ArrangementView`'s style: `automatic` (SwiftUI's default, which resolves as a split), `split`, `overlay`
/// (docs/rules.md#arrangement).
public enum CodeArrangementStyle: String, Sendable, CaseIterable { case automatic, split, overlay }

/// A split's share preference: a bare number (`splitArrangementLayoutRatio(0.35)`), the ideal on both axes, or
/// per-axis bounds.
public enum CodePreference: Sendable, Equatable {
    case both(Double)
    case axes(AxisPreference)
}

public struct CodeArrangedView: Sendable, Equatable {
    public var ratio: CodePreference?
    public var size: CodePreference?
    /// `splitArrangementFixedLayoutSize(horizontal:vertical:)`.
    public var fixedHorizontal: Bool?
    public var fixedVertical: Bool?
    public var overlayEdge: Edge?
    public init() {}

    var isEmpty: Bool { self == CodeArrangedView() }
    var fixesSize: Bool { fixedHorizontal != nil || fixedVertical != nil }
}

public struct CodeArrangement: Sendable, Equatable {
    /// nil: no `arrangementViewStyle` (the engine's default, a split).
    public var style: CodeArrangementStyle?
    public var axes: [Axis]?
    public var container: ArrangementContainer?
    public var primary = CodeArrangedView()
    public var secondary = CodeArrangedView()
    public init(style: CodeArrangementStyle? = nil) { self.style = style }
}

/// The layout facts a scene needs and code does not say, supplied by the caller (lint's matrix, a request) when the
/// scene is written out (docs/swiftui.md#context).
public struct SceneContext: Sendable, Equatable {
    /// The scene's `device`.
    public var device: String
    /// The frame of a popover's presenting view, in window coordinates: a popover's `anchor` is computed from it
    /// and the code's `attachmentAnchor`.
    public var presenterFrame: Rect
    /// The measured size of content that layout measures (a fitted detent or sizing, a fixed arranged size).
    public var contentSize: Size

    public init(device: String, presenterFrame: Rect, contentSize: Size) {
        self.device = device
        self.presenterFrame = presenterFrame
        self.contentSize = contentSize
    }

    /// What `hinge scenes` prints with: an iPhone 16, a presenting view the size of a toolbar button at the top
    /// leading corner below the status bar, content 320 × 240 points.
    public static let standard = SceneContext(
        device: "iphone-16", presenterFrame: Rect(x: 16, y: 59, width: 44, height: 44),
        contentSize: Size(width: 320, height: 240))
}
