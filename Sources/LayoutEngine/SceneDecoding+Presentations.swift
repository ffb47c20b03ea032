import JSON

// The general decoder's presentations (docs/rules.md#validation): the members of PresentationMembers.swift read
// with value readers that report every problem with its pointer.

extension SceneDecoder {
    /// The presentation at `path`; nil when it has no id or kind. With errors (the mapper counts them), a
    /// presentation with its id is still returned, so that later ones can name it without a spurious error.
    func decodePresentation(_ value: JSONNode, at path: JSONLocation, ids: PresentationIDs) -> Presentation? {
        let before = mapper.errorCount
        guard let object = mapper.object(value, at: path) else { return nil }
        var reader = ReportingMemberReader(r: consume object, ids: ids)
        var d = PresentationDraft()
        // A quiet pass reads the members present and the required ones (to count them missing): looking up an absent
        // member walks every member of the object. A recording pass asks for them all, as the suggestions for a
        // misspelt member are made from the members asked for.
        var present = UInt32.max
        if !mapper.recording {
            present = PresentationMemberTable.required
            reader.r.node.forEachKey { key in
                if let m = PresentationMemberTable.member(key) { present |= 1 << UInt32(m.rawValue) }
            }
        }
        let always = PresentationMemberTable.always
        d.read(members: always & present, &reader)
        if let kind = d.kind {
            d.read(members: PresentationMemberTable.members(of: kind) & ~always & present, &reader)
            if kind == .sheet, d.sheet.sizing == .fitted, d.contentSize == nil {
                reader.r.error("sizing", "fitted sizing needs the measured \"contentSize\"")
            }
        }
        // A kind that is given but unknown leaves the members a presentation may have unknown too: listing
        // them (`detents` of a "sheeet") would only hide the one error that matters.
        if d.kind != nil || !reader.r.contains("kind") { reader.r.finish() }
        guard let kind = d.kind, let id = d.takeID() else { return nil }
        guard mapper.errorCount == before else {
            return Presentation(id: id, content: .fullScreenCover, presentedFrom: d.presentedFrom, intent: d.intent)
        }
        return d.presentation(id: id, kind: kind)
    }
}

extension PresentationDraft {
    /// The presentation of a draft whose members were all accepted, its `id` and kind taken out (`takeID`);
    /// nil for a popover without an anchor. The kind's fields are moved out of the draft, not copied.
    @inline(__always)
    mutating func presentation(id: String, kind: Presentation.Kind) -> Presentation? {
        let content: Presentation.Content
        var stray: SheetPlacement?
        switch kind {
        case .sheet:
            var s = SheetRequest()
            swap(&s, &sheet)
            s.placement = placement ?? .automatic
            s.contentSize = contentSize
            s.cornerRadius = cornerRadius
            if let selectedDetent { s.selectedDetent = selectedDetent }
            content = .sheet(s)
        case .fullScreenCover:
            stray = placement
            content = .fullScreenCover
        case .popover:
            guard let anchor else { return nil }
            stray = placement
            var p = popover
            p.anchor = anchor
            p.contentSize = contentSize
            content = .popover(p)
        case .adaptivePanel:
            stray = placement
            var p = panel
            p.cornerRadius = cornerRadius
            content = .adaptivePanel(p)
        }
        var p = Presentation(id: id, content: content, presentedFrom: presentedFrom, intent: intent)
        p.strayPlacement = stray
        return p
    }

    /// The id, moved out of the draft.
    @inline(__always)
    mutating func takeID() -> String? {
        var taken: String?
        swap(&taken, &id)
        return taken
    }
}

/// The general decoder's value readers: each reports what is wrong with the member at its pointer. Only the
/// members of the presentation's kind are read (`PresentationMemberTable.specific`): the kinds are not checked
/// again here, and the members no kind has stay unread, to be reported as unknown.
struct ReportingMemberReader: PresentationMemberReading {
    var r: ObjectReader
    var mapper: JSONMapper { r.mapper }
    /// The presentations before this one, by id.
    let ids: PresentationIDs

    @inline(__always)
    mutating func string(_ name: StaticString, _: PresentationKinds, _ length: ClosedRange<Int>, required: Bool)
        -> String?
    { r.string(name, required: required, length: length) }

    @inline(__always)
    mutating func enumeration<E: JSONStringEnumeration>(_ name: StaticString, _: PresentationKinds, required: Bool)
        -> E?
    { r.enumeration(name, required: required) }

    @inline(__always)
    mutating func bool(_ name: StaticString, _: PresentationKinds) -> Bool? { r.bool(name) }

    @inline(__always)
    mutating func number(_ name: StaticString, _: PresentationKinds, _ range: ClosedRange<Double>) -> Double? {
        r.number(name, range: range)
    }

    @inline(__always)
    mutating func size(_ name: StaticString, _: PresentationKinds) -> Size? {
        guard var o = r.object(name) else { return nil }
        let w = o.number("width", required: true, range: 0...100_000)
        let h = o.number("height", required: true, range: 0...100_000)
        o.finish()
        guard let w, let h else { return nil }
        return Size(width: w, height: h)
    }

    @inline(__always)
    mutating func anchor(_ name: StaticString, _: PresentationKinds) -> Rect? {
        guard var a = r.object(name, required: true) else { return nil }
        let x = a.number("x", required: true, range: SceneLimits.coordinate)
        let y = a.number("y", required: true, range: SceneLimits.coordinate)
        let w = a.number("width", range: 0...100_000) ?? 0
        let h = a.number("height", range: 0...100_000) ?? 0
        a.finish()
        guard let x, let y else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    @inline(__always)
    mutating func intent(_ name: StaticString, _: PresentationKinds) -> Intent? {
        guard var i = r.object(name) else { return nil }
        let intent = Intent(
            hasDecision: i.bool("hasDecision"), abandonableWithoutCost: i.bool("abandonableWithoutCost"))
        i.finish()
        return intent
    }

    mutating func presenter(_ name: StaticString, _: PresentationKinds, of id: String?) -> Int? {
        guard let from = r.string(name, length: SceneLimits.idLength) else { return nil }
        if let i = ids[from] { return i }
        if from == id {
            r.error(name, "a presentation cannot present itself")
        } else {
            r.error(name, "\"\(from)\" is not the id of an earlier presentation; list the presenter first")
        }
        return nil
    }

    mutating func detents(_ name: StaticString, _: PresentationKinds, contentSize: Size?) -> [Detent]? {
        guard let items = r.elements(name, maxCount: SceneLimits.maxDetents) else { return nil }
        if items.isEmpty {
            r.error(name, "must list at least one detent (omit it for [\"large\"])")
            return nil
        }
        var detents: [Detent] = []
        detents.reserveCapacity(items.count)
        for (i, v) in items.enumerated() {
            let p = r.location(name, index: i)
            if let d = Detent.decode(v, mapper: mapper, at: p) {
                if d == .fitted, contentSize == nil {
                    mapper.error(p, "a fitted detent needs the measured \"contentSize\" (its height)")
                }
                detents.append(d)
            }
        }
        return detents
    }

    @inline(__always)
    mutating func selectedDetent(_ name: StaticString, _: PresentationKinds, among detents: [Detent]) -> Detent? {
        guard let v = r.value(name), let d = Detent.decode(v, mapper: mapper, at: r.location(name)) else { return nil }
        if detents.contains(d) { return d }
        r.error(name, "\(d.text) is not one of the sheet's detents")
        return nil
    }

    mutating func backgroundInteraction(_ name: StaticString, _: PresentationKinds, contentSize: Size?)
        -> BackgroundInteraction?
    {
        guard let v = r.value(name) else { return nil }
        let p = r.location(name)
        if v.isString("disabled") { return .disabled }
        if v.isString("enabled") { return .enabled }
        guard v.isObject else {
            mapper.error(p, "expected \"disabled\", \"enabled\" or {\"upThrough\": <detent>}")
            return nil
        }
        guard var o = mapper.object(v, at: p) else { return nil }
        defer { o.finish() }
        guard let dv = o.value("upThrough") else {
            o.error("upThrough", "is required")
            return nil
        }
        guard let d = Detent.decode(dv, mapper: mapper, at: o.location("upThrough")) else { return nil }
        if d == .fitted, contentSize == nil {
            o.error("upThrough", "a fitted detent needs the measured \"contentSize\" (its height)")
        }
        return .upThrough(d)
    }

    mutating func toolbar(_ name: StaticString, _: PresentationKinds) -> [ToolbarItem]? {
        guard let items = r.elements(name, maxCount: SceneLimits.maxToolbarItems) else { return nil }
        var toolbar: [ToolbarItem] = []
        toolbar.reserveCapacity(items.count)
        for (i, v) in items.enumerated() {
            guard var o = mapper.object(v, at: r.location(name, index: i)) else { continue }
            let item = ToolbarItem(
                title: o.string("title", length: SceneLimits.textLength),
                systemImage: o.string("systemImage", length: SceneLimits.textLength),
                placement: o.enumeration("placement") ?? .automatic)
            o.finish()
            toolbar.append(item)
        }
        return toolbar
    }
}
