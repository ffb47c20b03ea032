import LayoutEngine

/// Writes one picture. Sizes of text and strokes are given in pixels and converted to points with `u`
/// (points per pixel), so the picture reads the same whatever the window's size.
struct WireframeCanvas {
    /// Written before every class and id, then replaced by the document's prefix (`SVGRenderer.scoped`).
    static let placeholder: Character = "\u{1}"

    let m: WireframeModel
    let title: String?
    let box: (width: Double, height: Double)

    /// Points per pixel.
    var u = 1.0
    var out = ""
    /// Rectangles (window coordinates) of the labels drawn so far in the window.
    var labelBoxes: [Rect] = []

    init(model: WireframeModel, title: String?, box: (width: Double, height: Double)) {
        self.m = model
        self.title = title
        self.box = box
    }

    static let palette: [(stroke: String, fill: String)] = [
        ("#2563eb", "#dbe7fd"), ("#c2410c", "#fde5d2"), ("#7c3aed", "#ebe1fd"), ("#047857", "#d3f2e6"),
        ("#be185d", "#fbdbe9"), ("#0e7490", "#d2f0f6"),
    ]

    /// A scoped class name.
    func c(_ name: String) -> String { "\(Self.placeholder)-\(name)" }
    func f(_ d: Double) -> String { SVGNumber.format(d) }

    mutating func document(width: Int?) -> String {
        let layout = PictureLayout.choose(m, title: title, box: box)
        u = 1 / layout.scale
        let margin = PictureLayout.margin
        let cw = layout.widthPx * u
        let ch = layout.heightPx * u
        let ox = margin * u
        let oy = layout.headerPx * u
        out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
        if let width {
            out += "width=\"\(width)\" height=\"\(f(Double(width) * layout.heightPx / layout.widthPx))\" "
        }
        out += "viewBox=\"0 0 \(f(cw)) \(f(ch))\" class=\"\(Self.placeholder)\" font-family=\"sans-serif\" "
        out += "data-scale=\"\(f(layout.scale))\">\n"
        out += "<title>\(SVGText.escape(m.titleLine))</title>\n"
        defs()
        out += "<rect x=\"0\" y=\"0\" width=\"\(f(cw))\" height=\"\(f(ch))\" fill=\"#ffffff\"/>\n"
        header(layout)
        out += "<g class=\"\(c("window"))\" transform=\"translate(\(f(ox)) \(f(oy)))\">\n"
        windowAndSafeArea()
        regions()
        arrangement()
        foldBand()
        placements()
        foldLabel()
        out += "</g>\n"
        if layout.side {
            legend(layout.legend, x: ox + m.window.width + margin * u, y: oy)
        } else {
            legend(layout.legend, x: ox, y: oy + m.window.height + 10 * u)
        }
        out += "</svg>\n"
        return out
    }

    /// The hatch of the fold and the one style rule (the white outline of labels that cross lines), under
    /// scoped names.
    mutating func defs() {
        out += "<defs>"
        if m.fold != nil {
            out += "<pattern id=\"\(c("hatch"))\" patternUnits=\"userSpaceOnUse\" width=\"\(f(6 * u))\" "
            out += "height=\"\(f(6 * u))\" patternTransform=\"rotate(45)\"><rect width=\"\(f(2.5 * u))\" "
            out += "height=\"\(f(6 * u))\" fill=\"#6b7280\"/></pattern>"
        }
        out += "<style>.\(c("halo")){stroke:#ffffff;stroke-width:\(f(3 * u))px;stroke-linejoin:round;"
        out += "paint-order:stroke}</style></defs>\n"
    }

    mutating func header(_ layout: PictureLayout) {
        var y = PictureLayout.margin * u
        let x = PictureLayout.margin * u
        for line in layout.header {
            if line.cls == "rtl" {
                pill(x, y + 2 * u, line.text, fill: line.fill, cls: line.cls, solid: true)
                y += PictureLayout.lineHeight(line) * u
                continue
            }
            y += line.size * u
            text(x, y, line.text, size: line.size, bold: line.bold, fill: line.fill, cls: line.cls)
            y += PictureLayout.lineGap * u
        }
        // Region names: above the window, over their region (side by side) or stacked.
        let rowHeight = (PictureLayout.textSize + PictureLayout.regionGap) * u
        let top = layout.headerPx * u - 8 * u - Double(regionRows(layout)) * rowHeight
        var stacked = 0.0
        for (r, lines) in zip(m.regions, layout.regionLines) {
            for (i, l) in lines.enumerated() {
                let rx = m.regionsNamedAbove ? x + r.frame.x + 2 * u : x
                let ry = top + (m.regionsNamedAbove ? Double(i) : stacked) * rowHeight + PictureLayout.textSize * u
                text(rx, ry, l, size: PictureLayout.textSize, bold: true, fill: "#4338ca", cls: "region-label")
                if !m.regionsNamedAbove { stacked += 1 }
            }
        }
    }

    func regionRows(_ layout: PictureLayout) -> Int {
        m.regionsNamedAbove
            ? layout.regionLines.map(\.count).max() ?? 0 : layout.regionLines.reduce(0) { $0 + $1.count }
    }

    // MARK: Text

    mutating func text(
        _ x: Double, _ y: Double, _ s: String, size: Double, bold: Bool = false, italic: Bool = false,
        fill: String, anchorEnd: Bool = false, cls: String, halo: Bool = false
    ) {
        out += "<text class=\"\(c(cls))\(halo ? " " + c("halo") : "")\" x=\"\(f(x))\" y=\"\(f(y))\" "
        out += "font-size=\"\(f(size * u))\""
        if bold { out += " font-weight=\"bold\"" }
        if italic { out += " font-style=\"italic\"" }
        if anchorEnd { out += " text-anchor=\"end\"" }
        out += " fill=\"\(fill)\">\(SVGText.escape(s))</text>\n"
    }

    /// A label on a rounded background (white, or `fill` with white text when `solid`); (x, y) is its
    /// top-left. Returns its rectangle.
    @discardableResult
    mutating func pill(_ x: Double, _ y: Double, _ s: String, fill: String, cls: String, solid: Bool = false) -> Rect {
        let size = PictureLayout.smallSize
        let r = Rect(x: x, y: y, width: pillWidth(s), height: (size + 7) * u)
        out += "<rect class=\"\(c(cls + "-background"))\" x=\"\(f(r.x))\" y=\"\(f(r.y))\" width=\"\(f(r.width))\" "
        out += "height=\"\(f(r.height))\" rx=\"\(f(r.height / 2))\" fill=\"\(solid ? fill : "#ffffff")\" "
        out += "fill-opacity=\"0.95\" stroke=\"\(fill)\" stroke-width=\"\(f(0.75 * u))\"/>\n"
        text(x + 6 * u, y + (size + 2) * u, s, size: size, bold: true, fill: solid ? "#ffffff" : fill, cls: cls)
        return r
    }

    func pillWidth(_ s: String) -> Double { SVGText.width(s, size: PictureLayout.smallSize, bold: true) * u + 12 * u }
}
