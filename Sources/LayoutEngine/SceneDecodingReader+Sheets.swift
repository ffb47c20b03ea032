import JSON

// The scene reader's values inside presentations: detents, background interaction, toolbar items, intents and
// anchors (docs/rules.md#sheet-fields, docs/rules.md#presentations).

extension SceneReader {
    /// `detents`: 1…`maxDetents` detents; `null` leaves the default. A refused detent keeps its place (as a
    /// height that equals nothing), so that the rules checked after the sheet's members point at the right one.
    mutating func detents(into sheet: inout SheetRequest) {
        guard var a = src.array(maxCount: SceneLimits.maxDetents) else { return }
        var detents: [Detent] = []
        detents.reserveCapacity(4)
        while src.next(&a) { detents.append(detent() ?? .height(.nan)) }
        if detents.isEmpty {
            src.problem("must list at least one detent (omit it for [\"large\"])")
        } else {
            sheet.detents = detents
        }
    }

    /// A detent: a name, or an object of exactly one of `height` and `fraction`. `null` is refused.
    mutating func detent() -> Detent? {
        switch src.peek() {
        case .string:
            switch src.name(DetentName.self) {
            case .medium?: return .medium
            case .large?: return .large
            case .fitted?: return .fitted
            case nil: break
            }
        case .object:
            guard var o = src.object(DetentMember.self) else { break }
            var d: Detent?
            var given = 0
            while let m = src.next(&o, DetentMember.self, asking: DetentMember.everyMember) {
                given += 1
                switch m {
                case .height: d = src.number(SceneLimits.size).map { .height($0) }
                case .fraction:
                    guard let f = src.number(0...1) else { break }
                    if f > 0 {
                        d = .fraction(f)
                    } else {
                        src.problem("must be greater than 0 and at most 1, is \(fmt(f))")
                    }
                }
            }
            src.end(&o, DetentMember.self, reportUnknown: true)
            if given == 1, src.count(o) == 1 {
                if d == nil { src.decline() }
                return d
            }
        default:
            break
        }
        src.problem("expected \"medium\", \"large\", \"fitted\", {\"height\": points} or {\"fraction\": 0 < f ≤ 1}")
        return nil
    }

    /// `"disabled"`, `"enabled"` or `{"upThrough": detent}`; nil for `null`.
    mutating func backgroundInteraction() -> BackgroundInteraction? {
        switch src.peek() {
        case .null:
            src.null()
            return nil
        case .string:
            switch src.name(BackgroundInteractionName.self) {
            case .disabled?: return .disabled
            case .enabled?: return .enabled
            case nil: break
            }
        case .object:
            guard var o = src.object(BackgroundInteractionMember.self) else { break }
            var upThrough: Detent??
            while let m = src.next(
                &o, BackgroundInteractionMember.self, asking: BackgroundInteractionMember.everyMember)
            {
                switch m {
                case .upThrough: upThrough = detent()
                }
            }
            src.end(&o, BackgroundInteractionMember.self, reportUnknown: true)
            return required(o, BackgroundInteractionMember.upThrough, upThrough).map { .upThrough($0) }
        default:
            break
        }
        src.problem("expected \"disabled\", \"enabled\" or {\"upThrough\": <detent>}")
        return nil
    }

    /// `toolbar`: up to `maxToolbarItems` items; nil for `null`.
    mutating func toolbar() -> [ToolbarItem]? {
        guard var a = src.array(maxCount: SceneLimits.maxToolbarItems) else { return nil }
        var items: [ToolbarItem] = []
        items.reserveCapacity(4)
        while src.next(&a) {
            guard var o = element(ToolbarItemMember.self) else {
                src.decline()
                continue
            }
            var item = ToolbarItem()
            while let m = src.next(&o, ToolbarItemMember.self, asking: ToolbarItemMember.everyMember) {
                switch m {
                case .title: item.title = src.string(SceneLimits.textLength)
                case .systemImage: item.systemImage = src.string(SceneLimits.textLength)
                case .placement: item.placement = src.enumeration(ToolbarPlacement.self) ?? .automatic
                }
            }
            src.end(&o, ToolbarItemMember.self, reportUnknown: true)
            items.append(item)
        }
        return items
    }

    /// `{"hasDecision", "abandonableWithoutCost"}`; nil for `null`.
    mutating func intent() -> Intent? {
        guard var o = src.object(IntentMember.self) else { return nil }
        var i = Intent()
        while let m = src.next(&o, IntentMember.self, asking: IntentMember.everyMember) {
            switch m {
            case .hasDecision: i.hasDecision = src.bool()
            case .abandonableWithoutCost: i.abandonableWithoutCost = src.bool()
            }
        }
        src.end(&o, IntentMember.self, reportUnknown: true)
        return i
    }

    /// A popover's `anchor`: `x` and `y` required, `width` and `height` 0 when absent.
    mutating func anchor() -> Rect? {
        guard var o = src.object(FrameMember.self) else { return nil }
        var a = Rect(x: 0, y: 0, width: 0, height: 0)
        while let m = src.next(&o, FrameMember.self, asking: FrameMember.everyMember) {
            switch m {
            case .x: a.x = src.numberNotNull(SceneLimits.coordinate) ?? 0
            case .y: a.y = src.numberNotNull(SceneLimits.coordinate) ?? 0
            case .width: a.width = src.number(0...100_000) ?? 0
            case .height: a.height = src.number(0...100_000) ?? 0
            }
        }
        src.end(&o, FrameMember.self, reportUnknown: true)
        return has(o, FrameMember.x, FrameMember.y) ? a : nil
    }
}
