import JSON

// The one-pass decoding of a valid request (docs/rules.md#one-pass): the bytes
// read front to back into a `Scene`, with no parsed document in between. It answers only when it is sure;
// anything else goes to the general decoder (SceneDecoding.swift), which alone reports problems.

extension Scene {
    /// The scene of `body` when the body is a valid request this reader takes whole: strings without escapes.
    /// Nil for anything else — an error, an unknown or repeated member, an escape — and the caller then
    /// decodes the
    /// body with `JSONParser.document` and `Scene.decode(_:catalog:)`, which give the same scene for every
    /// body this accepts (`SceneOnePassTests` compare them) and report what is wrong with the others.
    ///
    /// Each rule the general decoder applies to a member is applied here too, as a condition to answer at
    /// all; the ranges and lengths are the same constants (`SceneLimits`). Checks that depend on the device
    /// are the general decoder's own (`SceneDecoder.validateEnvironment`).
    public static func decodeInOnePass(_ body: UnsafeBufferPointer<UInt8>, catalog: any DeviceCatalog) -> Scene? {
        var d = OnePassSceneDecoder(r: JSONStreamReader(body))
        guard let scene = d.scene(catalog: catalog), d.r.atEnd() else { return nil }
        return scene
    }
}

/// The members an object has had so far, one bit each, so that a repeated member (which the parser refuses)
/// is noticed.
private struct SeenMembers {
    var bits: UInt32 = 0

    /// Notes member `bit`; false (and the reader fails) when it was there already.
    @inline(__always)
    mutating func note(_ bit: UInt32, _ r: inout JSONStreamReader) -> Bool {
        if bits & (1 << bit) != 0 {
            r.fail()
            return false
        }
        bits |= 1 << bit
        return true
    }

    func has(_ bit: UInt32) -> Bool { bits & (1 << bit) != 0 }
}

/// Whether `key` is `name`, byte for byte.
@inline(__always)
private func matches(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    guard key.count == name.utf8CodeUnitCount else { return false }
    var k = 0
    while k < key.count {
        if key[k] != name.utf8Start[k] { return false }
        k &+= 1
    }
    return true
}

private struct OnePassSceneDecoder {
    var r: JSONStreamReader

    // MARK: Values

    /// A number in `range`; nil for `null` (the member is absent). Out of range fails.
    mutating func number(_ range: ClosedRange<Double>) -> Double? {
        guard let d = r.number() else { return nil }
        if !range.contains(d) { r.fail() }
        return d
    }

    /// A number in `range` that must be there (`null` fails).
    mutating func requiredNumber(_ range: ClosedRange<Double>) -> Double {
        guard let d = number(range) else {
            r.fail()
            return 0
        }
        return d
    }

    /// A string whose length in characters lies in `length` (its length in bytes when it is ASCII).
    mutating func string(_ length: ClosedRange<Int>) -> String? {
        guard let bytes = r.stringBytes() else { return nil }
        let s = JSONStreamReader.string(bytes)
        if !length.contains(r.lastStringIsASCII ? bytes.count : s.count) { r.fail() }
        return s
    }

    /// One of `E`'s raw values; nil for `null`. Any other string fails.
    mutating func enumeration<E: JSONStringEnumeration>(_: E.Type = E.self) -> E? {
        guard let bytes = r.stringBytes() else { return nil }
        guard let k = E.jsonNames.ordinal(of: bytes) else {
            r.fail()
            return nil
        }
        let cases = E.allCases
        return cases[cases.index(cases.startIndex, offsetBy: k)]
    }

    /// `{"width", "height"}`, both required, 0…100,000 (`decodeSize`); nil for `null`.
    mutating func size() -> Size? {
        guard r.beginObject() else { return nil }
        var width: Double?
        var height: Double?
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "width"), seen.note(0, &r) {
                width = number(0...100_000)
            } else if matches(k, "height"), seen.note(1, &r) {
                height = number(0...100_000)
            } else {
                r.fail()
            }
        }
        guard let width, let height else {
            r.fail()
            return nil
        }
        return Size(width: width, height: height)
    }

    /// A detent (`Detent.decode`): a name, or an object of exactly one of `height` and `fraction`. `null`
    /// fails, as it does there.
    mutating func detent() -> Detent? {
        if r.peek() == UInt8(ascii: "{") {
            _ = r.beginObject()
            var first = true
            var d: Detent?
            if let k = r.nextKey(&first) {
                if matches(k, "height"), let h = number(SceneLimits.size) {
                    d = .height(h)
                } else if matches(k, "fraction"), let f = number(0...1), f > 0 {
                    d = .fraction(f)
                }
            }
            if d == nil || r.nextKey(&first) != nil { r.fail() }
            return r.failed ? nil : d
        }
        guard let bytes = r.stringBytes() else {
            r.fail()
            return nil
        }
        if matches(bytes, "medium") { return .medium }
        if matches(bytes, "large") { return .large }
        if matches(bytes, "fitted") { return .fitted }
        r.fail()
        return nil
    }

    // MARK: The scene

    mutating func scene(catalog: any DeviceCatalog) -> Scene? {
        guard r.beginObject() else { return nil }
        var s = Scene()
        var seen = SeenMembers()
        var ids = PresentationIDs()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "device"), seen.note(0, &r) {
                if let id = string(1...128) {
                    s.deviceID = id
                    s.profile = catalog.profile(id: id)
                    if s.profile == nil { r.fail() }
                }
            } else if matches(k, "display"), seen.note(1, &r) {
                s.displayID = string(1...64)
            } else if matches(k, "orientation"), seen.note(2, &r) {
                s.orientation = enumeration() ?? .portrait
            } else if matches(k, "posture"), seen.note(3, &r) {
                s.posture = enumeration() ?? .flat
            } else if matches(k, "layoutDirection"), seen.note(4, &r) {
                s.layoutDirection = enumeration() ?? .ltr
            } else if matches(k, "dynamicTypeSize"), seen.note(5, &r) {
                s.dynamicTypeSize = enumeration() ?? .large
            } else if matches(k, "window"), seen.note(6, &r) {
                s.window = window()
            } else if matches(k, "safeArea"), seen.note(7, &r) {
                s.safeArea = safeArea()
            } else if matches(k, "presentations"), seen.note(8, &r) {
                presentations(into: &s.presentations, ids: &ids)
            } else if matches(k, "arrangement"), seen.note(9, &r) {
                if r.beginObject() { s.arrangement = arrangement() }
            } else if matches(k, "sizeClass"), seen.note(10, &r) {
                if r.beginObject() { s.sizeClass = sizeClass() }
            } else if matches(k, "fold"), seen.note(11, &r) {
                if r.beginObject() { s.fold = fold() }
            } else if matches(k, "constants"), seen.note(12, &r) {
                if r.beginObject() { constants(into: &s.constants) }
            } else {
                r.fail()
            }
            if r.failed { return nil }
        }
        // A window is required without a device; a fold is the device's when there is one.
        if s.window == nil && s.deviceID == nil { r.fail() }
        if s.fold != nil && s.deviceID != nil { r.fail() }
        guard !r.failed else { return nil }
        let mapper = JSONMapper(recording: false)
        SceneDecoder(mapper: mapper, catalog: catalog).validateEnvironment(&s)
        return mapper.errorCount == 0 ? s : nil
    }

    mutating func window() -> WindowRequest? {
        guard r.beginObject() else { return nil }
        var w = WindowRequest(width: 0, height: 0)
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "width"), seen.note(0, &r) {
                w.width = requiredNumber(SceneLimits.size)
            } else if matches(k, "height"), seen.note(1, &r) {
                w.height = requiredNumber(SceneLimits.size)
            } else if matches(k, "x"), seen.note(2, &r) {
                w.x = number(SceneLimits.coordinate) ?? 0
            } else if matches(k, "y"), seen.note(3, &r) {
                w.y = number(SceneLimits.coordinate) ?? 0
            } else {
                r.fail()
            }
        }
        if !seen.has(0) || !seen.has(1) { r.fail() }
        return w
    }

    mutating func safeArea() -> Insets? {
        guard r.beginObject() else { return nil }
        var i = Insets()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "top"), seen.note(0, &r) {
                i.top = number(SceneLimits.inset) ?? 0
            } else if matches(k, "leading"), seen.note(1, &r) {
                i.leading = number(SceneLimits.inset) ?? 0
            } else if matches(k, "bottom"), seen.note(2, &r) {
                i.bottom = number(SceneLimits.inset) ?? 0
            } else if matches(k, "trailing"), seen.note(3, &r) {
                i.trailing = number(SceneLimits.inset) ?? 0
            } else {
                r.fail()
            }
        }
        return i
    }

    /// `sizeClass`, the object opened (`SizeClassPair.decode`): both members required.
    mutating func sizeClass() -> SizeClassPair? {
        var horizontal: SizeClass?
        var vertical: SizeClass?
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "horizontal"), seen.note(0, &r) {
                horizontal = enumeration()
            } else if matches(k, "vertical"), seen.note(1, &r) {
                vertical = enumeration()
            } else {
                r.fail()
            }
        }
        guard let horizontal, let vertical else {
            r.fail()
            return nil
        }
        return SizeClassPair(horizontal: horizontal, vertical: vertical)
    }

    /// A scene's own `fold`, the object opened (`Fold.decode`): `orientation` and `position` required.
    mutating func fold() -> Fold? {
        var orientation: Axis?
        var position: Double?
        var thickness = 0.0
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "orientation"), seen.note(0, &r) {
                orientation = enumeration()
            } else if matches(k, "position"), seen.note(1, &r) {
                position = r.number()
            } else if matches(k, "thickness"), seen.note(2, &r) {
                thickness = number(0...10_000) ?? 0
            } else {
                r.fail()
            }
        }
        guard let orientation, let position else {
            r.fail()
            return nil
        }
        return Fold(orientation: orientation, position: position, thickness: thickness)
    }

    /// `constants`, the object opened (`Constants.decode`): each member one of `Constants.definitions`, a
    /// number in its range.
    mutating func constants(into c: inout Constants) {
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            guard
                let i = Constants.definitions.firstIndex(where: { $0.key.utf8.elementsEqual(k) }), i < 32,
                seen.note(UInt32(i), &r), let v = number(Constants.definitions[i].range)
            else {
                r.fail()
                return
            }
            c[keyPath: Constants.definitions[i].keyPath] = v
        }
    }

    // MARK: Presentations

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

    // MARK: The arrangement

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
