import JSON
import LayoutEngine

/// An SVG wireframe of a resolution (SPEC §9: `POST /v1/resolve` with `Accept: image/svg+xml` or
/// `?format=svg`, `GET /v1/requests/{id}/svg`, `hinge resolve --format svg`).
///
/// **One path, through the response JSON.** `render(_:)` pictures `resolution.json`, the very body the
/// service answers and the request log stores, and `render(resolutionJSON:)` pictures a stored body
/// without resolving it again. So a live answer and its log entry give the same bytes, and a record
/// written by an older engine still renders (the reader is lenient: a member it does not find is simply
/// not drawn). `Resolution` has no public initialiser, so decoding a stored body back into one is not an
/// option outside LayoutEngine anyway.
///
/// The picture: window and safe area (dashed), fold band (hatched) and regions (tinted, labelled),
/// arrangement views, every presented placement as a labelled shape in z-order (a scrim behind each one
/// that dims, detent lines, toolbar bar, popover arrow, corner radii), ignored placements and diagnostics
/// in a legend, an RTL badge, and a title line. The viewBox is in points (the window's frames appear
/// unchanged inside a translated group), the `width`/`height` attributes are pixels with the longer side
/// 800. Deterministic: numbers have at most 2 decimals and are formatted without locale.
public enum SVGRenderer {
    /// The longer side of the picture, in pixels.
    public static let longerSide = 800.0

    /// The picture of a resolution. `title` (e.g. the scene's name) is shown above the environment line.
    public static func render(_ resolution: Resolution, title: String? = nil) -> String {
        // `Resolution.json` always has an environment with a window, so the reader cannot refuse it; the
        // fallback only keeps this function total.
        render(resolutionJSON: resolution.json, title: title) ?? unreadablePicture
    }

    /// The picture of a stored response body (SPEC §5). nil when `resolutionJSON` is not a resolution —
    /// no `environment.window` with a positive finite size (a problem+json body, for instance).
    public static func render(resolutionJSON: JSONValue, title: String? = nil) -> String? {
        guard let model = WireframeModel(json: resolutionJSON) else { return nil }
        var canvas = WireframeCanvas(model: model, title: title)
        return canvas.document()
    }

    static let unreadablePicture =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"80\" viewBox=\"0 0 800 80\">"
        + "<text x=\"20\" y=\"45\" font-family=\"sans-serif\" font-size=\"16\">unreadable resolution</text></svg>\n"
}

// MARK: - Model read from the response JSON

/// What the picture needs from a response body (SPEC §5), read leniently.
struct WireframeModel {
    struct FoldBand {
        var orientation: String
        var bounds: Rect
        var state: String
        var separating: Bool
    }
    struct RegionBox {
        var frame: Rect
        var side: String?
        var sizeClass: String?
    }
    struct View {
        var frame: Rect?
        var visible: Bool
        var zIndex: Double?
    }
    struct Arrangement {
        var style: String
        var axis: String?
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
    struct Item {
        var index: Int
        var id: String
        var kind: String
        var presented: Bool
        var style: String?
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
        var toolbarOrientation: String?
        var radii: Radii
        var transitionEdge: String?
        var arrowEdge: String?
        var adaptedFrom: String?
    }
    struct Note {
        var code: String
        var severity: String
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

    init?(json: JSONValue) {
        guard let env = json["environment"], let window = Self.rect(env["window"]), window.width > 0,
            window.height > 0
        else { return nil }
        self.window = window
        device = env["device"]?.stringValue
        display = env["display"]?.stringValue
        orientation = env["orientation"]?.stringValue
        posture = env["posture"]?.stringValue
        rtl = env["layoutDirection"]?.stringValue == "rtl"
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
        if let f = env["fold"], let bounds = Self.rect(f["bounds"]) {
            fold = FoldBand(
                orientation: f["orientation"]?.stringValue ?? "vertical", bounds: bounds,
                state: f["state"]?.stringValue ?? "flat", separating: f["separating"]?.boolValue ?? false)
        }
        regions = (env["regions"]?.arrayValue ?? []).compactMap { r in
            guard let frame = Self.rect(r["frame"]) else { return nil }
            return RegionBox(
                frame: frame, side: r["side"]?.stringValue,
                sizeClass: Self.pair(r["sizeClass"], "horizontal", "vertical"))
        }
        if let a = json["arrangement"], let style = a["style"]?.stringValue {
            arrangement = Arrangement(
                style: style, axis: a["axis"]?.stringValue, separated: a["separated"]?.boolValue ?? false,
                primary: Self.view(a["primary"]), secondary: Self.view(a["secondary"]))
        }
        items = (json["placements"]?.arrayValue ?? []).enumerated().map { i, p in
            var radii = Radii()
            if let r = p["cornerRadii"] {
                radii = Radii(
                    topLeading: Self.number(r["topLeading"]), topTrailing: Self.number(r["topTrailing"]),
                    bottomLeading: Self.number(r["bottomLeading"]), bottomTrailing: Self.number(r["bottomTrailing"]))
            }
            return Item(
                index: i, id: p["id"]?.stringValue ?? "#\(i)", kind: p["kind"]?.stringValue ?? "?",
                presented: p["status"]?.stringValue == "presented", style: p["style"]?.stringValue,
                frame: Self.rect(p["frame"]), region: p["region"]?.stringValue,
                placementResolved: p["placement"]?["resolved"]?.stringValue,
                detents: (p["detents"]?.arrayValue ?? []).compactMap { d in
                    guard let name = d["detent"].map(Self.detentName), let h = d["height"]?.doubleValue, h.isFinite
                    else { return nil }
                    return DetentLine(name: name, height: h)
                },
                selectedDetent: p["selectedDetent"].flatMap { $0 == .null ? nil : Self.detentName($0) },
                dimsBackground: p["dimsBackground"]?.boolValue ?? false,
                tapOutsideToDismiss: p["tapOutsideToDismiss"]?.boolValue ?? false,
                swipeToDismiss: p["swipeToDismiss"]?.boolValue,
                backgroundInteractive: p["backgroundInteractive"]?.boolValue,
                dragIndicatorVisible: p["dragIndicatorVisible"]?.boolValue ?? false,
                toolbarOrientation: p["toolbarOrientation"]?.stringValue, radii: radii,
                transitionEdge: p["transitionEdge"]?.stringValue, arrowEdge: p["arrowEdge"]?.stringValue,
                adaptedFrom: p["adaptedFrom"]?.stringValue)
        }
        notes = (json["diagnostics"]?.arrayValue ?? []).map { d in
            Note(
                code: d["code"]?.stringValue ?? "?", severity: d["severity"]?.stringValue ?? "info",
                presentation: d["presentation"]?.stringValue, message: d["message"]?.stringValue ?? "")
        }
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

    /// `"medium"` → medium, `{"height": 300}` → "300pt", `{"fraction": 0.3}` → "0.3".
    static func detentName(_ v: JSONValue) -> String {
        if let s = v.stringValue { return s }
        if let h = v["height"]?.doubleValue { return "\(SVGNumber.format(h))pt" }
        if let f = v["fraction"]?.doubleValue { return "\(SVGNumber.format(f))×" }
        return "?"
    }
}

// MARK: - Formatting

/// Locale-free numbers with at most 2 decimals ("12", "12.5", "-0.25"); non-finite and absurd values → 0.
enum SVGNumber {
    static func format(_ d: Double) -> String {
        guard d.isFinite, abs(d) < 1e12 else { return "0" }
        let hundredths = Int((abs(d) * 100).rounded())
        if hundredths == 0 { return "0" }
        let whole = hundredths / 100
        let frac = hundredths % 100
        var s = d < 0 ? "-" : ""
        s += String(whole)
        if frac != 0 {
            s += frac % 10 == 0 ? ".\(frac / 10)" : (frac < 10 ? ".0\(frac)" : ".\(frac)")
        }
        return s
    }
}

/// XML text and attribute escaping. Characters XML 1.0 cannot carry (most C0 controls, U+FFFE/U+FFFF)
/// become U+FFFD so that any id or message gives a well-formed document.
enum SVGText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += " "
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    /// At most `limit` characters, with an ellipsis when cut.
    static func truncate(_ s: String, _ limit: Int) -> String {
        guard s.count > limit, limit > 1 else { return s }
        return String(s.prefix(limit - 1)) + "…"
    }

    /// Greedy word wrap to lines of at most `width` characters (long words are cut).
    static func wrap(_ s: String, width: Int) -> [String] {
        let width = max(width, 8)
        var lines: [String] = []
        var line = ""
        for word in s.split(separator: " ", omittingEmptySubsequences: true) {
            var w = Substring(word)
            while w.count > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                lines.append(String(w.prefix(width)))
                w = w.dropFirst(width)
            }
            if line.isEmpty {
                line = String(w)
            } else if line.count + 1 + w.count <= width {
                line += " " + w
            } else {
                lines.append(line)
                line = String(w)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

// MARK: - Drawing

/// Lays out and writes one picture. Sizes of text and strokes are given in pixels and converted to
/// points with `u` (points per pixel), so the picture reads the same whatever the window's size.
struct WireframeCanvas {
    let m: WireframeModel
    let title: String?

    // Pixel metrics.
    static let margin = 20.0
    static let titleSize = 15.0
    static let textSize = 12.0
    static let smallSize = 10.5
    static let legendSize = 11.5
    static let legendLine = 15.0
    static let sideLegendWidth = 300.0
    /// The row above the window that names the regions of a separating fold.
    static let regionRow = 18.0
    /// Average advance of a sans-serif character, in ems (for wrapping and truncation).
    static let charWidth = 0.56

    /// Points per pixel.
    var u = 1.0
    var out = ""

    init(model: WireframeModel, title: String?) {
        self.m = model
        self.title = title
    }

    private static let palette: [(stroke: String, fill: String)] = [
        ("#2563eb", "#dbe7fd"), ("#c2410c", "#fde5d2"), ("#7c3aed", "#ebe1fd"), ("#047857", "#d3f2e6"),
        ("#be185d", "#fbdbe9"), ("#0e7490", "#d2f0f6"),
    ]

    // MARK: Document

    mutating func document() -> String {
        let winW = m.window.width
        let winH = m.window.height
        let headerPx =
            Self.margin + Self.titleSize + 6 + Self.textSize + 14 + (title == nil ? 0 : Self.titleSize + 4)
            + (separating ? Self.regionRow : 0)
        let margin = Self.margin
        // Side legend (right of the window) or bottom legend: whichever draws the window larger.
        let sideChars = Int((Self.sideLegendWidth - margin) / (Self.legendSize * Self.charWidth))
        // A legend beside the window holds what fits in its height; one under it leaves the window at
        // least half of the picture. The rest is in the JSON.
        let sideLines = Self.capped(
            legendLines(width: sideChars), Int((SVGRenderer.longerSide - headerPx - margin) / Self.legendLine))
        let sideFixedW = 2 * margin + Self.sideLegendWidth
        let sideFixedH = headerPx + margin
        let sideNeededH = headerPx + Double(sideLines.count) * Self.legendLine + margin
        var sideScale = min((SVGRenderer.longerSide - sideFixedW) / winW, (SVGRenderer.longerSide - sideFixedH) / winH)
        if sideNeededH > SVGRenderer.longerSide { sideScale = 0 }  // the legend would not fit beside it

        var bottomChars = 110
        let bottomMax = Int((SVGRenderer.longerSide / 2 - headerPx - margin) / Self.legendLine)
        var bottomLines = Self.capped(legendLines(width: bottomChars), bottomMax)
        var bottomScale = 0.0
        for _ in 0..<3 {  // the wrap width depends on the scale, which depends on the line count
            let fixedH = headerPx + 10 + Double(bottomLines.count) * Self.legendLine + margin
            bottomScale = min((SVGRenderer.longerSide - 2 * margin) / winW, (SVGRenderer.longerSide - fixedH) / winH)
            let canvasW = max(winW * bottomScale + 2 * margin, 420)
            bottomChars = Int((canvasW - 2 * margin) / (Self.legendSize * Self.charWidth))
            bottomLines = Self.capped(legendLines(width: bottomChars), bottomMax)
        }
        let side = sideScale >= bottomScale
        // Positive: scene sizes are finite and the legend is capped (the floor only guards a division).
        let s = max(side ? sideScale : bottomScale, 1e-9)
        let lines = side ? sideLines : bottomLines
        var wpx: Double
        var hpx: Double
        if side {
            wpx = winW * s + sideFixedW
            hpx = max(winH * s + sideFixedH, sideNeededH)
        } else {
            wpx = max(winW * s + 2 * margin, 420)
            hpx = winH * s + headerPx + 10 + Double(lines.count) * Self.legendLine + margin
        }
        // Exactly 800 px on the longer side.
        if wpx >= hpx {
            hpx = hpx * SVGRenderer.longerSide / wpx
            wpx = SVGRenderer.longerSide
        } else {
            wpx = wpx * SVGRenderer.longerSide / hpx
            hpx = SVGRenderer.longerSide
        }
        u = 1 / s
        let cw = wpx * u
        let ch = hpx * u
        let ox = margin * u
        let oy = headerPx * u

        out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(wpx))\" height=\"\(f(hpx))\" "
        out += "viewBox=\"0 0 \(f(cw)) \(f(ch))\" font-family=\"sans-serif\" data-scale=\"\(f(s))\">\n"
        out += "<title>\(SVGText.escape(titleLine))</title>\n"
        out +=
            "<defs><pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"\(f(6 * u))\" height=\"\(f(6 * u))\" "
        out += "patternTransform=\"rotate(45)\"><rect width=\"\(f(2.5 * u))\" height=\"\(f(6 * u))\" fill=\"#6b7280\"/>"
        out += "</pattern></defs>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(f(cw))\" height=\"\(f(ch))\" fill=\"#ffffff\"/>\n"
        header()
        out += "<g class=\"window\" transform=\"translate(\(f(ox)) \(f(oy)))\">\n"
        windowAndSafeArea()
        foldAndRegions()
        arrangement()
        foldBand()
        placements()
        overlayLabels()
        out += "</g>\n"
        if side {
            legend(lines, x: ox + winW + margin * u, y: oy)
        } else {
            legend(lines, x: ox, y: oy + winH + 10 * u)
        }
        out += "</svg>\n"
        return out
    }

    private func f(_ d: Double) -> String { SVGNumber.format(d) }

    // MARK: Header

    var separating: Bool { m.fold?.separating == true && m.regions.count > 1 }
    /// Two regions side by side are both named above the window, where nothing covers their names; of a
    /// top and a bottom region, the top one is named there and the bottom one on a label under the fold.
    var regionLabelsAbove: Bool { separating && m.fold?.orientation == "vertical" }

    var titleLine: String {
        var parts: [String] = []
        parts.append(m.device.map { d in m.display.map { "\(d) (\($0))" } ?? d } ?? "no device")
        if let o = m.orientation { parts.append(o) }
        if let p = m.posture { parts.append(p) }
        parts.append("\(f(m.window.width))×\(f(m.window.height)) pt")
        return parts.joined(separator: " · ")
    }

    var subtitleLine: String {
        var parts: [String] = []
        if let s = m.sizeClass { parts.append("size class \(s) (h/v)") }
        if let w = m.windowClass { parts.append("window class \(w)") }
        parts.append(m.rtl ? "right-to-left" : "left-to-right")
        if let d = m.dynamicTypeSize, d != "large" { parts.append("type \(d)") }
        if m.window.x != 0 || m.window.y != 0 { parts.append("window at \(f(m.window.x)),\(f(m.window.y))") }
        return parts.joined(separator: " · ")
    }

    mutating func header() {
        var y = Self.margin * u
        let x = Self.margin * u
        if let title {
            y += Self.titleSize * u
            text(
                x, y, SVGText.truncate(title, 90), size: Self.titleSize, weight: "bold", fill: "#111827",
                cls: "scene-title")
            y += 4 * u
        }
        y += Self.titleSize * u
        // Under a scene title the environment line steps back a little.
        text(
            x, y, titleLine, size: title == nil ? Self.titleSize : Self.titleSize - 1.5,
            weight: title == nil ? "bold" : nil,
            fill: "#111827", cls: "title")
        y += (6 + Self.textSize) * u
        text(x, y, subtitleLine, size: Self.textSize, fill: "#4b5563", cls: "subtitle")
    }

    // MARK: Window

    mutating func windowAndSafeArea() {
        let winW = m.window.width
        let winH = m.window.height
        out +=
            "<rect class=\"window-frame\" x=\"0\" y=\"0\" width=\"\(f(winW))\" height=\"\(f(winH))\" fill=\"#f9fafb\" "
        out += "stroke=\"#111827\" stroke-width=\"\(f(2 * u))\"/>\n"
        let sw = winW - m.safeLeft - m.safeRight
        let sh = winH - m.safeTop - m.safeBottom
        if sw > 0, sh > 0, m.safeTop + m.safeLeft + m.safeBottom + m.safeRight > 0 {
            out += "<rect class=\"safe-area\" x=\"\(f(m.safeLeft))\" y=\"\(f(m.safeTop))\" width=\"\(f(sw))\" "
            out += "height=\"\(f(sh))\" fill=\"none\" stroke=\"#9ca3af\" stroke-width=\"\(f(1 * u))\" "
            out += "stroke-dasharray=\"\(f(5 * u)) \(f(4 * u))\"/>\n"
            // Named in the legend's key: a label here would collide with detent labels near the top.
        }
    }

    mutating func foldAndRegions() {
        if separating {
            for (i, r) in m.regions.enumerated() {
                let fill = i == 0 ? "#eaf2fd" : "#f1edfd"
                out +=
                    "<rect class=\"region\" x=\"\(f(r.frame.x))\" y=\"\(f(r.frame.y))\" width=\"\(f(r.frame.width))\" "
                out += "height=\"\(f(r.frame.height))\" fill=\"\(fill)\"/>\n"
            }
        }
    }

    /// The hinge band, over the arrangement's views and under the placements.
    mutating func foldBand() {
        if let fold = m.fold {
            let b = foldBand(fold)
            let opacity = fold.separating ? "0.6" : "0.25"
            out +=
                "<rect class=\"fold\" x=\"\(f(b.x))\" y=\"\(f(b.y))\" width=\"\(f(b.width))\" height=\"\(f(b.height))\" "
            out +=
                "fill=\"url(#hatch)\" fill-opacity=\"\(opacity)\" stroke=\"#6b7280\" stroke-width=\"\(f(0.75 * u))\"/>\n"
        }
    }

    /// The fold's band, at least 8 px wide so that a seamless fold (a 0-wide band) shows.
    func foldBand(_ fold: WireframeModel.FoldBand) -> Rect {
        let b = fold.bounds
        let minBand = 8 * u
        if fold.orientation == "vertical", b.width < minBand {
            return Rect(x: b.midX - minBand / 2, y: b.y, width: minBand, height: b.height)
        } else if fold.orientation != "vertical", b.height < minBand {
            return Rect(x: b.x, y: b.midY - minBand / 2, width: b.width, height: minBand)
        }
        return b
    }

    /// Names of regions and fold and the RTL badge, drawn over everything so that no placement hides them.
    mutating func overlayLabels() {
        if separating {
            for (i, r) in m.regions.enumerated() {
                let name = "\(r.side ?? "?") region" + (r.sizeClass.map { " · \($0)" } ?? "")
                if regionLabelsAbove {
                    let chars = Int((r.frame.width - 6 * u) / (Self.textSize * Self.charWidth * u))
                    text(
                        r.frame.x + 2 * u, -6 * u, SVGText.truncate(name, chars), size: Self.textSize, weight: "bold",
                        fill: "#4338ca", cls: "region-label")
                } else if i == 0 {
                    text(
                        r.frame.minX, -6 * u, name, size: Self.textSize, weight: "bold", fill: "#4338ca",
                        cls: "region-label")
                } else {
                    pill(
                        r.frame.maxX - 6 * u, r.frame.y + 6 * u, name, anchorEnd: true, fill: "#4338ca",
                        cls: "region-label")
                }
            }
        }
        if let fold = m.fold {
            let b = foldBand(fold)
            let thickness = fold.orientation == "vertical" ? fold.bounds.width : fold.bounds.height
            let label =
                "fold · \(fold.state)" + (thickness > 0 ? " · hinge \(f(thickness)) pt" : "")
                + (fold.separating ? "" : " · not separating")
            if fold.orientation == "vertical" {
                // Along the band, reading bottom to top, near the bottom of the window.
                let x = b.midX
                let y = m.window.height - m.safeBottom - 10 * u
                out += "<g transform=\"rotate(-90 \(f(x)) \(f(y)))\">"
                pill(x, y - 8 * u, label, anchorEnd: false, fill: "#374151", cls: "fold-label")
                out += "</g>\n"
            } else {
                pill(
                    m.window.width - 6 * u, b.maxY + 4 * u, label, anchorEnd: true, fill: "#374151", cls: "fold-label",
                    dy: -b.height - 22 * u)
            }
        }
        if m.rtl {  // At the window's top-right corner, in the status-bar area when there is one.
            let bw = 64 * u
            let bh = 18 * u
            let bx = m.window.width - bw - 6 * u
            let by = 6 * u
            out += "<g class=\"rtl\"><rect x=\"\(f(bx))\" y=\"\(f(by))\" width=\"\(f(bw))\" height=\"\(f(bh))\" "
            out += "rx=\"\(f(9 * u))\" fill=\"#b91c1c\"/>"
            out += "<text x=\"\(f(bx + bw / 2))\" y=\"\(f(by + 13 * u))\" font-size=\"\(f(Self.smallSize * u))\" "
            out += "font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\">← RTL</text></g>\n"
        }
    }

    /// A label on a white rounded background; (x, y) is its top-left (or top-right with `anchorEnd`).
    mutating func pill(
        _ x: Double, _ y: Double, _ s: String, anchorEnd: Bool, fill: String, cls: String, dy: Double = 0
    ) {
        // Bold text is wider than the average advance.
        let w = (Double(s.count) * Self.smallSize * (Self.charWidth + 0.06) + 10) * u
        let h = (Self.smallSize + 7) * u
        let left = anchorEnd ? x - w : x
        let top = y + dy
        out +=
            "<rect class=\"\(cls)-background\" x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(w))\" height=\"\(f(h))\" "
        out +=
            "rx=\"\(f(h / 2))\" fill=\"#ffffff\" fill-opacity=\"0.92\" stroke=\"\(fill)\" stroke-width=\"\(f(0.75 * u))\"/>\n"
        text(
            left + 5 * u, top + (Self.smallSize + 2) * u, s, size: Self.smallSize, weight: "bold", fill: fill, cls: cls)
    }

    mutating func arrangement() {
        guard let a = m.arrangement else { return }
        // Back to front: the higher zIndex last.
        var views: [(name: String, view: WireframeModel.View, fill: String, stroke: String)] = [
            ("primary", a.primary, "#e6f2e4", "#3f7a3a"), ("secondary", a.secondary, "#fbf1dc", "#8a6416"),
        ]
        if (a.secondary.zIndex ?? 0) < (a.primary.zIndex ?? 0) { views.reverse() }
        let overlaid = a.style == "overlay" && !a.separated
        for v in views {
            guard v.view.visible, let fr = v.view.frame else { continue }
            out += "<rect class=\"arranged\" data-view=\"\(v.name)\" x=\"\(f(fr.x))\" y=\"\(f(fr.y))\" "
            out +=
                "width=\"\(f(fr.width))\" height=\"\(f(fr.height))\" fill=\"\(v.fill)\" fill-opacity=\"\(overlaid ? "0.6" : "1")\" "
            out +=
                "stroke=\"\(v.stroke)\" stroke-width=\"\(f(1.25 * u))\" stroke-dasharray=\"\(f(2 * u)) \(f(2 * u))\"/>\n"
        }
        // Labels at the top-left of each view, under the safe area (stacked when the views overlap).
        var line = 0.0
        for v in views.reversed() {
            guard v.view.visible, let fr = v.view.frame else { continue }
            let z = v.view.zIndex.map { " · z\(f($0))" } ?? ""
            let y = max(fr.y, m.safeTop) + (8 + Self.textSize) * u + line
            text(
                max(fr.x, m.safeLeft) + 8 * u, y, "\(v.name) · \(f(fr.width))×\(f(fr.height))\(z)", size: Self.textSize,
                weight: "bold", fill: v.stroke, cls: "arranged-label")
            if overlaid { line += (Self.textSize + 4) * u }
        }
        if !a.secondary.visible {
            let y = max(0, m.safeTop) + (8 + Self.textSize) * u + (Self.textSize + 4) * u
            text(
                m.safeLeft + 8 * u, y, "secondary hidden", size: Self.textSize, style: "italic", fill: "#8a6416",
                cls: "arranged-label")
        }
    }

    // MARK: Placements

    mutating func placements() {
        for item in m.items where item.presented {
            guard let fr = item.frame else { continue }
            let colour = Self.palette[item.index % Self.palette.count]
            if item.dimsBackground || (item.kind == "adaptivePanel" && item.tapOutsideToDismiss) {
                out += "<rect class=\"scrim\" data-for=\"\(SVGText.escape(item.id))\" x=\"0\" y=\"0\" "
                out +=
                    "width=\"\(f(m.window.width))\" height=\"\(f(m.window.height))\" fill=\"#111827\" fill-opacity=\"0.24\"/>\n"
            }
            out += "<g class=\"presentation\" data-id=\"\(SVGText.escape(item.id))\">\n"
            shape(fr, radii: item.radii, fill: colour.fill, stroke: colour.stroke)
            out += "<rect class=\"placement\" data-id=\"\(SVGText.escape(item.id))\" x=\"\(f(fr.x))\" y=\"\(f(fr.y))\" "
            out += "width=\"\(f(fr.width))\" height=\"\(f(fr.height))\" fill=\"none\" stroke=\"none\">"
            out += "<title>\(SVGText.escape(item.id))</title></rect>\n"
            var top = fr.y
            if item.dragIndicatorVisible {
                let w = min(36.0, fr.width / 3)
                let h = 5.0
                out +=
                    "<rect class=\"drag-indicator\" x=\"\(f(fr.midX - w / 2))\" y=\"\(f(fr.y + 5))\" width=\"\(f(w))\" "
                out += "height=\"\(f(h))\" rx=\"\(f(h / 2))\" fill=\"#9ca3af\"/>\n"
                top += 14
            }
            var left = fr.x
            var right = fr.maxX
            switch item.toolbarOrientation {
            case "horizontal":
                let h = min(24 * u, fr.height / 4)
                out +=
                    "<rect class=\"toolbar\" data-orientation=\"horizontal\" x=\"\(f(fr.x + 6 * u))\" y=\"\(f(top + 4 * u))\" "
                out +=
                    "width=\"\(f(max(fr.width - 12 * u, 0)))\" height=\"\(f(h))\" rx=\"\(f(4 * u))\" fill=\"\(colour.stroke)\" fill-opacity=\"0.22\"/>\n"
                top += h + 4 * u
            case "vertical":
                // A side presentation's bar runs down its trailing edge.
                let w = min(24 * u, fr.width / 4)
                let x = m.rtl ? fr.x + 4 * u : fr.maxX - 4 * u - w
                out += "<rect class=\"toolbar\" data-orientation=\"vertical\" x=\"\(f(x))\" y=\"\(f(top + 6 * u))\" "
                out +=
                    "width=\"\(f(w))\" height=\"\(f(max(fr.height - 12 * u - (top - fr.y), 0)))\" rx=\"\(f(4 * u))\" "
                out += "fill=\"\(colour.stroke)\" fill-opacity=\"0.22\"/>\n"
                if m.rtl { left += w + 4 * u } else { right -= w + 4 * u }
            default: break
            }
            if let edge = item.arrowEdge, item.style == "popover" {
                arrow(fr, edge: edge, fill: colour.fill, stroke: colour.stroke)
            }
            detentLines(item, fr, stroke: colour.stroke, right: right)
            // Label: id, then style and size, then behaviour.
            let chars = max(Int((right - left - 12 * u) / (Self.textSize * Self.charWidth * u)), 4)
            var y = top + (6 + Self.textSize) * u
            text(
                left + 8 * u, y, SVGText.truncate(item.id, chars), size: Self.textSize + 1, weight: "bold",
                fill: colour.stroke, cls: "placement-label")
            y += (Self.textSize + 4) * u
            text(
                left + 8 * u, y, SVGText.truncate(descriptor(item, fr), chars), size: Self.textSize, fill: "#1f2937",
                cls: "placement-style")
            y += (Self.textSize + 3) * u
            text(
                left + 8 * u, y, SVGText.truncate(behaviour(item), chars), size: Self.smallSize, fill: "#4b5563",
                cls: "placement-behaviour")
            out += "</g>\n"
        }
    }

    func descriptor(_ item: WireframeModel.Item, _ fr: Rect) -> String {
        var parts = [item.style ?? item.kind]
        if let a = item.adaptedFrom { parts[0] += " (from \(a))" }
        parts.append("\(f(fr.width))×\(f(fr.height))")
        if let p = item.placementResolved { parts.append(p) }
        return parts.joined(separator: " · ")
    }

    func behaviour(_ item: WireframeModel.Item) -> String {
        var parts: [String] = []
        parts.append(item.dimsBackground ? "dims" : "no dim")
        if let s = item.swipeToDismiss { parts.append(s ? "swipe" : "no swipe") }
        if item.tapOutsideToDismiss { parts.append("tap out") }
        if item.backgroundInteractive == true { parts.append("bg interactive") }
        if let e = item.transitionEdge { parts.append("from \(e)") }
        return parts.joined(separator: " · ")
    }

    /// The shape with its corner radii (semantic corners mirrored under RTL), clamped to half the side.
    mutating func shape(_ r: Rect, radii: WireframeModel.Radii, fill: String, stroke: String) {
        let half = min(r.width, r.height) / 2
        func c(_ v: Double) -> Double { max(0, min(v, half)) }
        let tl = c(m.rtl ? radii.topTrailing : radii.topLeading)
        let tr = c(m.rtl ? radii.topLeading : radii.topTrailing)
        let bl = c(m.rtl ? radii.bottomTrailing : radii.bottomLeading)
        let br = c(m.rtl ? radii.bottomLeading : radii.bottomTrailing)
        var d = "M\(f(r.x + tl)) \(f(r.y))H\(f(r.maxX - tr))"
        if tr > 0 { d += "A\(f(tr)) \(f(tr)) 0 0 1 \(f(r.maxX)) \(f(r.y + tr))" }
        d += "V\(f(r.maxY - br))"
        if br > 0 { d += "A\(f(br)) \(f(br)) 0 0 1 \(f(r.maxX - br)) \(f(r.maxY))" }
        d += "H\(f(r.x + bl))"
        if bl > 0 { d += "A\(f(bl)) \(f(bl)) 0 0 1 \(f(r.x)) \(f(r.maxY - bl))" }
        d += "V\(f(r.y + tl))"
        if tl > 0 { d += "A\(f(tl)) \(f(tl)) 0 0 1 \(f(r.x + tl)) \(f(r.y))" }
        d += "Z"
        out += "<path class=\"shape\" d=\"\(d)\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(f(2 * u))\"/>\n"
    }

    /// SPEC §3.4: `arrowEdge` is the popover's edge that carries the arrow, pointing at the anchor.
    mutating func arrow(_ r: Rect, edge: String, fill: String, stroke: String) {
        let a = max(10.0, 9 * u)
        var physical = edge
        if edge == "leading" { physical = m.rtl ? "right" : "left" }
        if edge == "trailing" { physical = m.rtl ? "left" : "right" }
        let pts: [(Double, Double)]
        switch physical {
        case "top": pts = [(r.midX - a, r.y), (r.midX, r.y - a), (r.midX + a, r.y)]
        case "bottom": pts = [(r.midX - a, r.maxY), (r.midX, r.maxY + a), (r.midX + a, r.maxY)]
        case "left": pts = [(r.x, r.midY - a), (r.x - a, r.midY), (r.x, r.midY + a)]
        default: pts = [(r.maxX, r.midY - a), (r.maxX + a, r.midY), (r.maxX, r.midY + a)]
        }
        let p = pts.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
        out += "<polygon class=\"arrow\" data-edge=\"\(SVGText.escape(edge))\" points=\"\(p)\" fill=\"\(fill)\" "
        out += "stroke=\"\(stroke)\" stroke-width=\"\(f(1.5 * u))\"/>\n"
    }

    /// SPEC §3.2: a dashed line at each detent height measured from the sheet's bottom.
    mutating func detentLines(_ item: WireframeModel.Item, _ fr: Rect, stroke: String, right: Double) {
        guard item.selectedDetent != nil, !item.detents.isEmpty else { return }
        // A sheet under another sheet in the same column: its detents would sit on the upper one's and
        // their labels collide; the legend still lists it.
        let coveredBySheet = m.items.contains { other in
            guard other.index > item.index, other.presented, other.selectedDetent != nil, !other.detents.isEmpty,
                let o = other.frame
            else { return false }
            return o.minX < fr.maxX && fr.minX < o.maxX
        }
        if coveredBySheet { return }
        var lastY = Double.infinity
        for d in item.detents {
            let y = fr.maxY - d.height
            let selected = d.name == item.selectedDetent
            out += "<line class=\"detent\" data-detent=\"\(SVGText.escape(d.name))\" x1=\"\(f(fr.x))\" y1=\"\(f(y))\" "
            out +=
                "x2=\"\(f(fr.maxX))\" y2=\"\(f(y))\" stroke=\"\(stroke)\" stroke-width=\"\(f((selected ? 1.75 : 1.25) * u))\" "
            out += "stroke-dasharray=\"\(f(7 * u)) \(f(4 * u))\"/>\n"
            // Labels just above the line, right-aligned; skip one that would overlap the previous.
            // (below it when there is no room above).
            let ly = y - 4 * u - (Self.smallSize + 1) * u < 0 ? y + (Self.smallSize + 3) * u : y - 4 * u
            guard lastY - ly >= (Self.smallSize + 2) * u || lastY == .infinity else { continue }
            lastY = ly
            // A `{"height"}` detent's name already is its height.
            let label =
                (d.name.hasSuffix("pt") ? d.name : "\(d.name) · \(f(d.height))") + (selected ? " · selected" : "")
            text(
                right - 8 * u, ly, label, size: Self.smallSize, weight: selected ? "bold" : nil, fill: stroke,
                anchor: "end", cls: "detent-label", halo: true)
        }
    }

    // MARK: Legend

    /// At most `limit` lines, the last one saying how many were left out.
    static func capped(_ lines: [String], _ limit: Int) -> [String] {
        guard lines.count > limit, limit > 1 else { return lines }
        return lines.prefix(limit - 1) + ["… \(lines.count - limit + 1) more lines: see the JSON"]
    }

    /// Lines of the legend (not yet escaped); a line starting with "#" is a heading.
    func legendLines(width: Int) -> [String] {
        var lines: [String] = []
        func add(_ s: String, indent: String = "   ") {
            for (i, l) in SVGText.wrap(s, width: width - (indent.count)).enumerated() {
                lines.append(i == 0 ? l : indent + l)
            }
        }
        lines.append("#Presentations")
        if m.items.isEmpty { lines.append("none") }
        for item in m.items {
            if item.presented {
                let size = item.frame.map { "\(f($0.width))×\($0.height == 0 ? "0" : f($0.height))" } ?? "no frame"
                let region = item.region.map { " in the \($0) region" } ?? ""
                add("\(item.index + 1). \(item.id) — \(item.kind) → \(item.style ?? "?")\(region), \(size)")
            } else {
                let why = m.notes.first { $0.presentation == item.id && $0.code == "concurrent-presentation" }
                add(
                    "\(item.index + 1). \(item.id) — \(item.kind) IGNORED, not drawn"
                        + (why != nil ? " (concurrent-presentation)" : ""))
            }
        }
        lines.append("")
        lines.append("#Key")
        add(
            "dashed grey: safe area · hatched: fold · grey wash: dimmed background · dashed coloured lines: "
                + "detents, from the sheet's bottom")
        if let a = m.arrangement {
            lines.append("")
            lines.append("#Arrangement")
            var s = "\(a.style)"
            if let axis = a.axis { s += " · axis \(axis)" }
            if a.separated { s += " · separated by the fold" }
            if !a.secondary.visible { s += " · secondary hidden" }
            add(s)
        }
        if !m.notes.isEmpty {
            lines.append("")
            lines.append("#Diagnostics")
            let limit = 24
            for n in m.notes.prefix(limit) {
                let who = n.presentation.map { " [\($0)]" } ?? ""
                add("\(n.severity == "warning" ? "!" : "i") \(n.code)\(who): \(n.message)")
            }
            if m.notes.count > limit { lines.append("… \(m.notes.count - limit) more") }
        }
        return lines
    }

    mutating func legend(_ lines: [String], x: Double, y: Double) {
        out += "<g class=\"legend\">\n"
        var ly = y + Self.legendSize * u
        for line in lines {
            if line.hasPrefix("#") {
                text(
                    x, ly, String(line.dropFirst()), size: Self.legendSize + 0.5, weight: "bold", fill: "#111827",
                    cls: "legend-heading")
            } else if !line.isEmpty {
                let warn = line.hasPrefix("! ")
                text(x, ly, line, size: Self.legendSize, fill: warn ? "#b45309" : "#374151", cls: "legend-item")
            }
            ly += Self.legendLine * u
        }
        out += "</g>\n"
    }

    // MARK: Text

    mutating func text(
        _ x: Double, _ y: Double, _ s: String, size: Double, weight: String? = nil, style: String? = nil,
        fill: String, anchor: String? = nil, cls: String, rotate: Double? = nil, halo: Bool = false
    ) {
        out += "<text class=\"\(cls)\" x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size * u))\""
        if let weight { out += " font-weight=\"\(weight)\"" }
        if let style { out += " font-style=\"\(style)\"" }
        if let anchor { out += " text-anchor=\"\(anchor)\"" }
        if let rotate { out += " transform=\"rotate(\(f(rotate)) \(f(x)) \(f(y)))\"" }
        // A white outline under the glyphs keeps a label legible where it crosses lines.
        if halo {
            out += " stroke=\"#ffffff\" stroke-width=\"\(f(3 * u))\" stroke-linejoin=\"round\" paint-order=\"stroke\""
        }
        out += " fill=\"\(fill)\">\(SVGText.escape(s))</text>\n"
    }
}
