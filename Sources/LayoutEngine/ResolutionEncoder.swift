import JSON

/// A direct encoder of a `Resolution` into bytes, byte-identical to `JSONWriter.encode(resolution.json)`
/// (members written in sorted order, numbers and strings through the same `ByteSink` formatting) without
/// building the intermediate tree. The tests compare both on every golden and random scene.
extension Resolution {
    /// Appends the response body to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: encoded)
    }

    /// The response body: the same bytes as `JSONWriter.encode(json)`. Copied out of the sink into a new array:
    /// an array made for the sink to write into (`Array(unsafeUninitializedCapacity:)`) is allocated by the
    /// standard library's unspecialised code, which looks up the array's storage type in the runtime's shared
    /// metadata cache on every response (see BENCHMARKS.md).
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
    /// The case's quoted name, copied from its table (`WireNameTables`).
    @inline(__always) fileprivate mutating func name<R: WireNamed>(_ v: R, _ t: WireNameTables) {
        let table = t.quoted(R.self)
        if table.usable { append(table.name(v.ordinal)) } else { writeCleanString(v.rawValue) }
    }
    @inline(__always) fileprivate mutating func name<R: WireNamed>(_ v: R?, _ t: WireNameTables) {
        if let v { name(v, t) } else { null() }
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

    fileprivate mutating func sizeClass(_ s: SizeClassPair, _ t: WireNameTables) {
        append("{\"horizontal\":")
        name(s.horizontal, t)
        append(",\"vertical\":")
        name(s.vertical, t)
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
        // The name tables, looked up once per response and handed down: a `static let` read at each name
        // written is a `swift_once` call each time (about 45 per typical response).
        let t = WireNameTables.shared
        append("{\"arrangement\":")
        if let a = r.arrangement { arrangement(a, t) } else { null() }
        if let c = r.constantSet {
            append(",\"constantSet\":")
            writeString(c)
        }
        append(",\"diagnostics\":[")
        // By index, here and below: `enumerated()` hands out (offset, element) pairs whose destruction goes
        // through the runtime's generic witnesses, about 150 instructions per element. The diagnostics are read
        // where they are stored, through the array's buffer (`borrowing`): the array's subscript copies each
        // one, retaining and releasing its strings.
        r.diagnostics.withUnsafeBufferPointer { all in
            for i in all.indices {
                if i > 0 { append(",") }
                diagnostic(all[i], t)
            }
        }
        append("],\"engineVersion\":")
        writeCleanString(Resolution.engineVersion)
        append(",\"environment\":")
        environment(r.environment, t)
        append(",\"placements\":[")
        for i in r.placements.indices {
            if i > 0 { append(",") }
            placement(r.placements[i], t)
        }
        append("]}")
    }

    fileprivate mutating func diagnostic(_ d: borrowing Diagnostic, _ t: WireNameTables) {
        append("{\"code\":")
        name(d.code, t)
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
        name(d.severity, t)
        append("}")
    }

    fileprivate mutating func environment(_ e: ResolvedEnvironment, _ t: WireNameTables) {
        append("{\"device\":")
        if let d = e.device { writeString(d) } else { null() }
        append(",\"display\":")
        if let d = e.display { writeString(d) } else { null() }
        append(",\"dynamicTypeSize\":")
        name(e.dynamicTypeSize, t)
        append(",\"fold\":")
        if let f = e.fold {
            append("{\"bounds\":")
            rect(f.bounds)
            append(",\"orientation\":")
            name(f.orientation, t)
            append(",\"separating\":")
            bool(f.separating)
            append(",\"state\":")
            name(f.state, t)
            append("}")
        } else {
            null()
        }
        append(",\"layoutDirection\":")
        name(e.layoutDirection, t)
        append(",\"orientation\":")
        name(e.orientation, t)
        append(",\"posture\":")
        name(e.posture, t)
        append(",\"regions\":[")
        for i in e.regions.indices {
            let r = e.regions[i]
            if i > 0 { append(",") }
            append("{\"frame\":")
            rect(r.frame)
            append(",\"side\":")
            name(r.side, t)
            append(",\"sizeClass\":")
            sizeClass(r.sizeClass, t)
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
        sizeClass(e.sizeClass, t)
        append(",\"window\":")
        rect(e.window)
        append(",\"windowClass\":{\"height\":")
        name(e.windowClass.height, t)
        append(",\"width\":")
        name(e.windowClass.width, t)
        append("}}")
    }

    fileprivate mutating func placement(_ p: Placement, _ t: WireNameTables) {
        append("{\"adaptedFrom\":")
        name(p.adaptedFrom, t)
        append(",\"arrowEdge\":")
        name(p.arrowEdge, t)
        append(",\"backgroundInteractive\":")
        bool(p.backgroundInteractive)
        append(",\"contentAxis\":")
        name(p.contentAxis, t)
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
            for i in ds.indices {
                let d = ds[i]
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
        name(p.kind, t)
        append(",\"placement\":")
        if let c = p.placement {
            append("{\"requested\":")
            name(c.requested, t)
            append(",\"resolved\":")
            name(c.resolved, t)
            append("}")
        } else {
            null()
        }
        append(",\"region\":")
        name(p.region, t)
        append(",\"selectedDetent\":")
        if let d = p.selectedDetent { detent(d) } else { null() }
        append(",\"status\":")
        name(p.status, t)
        append(",\"style\":")
        name(p.style, t)
        append(",\"swipeToDismiss\":")
        bool(p.swipeToDismiss)
        append(",\"tapOutsideToDismiss\":")
        bool(p.tapOutsideToDismiss)
        append(",\"toolbarOrientation\":")
        name(p.toolbarOrientation, t)
        append(",\"transitionEdge\":")
        name(p.transitionEdge, t)
        append("}")
    }

    fileprivate mutating func arrangedView(_ v: ArrangedView, _ t: WireNameTables) {
        append("{\"frame\":")
        rect(v.frame)
        append(",\"region\":")
        name(v.region, t)
        append(",\"visible\":")
        bool(v.visible)
        append(",\"zIndex\":")
        if let z = v.zIndex { number(z) } else { null() }
        append("}")
    }

    fileprivate mutating func arrangement(_ a: ResolvedArrangement, _ t: WireNameTables) {
        append("{\"axis\":")
        name(a.axis, t)
        append(",\"primary\":")
        arrangedView(a.primary, t)
        append(",\"secondary\":")
        arrangedView(a.secondary, t)
        append(",\"separated\":")
        bool(a.separated)
        append(",\"style\":")
        name(a.style, t)
        append("}")
    }
}
