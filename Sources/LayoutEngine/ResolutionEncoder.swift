import JSON

/// A direct encoder of a `Resolution` into bytes, byte-identical to `JSONWriter.encode(resolution.json)`
/// (members written in sorted order, numbers and strings through the same `ByteSink` formatting) without
/// building the intermediate tree. The tests compare both on every golden and random scene.
extension Resolution {
    /// Appends the response body to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: encoded)
    }

    /// The response body: the same bytes as `JSONWriter.encode(json)`.
    public var encoded: [UInt8] {
        var out = ByteSink(capacity: 1024 + 1024 * placements.count + 384 * diagnostics.count)
        out.resolution(self)
        return out.array
    }
}

/// Diagnostic messages and paths render straight into the response: literal pieces and values escaped.
extension ByteSink: DiagnosticTextSink {
    @inline(__always) mutating func put(_ s: StaticString) {
        writeEscaped(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always) mutating func put(text s: String) { writeEscaped(s) }
}

/// The members of a resolution, each object's in sorted key order: `append` writes a member's opening
/// (`{"key":` or `,"key":`) and punctuation as they are.
extension ByteSink {
    /// One out-of-line copy of the number formatting for the encoder's many call sites.
    @inline(never) fileprivate mutating func number(_ d: Double) { writeNumber(d) }

    @inline(__always) fileprivate mutating func bool(_ b: Bool) { append(b ? "true" : "false") }
    @inline(__always) fileprivate mutating func null() { append("null") }
    @inline(__always) fileprivate mutating func name<R: RawRepresentable>(_ v: R) where R.RawValue == String {
        writeCleanString(v.rawValue)
    }
    @inline(__always) fileprivate mutating func name<R: RawRepresentable>(_ v: R?) where R.RawValue == String {
        if let v { writeCleanString(v.rawValue) } else { null() }
    }
    @inline(__always) fileprivate mutating func bool(_ b: Bool?) {
        if let b { bool(b) } else { null() }
    }

    fileprivate mutating func rect(_ r: Rect) {
        append("{\"height\":")
        number(r.height)
        append(",\"width\":")
        number(r.width)
        append(",\"x\":")
        number(r.x)
        append(",\"y\":")
        number(r.y)
        append("}")
    }

    fileprivate mutating func rect(_ r: Rect?) {
        if let r { rect(r) } else { null() }
    }

    fileprivate mutating func sizeClass(_ s: SizeClassPair) {
        append("{\"horizontal\":")
        name(s.horizontal)
        append(",\"vertical\":")
        name(s.vertical)
        append("}")
    }

    fileprivate mutating func detent(_ d: Detent) {
        switch d {
        case .medium: append("\"medium\"")
        case .large: append("\"large\"")
        case .fitted: append("\"fitted\"")
        case .height(let h):
            append("{\"height\":")
            number(h)
            append("}")
        case .fraction(let f):
            append("{\"fraction\":")
            number(f)
            append("}")
        }
    }

    fileprivate mutating func resolution(_ r: Resolution) {
        append("{\"arrangement\":")
        if let a = r.arrangement { arrangement(a) } else { null() }
        append(",\"diagnostics\":[")
        for (i, d) in r.diagnostics.enumerated() {
            if i > 0 { append(",") }
            diagnostic(d)
        }
        append("],\"engineVersion\":")
        writeCleanString(Resolution.engineVersion)
        append(",\"environment\":")
        environment(r.environment)
        append(",\"placements\":[")
        for (i, p) in r.placements.enumerated() {
            if i > 0 { append(",") }
            placement(p)
        }
        append("]}")
    }

    fileprivate mutating func diagnostic(_ d: Diagnostic) {
        append("{\"code\":")
        name(d.code)
        append(",\"message\":")
        append(UInt8(ascii: "\""))
        d.text.render(into: &self)
        append(UInt8(ascii: "\""))
        append(",\"path\":")
        append(UInt8(ascii: "\""))
        d.pathParts.render(into: &self)
        append(UInt8(ascii: "\""))
        append(",\"presentation\":")
        if let p = d.presentation { writeString(p) } else { null() }
        append(",\"severity\":")
        name(d.severity)
        append("}")
    }

    fileprivate mutating func environment(_ e: ResolvedEnvironment) {
        append("{\"device\":")
        if let d = e.device { writeString(d) } else { null() }
        append(",\"display\":")
        if let d = e.display { writeString(d) } else { null() }
        append(",\"dynamicTypeSize\":")
        name(e.dynamicTypeSize)
        append(",\"fold\":")
        if let f = e.fold {
            append("{\"bounds\":")
            rect(f.bounds)
            append(",\"orientation\":")
            name(f.orientation)
            append(",\"separating\":")
            bool(f.separating)
            append(",\"state\":")
            name(f.state)
            append("}")
        } else {
            null()
        }
        append(",\"layoutDirection\":")
        name(e.layoutDirection)
        append(",\"orientation\":")
        name(e.orientation)
        append(",\"posture\":")
        name(e.posture)
        append(",\"regions\":[")
        for (i, r) in e.regions.enumerated() {
            if i > 0 { append(",") }
            append("{\"frame\":")
            rect(r.frame)
            append(",\"side\":")
            name(r.side)
            append(",\"sizeClass\":")
            sizeClass(r.sizeClass)
            append("}")
        }
        append("],\"safeArea\":{\"bottom\":")
        number(e.safeArea.bottom)
        append(",\"leading\":")
        number(e.safeArea.leading)
        append(",\"top\":")
        number(e.safeArea.top)
        append(",\"trailing\":")
        number(e.safeArea.trailing)
        append("},\"sizeClass\":")
        sizeClass(e.sizeClass)
        append(",\"window\":")
        rect(e.window)
        append(",\"windowClass\":{\"height\":")
        name(e.windowClass.height)
        append(",\"width\":")
        name(e.windowClass.width)
        append("}}")
    }

    fileprivate mutating func placement(_ p: Placement) {
        append("{\"adaptedFrom\":")
        name(p.adaptedFrom)
        append(",\"arrowEdge\":")
        name(p.arrowEdge)
        append(",\"backgroundInteractive\":")
        bool(p.backgroundInteractive)
        append(",\"contentAxis\":")
        name(p.contentAxis)
        append(",\"cornerRadii\":")
        if let c = p.cornerRadii {
            append("{\"bottomLeading\":")
            number(c.bottomLeading)
            append(",\"bottomTrailing\":")
            number(c.bottomTrailing)
            append(",\"topLeading\":")
            number(c.topLeading)
            append(",\"topTrailing\":")
            number(c.topTrailing)
            append("}")
        } else {
            null()
        }
        append(",\"detents\":")
        if let ds = p.detents {
            append("[")
            for (i, d) in ds.enumerated() {
                if i > 0 { append(",") }
                append("{\"detent\":")
                detent(d.detent)
                append(",\"height\":")
                number(d.height)
                append("}")
            }
            append("]")
        } else {
            null()
        }
        append(",\"dimsBackground\":")
        bool(p.dimsBackground)
        append(",\"dragIndicatorVisible\":")
        bool(p.dragIndicatorVisible)
        append(",\"frame\":")
        rect(p.frame)
        append(",\"id\":")
        writeString(p.id)
        append(",\"kind\":")
        name(p.kind)
        append(",\"placement\":")
        if let c = p.placement {
            append("{\"requested\":")
            name(c.requested)
            append(",\"resolved\":")
            name(c.resolved)
            append("}")
        } else {
            null()
        }
        append(",\"region\":")
        name(p.region)
        append(",\"selectedDetent\":")
        if let d = p.selectedDetent { detent(d) } else { null() }
        append(",\"status\":")
        name(p.status)
        append(",\"style\":")
        name(p.style)
        append(",\"swipeToDismiss\":")
        bool(p.swipeToDismiss)
        append(",\"tapOutsideToDismiss\":")
        bool(p.tapOutsideToDismiss)
        append(",\"toolbarOrientation\":")
        name(p.toolbarOrientation)
        append(",\"transitionEdge\":")
        name(p.transitionEdge)
        append("}")
    }

    fileprivate mutating func arrangedView(_ v: ArrangedView) {
        append("{\"frame\":")
        rect(v.frame)
        append(",\"region\":")
        name(v.region)
        append(",\"visible\":")
        bool(v.visible)
        append(",\"zIndex\":")
        if let z = v.zIndex { number(z) } else { null() }
        append("}")
    }

    fileprivate mutating func arrangement(_ a: ResolvedArrangement) {
        append("{\"axis\":")
        name(a.axis)
        append(",\"primary\":")
        arrangedView(a.primary)
        append(",\"secondary\":")
        arrangedView(a.secondary)
        append(",\"separated\":")
        bool(a.separated)
        append(",\"style\":")
        name(a.style)
        append("}")
    }
}
