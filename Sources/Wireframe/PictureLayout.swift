import LayoutEngine

/// Where the parts of a picture go, in pixels of the layout box: the header lines, the row that names the
/// regions, the window at `scale` pixels per point, and the legend beside or under the window.
struct PictureLayout {
    /// One line of text outside the window.
    struct Line {
        var text: String
        var size: Double
        var bold: Bool
        var fill: String
        var cls: String
    }

    var side: Bool
    /// Pixels per point of the window.
    var scale: Double
    var header: [Line]
    /// Lines naming each separating region, drawn above the window over the region (a vertical fold) or
    /// stacked across the window's width (a horizontal fold).
    var regionLines: [[String]]
    var legend: [String]
    var headerPx: Double
    var widthPx: Double
    var heightPx: Double

    // Pixel metrics.
    static let margin = 20.0
    static let titleSize = 15.0
    static let textSize = 12.0
    static let smallSize = 10.5
    static let legendSize = 11.5
    static let legendLine = 15.0
    static let sideLegendWidth = 300.0
    static let lineGap = 5.0
    static let regionGap = 4.0
    /// The rest of a very long legend is in the JSON.
    static let maxBottomLegendLines = 60

    static func lineHeight(_ l: Line) -> Double { l.cls == "rtl" ? l.size + 12 : l.size + lineGap }

    /// The layout that draws the window largest inside a `box` (pixels): legend beside or under it.
    static func choose(_ m: WireframeModel, title: String?, box: (width: Double, height: Double)) -> PictureLayout {
        let side = fit(m, title: title, box: box, side: true)
        let bottom = fit(m, title: title, box: box, side: false)
        return side.scale >= bottom.scale ? side : bottom
    }

    /// Header, region lines and legend depend on the scale and the scale on them: a few rounds settle it,
    /// and the parts are measured once more at the final scale.
    static func fit(_ m: WireframeModel, title: String?, box: (width: Double, height: Double), side: Bool)
        -> PictureLayout
    {
        var scale = (box.width - 2 * margin - (side ? sideLegendWidth : 0)) / m.window.width
        for _ in 0..<3 {
            scale = nextScale(measure(m, title: title, box: box, side: side, scale: scale), m, box: box)
        }
        return measure(m, title: title, box: box, side: side, scale: scale)
    }

    /// The parts at `scale`, and the size of the picture they make.
    static func measure(
        _ m: WireframeModel, title: String?, box: (width: Double, height: Double), side: Bool, scale: Double
    ) -> PictureLayout {
        let s = max(scale, 1e-6)
        let (winW, winH) = (m.window.width, m.window.height)
        let widthPx = side ? winW * s + 2 * margin + sideLegendWidth : max(winW * s + 2 * margin, min(420, box.width))
        let header = headerLines(m, title: title, width: widthPx - 2 * margin)
        let regions = regionLines(m, scale: s, width: winW * s)
        let regionRows =
            m.regionsNamedAbove ? regions.map(\.count).max() ?? 0 : regions.reduce(0) { $0 + $1.count }
        let headerPx =
            margin + header.reduce(0) { $0 + lineHeight($1) } + 8 + Double(regionRows) * (textSize + regionGap)
        // A legend beside the window holds what fits in the box's height; one under it may make the
        // picture taller than the box (up to `maxBottomLegendLines`).
        let limit = side ? Int((box.height - headerPx - margin) / legendLine) : maxBottomLegendLines
        let legendWidth = side ? sideLegendWidth - margin : widthPx - 2 * margin
        let legend = capped(m.legendLines(width: legendWidth, size: legendSize), max(limit, 6))
        let legendPx = Double(legend.count) * legendLine
        let heightPx =
            side
            ? max(winH * s + headerPx + margin, headerPx + legendPx + margin)
            : winH * s + headerPx + 10 + legendPx + margin
        return PictureLayout(
            side: side, scale: s, header: header, regionLines: regions, legend: legend, headerPx: headerPx,
            widthPx: widthPx, heightPx: heightPx)
    }

    /// The largest scale at which the window and the measured parts fit the box. A legend under the window
    /// takes at most half of the box from it; one beside it that does not fit rules the side layout out.
    static func nextScale(_ layout: PictureLayout, _ m: WireframeModel, box: (width: Double, height: Double))
        -> Double
    {
        let (winW, winH) = (m.window.width, m.window.height)
        let legendPx = Double(layout.legend.count) * legendLine
        if layout.side {
            if layout.headerPx + legendPx + margin > box.height { return 1e-6 }
            return min(
                (box.width - 2 * margin - sideLegendWidth) / winW, (box.height - layout.headerPx - margin) / winH)
        }
        let legendShare = min(legendPx, box.height / 2 - layout.headerPx)
        return min((box.width - 2 * margin) / winW, (box.height - layout.headerPx - 10 - legendShare - margin) / winH)
    }

    /// Title, environment line and subtitle, each wrapped to `width` pixels.
    static func headerLines(_ m: WireframeModel, title: String?, width: Double) -> [Line] {
        var lines: [Line] = []
        func add(_ s: String, _ size: Double, bold: Bool, fill: String, cls: String) {
            for l in SVGText.wrap(s, width: width, size: size, bold: bold) {
                lines.append(Line(text: l, size: size, bold: bold, fill: fill, cls: cls))
            }
        }
        if let title { add(title, titleSize, bold: true, fill: "#111827", cls: "scene-title") }
        // Under a scene title the environment line steps back a little.
        add(m.titleLine, title == nil ? titleSize : titleSize - 1.5, bold: title == nil, fill: "#111827", cls: "title")
        add(m.subtitleLine, textSize, bold: false, fill: "#4b5563", cls: "subtitle")
        // A red badge on a line of its own, above the window and so over no placement.
        if m.rtl { lines.append(Line(text: "← RTL", size: smallSize, bold: true, fill: "#b91c1c", cls: "rtl")) }
        return lines
    }

    /// The names of a separating fold's regions, wrapped to the region's width (side by side) or to the
    /// window's (stacked).
    static func regionLines(_ m: WireframeModel, scale: Double, width: Double) -> [[String]] {
        guard m.separating else { return [] }
        return m.regions.map { r in
            let w = m.regionsNamedAbove ? r.frame.width * scale - 6 : width
            return SVGText.wrap(m.regionName(r), width: max(w, 24), size: textSize, bold: true)
        }
    }

    /// At most `limit` lines, the last one saying how many were left out.
    static func capped(_ lines: [String], _ limit: Int) -> [String] {
        guard lines.count > limit, limit > 1 else { return lines }
        return lines.prefix(limit - 1) + ["… \(lines.count - limit + 1) more lines: see the JSON"]
    }
}

extension WireframeModel {
    /// Regions are tinted and named only when the fold separates them.
    var separating: Bool { fold?.separating == true && regions.count > 1 }
    /// Side-by-side regions are named each above itself; a top and a bottom one on stacked lines.
    var regionsNamedAbove: Bool { separating && fold?.orientation == .vertical }

    func regionName(_ r: RegionBox) -> String {
        "\(r.side?.rawValue ?? "?") region" + (r.sizeClass.map { " · \($0)" } ?? "")
    }

    var titleLine: String {
        var parts: [String] = []
        parts.append(device.map { d in display.map { "\(d) (\($0))" } ?? d } ?? "no device")
        if let o = orientation { parts.append(o) }
        if let p = posture { parts.append(p) }
        parts.append("\(SVGNumber.format(window.width))×\(SVGNumber.format(window.height)) pt")
        return parts.joined(separator: " · ")
    }

    var subtitleLine: String {
        var parts: [String] = []
        if let s = sizeClass { parts.append("size class \(s) (h/v)") }
        if let w = windowClass { parts.append("window class \(w)") }
        parts.append(rtl ? "right-to-left" : "left-to-right")
        if let d = dynamicTypeSize, d != "large" { parts.append("type \(d)") }
        if window.x != 0 || window.y != 0 {
            parts.append("window at \(SVGNumber.format(window.x)),\(SVGNumber.format(window.y))")
        }
        return parts.joined(separator: " · ")
    }
}
