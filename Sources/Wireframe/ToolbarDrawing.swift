import LayoutEngine

/// The toolbar of a sheet with the scene's items: a bar along the top when the resolution says
/// `horizontal` (cancellation items at the leading end, the others at the trailing end), a bar down the
/// trailing edge when `vertical` (icons, named by their `systemImage`, read top to bottom). Items that
/// do not fit in one row or column flow into the next. No items, no bar.
extension WireframeCanvas {
    static let chipThickness = 18.0
    static let chipGap = 4.0

    /// Draws the bar and returns what is left of `content` for the label.
    mutating func toolbar(_ item: WireframeModel.Item, _ content: Rect, colour: String) -> Rect {
        guard let axis = item.toolbarOrientation, !item.toolbar.isEmpty else { return content }
        let ordered =
            item.toolbar.filter { $0.placement == .cancellationAction }
            + item.toolbar.filter { $0.placement != .cancellationAction }
        let texts = ordered.map { axis == .vertical ? ($0.systemImage ?? $0.text) : $0.text }
        let lengths = texts.map { SVGText.width($0, size: PictureLayout.smallSize) * u + 12 * u }
        let thick = Self.chipThickness * u
        let gap = Self.chipGap * u
        switch axis {
        case .horizontal:
            let bar = content.inset(top: 4 * u, left: 6 * u, right: 6 * u)
            let rows = flow(lengths, room: bar.width - 2 * gap, gap: gap)
            let height = Double(rows.count) * (thick + gap) + gap
            barRect(Rect(x: bar.x, y: bar.y, width: bar.width, height: height), axis: axis, colour: colour)
            for (r, row) in rows.enumerated() {
                let y = bar.y + gap + Double(r) * (thick + gap)
                // One row: cancellation items leading, the rest trailing. Several rows: in order.
                let leading = rows.count == 1 ? row.filter { ordered[$0].placement == .cancellationAction } : row
                var x = bar.x + gap
                for i in row where leading.contains(i) {
                    chip(
                        Rect(x: mirrored(x, lengths[i], in: bar), y: y, width: lengths[i], height: thick), texts[i],
                        axis, colour)
                    x += lengths[i] + gap
                }
                var end = bar.maxX - gap
                for i in row.reversed() where !leading.contains(i) {
                    end -= lengths[i]
                    chip(
                        Rect(x: mirrored(end, lengths[i], in: bar), y: y, width: lengths[i], height: thick), texts[i],
                        axis, colour)
                    end -= gap
                }
            }
            return content.inset(top: 4 * u + height + 2 * u)
        case .vertical:
            let column = content.inset(top: 6 * u, bottom: 6 * u)
            let cols = flow(lengths, room: column.height - 2 * gap, gap: gap)
            let width = Double(cols.count) * (thick + gap) + gap
            let x0 = m.rtl ? column.x + 4 * u : column.maxX - 4 * u - width
            barRect(Rect(x: x0, y: column.y, width: width, height: column.height), axis: axis, colour: colour)
            for (k, col) in cols.enumerated() {
                let x = m.rtl ? x0 + gap + Double(k) * (thick + gap) : x0 + width - Double(k + 1) * (thick + gap)
                var y = column.y + gap
                for i in col {
                    chip(Rect(x: x, y: y, width: thick, height: lengths[i]), texts[i], axis, colour)
                    y += lengths[i] + gap
                }
            }
            return m.rtl ? content.inset(left: width + 8 * u) : content.inset(right: width + 8 * u)
        }
    }

    /// Indices of `lengths` in rows of at most `room` (an item longer than a row has a row of its own).
    func flow(_ lengths: [Double], room: Double, gap: Double) -> [[Int]] {
        var rows: [[Int]] = []
        var row: [Int] = []
        var used = 0.0
        for (i, l) in lengths.enumerated() {
            if !row.isEmpty, used + gap + l > room {
                rows.append(row)
                row = []
                used = 0
            }
            used += (row.isEmpty ? 0 : gap) + l
            row.append(i)
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// Under RTL the leading end is the right one.
    func mirrored(_ x: Double, _ width: Double, in bar: Rect) -> Double {
        m.rtl ? bar.x + bar.maxX - x - width : x
    }

    mutating func barRect(_ r: Rect, axis: Axis, colour: String) {
        labelBoxes.append(r)  // no label over the bar
        out += "<rect class=\"\(c("toolbar"))\" data-orientation=\"\(axis.rawValue)\" x=\"\(f(r.x))\" y=\"\(f(r.y))\" "
        out += "width=\"\(f(r.width))\" height=\"\(f(r.height))\" rx=\"\(f(4 * u))\" fill=\"\(colour)\" "
        out += "fill-opacity=\"0.16\"/>\n"
    }

    /// One item: a white rounded chip with its text, turned to read downwards in a vertical bar.
    mutating func chip(_ r: Rect, _ text: String, _ axis: Axis, _ colour: String) {
        out += "<rect class=\"\(c("toolbar-item"))\" x=\"\(f(r.x))\" y=\"\(f(r.y))\" width=\"\(f(r.width))\" "
        out +=
            "height=\"\(f(r.height))\" rx=\"\(f(Self.chipThickness * u / 2))\" fill=\"#ffffff\" stroke=\"\(colour)\" "
        out += "stroke-width=\"\(f(0.75 * u))\"/>\n"
        let size = PictureLayout.smallSize
        let (x, y) = axis == .horizontal ? (r.x + 6 * u, r.maxY - 5 * u) : (r.x + 5 * u, r.y + 6 * u)
        out += "<text class=\"\(c("toolbar-item-label"))\" x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size * u))\" "
        if axis == .vertical { out += "transform=\"rotate(90 \(f(x)) \(f(y)))\" " }
        out += "fill=\"\(colour)\">\(SVGText.escape(text))</text>\n"
    }
}
