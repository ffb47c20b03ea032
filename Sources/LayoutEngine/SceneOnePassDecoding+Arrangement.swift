import JSON

// The one-pass reader's arrangement (docs/rules.md#one-pass, docs/rules.md#arrangement).

extension OnePassSceneDecoder {
    /// The arrangement, its object opened (`ArrangementRequest.decode`).
    mutating func arrangement() -> ArrangementRequest {
        var a = ArrangementRequest()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "style"), seen.note(0, &r) {
                a.style = enumeration() ?? .split
            } else if matches(k, "axes"), seen.note(1, &r) {
                if r.beginArray() {
                    var axes: [Axis] = []
                    axes.reserveCapacity(2)
                    var count = 0
                    var inner = true
                    while r.nextElement(&inner) {
                        count += 1
                        guard count <= 2, let axis: Axis = enumeration() else {
                            r.fail()
                            break
                        }
                        if !axes.contains(axis) { axes.append(axis) }
                    }
                    if axes.isEmpty { r.fail() }
                    a.axes = axes
                }
            } else if matches(k, "container"), seen.note(2, &r) {
                a.container = enumeration() ?? .plain
            } else if matches(k, "primary"), seen.note(3, &r) {
                if r.beginObject() { view(into: &a.primary) }
            } else if matches(k, "secondary"), seen.note(4, &r) {
                if r.beginObject() { view(into: &a.secondary) }
            } else {
                r.fail()
            }
        }
        return a
    }

    /// One view of the arrangement, its object opened (`ArrangementRequest.decodeView`).
    mutating func view(into v: inout ArrangedViewRequest) {
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "ratio"), seen.note(0, &r) {
                v.ratio = preference(0...1)
            } else if matches(k, "size"), seen.note(1, &r) {
                v.size = preference(0...100_000)
            } else if matches(k, "contentSize"), seen.note(2, &r) {
                v.contentSize = size()
            } else if matches(k, "fixedSize"), seen.note(3, &r) {
                if r.beginObject() {
                    var inner = true
                    var fixed = SeenMembers()
                    while let f = r.nextKey(&inner) {
                        if matches(f, "horizontal"), fixed.note(0, &r) {
                            v.fixedHorizontal = r.bool() ?? false
                        } else if matches(f, "vertical"), fixed.note(1, &r) {
                            v.fixedVertical = r.bool() ?? false
                        } else {
                            r.fail()
                        }
                    }
                }
            } else if matches(k, "overlayEdge"), seen.note(4, &r) {
                v.overlayEdge = enumeration()
            } else {
                r.fail()
            }
        }
        if (v.fixedHorizontal || v.fixedVertical) && v.contentSize == nil { r.fail() }
    }

    /// A size preference: a number (the ideal on both axes) or an object of bounds; nil for `null`.
    mutating func preference(_ range: ClosedRange<Double>) -> AxisPreference? {
        if r.peek() != UInt8(ascii: "{") {
            guard let d = number(range) else { return nil }
            return AxisPreference(idealHorizontal: d, idealVertical: d)
        }
        _ = r.beginObject()
        var p = AxisPreference()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "minHorizontal"), seen.note(0, &r) {
                p.minHorizontal = number(range)
            } else if matches(k, "idealHorizontal"), seen.note(1, &r) {
                p.idealHorizontal = number(range)
            } else if matches(k, "maxHorizontal"), seen.note(2, &r) {
                p.maxHorizontal = number(range)
            } else if matches(k, "idealVertical"), seen.note(3, &r) {
                p.idealVertical = number(range)
            } else {
                r.fail()
            }
        }
        if let lo = p.minHorizontal, let hi = p.maxHorizontal, lo > hi { r.fail() }
        return p
    }
}
