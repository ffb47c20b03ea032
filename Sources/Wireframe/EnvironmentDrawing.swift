import LayoutEngine

/// The window, its safe area, the fold and its regions, and the arrangement's views.
extension WireframeCanvas {
    var windowRect: Rect { Rect(x: 0, y: 0, width: m.window.width, height: m.window.height) }

    mutating func windowAndSafeArea() {
        let winW = m.window.width
        let winH = m.window.height
        out += "<rect class=\"\(c("window-frame"))\" x=\"0\" y=\"0\" width=\"\(f(winW))\" height=\"\(f(winH))\" "
        out += "fill=\"#f9fafb\" stroke=\"#111827\" stroke-width=\"\(f(2 * u))\"/>\n"
        if let s = safeRect {
            out += "<rect class=\"\(c("safe-area"))\" x=\"\(f(s.x))\" y=\"\(f(s.y))\" width=\"\(f(s.width))\" "
            out += "height=\"\(f(s.height))\" fill=\"none\" stroke=\"#9ca3af\" stroke-width=\"\(f(1 * u))\" "
            out += "stroke-dasharray=\"\(f(5 * u)) \(f(4 * u))\"/>\n"
        }
    }

    /// The safe area when it differs from the window and is not empty.
    var safeRect: Rect? {
        let sw = m.window.width - m.safeLeft - m.safeRight
        let sh = m.window.height - m.safeTop - m.safeBottom
        guard sw > 0, sh > 0, m.hasSafeArea else { return nil }
        return Rect(x: m.safeLeft, y: m.safeTop, width: sw, height: sh)
    }

    /// Tints of a separating fold's regions (their names are above the window, in the header).
    mutating func regions() {
        guard m.separating else { return }
        for (i, r) in m.regions.enumerated() {
            out += "<rect class=\"\(c("region"))\" x=\"\(f(r.frame.x))\" y=\"\(f(r.frame.y))\" "
            out += "width=\"\(f(r.frame.width))\" height=\"\(f(r.frame.height))\" "
            out += "fill=\"\(i == 0 ? "#eaf2fd" : "#f1edfd")\"/>\n"
        }
    }

    /// The hinge band, over the arrangement's views and under the placements.
    mutating func foldBand() {
        guard let fold = m.fold else { return }
        let b = band(fold)
        out += "<rect class=\"\(c("fold"))\" x=\"\(f(b.x))\" y=\"\(f(b.y))\" width=\"\(f(b.width))\" "
        out += "height=\"\(f(b.height))\" fill=\"url(#\(c("hatch")))\" "
        out += "fill-opacity=\"\(fold.separating ? "0.6" : "0.25")\" "
        out += "stroke=\"#6b7280\" stroke-width=\"\(f(0.75 * u))\"/>\n"
    }

    /// The fold's band, at least 8 px wide so that a seamless fold (a 0-wide band) shows.
    func band(_ fold: WireframeModel.FoldBand) -> Rect {
        let b = fold.bounds
        let minBand = 8 * u
        switch fold.orientation {
        case .vertical where b.width < minBand:
            return Rect(x: b.midX - minBand / 2, y: b.y, width: minBand, height: b.height)
        case .horizontal where b.height < minBand:
            return Rect(x: b.x, y: b.midY - minBand / 2, width: b.width, height: minBand)
        default:
            return b
        }
    }

    /// A pill beside the band, where no placement and no label is; otherwise only the legend's key
    /// describes the fold.
    mutating func foldLabel() {
        guard let fold = m.fold else { return }
        let b = band(fold)
        let text = m.foldDescription
        let w = pillWidth(text)
        let h = (PictureLayout.smallSize + 7) * u
        let g = 4 * u
        let low = m.window.height - m.safeBottom - h - 8 * u
        let high = m.safeTop + 8 * u
        let candidates: [(Double, Double)] =
            fold.orientation == .vertical
            ? [(b.maxX + g, low), (b.minX - g - w, low), (b.maxX + g, high), (b.minX - g - w, high)]
            : [
                (m.window.width - w - 8 * u, b.maxY + g), (8 * u, b.maxY + g),
                (m.window.width - w - 8 * u, b.minY - g - h),
            ]
        let blocking = blockers(owner: nil)
        for (x, y) in candidates {
            let r = Rect(x: x, y: y, width: w, height: h)
            guard free(r, within: windowRect, blockers: blocking) else { continue }
            labelBoxes.append(r)
            labelGroup(r, owner: nil)
            pill(x, y, text, fill: "#374151", cls: "fold-label")
            out += "</g>\n"
            return
        }
    }

    mutating func arrangement() {
        guard let a = m.arrangement else { return }
        // Back to front: the higher zIndex last.
        var views: [(name: String, view: WireframeModel.View, fill: String, stroke: String)] = [
            ("primary", a.primary, "#e6f2e4", "#3f7a3a"), ("secondary", a.secondary, "#fbf1dc", "#8a6416"),
        ]
        if (a.secondary.zIndex ?? 0) < (a.primary.zIndex ?? 0) { views.reverse() }
        let overlaid = a.style == .overlay && !a.separated
        for v in views {
            guard v.view.visible, let fr = v.view.frame else { continue }
            out += "<rect class=\"\(c("arranged"))\" data-view=\"\(v.name)\" x=\"\(f(fr.x))\" y=\"\(f(fr.y))\" "
            out += "width=\"\(f(fr.width))\" height=\"\(f(fr.height))\" fill=\"\(v.fill)\" "
            out += "fill-opacity=\"\(overlaid ? "0.6" : "1")\" stroke=\"\(v.stroke)\" stroke-width=\"\(f(1.25 * u))\" "
            out += "stroke-dasharray=\"\(f(2 * u)) \(f(2 * u))\"/>\n"
        }
        // Labels inside each view, front view first, where no placement covers them.
        let blocking = blockers(owner: nil)
        for v in views.reversed() {
            guard v.view.visible, let fr = v.view.frame else { continue }
            let inner = fr.inset(
                top: max(m.safeTop - fr.y, 0), bottom: max(fr.maxY - (m.window.height - m.safeBottom), 0))
            let z = v.view.zIndex.map { " · z\(f($0))" } ?? ""
            let lines = wrapped(
                "\(v.name) · \(f(fr.width))×\(f(fr.height))\(z)", width: inner.width - 16 * u,
                size: PictureLayout.textSize, bold: true, fill: v.stroke, cls: "arranged-label")
            place(lines, at: scan(inner, height: blockSize(lines).height), within: inner, blockers: blocking)
        }
        if !a.secondary.visible, let fr = a.primary.frame {
            let lines = wrapped(
                "secondary hidden", width: fr.width - 16 * u, size: PictureLayout.textSize, italic: true,
                fill: "#8a6416", cls: "arranged-label")
            let h = blockSize(lines).height
            let y = max(fr.y, m.safeTop)
            place(
                lines,
                at: [
                    (fr.x + 8 * u, y + 30 * u, false),
                    (fr.x + 8 * u, min(fr.maxY, m.window.height - m.safeBottom) - h - 30 * u, false),
                ],
                within: fr, blockers: blocking)
        }
    }
}

extension Rect {
    func inset(top: Double = 0, bottom: Double = 0, left: Double = 0, right: Double = 0) -> Rect {
        Rect(
            x: x + left, y: y + top, width: max(width - left - right, 0), height: max(height - top - bottom, 0))
    }
}

extension WireframeModel {
    /// "fold · halfOpened · hinge 20 pt", with "not separating" when it does not separate.
    var foldDescription: String {
        guard let fold else { return "" }
        let thickness = fold.orientation == .vertical ? fold.bounds.width : fold.bounds.height
        return "fold · \(fold.state)" + (thickness > 0 ? " · hinge \(SVGNumber.format(thickness)) pt" : "")
            + (fold.separating ? "" : " · not separating")
    }
}
