import JSON

/// A direct encoder of a `Resolution` into bytes, byte-identical to `JSONWriter.encode(resolution.json)`
/// (members written in sorted order, numbers and strings through the writer's own formatting) without
/// building the intermediate tree. The tests compare both on every golden and random scene.
extension Resolution {
    /// Appends the response body to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: encoded)
    }

    /// The response body: the same bytes as `JSONWriter.encode(json)`.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 1024 + 1024 * placements.count + 384 * diagnostics.count)
        w.resolution(self)
        return w.finish()
    }
}

/// Writes into one growing raw allocation: no per-append uniqueness checks or generic `append(contentsOf:)`
/// calls, which dominated the tree writer's profile. Strings are escaped exactly as `JSONWriter.appendString`
/// does (without `escapeLineTerminators`); integers as `JSONWriter.appendNumber` does, other numbers through it.
private struct ByteWriter: DiagnosticTextSink {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// The bytes written; releases the allocation. A spent writer (capacity 0) owns no memory: writing to
    /// it again allocates afresh (see `grow`), so nothing here needs freeing later (the scene fuzz target runs
    /// under LeakSanitizer).
    mutating func finish() -> [UInt8] {
        let out = Array(UnsafeBufferPointer(start: base, count: count))
        base.deallocate()
        capacity = 0
        count = 0
        return out
    }

    @inline(__always) private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if capacity > 0 {
            fresh.update(from: base, count: count)
            base.deallocate()
        }
        base = fresh
        capacity = newCapacity
    }

    @inline(__always) private mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inline(__always) mutating func raw(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        Self.copyShort(from: s.utf8Start, to: base + count, count: n)
        count += n
    }

    /// Copies `n` bytes with word loads and stores instead of a `memcpy` call: keys and names are short, and
    /// the call cost more than the copy. Reads and writes stay inside the `n` bytes (the last word overlaps).
    @inline(__always) private static func copyShort(from src: UnsafePointer<UInt8>, to dst: UnsafeMutablePointer<UInt8>, count n: Int) {
        if n >= 8 {
            let from = UnsafeRawPointer(src)
            let to = UnsafeMutableRawPointer(dst)
            var i = 0
            while i + 8 <= n {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i += 8
            }
            if i < n {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
            }
        } else {
            var i = 0
            while i < n {
                dst[i] = src[i]
                i += 1
            }
        }
    }

    /// A name that needs no escaping, quoted: the raw value of an enumeration (identifiers; checked in debug
    /// builds, and the golden and property tests compare these bytes with the tree writer's).
    @inline(__always) mutating func clean(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            assert(!utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            reserve(utf8.count + 2)
            base[count] = UInt8(ascii: "\"")
            if let start = utf8.baseAddress { Self.copyShort(from: start, to: base + count + 1, count: utf8.count) }
            base[count + 1 + utf8.count] = UInt8(ascii: "\"")
            count += utf8.count + 2
        }
    }

    /// `s` is the member's opening: `{"key":` or `,"key":`.
    @inline(__always) mutating func key(_ s: StaticString) { raw(s) }

    mutating func number(_ d: Double) {
        if abs(d) < 1e16, Double(Int64(d)) == d {  // an integer (also -0.0, written "0")
            var m = Int64(d).magnitude
            reserve(21)
            if d < 0 {
                base[count] = UInt8(ascii: "-")
                count += 1
            }
            // Frames and insets are mostly below 10,000 points: their digits directly.
            if m < 10_000 {
                let zero = UInt8(ascii: "0")
                if m < 10 {
                    base[count] = zero + UInt8(m)
                    count += 1
                } else if m < 100 {
                    base[count] = zero + UInt8(m / 10)
                    base[count + 1] = zero + UInt8(m % 10)
                    count += 2
                } else if m < 1000 {
                    base[count] = zero + UInt8(m / 100)
                    base[count + 1] = zero + UInt8(m / 10 % 10)
                    base[count + 2] = zero + UInt8(m % 10)
                    count += 3
                } else {
                    base[count] = zero + UInt8(m / 1000)
                    base[count + 1] = zero + UInt8(m / 100 % 10)
                    base[count + 2] = zero + UInt8(m / 10 % 10)
                    base[count + 3] = zero + UInt8(m % 10)
                    count += 4
                }
                return
            }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var n = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[n] = UInt8(ascii: "0") + UInt8(m % 10)
                    m /= 10
                    n += 1
                } while m > 0
                for i in 0..<n { base[count + i] = d[n - 1 - i] }
            }
            count += n
            return
        }
        var tmp: [UInt8] = []
        JSONWriter.appendNumber(d, to: &tmp)
        reserve(tmp.count)
        for b in tmp {
            base[count] = b
            count += 1
        }
    }

    mutating func string(_ s: String) {
        byte(UInt8(ascii: "\""))
        put(text: s)
        byte(UInt8(ascii: "\""))
    }

    /// `s` escaped, without quotes.
    mutating func put(text s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ escaped($0) }) != nil { return }
        var s = s
        s.withUTF8 { escaped($0) }
    }

    /// `s` escaped, without quotes.
    mutating func put(_ s: StaticString) {
        escaped(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The bytes of `utf8` as the inside of a JSON string.
    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        guard let src = utf8.baseAddress, n > 0 else { return }
        reserve(n)
        // Fast path: nothing to escape (names, ids, codes, most messages). Words are loaded only inside `utf8`
        // (the last one may overlap the one before) and stored only inside the `n` reserved bytes.
        let raw = UnsafeRawPointer(src)
        if n >= 8 {
            var i = 0
            while i + 8 <= n, !Self.needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
            if i + 8 > n, i == n || !Self.needsEscape(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) {
                let dst = UnsafeMutableRawPointer(base + count)
                if n <= 16 {
                    let head = raw.loadUnaligned(as: UInt64.self)
                    let tail = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                    dst.storeBytes(of: head, as: UInt64.self)
                    dst.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
                } else {
                    dst.copyMemory(from: raw, byteCount: n)
                }
                count += n
                return
            }
        } else {
            // Copied while checked; the bytes count only if none needs an escape.
            let dst = base + count
            var k = 0
            while k < n {
                let c = src[k]
                if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                dst[k] = c
                k += 1
            }
            if k == n {
                count += n
                return
            }
        }
        escapedSlowly(utf8)
    }

    /// `escaped` for text with something to escape.
    private mutating func escapedSlowly(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Room for every byte unescaped; an escape reserves its extra bytes. Runs of bytes that need no escape
        // are copied whole.
        reserve(utf8.count)
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            // Eight bytes at a time while none of them needs an escape (loads stay inside `utf8`).
            if let start = utf8.baseAddress {
                while i + 8 <= n, !Self.needsEscape(UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)) { i += 8 }
            }
            guard i < n else { break }
            let c = utf8[i]
            if c >= 0x20, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if i > runStart { copy(utf8, runStart, i) }
            reserve(6 + (n - i))  // this escape and the rest of the input
            let escape: UInt8
            switch c {
            case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case 0x08: escape = UInt8(ascii: "b")
            case 0x0C: escape = UInt8(ascii: "f")
            default: escape = UInt8(ascii: "u")
            }
            base[count] = UInt8(ascii: "\\")
            base[count + 1] = escape
            count += 2
            if escape == UInt8(ascii: "u") {
                let hex: (UInt8) -> UInt8 = { $0 < 10 ? UInt8(ascii: "0") + $0 : UInt8(ascii: "a") + $0 - 10 }
                base[count] = UInt8(ascii: "0")
                base[count + 1] = UInt8(ascii: "0")
                base[count + 2] = hex(c >> 4)
                base[count + 3] = hex(c & 0xF)
                count += 4
            }
            i += 1
            runStart = i
        }
        if n > runStart { copy(utf8, runStart, n) }
    }

    /// Whether any byte of `w` is a control character, `"` or `\\`: the classic "has a byte less than n" and
    /// "has a zero byte" word tests, exact as yes/no answers (a yes falls back to the byte loop).
    @inline(__always) private static func needsEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w & high
        let q = w ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q & high
        let b = w ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b & high
        return (control | quote | backslash) != 0
    }

    /// Copies `utf8[from..<to]` (already reserved).
    @inline(__always) private mutating func copy(_ utf8: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) {
        guard let start = utf8.baseAddress else { return }
        (base + count).update(from: start + from, count: to - from)
        count += to - from
    }

    @inline(__always) mutating func bool(_ b: Bool) { raw(b ? "true" : "false") }
    @inline(__always) mutating func null() { raw("null") }
    @inline(__always) mutating func name<R: RawRepresentable>(_ v: R) where R.RawValue == String { clean(v.rawValue) }
    @inline(__always) mutating func name<R: RawRepresentable>(_ v: R?) where R.RawValue == String {
        if let v { clean(v.rawValue) } else { null() }
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
        clean(Resolution.engineVersion)
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
        name(d.code)
        key(",\"message\":")
        byte(UInt8(ascii: "\""))
        d.text.render(into: &self)
        byte(UInt8(ascii: "\""))
        key(",\"path\":")
        byte(UInt8(ascii: "\""))
        d.pathParts.render(into: &self)
        byte(UInt8(ascii: "\""))
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
