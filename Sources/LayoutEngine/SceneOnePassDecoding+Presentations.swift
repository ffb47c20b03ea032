import JSON

// The one-pass reader's presentations (docs/rules.md#one-pass): each kind's members, read in any order and
// checked against the kind once it is known.

extension OnePassSceneDecoder {
    mutating func presentations(into list: inout [Presentation], ids: inout PresentationIDs) {
        guard r.beginArray() else { return }
        // Room for a few from the start: growing one element at a time allocates and copies at 1, 2, 4.
        list.reserveCapacity(8)
        var first = true
        while r.nextElement(&first) {
            guard list.count < SceneLimits.maxPresentations, let p = presentation(ids: ids), ids[p.id] == nil else {
                r.fail()
                return
            }
            ids.insert(p.id, at: list.count)
            list.append(p)
        }
    }

    /// The members of a presentation, whatever its kind, until the kind says which it may have.
    private enum Member: UInt32 {
        case id, kind, presentedFrom, intent, placement
        case sizing, contentSize, detents, selectedDetent, backgroundInteraction, interactiveDismissDisabled
        case hasUnsavedChanges, dragIndicator, cornerRadius, toolbar, contentScrollable
        case edgeAttachedInCompactHeight, widthFollowsContentSize
        case anchor, arrowEdge, compactAdaptation
        case breakpoint, alignment, panelWidth, panelHeight, modal

        static let common: UInt32 = bits(.id, .kind, .presentedFrom, .intent, .placement)
        static let sheet: UInt32 =
            common
            | bits(
                .sizing, .contentSize, .detents, .selectedDetent, .backgroundInteraction, .interactiveDismissDisabled,
                .hasUnsavedChanges, .dragIndicator, .cornerRadius, .toolbar, .contentScrollable,
                .edgeAttachedInCompactHeight, .widthFollowsContentSize)
        static let popover: UInt32 = common | bits(.anchor, .arrowEdge, .contentSize, .compactAdaptation)
        static let panel: UInt32 =
            common | bits(.breakpoint, .alignment, .panelWidth, .panelHeight, .modal, .cornerRadius)

        static func bits(_ members: Member...) -> UInt32 { members.reduce(0) { $0 | 1 << $1.rawValue } }
    }

    mutating func presentation(ids: PresentationIDs) -> Presentation? {
        guard r.beginObject() else {
            r.fail()
            return nil
        }
        var id: String?
        var kind: Presentation.Kind?
        var presentedFrom: Int?
        var intent: Intent?
        var placement: SheetPlacement?
        var sheet = SheetRequest()
        var anchor: Rect?
        var popover = PopoverRequest(anchor: Rect(x: 0, y: 0, width: 0, height: 0))
        var panel = PanelRequest()
        var cornerRadius: Double?
        var contentSize: Size?
        var selected: Detent?
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            guard let m = member(k), seen.note(m.rawValue, &r) else {
                r.fail()
                return nil
            }
            switch m {
            case .id: id = string(SceneLimits.idLength)
            case .kind: kind = enumeration()
            case .presentedFrom:
                if let from = string(SceneLimits.idLength) {
                    presentedFrom = ids[from]
                    if presentedFrom == nil { r.fail() }
                }
            case .intent:
                if r.beginObject() { intent = self.intent() }
            case .placement: placement = enumeration()
            case .sizing: sheet.sizing = enumeration() ?? .automatic
            case .contentSize: contentSize = size()
            case .detents: detents(into: &sheet)
            case .selectedDetent:
                if r.peek() == UInt8(ascii: "n") { _ = r.stringBytes() } else { selected = detent() }
            case .backgroundInteraction: sheet.backgroundInteraction = backgroundInteraction()
            case .interactiveDismissDisabled: sheet.interactiveDismissDisabled = r.bool() ?? false
            case .hasUnsavedChanges: sheet.hasUnsavedChanges = r.bool() ?? false
            case .dragIndicator: sheet.dragIndicator = enumeration() ?? .automatic
            case .cornerRadius: cornerRadius = number(0...10_000)
            case .toolbar: sheet.toolbar = toolbar()
            case .contentScrollable: sheet.contentScrollable = r.bool() ?? false
            case .edgeAttachedInCompactHeight: sheet.edgeAttachedInCompactHeight = r.bool() ?? false
            case .widthFollowsContentSize: sheet.widthFollowsContentSize = r.bool() ?? false
            case .anchor: anchor = self.anchor()
            case .arrowEdge: popover.arrowEdge = enumeration() ?? .top
            case .compactAdaptation: popover.compactAdaptation = enumeration() ?? .automatic
            case .breakpoint: panel.breakpoint = number(0...100_000)
            case .alignment: panel.alignment = enumeration() ?? .trailing
            case .panelWidth: panel.panelWidth = number(SceneLimits.size)
            case .panelHeight: panel.panelHeight = number(SceneLimits.size)
            case .modal: panel.modal = r.bool() ?? false
            }
            if r.failed { return nil }
        }
        guard let id, let kind, !r.failed else {
            r.fail()
            return nil
        }
        let content: Presentation.Content
        var stray: SheetPlacement?
        switch kind {
        case .sheet:
            guard seen.bits & ~Member.sheet == 0 else { return nil }
            sheet.placement = placement ?? .automatic
            sheet.contentSize = contentSize
            sheet.cornerRadius = cornerRadius
            // The rules the general decoder checks as it reads, in whichever order the members came.
            if contentSize == nil {
                if sheet.sizing == .fitted || sheet.detents.contains(.fitted) { return nil }
                if case .upThrough(.fitted) = sheet.backgroundInteraction { return nil }
            }
            if let selected {
                guard sheet.detents.contains(selected) else { return nil }
                sheet.selectedDetent = selected
            }
            content = .sheet(sheet)
        case .fullScreenCover:
            guard seen.bits & ~Member.common == 0 else { return nil }
            stray = placement
            content = .fullScreenCover
        case .popover:
            guard seen.bits & ~Member.popover == 0, let anchor else { return nil }
            stray = placement
            popover.anchor = anchor
            popover.contentSize = contentSize
            content = .popover(popover)
        case .adaptivePanel:
            guard seen.bits & ~Member.panel == 0 else { return nil }
            stray = placement
            panel.cornerRadius = cornerRadius
            content = .adaptivePanel(panel)
        }
        var p = Presentation(id: id, content: content, presentedFrom: presentedFrom, intent: intent)
        p.strayPlacement = stray
        return p
    }

    private func member(_ k: UnsafeBufferPointer<UInt8>) -> Member? {
        switch k.count {
        case 2: return matches(k, "id") ? .id : nil
        case 4: return matches(k, "kind") ? .kind : nil
        case 5: return matches(k, "modal") ? .modal : nil
        case 6:
            if matches(k, "intent") { return .intent }
            if matches(k, "sizing") { return .sizing }
            if matches(k, "anchor") { return .anchor }
            return nil
        case 7:
            if matches(k, "detents") { return .detents }
            if matches(k, "toolbar") { return .toolbar }
            return nil
        case 9:
            if matches(k, "placement") { return .placement }
            if matches(k, "arrowEdge") { return .arrowEdge }
            if matches(k, "alignment") { return .alignment }
            return nil
        case 10:
            if matches(k, "breakpoint") { return .breakpoint }
            if matches(k, "panelWidth") { return .panelWidth }
            return nil
        case 11:
            if matches(k, "contentSize") { return .contentSize }
            if matches(k, "panelHeight") { return .panelHeight }
            return nil
        case 12: return matches(k, "cornerRadius") ? .cornerRadius : nil
        case 13:
            if matches(k, "presentedFrom") { return .presentedFrom }
            if matches(k, "dragIndicator") { return .dragIndicator }
            return nil
        case 14: return matches(k, "selectedDetent") ? .selectedDetent : nil
        case 17:
            if matches(k, "hasUnsavedChanges") { return .hasUnsavedChanges }
            if matches(k, "contentScrollable") { return .contentScrollable }
            if matches(k, "compactAdaptation") { return .compactAdaptation }
            return nil
        case 21: return matches(k, "backgroundInteraction") ? .backgroundInteraction : nil
        case 23:
            if matches(k, "widthFollowsContentSize") { return .widthFollowsContentSize }
            return nil
        case 26:
            if matches(k, "interactiveDismissDisabled") { return .interactiveDismissDisabled }
            return nil
        case 27:
            if matches(k, "edgeAttachedInCompactHeight") { return .edgeAttachedInCompactHeight }
            return nil
        default: return nil
        }
    }

    /// `{"hasDecision", "abandonableWithoutCost"}`, the object opened.
    mutating func intent() -> Intent {
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

    /// `detents`: 1…`maxDetents` detents; `null` leaves the default.
    mutating func detents(into sheet: inout SheetRequest) {
        guard r.beginArray() else { return }
        var detents: [Detent] = []
        detents.reserveCapacity(4)
        var first = true
        while r.nextElement(&first) {
            guard detents.count < SceneLimits.maxDetents, let d = detent() else {
                r.fail()
                return
            }
            detents.append(d)
        }
        if detents.isEmpty { r.fail() }
        sheet.detents = detents
    }

    /// `"disabled"`, `"enabled"` or `{"upThrough": detent}`; `null` is the default, disabled.
    mutating func backgroundInteraction() -> BackgroundInteraction {
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
    mutating func toolbar() -> [ToolbarItem]? {
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
    mutating func anchor() -> Rect? {
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
}
