import LayoutEngine

/// Labels inside the window are placed, not just drawn: a label goes to the first of its candidate
/// positions where it lies inside its bounds, over no placement drawn above its owner and over no other
/// label; a label with no such position is left to the legend. Nothing is cut short: lines wrap.
extension WireframeCanvas {
    struct BlockLine {
        var text: String
        var size: Double
        var bold = false
        var italic = false
        var fill: String
        var cls: String
    }

    /// Height of a line of text of `size` pixels, in points: ascent, descent and a little air.
    func lineBox(_ size: Double) -> Double { size * 1.3 * u }

    /// The lines of `text`, wrapped to `width` points.
    func wrapped(
        _ text: String, width: Double, size: Double, bold: Bool = false, italic: Bool = false, fill: String,
        cls: String
    ) -> [BlockLine] {
        SVGText.wrap(text, width: max(width / u, 1), size: size, bold: bold).map {
            BlockLine(text: $0, size: size, bold: bold, italic: italic, fill: fill, cls: cls)
        }
    }

    func blockSize(_ lines: [BlockLine]) -> (width: Double, height: Double) {
        let w = lines.map { SVGText.width($0.text, size: $0.size, bold: $0.bold) }.max() ?? 0
        return (w * u, lines.reduce(0) { $0 + lineBox($1.size) })
    }

    /// Frames a label of the placement at `owner` may not cross: those of the placements drawn after it
    /// (all of them for a label that belongs to none).
    func blockers(owner: Int?) -> [Rect] {
        m.items.flatMap { item -> [Rect] in
            guard item.presented, let fr = item.frame, owner.map({ item.index > $0 }) ?? true else { return [] }
            return [fr] + outerDetentLines(item, fr)
        }
    }

    /// Thin rectangles around the detent lines of `item` that lie beyond its frame (a detent taller than
    /// the sheet), which labels drawn before them would have struck through.
    func outerDetentLines(_ item: WireframeModel.Item, _ fr: Rect) -> [Rect] {
        guard m.drawsDetentLines(item) else { return [] }
        return item.detents.compactMap { d in
            let y = fr.maxY - d.height
            return y < fr.minY - 0.5 ? Rect(x: fr.x, y: y - 2 * u, width: fr.width, height: 4 * u) : nil
        }
    }

    /// Candidate positions for a block `height` high inside `area`: its top corners first, then further
    /// down in steps of 16 px, then its bottom corners (left before right).
    func scan(_ area: Rect, height: Double) -> [(x: Double, y: Double, anchorEnd: Bool)] {
        let (left, right) = (area.x + 8 * u, area.maxX - 8 * u)
        let top = area.y + 4 * u
        let bottom = area.maxY - height - 4 * u
        var ys = [top]
        var y = top + 16 * u
        while y < bottom {
            ys.append(y)
            y += 16 * u
        }
        if bottom > top { ys.append(bottom) }
        return ys.flatMap { [(left, $0, false), (right, $0, true)] }
    }

    /// Opens the group of a label: its rectangle and the index of the placement it belongs to, for
    /// readers (and tests) that check what it covers.
    mutating func labelGroup(_ r: Rect, owner: Int?) {
        out += "<g class=\"\(c("label"))\" data-box=\"\(f(r.x)) \(f(r.y)) \(f(r.width)) \(f(r.height))\""
        if let owner { out += " data-owner=\"\(owner)\"" }
        out += ">\n"
    }

    /// Frames of every placement but the one at `owner`.
    func blockers(except owner: Int) -> [Rect] {
        m.items.compactMap { item in item.presented && item.index != owner ? item.frame : nil }
    }

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        let e = 0.01
        return inner.minX >= outer.minX - e && inner.maxX <= outer.maxX + e && inner.minY >= outer.minY - e
            && inner.maxY <= outer.maxY + e
    }

    /// Whether a label's rectangle may go there.
    func free(_ r: Rect, within: Rect, blockers: [Rect]) -> Bool {
        Self.contains(within, r) && !blockers.contains { Self.overlaps($0, r) }
            && !labelBoxes.contains { Self.overlaps($0, r) }
    }

    /// Draws `lines` with their top-left (or top-right with `anchorEnd`) at the first free candidate.
    /// Returns false, drawing nothing, when none is free.
    @discardableResult
    mutating func place(
        _ lines: [BlockLine], at candidates: [(x: Double, y: Double, anchorEnd: Bool)], within: Rect,
        blockers: [Rect], owner: Int? = nil, halo: Bool = false
    ) -> Bool {
        guard !lines.isEmpty else { return true }
        let size = blockSize(lines)
        for cand in candidates {
            let r = Rect(
                x: cand.anchorEnd ? cand.x - size.width : cand.x, y: cand.y, width: size.width, height: size.height)
            guard free(r, within: within, blockers: blockers) else { continue }
            labelBoxes.append(r)
            labelGroup(r, owner: owner)
            var y = r.y
            for l in lines {
                y += lineBox(l.size)
                // The baseline sits above the box's bottom by the descent and the air.
                text(
                    cand.anchorEnd ? cand.x : cand.x, y - l.size * 0.3 * u, l.text, size: l.size, bold: l.bold,
                    italic: l.italic, fill: l.fill, anchorEnd: cand.anchorEnd, cls: l.cls, halo: halo)
            }
            out += "</g>\n"
            return true
        }
        return false
    }
}
