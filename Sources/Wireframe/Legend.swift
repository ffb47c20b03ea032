import LayoutEngine

extension WireframeModel {
    /// Lines of the legend (not yet escaped), wrapped to `width` pixels of text of `size`; a line starting
    /// with "#" is a heading.
    func legendLines(width: Double, size: Double) -> [String] {
        var lines: [String] = []
        func add(_ s: String) {
            let indent = "   "
            let rest = width - SVGText.width(indent, size: size)
            for (i, l) in SVGText.wrap(s, width: rest, size: size).enumerated() {
                lines.append(i == 0 ? l : indent + l)
            }
        }
        func section(_ heading: String) {
            if !lines.isEmpty { lines.append("") }
            lines.append("#" + heading)
        }
        section("Presentations")
        if items.isEmpty { lines.append("none") }
        for item in items { add(legendEntry(item)) }
        let key = keyEntries
        if !key.isEmpty {
            section("Key")
            add(key.joined(separator: " · "))
        }
        if let a = arrangement {
            section("Arrangement")
            add(arrangementEntry(a))
        }
        if !notes.isEmpty {
            section("Diagnostics")
            let limit = 24
            for n in notes.prefix(limit) {
                let who = n.presentation.map { " [\($0)]" } ?? ""
                add("\(n.warning ? "!" : "i") \(n.code)\(who): \(n.message)")
            }
            if notes.count > limit { lines.append("… \(notes.count - limit) more") }
        }
        return lines
    }

    /// "1. filters — sheet → bottomSheet, 390×422 · detents medium 422 (selected), large 797".
    func legendEntry(_ item: Item) -> String {
        guard item.presented else {
            let code = DiagnosticCode.concurrentPresentation.rawValue
            let why = notes.first { $0.presentation == item.id && $0.code == code }
            return "\(item.index + 1). \(item.id) — \(item.kindName) IGNORED, not drawn"
                + (why != nil ? " (\(code))" : "")
        }
        let size =
            item.frame.map { "\(SVGNumber.format($0.width))×\($0.height == 0 ? "0" : SVGNumber.format($0.height))" }
            ?? "no frame"
        let region = item.region.map { " in the \($0) region" } ?? ""
        var s = "\(item.index + 1). \(item.id) — \(item.kindName) → \(item.styleName ?? "?")\(region), \(size)"
        if !item.detents.isEmpty {
            let detents = item.detents.map { d in
                (d.name.hasSuffix("pt") ? d.name : "\(d.name) \(SVGNumber.format(d.height))")
                    + (d.name == item.selectedDetent ? " (selected)" : "")
            }
            s += " · detents " + detents.joined(separator: ", ")
        }
        return s
    }

    func arrangementEntry(_ a: Arrangement) -> String {
        var s = a.style.rawValue
        if let axis = a.axis { s += " · axis \(axis.rawValue)" }
        if a.separated { s += " · separated by the fold" }
        for (name, v) in [("primary", a.primary), ("secondary", a.secondary)] {
            if v.visible, let fr = v.frame {
                s += " · \(name) \(SVGNumber.format(fr.width))×\(SVGNumber.format(fr.height))"
                if let z = v.zIndex { s += " z\(SVGNumber.format(z))" }
            } else {
                s += " · \(name) hidden"
            }
        }
        return s
    }

    /// What each mark means, for the marks this picture has and no others.
    var keyEntries: [String] {
        var key: [String] = []
        let drawn = items.filter { $0.presented && $0.frame != nil }
        let safe = window.width - safeLeft - safeRight > 0 && window.height - safeTop - safeBottom > 0
        if hasSafeArea, safe { key.append("dashed grey: safe area") }
        if fold != nil { key.append("hatched: \(foldDescription)") }
        if separating { key.append("tinted: the fold's regions") }
        if let a = arrangement, a.primary.visible || a.secondary.visible {
            key.append("dotted outlines: the arrangement's views")
        }
        if drawn.contains(where: drawsScrim) { key.append("grey wash: dimmed background") }
        if drawn.contains(where: drawsDetentLines) {
            key.append("dashed coloured lines: detents, from the sheet's bottom")
        }
        if drawn.contains(where: { $0.toolbarOrientation != nil && !$0.toolbar.isEmpty }) {
            key.append("chips in a bar: toolbar items")
        }
        if drawn.contains(where: { $0.arrowEdge != nil && $0.style == .popover }) {
            key.append("triangle: the popover's arrow, at its anchor")
        }
        return key
    }
}

extension WireframeCanvas {
    mutating func legend(_ lines: [String], x: Double, y: Double) {
        out += "<g class=\"\(c("legend"))\">\n"
        var ly = y + PictureLayout.legendSize * u
        var section = ""
        for line in lines {
            if line.hasPrefix("#") {
                section = String(line.dropFirst())
                text(
                    x, ly, String(line.dropFirst()), size: PictureLayout.legendSize + 0.5, bold: true, fill: "#111827",
                    cls: "legend-heading")
            } else if !line.isEmpty {
                let warn = line.hasPrefix("! ")
                // A continuation line is indented by its leading spaces (which SVG text would collapse).
                let body = line.drop { $0 == " " }
                let indent = SVGText.width(String(line.prefix(line.count - body.count)), size: PictureLayout.legendSize)
                text(
                    x + indent * u, ly, String(body), size: PictureLayout.legendSize,
                    fill: warn ? "#b45309" : "#374151",
                    cls: section == "Key" ? "legend-key" : "legend-item")
            }
            ly += PictureLayout.legendLine * u
        }
        out += "</g>\n"
    }
}
