import JSON

// The scene reader's arrangement (docs/rules.md#arrangement).

enum ArrangementMember: String, SceneMembers {
    case style, axes, container, primary, secondary
}

enum ArrangedViewMember: String, SceneMembers {
    case ratio, size, contentSize, fixedSize, overlayEdge
}

enum FixedSizeMember: String, SceneMembers {
    case horizontal, vertical
}

enum AxisPreferenceMember: String, SceneMembers {
    case minHorizontal, idealHorizontal, maxHorizontal, idealVertical
}

extension SceneReader {
    /// The request's `arrangement`, put in `s` (none for `null` or another type than an object).
    mutating func arrangement(into s: inout Scene) {
        guard var o = src.object(ArrangementMember.self) else {
            s.arrangementBox = nil
            return
        }
        var a = ArrangementRequest()
        while let m = src.next(&o, ArrangementMember.self, asking: ArrangementMember.everyMember) {
            switch m {
            case .style: a.style = src.enumeration(ArrangementStyle.self) ?? .split
            case .axes: if let axes = axes() { a.axes = axes }
            case .container: a.container = src.enumeration(ArrangementContainer.self) ?? .plain
            // Read in place: a view request is a few hundred bytes, each copy a memcpy.
            case .primary: view(into: &a.primary)
            case .secondary: view(into: &a.secondary)
            }
        }
        src.end(&o, ArrangementMember.self, reportUnknown: true)
        s.arrangementBox = ArrangementBox(a)
    }

    /// One view of the arrangement; `null` leaves it as it is.
    private mutating func view(into v: inout ArrangedViewRequest) {
        guard var o = src.object(ArrangedViewMember.self) else { return }
        while let m = src.next(&o, ArrangedViewMember.self, asking: ArrangedViewMember.everyMember) {
            switch m {
            case .ratio: v.ratio = preference(0...1)
            case .size: v.size = preference(0...100_000)
            case .contentSize: v.contentSize = size()
            case .fixedSize:
                guard var f = src.object(FixedSizeMember.self) else { break }
                while let m = src.next(&f, FixedSizeMember.self, asking: FixedSizeMember.everyMember) {
                    switch m {
                    case .horizontal: v.fixedHorizontal = src.bool() ?? false
                    case .vertical: v.fixedVertical = src.bool() ?? false
                    }
                }
                src.end(&f, FixedSizeMember.self, reportUnknown: true)
            case .overlayEdge: v.overlayEdge = src.enumeration(Edge.self)
            }
        }
        src.end(&o, ArrangedViewMember.self, reportUnknown: true)
        // A content size that was given and refused is reported already.
        if v.fixedHorizontal || v.fixedVertical, v.contentSize == nil {
            if src.given(o) & ArrangedViewMember.contentSizeBit == 0 {
                src.problem(at: ArrangedViewMember.fixedSize.rawValue, "a fixed size needs the view's \"contentSize\"")
            } else {
                src.decline()
            }
        }
    }

    /// A size preference: a number (the ideal on both axes) or an object of bounds; nil for `null`.
    private mutating func preference(_ range: ClosedRange<Double>) -> AxisPreference? {
        let type = src.peek()
        if type == .number || type == .null {
            return src.number(range).map { AxisPreference(idealHorizontal: $0, idealVertical: $0) }
        }
        guard var o = src.object(AxisPreferenceMember.self) else { return nil }
        var p = AxisPreference()
        while let m = src.next(&o, AxisPreferenceMember.self, asking: AxisPreferenceMember.everyMember) {
            switch m {
            case .minHorizontal: p.minHorizontal = src.number(range)
            case .idealHorizontal: p.idealHorizontal = src.number(range)
            case .maxHorizontal: p.maxHorizontal = src.number(range)
            case .idealVertical: p.idealVertical = src.number(range)
            }
        }
        src.end(&o, AxisPreferenceMember.self, reportUnknown: true)
        if let lo = p.minHorizontal, let hi = p.maxHorizontal, lo > hi {
            src.problem(at: AxisPreferenceMember.maxHorizontal.rawValue, "must not be below minHorizontal (\(fmt(lo)))")
        }
        return p
    }
}

extension ArrangedViewMember {
    static var contentSizeBit: UInt64 { Self.contentSize.bit }
}
