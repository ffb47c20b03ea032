import JSON

// The one-pass reader's presentations (docs/rules.md#one-pass): each kind's members, read in any order and
// checked against the kind once it is known.

extension OnePassSceneDecoder {
    mutating func presentations(into list: inout [Presentation]) {
        guard r.beginArray() else { return }
        // Room for a few from the start: growing one element at a time allocates and copies at 1, 2, 4.
        list.reserveCapacity(8)
        var first = true
        while r.nextElement(&first) {
            guard list.count < SceneLimits.maxPresentations, let p = presentation(), ids[p.id] == nil else {
                r.fail()
                return
            }
            ids.insert(p.id, at: list.count)
            list.append(p)
        }
    }

    mutating func presentation() -> Presentation? {
        guard r.beginObject() else {
            r.fail()
            return nil
        }
        var d = PresentationDraft()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            guard let m = PresentationMemberTable.member(k), seen.note(UInt32(m.rawValue), &r) else {
                r.fail()
                return nil
            }
            d.read(m, &self)
            if r.failed { return nil }
        }
        // Members of another kind, and the rules the general decoder checks as it reads, in whichever order the
        // members came.
        guard let kind = d.kind, seen.bits & ~PresentationMemberTable.members(of: kind) == 0, let id = d.takeID()
        else { return nil }
        if kind == .sheet {
            if d.contentSize == nil {
                if d.sheet.sizing == .fitted || d.sheet.detents.contains(.fitted) { return nil }
                if case .upThrough(.fitted) = d.sheet.backgroundInteraction { return nil }
            }
            if let selected = d.selectedDetent, !d.sheet.detents.contains(selected) { return nil }
        }
        return d.presentation(id: id, kind: kind)
    }

    /// `{"hasDecision", "abandonableWithoutCost"}`; nil for `null`.
    mutating func intent(_: StaticString, _: PresentationKinds) -> Intent? {
        guard r.beginObject() else { return nil }
        var i = Intent()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "hasDecision"), seen.note(0, &r) {
                i.hasDecision = r.bool()
            } else if matches(k, "abandonableWithoutCost"), seen.note(1, &r) {
                i.abandonableWithoutCost = r.bool()
            } else {
                r.fail()
            }
        }
        return i
    }

    /// `detents`: 1…`maxDetents` detents; nil for `null` (the default). A fitted one without `contentSize` is
    /// declined by `presentation()`, which has seen all the members.
    mutating func detents(_: StaticString, _: PresentationKinds, contentSize _: Size?) -> [Detent]? {
        guard r.beginArray() else { return nil }
        var detents: [Detent] = []
        detents.reserveCapacity(4)
        var first = true
        while r.nextElement(&first) {
            guard detents.count < SceneLimits.maxDetents, let d = detent() else {
                r.fail()
                return nil
            }
            detents.append(d)
        }
        if detents.isEmpty { r.fail() }
        return detents
    }

    /// `"disabled"`, `"enabled"` or `{"upThrough": detent}`; `null` is the default, disabled.
    mutating func backgroundInteraction(_: StaticString, _: PresentationKinds, contentSize _: Size?)
        -> BackgroundInteraction?
    {
        if r.peek() == UInt8(ascii: "{") {
            _ = r.beginObject()
            var first = true
            guard let k = r.nextKey(&first), matches(k, "upThrough"), let d = detent(), r.nextKey(&first) == nil
            else {
                r.fail()
                return .disabled
            }
            return .upThrough(d)
        }
        guard let bytes = r.stringBytes() else { return .disabled }
        if matches(bytes, "disabled") { return .disabled }
        if matches(bytes, "enabled") { return .enabled }
        r.fail()
        return .disabled
    }

    /// `toolbar`: up to `maxToolbarItems` items; `null` is none.
    mutating func toolbar(_: StaticString, _: PresentationKinds) -> [ToolbarItem]? {
        guard r.beginArray() else { return nil }
        var items: [ToolbarItem] = []
        items.reserveCapacity(4)
        var first = true
        while r.nextElement(&first) {
            guard items.count < SceneLimits.maxToolbarItems, r.beginObject() else {
                r.fail()
                return nil
            }
            var item = ToolbarItem()
            var seen = SeenMembers()
            var inner = true
            while let k = r.nextKey(&inner) {
                if matches(k, "title"), seen.note(0, &r) {
                    item.title = string(SceneLimits.textLength)
                } else if matches(k, "systemImage"), seen.note(1, &r) {
                    item.systemImage = string(SceneLimits.textLength)
                } else if matches(k, "placement"), seen.note(2, &r) {
                    item.placement = enumeration() ?? .automatic
                } else {
                    r.fail()
                }
            }
            items.append(item)
        }
        return items
    }

    /// A popover's `anchor`: `x` and `y` required, `width` and `height` 0 when absent.
    mutating func anchor(_: StaticString, _: PresentationKinds) -> Rect? {
        guard r.beginObject() else { return nil }
        var a = Rect(x: 0, y: 0, width: 0, height: 0)
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "x"), seen.note(0, &r) {
                a.x = requiredNumber(SceneLimits.coordinate)
            } else if matches(k, "y"), seen.note(1, &r) {
                a.y = requiredNumber(SceneLimits.coordinate)
            } else if matches(k, "width"), seen.note(2, &r) {
                a.width = number(0...100_000) ?? 0
            } else if matches(k, "height"), seen.note(3, &r) {
                a.height = number(0...100_000) ?? 0
            } else {
                r.fail()
            }
        }
        if !seen.has(0) || !seen.has(1) { r.fail() }
        return a
    }

    // MARK: The value readers of `PresentationDraft.read`, which has matched the key

    @inline(__always)
    mutating func string(_: StaticString, _: PresentationKinds, _ length: ClosedRange<Int>, required _: Bool)
        -> String?
    { string(length) }

    @inline(__always)
    mutating func enumeration<E: JSONStringEnumeration>(_: StaticString, _: PresentationKinds, required _: Bool)
        -> E?
    { enumeration(E.self) }

    @inline(__always)
    mutating func bool(_: StaticString, _: PresentationKinds) -> Bool? { r.bool() }

    @inline(__always)
    mutating func number(_: StaticString, _: PresentationKinds, _ range: ClosedRange<Double>) -> Double? {
        number(range)
    }

    @inline(__always)
    mutating func size(_: StaticString, _: PresentationKinds) -> Size? { size() }

    /// An earlier presentation's index; an id not listed before fails.
    mutating func presenter(_: StaticString, _: PresentationKinds, of _: String?) -> Int? {
        guard let from = string(SceneLimits.idLength) else { return nil }
        guard let i = ids[from] else {
            r.fail()
            return nil
        }
        return i
    }

    /// A detent; `null` is none (no selected detent).
    mutating func selectedDetent(_: StaticString, _: PresentationKinds, among _: [Detent]) -> Detent? {
        if r.peek() == UInt8(ascii: "n") {
            _ = r.stringBytes()
            return nil
        }
        return detent()
    }
}
