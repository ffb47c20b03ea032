import JSON

/// A direct encoder of a `Resolution` into bytes, byte-identical to `JSONWriter.encode(resolution.json)`
/// (members written in sorted order, numbers and strings through the writer's own formatting) without
/// building the intermediate tree. The tests compare both on every golden and random scene.
extension Resolution {
    public func encode(into buffer: inout [UInt8]) {
        var w = ByteWriter(buffer: buffer)
        buffer = []
        w.resolution(self)
        buffer = w.buffer
    }

    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024 + 768 * placements.count + 256 * diagnostics.count)
        encode(into: &buffer)
        return buffer
    }
}

private struct ByteWriter {
    var buffer: [UInt8]

    @inline(__always) mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }
    /// `s` is the member's opening: `{"key":` or `,"key":`.
    @inline(__always) mutating func key(_ s: StaticString) { raw(s) }
    @inline(__always) mutating func number(_ d: Double) { JSONWriter.appendNumber(d, to: &buffer) }
    @inline(__always) mutating func string(_ s: String) { JSONWriter.appendString(s, to: &buffer) }
    @inline(__always) mutating func bool(_ b: Bool) { raw(b ? "true" : "false") }
    @inline(__always) mutating func null() { raw("null") }
    @inline(__always) mutating func name<R: RawRepresentable>(_ v: R) where R.RawValue == String { string(v.rawValue) }
    @inline(__always) mutating func name<R: RawRepresentable>(_ v: R?) where R.RawValue == String {
        if let v { string(v.rawValue) } else { null() }
    }
    @inline(__always) mutating func bool(_ b: Bool?) {
        if let b { bool(b) } else { null() }
    }

    mutating func rect(_ r: Rect) {
        key("{\"height\":")
        number(r.height)
        key(",\"width\":")
        number(r.width)
        key(",\"x\":")
        number(r.x)
        key(",\"y\":")
        number(r.y)
        raw("}")
    }

    mutating func rect(_ r: Rect?) {
        if let r { rect(r) } else { null() }
    }

    mutating func sizeClass(_ s: SizeClassPair) {
        key("{\"horizontal\":")
        name(s.horizontal)
        key(",\"vertical\":")
        name(s.vertical)
        raw("}")
    }

    mutating func detent(_ d: Detent) {
        switch d {
        case .medium: raw("\"medium\"")
        case .large: raw("\"large\"")
        case .fitted: raw("\"fitted\"")
        case .height(let h):
            key("{\"height\":")
            number(h)
            raw("}")
        case .fraction(let f):
            key("{\"fraction\":")
            number(f)
            raw("}")
        }
    }

    mutating func resolution(_ r: Resolution) {
        key("{\"arrangement\":")
        if let a = r.arrangement { arrangement(a) } else { null() }
        key(",\"diagnostics\":[")
        for (i, d) in r.diagnostics.enumerated() {
            if i > 0 { raw(",") }
            diagnostic(d)
        }
        key("],\"engineVersion\":")
        string(Resolution.engineVersion)
        key(",\"environment\":")
        environment(r.environment)
        key(",\"placements\":[")
        for (i, p) in r.placements.enumerated() {
            if i > 0 { raw(",") }
            placement(p)
        }
        raw("]}")
    }

    mutating func diagnostic(_ d: Diagnostic) {
        key("{\"code\":")
        string(d.code.rawValue)
        key(",\"message\":")
        string(d.message)
        key(",\"path\":")
        string(d.path)
        key(",\"presentation\":")
        if let p = d.presentation { string(p) } else { null() }
        key(",\"severity\":")
        name(d.severity)
        raw("}")
    }

    mutating func environment(_ e: ResolvedEnvironment) {
        key("{\"device\":")
        if let d = e.device { string(d) } else { null() }
        key(",\"display\":")
        if let d = e.display { string(d) } else { null() }
        key(",\"dynamicTypeSize\":")
        name(e.dynamicTypeSize)
        key(",\"fold\":")
        if let f = e.fold {
            key("{\"bounds\":")
            rect(f.bounds)
            key(",\"orientation\":")
            name(f.orientation)
            key(",\"separating\":")
            bool(f.separating)
            key(",\"state\":")
            name(f.state)
            raw("}")
        } else {
            null()
        }
        key(",\"layoutDirection\":")
        name(e.layoutDirection)
        key(",\"orientation\":")
        name(e.orientation)
        key(",\"posture\":")
        name(e.posture)
        key(",\"regions\":[")
        for (i, r) in e.regions.enumerated() {
            if i > 0 { raw(",") }
            key("{\"frame\":")
            rect(r.frame)
            key(",\"side\":")
            name(r.side)
            key(",\"sizeClass\":")
            sizeClass(r.sizeClass)
            raw("}")
        }
        key("],\"safeArea\":{\"bottom\":")
        number(e.safeArea.bottom)
        key(",\"leading\":")
        number(e.safeArea.leading)
        key(",\"top\":")
        number(e.safeArea.top)
        key(",\"trailing\":")
        number(e.safeArea.trailing)
        key("},\"sizeClass\":")
        sizeClass(e.sizeClass)
        key(",\"window\":")
        rect(e.window)
        key(",\"windowClass\":{\"height\":")
        name(e.windowClass.height)
        key(",\"width\":")
        name(e.windowClass.width)
        raw("}}")
    }

    mutating func placement(_ p: Placement) {
        key("{\"adaptedFrom\":")
        name(p.adaptedFrom)
        key(",\"arrowEdge\":")
        name(p.arrowEdge)
        key(",\"backgroundInteractive\":")
        bool(p.backgroundInteractive)
        key(",\"contentAxis\":")
        name(p.contentAxis)
        key(",\"cornerRadii\":")
        if let c = p.cornerRadii {
            key("{\"bottomLeading\":")
            number(c.bottomLeading)
            key(",\"bottomTrailing\":")
            number(c.bottomTrailing)
            key(",\"topLeading\":")
            number(c.topLeading)
            key(",\"topTrailing\":")
            number(c.topTrailing)
            raw("}")
        } else {
            null()
        }
        key(",\"detents\":")
        if let ds = p.detents {
            raw("[")
            for (i, d) in ds.enumerated() {
                if i > 0 { raw(",") }
                key("{\"detent\":")
                detent(d.detent)
                key(",\"height\":")
                number(d.height)
                raw("}")
            }
            raw("]")
        } else {
            null()
        }
        key(",\"dimsBackground\":")
        bool(p.dimsBackground)
        key(",\"dragIndicatorVisible\":")
        bool(p.dragIndicatorVisible)
        key(",\"frame\":")
        rect(p.frame)
        key(",\"id\":")
        string(p.id)
        key(",\"kind\":")
        name(p.kind)
        key(",\"placement\":")
        if let c = p.placement {
            key("{\"requested\":")
            name(c.requested)
            key(",\"resolved\":")
            name(c.resolved)
            raw("}")
        } else {
            null()
        }
        key(",\"region\":")
        name(p.region)
        key(",\"selectedDetent\":")
        if let d = p.selectedDetent { detent(d) } else { null() }
        key(",\"status\":")
        name(p.status)
        key(",\"style\":")
        name(p.style)
        key(",\"swipeToDismiss\":")
        bool(p.swipeToDismiss)
        key(",\"tapOutsideToDismiss\":")
        bool(p.tapOutsideToDismiss)
        key(",\"toolbarOrientation\":")
        name(p.toolbarOrientation)
        key(",\"transitionEdge\":")
        name(p.transitionEdge)
        raw("}")
    }

    mutating func arrangedView(_ v: ArrangedView) {
        key("{\"frame\":")
        rect(v.frame)
        key(",\"region\":")
        name(v.region)
        key(",\"visible\":")
        bool(v.visible)
        key(",\"zIndex\":")
        if let z = v.zIndex { number(z) } else { null() }
        raw("}")
    }

    mutating func arrangement(_ a: ResolvedArrangement) {
        key("{\"axis\":")
        name(a.axis)
        key(",\"primary\":")
        arrangedView(a.primary)
        key(",\"secondary\":")
        arrangedView(a.secondary)
        key(",\"separated\":")
        bool(a.separated)
        key(",\"style\":")
        name(a.style)
        raw("}")
    }
}
