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
    @inline(__always) fileprivate mutating func name<R: QuotedNames>(_ v: R) {
        let table = R.quotedNames
        if table.usable { append(table.name(unsafeBitCast(v, to: UInt8.self))) } else { writeCleanString(v.rawValue) }
    }
    @inline(__always) fileprivate mutating func name<R: QuotedNames>(_ v: R?) {
        if let v { name(v) } else { null() }
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
                diagnostic(all[i])
            }
        }
        append("],\"engineVersion\":")
        writeCleanString(Resolution.engineVersion)
        append(",\"environment\":")
        environment(r.environment)
        append(",\"placements\":[")
        for i in r.placements.indices {
            if i > 0 { append(",") }
            placement(r.placements[i])
        }
        append("]}")
    }

    fileprivate mutating func diagnostic(_ d: borrowing Diagnostic) {
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
        for i in e.regions.indices {
            let r = e.regions[i]
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

/// An enumeration the encoder writes by copying its case's quoted name from a table made once from the raw
/// values (`QuotedNames.table`), instead of producing the `rawValue` string and copying its bytes.
protocol QuotedNames: RawRepresentable, CaseIterable where RawValue == String {
    static var quotedNames: QuotedNameTable { get }
}

/// The quoted raw values of an enumeration's cases (`"name"`, quotes included), one buffer for them all,
/// indexed by the case's one-byte tag. Made once per type and never freed. When the cases are not one byte
/// whose values are their positions in `allCases` (the layout of a Swift enumeration without payloads, up to
/// 256 cases, checked when the table is made), `usable` is false and the encoder writes `rawValue`.
final class QuotedNameTable: @unchecked Sendable {
    // @unchecked Sendable: written only in init.
    let usable: Bool
    private let bytes: UnsafeMutablePointer<UInt8>
    /// `starts[i]`…`starts[i + 1]`: case `i`'s bytes.
    private let starts: UnsafeMutablePointer<Int>

    init<E: RawRepresentable & CaseIterable>(_ type: E.Type) where E.RawValue == String {
        let cases = Array(E.allCases)
        let total = cases.reduce(0) { $0 + $1.rawValue.utf8.count + 2 }
        bytes = .allocate(capacity: max(total, 1))
        starts = .allocate(capacity: cases.count + 1)
        var at = 0
        var usable = MemoryLayout<E>.size == 1 && !cases.isEmpty
        for (i, c) in cases.enumerated() {
            starts[i] = at
            bytes[at] = UInt8(ascii: "\"")
            for b in c.rawValue.utf8 {
                at += 1
                bytes[at] = b
            }
            bytes[at + 1] = UInt8(ascii: "\"")
            at += 2
            if usable && Int(unsafeBitCast(c, to: UInt8.self)) != i { usable = false }
        }
        starts[cases.count] = at
        self.usable = usable
    }

    /// The quoted name of the case whose tag is `tag`.
    @inline(__always) func name(_ tag: UInt8) -> UnsafeBufferPointer<UInt8> {
        let i = Int(tag)
        return UnsafeBufferPointer(start: bytes + starts[i], count: starts[i + 1] - starts[i])
    }
}

extension SizeClass: QuotedNames { static let quotedNames = QuotedNameTable(SizeClass.self) }
extension DiagnosticCode: QuotedNames { static let quotedNames = QuotedNameTable(DiagnosticCode.self) }
extension Severity: QuotedNames { static let quotedNames = QuotedNameTable(Severity.self) }
extension DynamicTypeSize: QuotedNames { static let quotedNames = QuotedNameTable(DynamicTypeSize.self) }
extension Axis: QuotedNames { static let quotedNames = QuotedNameTable(Axis.self) }
extension FoldStateName: QuotedNames { static let quotedNames = QuotedNameTable(FoldStateName.self) }
extension LayoutDirection: QuotedNames { static let quotedNames = QuotedNameTable(LayoutDirection.self) }
extension Orientation: QuotedNames { static let quotedNames = QuotedNameTable(Orientation.self) }
extension Posture: QuotedNames { static let quotedNames = QuotedNameTable(Posture.self) }
extension RegionSide: QuotedNames { static let quotedNames = QuotedNameTable(RegionSide.self) }
extension Presentation.Kind: QuotedNames { static let quotedNames = QuotedNameTable(Presentation.Kind.self) }
extension ArrowEdge: QuotedNames { static let quotedNames = QuotedNameTable(ArrowEdge.self) }
extension SheetPlacement: QuotedNames { static let quotedNames = QuotedNameTable(SheetPlacement.self) }
extension ResolvedSheetPlacement: QuotedNames {
    static let quotedNames = QuotedNameTable(ResolvedSheetPlacement.self)
}
extension PlacementStatus: QuotedNames { static let quotedNames = QuotedNameTable(PlacementStatus.self) }
extension PresentationStyle: QuotedNames { static let quotedNames = QuotedNameTable(PresentationStyle.self) }
extension Edge: QuotedNames { static let quotedNames = QuotedNameTable(Edge.self) }
extension ArrangementStyle: QuotedNames { static let quotedNames = QuotedNameTable(ArrangementStyle.self) }
extension MaterialWidthClass: QuotedNames { static let quotedNames = QuotedNameTable(MaterialWidthClass.self) }
extension MaterialHeightClass: QuotedNames { static let quotedNames = QuotedNameTable(MaterialHeightClass.self) }
