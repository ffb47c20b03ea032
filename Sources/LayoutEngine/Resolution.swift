import JSON

public enum PlacementStatus: String, Sendable, CaseIterable { case presented, ignored }

/// Placement styles (docs/rules.md#response-shape).
public enum PresentationStyle: String, Sendable, CaseIterable {
    case bottomSheet, regionSheet, card, fullWindow, popover, sidePanel, bottomPanel
}

/// `placement.resolved` (docs/rules.md#response-shape).
public enum ResolvedSheetPlacement: String, Sendable, CaseIterable { case center, leading, trailing, fullWidth }

public enum Edge: String, Sendable, CaseIterable { case top, bottom, leading, trailing }

public struct PlacementChoice: Sendable, Equatable {
    public var requested: SheetPlacement
    public var resolved: ResolvedSheetPlacement
}

/// Semantic corner radii (leading/trailing follow the layout direction).
public struct CornerRadii: Sendable, Equatable {
    public var topLeading = 0.0, topTrailing = 0.0, bottomLeading = 0.0, bottomTrailing = 0.0
    public init(topLeading: Double = 0, topTrailing: Double = 0, bottomLeading: Double = 0, bottomTrailing: Double = 0)
    {
        self.topLeading = topLeading
        self.topTrailing = topTrailing
        self.bottomLeading = bottomLeading
        self.bottomTrailing = bottomTrailing
    }
    static func top(_ r: Double) -> CornerRadii { CornerRadii(topLeading: r, topTrailing: r) }
    static func all(_ r: Double) -> CornerRadii {
        CornerRadii(topLeading: r, topTrailing: r, bottomLeading: r, bottomTrailing: r)
    }
}

/// One entry of `placements`. Every member is always written; a member that does not apply to the placement's
/// kind, style or status is `null` (docs/rules.md#response-shape).
public struct Placement: Sendable, Equatable {
    public var id: String
    public var kind: Presentation.Kind
    public var status: PlacementStatus
    public var style: PresentationStyle?
    public var frame: Rect?
    public var region: RegionSide?
    public var placement: PlacementChoice?
    public var detents: [ResolvedDetent]?
    public var selectedDetent: Detent?
    public var dimsBackground: Bool?
    public var backgroundInteractive: Bool?
    public var swipeToDismiss: Bool?
    public var tapOutsideToDismiss: Bool?
    public var dragIndicatorVisible: Bool?
    public var toolbarOrientation: Axis?
    public var cornerRadii: CornerRadii?
    public var transitionEdge: Edge?
    public var contentAxis: Axis?
    public var arrowEdge: ArrowEdge?
    public var adaptedFrom: Presentation.Kind?

    public init(id: String, kind: Presentation.Kind, status: PlacementStatus) {
        self.id = id
        self.kind = kind
        self.status = status
    }
}

/// `ArrangementView`'s style. A request may say `automatic`, SwiftUI's default, which resolves as `split`
/// (docs/rules.md#arrangement); an answer says `split` or `overlay`.
public enum ArrangementStyle: String, Sendable, CaseIterable { case automatic, split, overlay }

public struct ArrangedView: Sendable, Equatable {
    /// nil when the view is hidden.
    public var frame: Rect?
    public var visible: Bool
    /// nil when the view is hidden.
    public var zIndex: Double?
    public var region: RegionSide?
}

/// `arrangement` of the response (docs/rules.md#arrangement).
public struct ResolvedArrangement: Sendable, Equatable {
    public var style: ArrangementStyle
    /// SwiftUI `splitArrangementAxis`: nil outside a split (and when the secondary is hidden).
    public var axis: Axis?
    public var separated: Bool
    public var primary: ArrangedView
    public var secondary: ArrangedView
}

/// The engine's answer to a scene (docs/rules.md#response).
public struct Resolution: Sendable, Equatable {
    public static let engineVersion = "1.0.0"

    public var environment: ResolvedEnvironment
    public var arrangement: ResolvedArrangement?
    public var placements: [Placement]
    public var diagnostics: [Diagnostic]
    /// The constant set the scene was resolved with, as `name@n` or `default`, when the scene named one
    /// (docs/rules.md#constant-sets); nil otherwise, and the response then has no `constantSet`.
    public var constantSet: String?

    /// The distinct diagnostic codes, in order of first appearance (for the request log).
    public var codes: [String] {
        var seen: [String] = []
        for d in diagnostics where !seen.contains(d.code.rawValue) { seen.append(d.code.rawValue) }
        return seen
    }
}

// MARK: - JSON (docs/rules.md#response-shape)

extension Rect {
    public var json: JSONValue {
        .object(["height": .number(height), "width": .number(width), "x": .number(x), "y": .number(y)])
    }
}

extension Optional {
    @inline(__always)
    fileprivate func json(_ f: (Wrapped) -> JSONValue) -> JSONValue {
        switch self {
        case .some(let w): return f(w)
        case .none: return .null
        }
    }
}

extension String { fileprivate var json: JSONValue { .string(self) } }

extension RawRepresentable where RawValue == String { fileprivate var jsonValue: JSONValue { .string(rawValue) } }

extension SizeClassPair {
    fileprivate var sortedJSON: JSONValue {
        .object(["horizontal": .string(horizontal.rawValue), "vertical": .string(vertical.rawValue)])
    }
}

extension ResolvedEnvironment {
    public var json: JSONValue {
        .object([
            "device": device.json(\.json),
            "display": display.json(\.json),
            "dynamicTypeSize": dynamicTypeSize.jsonValue,
            "fold": fold.json { f in
                .object([
                    "bounds": f.bounds.json, "orientation": f.orientation.jsonValue, "separating": .bool(f.separating),
                    "state": f.state.jsonValue,
                ])
            },
            "layoutDirection": layoutDirection.jsonValue,
            "orientation": orientation.jsonValue,
            "posture": posture.jsonValue,
            "regions": .array(
                regions.map { r in
                    .object([
                        "frame": r.frame.json, "side": r.side.json(\.jsonValue), "sizeClass": r.sizeClass.sortedJSON,
                    ])
                }),
            "safeArea": .object([
                "bottom": .number(safeArea.bottom), "leading": .number(safeArea.leading), "top": .number(safeArea.top),
                "trailing": .number(safeArea.trailing),
            ]),
            "sizeClass": sizeClass.sortedJSON,
            "window": window.json,
            "windowClass": .object(["height": windowClass.height.jsonValue, "width": windowClass.width.jsonValue]),
        ])
    }
}

extension CornerRadii {
    public var json: JSONValue {
        .object([
            "bottomLeading": .number(bottomLeading), "bottomTrailing": .number(bottomTrailing),
            "topLeading": .number(topLeading), "topTrailing": .number(topTrailing),
        ])
    }
}

extension Placement {
    public var json: JSONValue {
        .object([
            "adaptedFrom": adaptedFrom.json(\.jsonValue),
            "arrowEdge": arrowEdge.json(\.jsonValue),
            "backgroundInteractive": backgroundInteractive.json { .bool($0) },
            "contentAxis": contentAxis.json(\.jsonValue),
            "cornerRadii": cornerRadii.json(\.json),
            "detents": detents.json { ds in
                .array(ds.map { .object(["detent": $0.detent.json, "height": .number($0.height)]) })
            },
            "dimsBackground": dimsBackground.json { .bool($0) },
            "dragIndicatorVisible": dragIndicatorVisible.json { .bool($0) },
            "frame": frame.json(\.json),
            "id": .string(id),
            "kind": kind.jsonValue,
            "placement": placement.json { p in
                .object(["requested": p.requested.jsonValue, "resolved": p.resolved.jsonValue])
            },
            "region": region.json(\.jsonValue),
            "selectedDetent": selectedDetent.json(\.json),
            "status": status.jsonValue,
            "style": style.json(\.jsonValue),
            "swipeToDismiss": swipeToDismiss.json { .bool($0) },
            "tapOutsideToDismiss": tapOutsideToDismiss.json { .bool($0) },
            "toolbarOrientation": toolbarOrientation.json(\.jsonValue),
            "transitionEdge": transitionEdge.json(\.jsonValue),
        ])
    }
}

extension ArrangedView {
    public var json: JSONValue {
        .object([
            "frame": frame.json(\.json), "region": region.json(\.jsonValue), "visible": .bool(visible),
            "zIndex": zIndex.json { .number($0) },
        ])
    }
}

extension ResolvedArrangement {
    public var json: JSONValue {
        .object([
            "axis": axis.json(\.jsonValue), "primary": primary.json, "secondary": secondary.json,
            "separated": .bool(separated), "style": style.jsonValue,
        ])
    }
}

extension Diagnostic {
    public var json: JSONValue {
        .object([
            "code": .string(code.rawValue), "message": .string(message), "path": .string(path),
            "presentation": presentation.json(\.json), "severity": .string(severity.rawValue),
        ])
    }
}

extension Resolution {
    /// The response body (docs/rules.md#response). Members are built in sorted order, so the tree already has the order
    /// the deterministic writer emits.
    public var json: JSONValue {
        var o: JSONObject = [
            "arrangement": arrangement.json(\.json),
            "diagnostics": .array(diagnostics.map(\.json)),
            "engineVersion": .string(Resolution.engineVersion),
            "environment": environment.json,
            "placements": .array(placements.map(\.json)),
        ]
        if let constantSet { o.members.insert(JSONMember("constantSet", .string(constantSet)), at: 1) }
        return .object(o)
    }
}
