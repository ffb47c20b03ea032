import JSON
import LayoutEngine

/// What the picture needs from a response body, read leniently: a member it does not find, or whose
/// value it does not know, is simply not drawn. Names the engine writes (`"vertical"`, `"leading"`,
/// `"adaptivePanel"` …) are parsed once into LayoutEngine's own enums.
struct WireframeModel {
    struct FoldBand {
        var orientation: Axis
        var bounds: Rect
        var state: String
        var separating: Bool
    }
    struct RegionBox {
        var frame: Rect
        var side: RegionSide?
        var sizeClass: String?
    }
    struct View {
        var frame: Rect?
        var visible: Bool
        var zIndex: Double?
    }
    struct Arrangement {
        var style: ArrangementStyle
        var axis: Axis?
        var separated: Bool
        var primary: View
        var secondary: View
    }
    struct Radii {
        var topLeading = 0.0, topTrailing = 0.0, bottomLeading = 0.0, bottomTrailing = 0.0
    }
    struct DetentLine {
        var name: String
        var height: Double
    }
    /// One entry of the scene's `toolbar` (the response does not repeat it).
    struct ToolItem {
        var title: String?
        var systemImage: String?
        var placement: ToolbarPlacement
        var text: String { title ?? systemImage ?? "item" }
    }
    struct Item {
        var index: Int
        var id: String
        /// The kind's name as written (an unknown kind still shows).
        var kindName: String
        var kind: Presentation.Kind?
        var presented: Bool
        /// The style's name as written, and the style when the reader knows it.
        var styleName: String?
        var style: PresentationStyle?
        var frame: Rect?
        var region: String?
        var placementResolved: String?
        var detents: [DetentLine]
        var selectedDetent: String?
        var dimsBackground: Bool
        var tapOutsideToDismiss: Bool
        var swipeToDismiss: Bool?
        var backgroundInteractive: Bool?
        var dragIndicatorVisible: Bool
        var toolbarOrientation: Axis?
        var toolbar: [ToolItem]
        var radii: Radii
        var transitionEdge: String?
        var arrowEdge: ArrowEdge?
        var adaptedFrom: String?
    }
    struct Note {
        var code: String
        var warning: Bool
        var presentation: String?
        var message: String
    }

    var device: String?
    var display: String?
    var orientation: String?
    var posture: String?
    var rtl: Bool
    var dynamicTypeSize: String?
    var window: Rect
    /// Physical insets in window coordinates.
    var safeTop = 0.0, safeLeft = 0.0, safeBottom = 0.0, safeRight = 0.0
    var sizeClass: String?
    var windowClass: String?
    var fold: FoldBand?
    var regions: [RegionBox]
    var arrangement: Arrangement?
    var items: [Item]
    var notes: [Note]

    /// nil without an `environment.window` of positive finite size. `scene` (the request body) supplies
    /// what the response does not repeat: the toolbar items of each presentation, matched by id.
    init?(json: JSONValue, scene: JSONValue?) {
        guard let env = json["environment"], let window = Self.rect(env["window"]), window.width > 0,
            window.height > 0
        else { return nil }
        self.window = window
        device = Self.name(env["device"])
        display = Self.name(env["display"])
        orientation = env["orientation"]?.stringValue
        posture = env["posture"]?.stringValue
        rtl = env["layoutDirection"]?.stringValue.flatMap(LayoutDirection.init(rawValue:)) == .rtl
        dynamicTypeSize = env["dynamicTypeSize"]?.stringValue
        if let s = env["safeArea"] {
            let leading = Self.number(s["leading"])
            let trailing = Self.number(s["trailing"])
            safeTop = Self.number(s["top"])
            safeBottom = Self.number(s["bottom"])
            (safeLeft, safeRight) = rtl ? (trailing, leading) : (leading, trailing)
        }
        sizeClass = Self.pair(env["sizeClass"], "horizontal", "vertical")
        windowClass = Self.pair(env["windowClass"], "width", "height")
        fold = Self.foldBand(env["fold"])
        regions = (env["regions"]?.arrayValue ?? []).compactMap { r in
            guard let frame = Self.rect(r["frame"]) else { return nil }
            return RegionBox(
                frame: frame, side: r["side"]?.stringValue.flatMap(RegionSide.init(rawValue:)),
                sizeClass: Self.pair(r["sizeClass"], "horizontal", "vertical"))
        }
        arrangement = Self.arrangement(json["arrangement"])
        let toolbars = Self.toolbars(scene)
        items = (json["placements"]?.arrayValue ?? []).enumerated().map { i, p in
            Self.item(p, index: i, toolbars: toolbars)
        }
        notes = (json["diagnostics"]?.arrayValue ?? []).map { d in
            Note(
                code: Self.name(d["code"]) ?? "?", warning: d["severity"]?.stringValue == "warning",
                presentation: Self.name(d["presentation"]),
                message: SVGText.bounded(d["message"]?.stringValue ?? "", limit: SVGText.maxMessageCharacters))
        }
    }

    static func foldBand(_ f: JSONValue?) -> FoldBand? {
        guard let f, let bounds = rect(f["bounds"]) else { return nil }
        return FoldBand(
            orientation: f["orientation"]?.stringValue.flatMap(Axis.init(rawValue:)) ?? .vertical, bounds: bounds,
            state: f["state"]?.stringValue ?? "flat", separating: f["separating"]?.boolValue ?? false)
    }

    static func arrangement(_ a: JSONValue?) -> Arrangement? {
        guard let a, let style = a["style"]?.stringValue.flatMap(ArrangementStyle.init(rawValue:)) else { return nil }
        return Arrangement(
            style: style, axis: a["axis"]?.stringValue.flatMap(Axis.init(rawValue:)),
            separated: a["separated"]?.boolValue ?? false, primary: view(a["primary"]), secondary: view(a["secondary"]))
    }

    static func item(_ p: JSONValue, index i: Int, toolbars: [String: [ToolItem]]) -> Item {
        var radii = Radii()
        if let r = p["cornerRadii"] {
            radii = Radii(
                topLeading: number(r["topLeading"]), topTrailing: number(r["topTrailing"]),
                bottomLeading: number(r["bottomLeading"]), bottomTrailing: number(r["bottomTrailing"]))
        }
        let id = name(p["id"]) ?? "#\(i)"
        let kindName = name(p["kind"]) ?? "?"
        return Item(
            index: i, id: id, kindName: kindName, kind: Presentation.Kind(rawValue: kindName),
            presented: p["status"]?.stringValue.flatMap(PlacementStatus.init(rawValue:)) == .presented,
            styleName: name(p["style"]),
            style: p["style"]?.stringValue.flatMap(PresentationStyle.init(rawValue:)),
            frame: rect(p["frame"]), region: name(p["region"]),
            placementResolved: p["placement"]?["resolved"]?.stringValue,
            detents: (p["detents"]?.arrayValue ?? []).compactMap { d in
                guard let name = d["detent"].map(detentName), let h = d["height"]?.doubleValue, h.isFinite
                else { return nil }
                return DetentLine(name: name, height: h)
            },
            selectedDetent: p["selectedDetent"].flatMap { $0 == .null ? nil : detentName($0) },
            dimsBackground: p["dimsBackground"]?.boolValue ?? false,
            tapOutsideToDismiss: p["tapOutsideToDismiss"]?.boolValue ?? false,
            swipeToDismiss: p["swipeToDismiss"]?.boolValue,
            backgroundInteractive: p["backgroundInteractive"]?.boolValue,
            dragIndicatorVisible: p["dragIndicatorVisible"]?.boolValue ?? false,
            toolbarOrientation: p["toolbarOrientation"]?.stringValue.flatMap(Axis.init(rawValue:)),
            toolbar: toolbars[id] ?? [], radii: radii, transitionEdge: name(p["transitionEdge"]),
            arrowEdge: p["arrowEdge"]?.stringValue.flatMap(ArrowEdge.init(rawValue:)),
            adaptedFrom: name(p["adaptedFrom"]))
    }

    /// id → toolbar items of the scene's presentations (the first presentation of an id wins; at most
    /// `SceneLimits.maxToolbarItems` items each, as the engine accepts).
    static func toolbars(_ scene: JSONValue?) -> [String: [ToolItem]] {
        var result: [String: [ToolItem]] = [:]
        for p in scene?["presentations"]?.arrayValue ?? [] {
            guard let id = name(p["id"]), result[id] == nil, let items = p["toolbar"]?.arrayValue else {
                continue
            }
            result[id] = items.prefix(SceneLimits.maxToolbarItems).map { t in
                ToolItem(
                    title: name(t["title"]), systemImage: name(t["systemImage"]),
                    placement: t["placement"]?.stringValue.flatMap(ToolbarPlacement.init(rawValue:)) ?? .automatic)
            }
        }
        return result
    }

    /// A string drawn as a name: at most `SVGText.maxNameCharacters` characters (docs/svg.md#text-bounds).
    static func name(_ v: JSONValue?) -> String? {
        v?.stringValue.map { SVGText.bounded($0, limit: SVGText.maxNameCharacters) }
    }

    static func number(_ v: JSONValue?) -> Double {
        guard let d = v?.doubleValue, d.isFinite else { return 0 }
        return d
    }

    static func rect(_ v: JSONValue?) -> Rect? {
        guard let v, let x = v["x"]?.doubleValue, let y = v["y"]?.doubleValue, let w = v["width"]?.doubleValue,
            let h = v["height"]?.doubleValue, x.isFinite, y.isFinite, w.isFinite, h.isFinite, w >= 0, h >= 0
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    static func pair(_ v: JSONValue?, _ a: String, _ b: String) -> String? {
        guard let x = v?[a]?.stringValue, let y = v?[b]?.stringValue else { return nil }
        return "\(x)/\(y)"
    }

    static func view(_ v: JSONValue?) -> View {
        View(frame: rect(v?["frame"]), visible: v?["visible"]?.boolValue ?? false, zIndex: v?["zIndex"]?.doubleValue)
    }

    /// `"medium"` → medium, `{"height": 300}` → "300pt", `{"fraction": 0.3}` → "0.3×".
    static func detentName(_ v: JSONValue) -> String {
        if let s = v.stringValue { return s }
        if let h = v["height"]?.doubleValue { return "\(SVGNumber.format(h))pt" }
        if let f = v["fraction"]?.doubleValue { return "\(SVGNumber.format(f))×" }
        return "?"
    }

    /// Whether anything in the picture uses each key entry.
    var hasSafeArea: Bool { safeTop + safeLeft + safeBottom + safeRight > 0 }
    var drawnItems: [Item] { items.filter { $0.presented && $0.frame != nil } }
}
