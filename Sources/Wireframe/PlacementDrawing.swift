import LayoutEngine

/// Presented placements in z-order: scrim, shape, hover target, drag indicator, toolbar, arrow, detent
/// lines and the labels.
extension WireframeCanvas {
    mutating func placements() {
        for item in m.items where item.presented {
            guard let fr = item.frame else { continue }
            let colour = Self.palette[item.index % Self.palette.count]
            if m.drawsScrim(item) {
                out += "<rect class=\"\(c("scrim"))\" data-for=\"\(SVGText.escape(item.id))\" x=\"0\" y=\"0\" "
                out += "width=\"\(f(m.window.width))\" height=\"\(f(m.window.height))\" fill=\"#111827\" "
                out += "fill-opacity=\"0.24\"/>\n"
            }
            out += "<g class=\"\(c("presentation"))\" data-id=\"\(SVGText.escape(item.id))\">\n"
            shape(fr, radii: item.radii, fill: colour.fill, stroke: colour.stroke)
            out += "<rect class=\"\(c("placement"))\" data-id=\"\(SVGText.escape(item.id))\" x=\"\(f(fr.x))\" "
            out += "y=\"\(f(fr.y))\" width=\"\(f(fr.width))\" height=\"\(f(fr.height))\" fill=\"none\" stroke=\"none\">"
            out += "<title>\(SVGText.escape(item.id))</title></rect>\n"
            var content = fr
            if item.dragIndicatorVisible {
                let w = min(36 * u, fr.width / 3)
                let h = 5 * u
                out += "<rect class=\"\(c("drag-indicator"))\" x=\"\(f(fr.midX - w / 2))\" y=\"\(f(fr.y + 5 * u))\" "
                out += "width=\"\(f(w))\" height=\"\(f(h))\" rx=\"\(f(h / 2))\" fill=\"#9ca3af\"/>\n"
                content = content.inset(top: 14 * u)
                labelBoxes.append(Rect(x: fr.midX - w / 2, y: fr.y + 5 * u, width: w, height: h))
            }
            content = toolbar(item, content, colour: colour.stroke)
            if let edge = item.arrowEdge, item.style == .popover {
                arrow(fr, edge: edge, fill: colour.fill, stroke: colour.stroke)
            }
            if m.drawsDetentLines(item) { detentLines(item, fr, stroke: colour.stroke) }
            label(item, content, stroke: colour.stroke)
            if m.drawsDetentLines(item) { detentLabels(item, fr, content, stroke: colour.stroke) }
            out += "</g>\n"
        }
    }

    /// id, then style and size, then behaviour, each wrapped to the placement's width; fewer lines when
    /// all of them find no room (the legend has the rest).
    mutating func label(_ item: WireframeModel.Item, _ content: Rect, stroke: String) {
        let width = content.width - 16 * u
        let id = wrapped(
            item.id, width: width, size: PictureLayout.textSize + 1, bold: true, fill: stroke, cls: "placement-label")
        let style = wrapped(
            m.descriptor(item), width: width, size: PictureLayout.textSize, fill: "#1f2937", cls: "placement-style")
        let behaviour = wrapped(
            m.behaviour(item), width: width, size: PictureLayout.smallSize, fill: "#4b5563", cls: "placement-behaviour")
        let blocking = blockers(owner: item.index)
        for lines in [id + style + behaviour, id + style, id] {
            let candidates = scan(content, height: blockSize(lines).height)
            if place(lines, at: candidates, within: content, blockers: blocking, owner: item.index) { return }
        }
    }

    /// The shape with its corner radii (semantic corners mirrored under RTL), clamped to half the side.
    mutating func shape(_ r: Rect, radii: WireframeModel.Radii, fill: String, stroke: String) {
        let half = min(r.width, r.height) / 2
        func clamp(_ v: Double) -> Double { max(0, min(v, half)) }
        let tl = clamp(m.rtl ? radii.topTrailing : radii.topLeading)
        let tr = clamp(m.rtl ? radii.topLeading : radii.topTrailing)
        let bl = clamp(m.rtl ? radii.bottomTrailing : radii.bottomLeading)
        let br = clamp(m.rtl ? radii.bottomLeading : radii.bottomTrailing)
        var d = "M\(f(r.x + tl)) \(f(r.y))H\(f(r.maxX - tr))"
        if tr > 0 { d += "A\(f(tr)) \(f(tr)) 0 0 1 \(f(r.maxX)) \(f(r.y + tr))" }
        d += "V\(f(r.maxY - br))"
        if br > 0 { d += "A\(f(br)) \(f(br)) 0 0 1 \(f(r.maxX - br)) \(f(r.maxY))" }
        d += "H\(f(r.x + bl))"
        if bl > 0 { d += "A\(f(bl)) \(f(bl)) 0 0 1 \(f(r.x)) \(f(r.maxY - bl))" }
        d += "V\(f(r.y + tl))"
        if tl > 0 { d += "A\(f(tl)) \(f(tl)) 0 0 1 \(f(r.x + tl)) \(f(r.y))" }
        d += "Z"
        out += "<path class=\"\(c("shape"))\" d=\"\(d)\" fill=\"\(fill)\" stroke=\"\(stroke)\" "
        out += "stroke-width=\"\(f(2 * u))\"/>\n"
    }

    /// `arrowEdge` is the popover's edge that carries the arrow, pointing at the anchor.
    mutating func arrow(_ r: Rect, edge: ArrowEdge, fill: String, stroke: String) {
        let a = max(10.0, 9 * u)
        let left = (edge == .leading) != m.rtl
        let pts: [(Double, Double)]
        switch edge {
        case .top: pts = [(r.midX - a, r.y), (r.midX, r.y - a), (r.midX + a, r.y)]
        case .bottom: pts = [(r.midX - a, r.maxY), (r.midX, r.maxY + a), (r.midX + a, r.maxY)]
        case .leading, .trailing:
            pts =
                left
                ? [(r.x, r.midY - a), (r.x - a, r.midY), (r.x, r.midY + a)]
                : [(r.maxX, r.midY - a), (r.maxX + a, r.midY), (r.maxX, r.midY + a)]
        }
        let p = pts.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
        out += "<polygon class=\"\(c("arrow"))\" data-edge=\"\(edge.rawValue)\" points=\"\(p)\" fill=\"\(fill)\" "
        out += "stroke=\"\(stroke)\" stroke-width=\"\(f(1.5 * u))\"/>\n"
    }

    /// A dashed line at each detent height measured from the sheet's bottom.
    mutating func detentLines(_ item: WireframeModel.Item, _ fr: Rect, stroke: String) {
        for d in item.detents {
            let y = fr.maxY - d.height
            let selected = d.name == item.selectedDetent
            out += "<line class=\"\(c("detent"))\" data-detent=\"\(SVGText.escape(d.name))\" x1=\"\(f(fr.x))\" "
            out += "y1=\"\(f(y))\" x2=\"\(f(fr.maxX))\" y2=\"\(f(y))\" stroke=\"\(stroke)\" "
            out +=
                "stroke-width=\"\(f((selected ? 1.75 : 1.25) * u))\" stroke-dasharray=\"\(f(7 * u)) \(f(4 * u))\"/>\n"
        }
    }

    /// Each detent's name beside its line (trailing side first, above the line first), where it covers
    /// no later placement and no other label; the legend lists every detent.
    mutating func detentLabels(_ item: WireframeModel.Item, _ fr: Rect, _ content: Rect, stroke: String) {
        let blocking = blockers(owner: item.index)
        for d in item.detents {
            let y = fr.maxY - d.height
            let selected = d.name == item.selectedDetent
            let lines = wrapped(
                m.detentLabel(d, selected: selected), width: content.width - 16 * u, size: PictureLayout.smallSize,
                bold: selected, fill: stroke, cls: "detent-label")
            let h = blockSize(lines).height
            let left = content.x + 8 * u
            let right = content.maxX - 8 * u
            let above = y - 2 * u - h
            let below = y + 2 * u
            let candidates = [(right, above, true), (left, above, false), (right, below, true), (left, below, false)]
            // In its own frame (the drag indicator and the toolbar are kept free as labels are).
            if place(lines, at: candidates, within: fr, blockers: blocking, owner: item.index, halo: true) {
                continue
            }
            // A line at or beyond the sheet's edge: its label beside it in the window, over no other
            // placement at all.
            place(
                lines, at: candidates, within: windowRect, blockers: blockers(except: item.index), owner: item.index,
                halo: true)
        }
    }
}

extension WireframeModel {
    /// A scrim behind a placement that dims, and behind a modal panel (tapping outside dismisses it).
    func drawsScrim(_ item: Item) -> Bool {
        item.presented && item.frame != nil
            && (item.dimsBackground || (item.kind == .adaptivePanel && item.tapOutsideToDismiss))
    }

    /// Detent lines of a sheet with a selected detent, unless a later sheet in the same column covers
    /// them (their lines would run over the later one's).
    func drawsDetentLines(_ item: Item) -> Bool {
        guard item.presented, let fr = item.frame, item.selectedDetent != nil, !item.detents.isEmpty else {
            return false
        }
        return !items.contains { other in
            guard other.index > item.index, other.presented, other.selectedDetent != nil, !other.detents.isEmpty,
                let o = other.frame
            else { return false }
            return o.minX < fr.maxX && fr.minX < o.maxX
        }
    }

    /// "medium · 422 · selected"; a `{"height"}` detent's name already is its height.
    func detentLabel(_ d: DetentLine, selected: Bool) -> String {
        (d.name.hasSuffix("pt") ? d.name : "\(d.name) · \(SVGNumber.format(d.height))")
            + (selected ? " · selected" : "")
    }

    func descriptor(_ item: Item) -> String {
        var parts = [item.styleName ?? item.kindName]
        if let a = item.adaptedFrom { parts[0] += " (from \(a))" }
        if let fr = item.frame { parts.append("\(SVGNumber.format(fr.width))×\(SVGNumber.format(fr.height))") }
        if let p = item.placementResolved { parts.append(p) }
        return parts.joined(separator: " · ")
    }

    func behaviour(_ item: Item) -> String {
        var parts: [String] = []
        parts.append(item.dimsBackground ? "dims" : "no dim")
        if let s = item.swipeToDismiss { parts.append(s ? "swipe" : "no swipe") }
        if item.tapOutsideToDismiss { parts.append("tap out") }
        if item.backgroundInteractive == true { parts.append("bg interactive") }
        if let e = item.transitionEdge { parts.append("from \(e)") }
        return parts.joined(separator: " · ")
    }
}
