import JSON

// The scene reader's presentations (docs/rules.md#presentations): each kind's members, read in any order and
// checked against the kind once it is known.

/// The members of a presentation, whatever its kind; the kind says which it may have (`members(of:)`).
enum PresentationMember: String, SceneMembers {
    case id, kind, presentedFrom, intent, placement
    case sizing, contentSize, detents, selectedDetent, backgroundInteraction, interactiveDismissDisabled
    case hasUnsavedChanges, dragIndicator, cornerRadius, toolbar, contentScrollable
    case edgeAttachedInCompactHeight, widthFollowsContentSize, fittedAxes
    case anchor, arrowEdge, compactAdaptation
    case breakpoint, alignment, panelWidth, panelHeight, modal

    static var common: UInt64 { id.bit | kind.bit | presentedFrom.bit | intent.bit | placement.bit }
    static var sheet: UInt64 {
        common | sizing.bit | contentSize.bit | detents.bit | selectedDetent.bit | backgroundInteraction.bit
            | interactiveDismissDisabled.bit | hasUnsavedChanges.bit | dragIndicator.bit | cornerRadius.bit
            | toolbar.bit | contentScrollable.bit | edgeAttachedInCompactHeight.bit | widthFollowsContentSize.bit
            | fittedAxes.bit
    }
    static var popover: UInt64 { common | anchor.bit | arrowEdge.bit | contentSize.bit | compactAdaptation.bit }
    static var panel: UInt64 {
        common | breakpoint.bit | alignment.bit | panelWidth.bit | panelHeight.bit | modal.bit | cornerRadius.bit
    }

    static func members(of kind: Presentation.Kind) -> UInt64 {
        switch kind {
        case .sheet: return sheet
        case .fullScreenCover: return common
        case .popover: return popover
        case .adaptivePanel: return panel
        }
    }
}

enum IntentMember: String, SceneMembers {
    case hasDecision, abandonableWithoutCost
}

enum ToolbarItemMember: String, SceneMembers {
    case title, systemImage, placement
}

/// The detents given by name, and the members of a detent given by an object (exactly one of them).
enum DetentName: String, CaseIterable {
    case medium, large, fitted
}

enum DetentMember: String, SceneMembers {
    case height, fraction
}

enum BackgroundInteractionName: String, CaseIterable {
    case disabled, enabled
}

enum BackgroundInteractionMember: String, SceneMembers {
    case upThrough
}

extension SceneReader {
    mutating func presentations(into list: inout [Presentation], ids: inout PresentationIDs) {
        guard var a = src.array(maxCount: SceneLimits.maxPresentations) else { return }
        // Room for a few from the start: growing one element at a time allocates and copies at 1, 2, 4.
        list.reserveCapacity(8)
        var index = 0
        while src.next(&a) {
            defer { index += 1 }
            guard let p = presentation(ids: ids) else { continue }
            if let first = ids[p.id] {
                src.problem(
                    at: PresentationMember.id.rawValue,
                    "duplicate id \"\(p.id)\" (already used by /presentations/\(first))")
            } else {
                ids.insert(p.id, at: index)
            }
            list.append(p)
        }
    }

    /// The presentation at hand. A refused one that has an id and a kind is kept (with an error reported), so
    /// that later presentations can still name it without a spurious error.
    mutating func presentation(ids: PresentationIDs) -> Presentation? {
        guard var o = element(PresentationMember.self) else {
            src.decline()
            return nil
        }
        let before = src.problems
        // Until the kind says which members count: every member for a source that meets them as written; a source
        // that meets them in the order of their cases has met `kind` (the second) before any member of a kind,
        // so without one it asks only for the common ones.
        var d = PresentationDraft(
            asking: S.readsInCaseOrder ? PresentationMember.common : PresentationMember.everyMember)
        while let m = src.next(&o, PresentationMember.self, asking: d.asking) {
            read(m, into: &d)
            if src.failed { return nil }
        }
        // A kind that is given but unknown leaves the members a presentation may have unknown too: listing them
        // (`detents` of a "sheeet") would only hide the one error that matters.
        src.end(&o, PresentationMember.self, reportUnknown: d.kind != .some(nil))
        let id = required(o, PresentationMember.id, d.id)
        let kind = required(o, PresentationMember.kind, d.kind)
        var presentedFrom: Int?
        if let from = d.presentedFrom {
            if let i = ids[from] {
                presentedFrom = i
            } else if from == id {
                src.problem(at: PresentationMember.presentedFrom.rawValue, "a presentation cannot present itself")
            } else {
                src.problem(
                    at: PresentationMember.presentedFrom.rawValue,
                    "\"\(from)\" is not the id of an earlier presentation; list the presenter first")
            }
        }
        let intent = d.intent
        let stray = kind == .sheet ? nil : d.placement
        var content: Presentation.Content?
        if let kind {
            if src.given(o) & ~PresentationMember.members(of: kind) != 0 { src.decline() }
            content = self.content(kind, &d, o)
        }
        guard src.problems == before, !src.failed, let id, let content else {
            src.decline()
            guard let id, kind != nil else { return nil }
            return Presentation(
                id: id, content: content ?? .fullScreenCover, presentedFrom: presentedFrom, intent: intent)
        }
        var p = Presentation(id: id, content: content, presentedFrom: presentedFrom, intent: intent)
        p.strayPlacement = stray
        return p
    }

    /// Member `m` of a presentation, read into `d`.
    @inline(__always)
    private mutating func read(_ m: PresentationMember, into d: inout PresentationDraft) {
        switch m {
        case .id: d.id = src.string(SceneLimits.idLength)
        case .kind:
            d.kind = src.enumeration(Presentation.Kind.self)
            if case .some(let k?) = d.kind { d.asking = PresentationMember.members(of: k) }
        case .presentedFrom: d.presentedFrom = src.string(SceneLimits.idLength)
        case .intent: d.intent = intent()
        case .placement: d.placement = src.enumeration(SheetPlacement.self)
        case .sizing: d.sheet.sizing = src.enumeration(SheetSizing.self) ?? .automatic
        case .contentSize: d.contentSize = size()
        case .detents: detents(into: &d.sheet)
        case .selectedDetent:
            if src.peek() == .null { src.null() } else { d.selected = detent() }
        case .backgroundInteraction:
            if let b = backgroundInteraction() { d.sheet.backgroundInteraction = b }
        case .interactiveDismissDisabled: d.sheet.interactiveDismissDisabled = src.bool() ?? false
        case .hasUnsavedChanges: d.sheet.hasUnsavedChanges = src.bool() ?? false
        case .dragIndicator: d.sheet.dragIndicator = src.enumeration(DragIndicator.self) ?? .automatic
        case .cornerRadius: d.cornerRadius = src.number(0...10_000)
        case .toolbar: d.sheet.toolbar = toolbar()
        case .contentScrollable: d.sheet.contentScrollable = src.bool() ?? false
        case .edgeAttachedInCompactHeight: d.sheet.edgeAttachedInCompactHeight = src.bool() ?? false
        case .widthFollowsContentSize: d.sheet.widthFollowsContentSize = src.bool() ?? false
        case .fittedAxes: if let axes = axes() { d.sheet.fittedAxes = axes }
        case .anchor: d.anchor = anchor()
        case .arrowEdge: d.popover.arrowEdge = src.enumeration(ArrowEdge.self) ?? .top
        case .compactAdaptation: d.popover.compactAdaptation = src.enumeration(CompactAdaptation.self) ?? .automatic
        case .breakpoint: d.panel.breakpoint = src.number(0...100_000)
        case .alignment: d.panel.alignment = src.enumeration(PanelAlignment.self) ?? .trailing
        case .panelWidth: d.panel.panelWidth = src.number(SceneLimits.size)
        case .panelHeight: d.panel.panelHeight = src.number(SceneLimits.size)
        case .modal: d.panel.modal = src.bool() ?? false
        }
    }

    /// The content of a presentation of `kind` (its object `o` ended), with the rules between its members.
    private mutating func content(_ kind: Presentation.Kind, _ d: inout PresentationDraft, _ o: S.Object)
        -> Presentation.Content?
    {
        switch kind {
        case .sheet:
            d.sheet.placement = d.placement ?? .automatic
            d.sheet.contentSize = d.contentSize
            d.sheet.cornerRadius = d.cornerRadius
            if d.contentSize == nil {
                for (i, detent) in d.sheet.detents.enumerated() where detent == .fitted {
                    src.problem(
                        at: PresentationMember.detents.rawValue, index: i, then: nil,
                        "a fitted detent needs the measured \"contentSize\" (its height)")
                }
                if case .upThrough(.fitted) = d.sheet.backgroundInteraction {
                    src.problem(
                        at: PresentationMember.backgroundInteraction.rawValue, index: -1,
                        then: BackgroundInteractionMember.upThrough.rawValue,
                        "a fitted detent needs the measured \"contentSize\" (its height)")
                }
            }
            if let selected = d.selected {
                if d.sheet.detents.contains(selected) {
                    d.sheet.selectedDetent = selected
                } else {
                    src.problem(
                        at: PresentationMember.selectedDetent.rawValue,
                        "\(selected.text) is not one of the sheet's detents")
                }
            }
            if d.sheet.sizing == .fitted, d.contentSize == nil {
                src.problem(at: PresentationMember.sizing.rawValue, "fitted sizing needs the measured \"contentSize\"")
            }
            // docs/rules.md#sheet-fitted-axes: fitted on some axes of a form or page size.
            if !d.sheet.fittedAxes.isEmpty {
                if d.sheet.sizing == .fitted {
                    src.problem(
                        at: PresentationMember.fittedAxes.rawValue,
                        "fitted sizing already fits both axes: give fittedAxes with automatic, form or page sizing")
                } else if d.contentSize == nil {
                    src.problem(
                        at: PresentationMember.fittedAxes.rawValue, "fitted axes need the measured \"contentSize\"")
                }
            }
            return .sheet(d.sheet)
        case .fullScreenCover:
            return .fullScreenCover
        case .popover:
            guard let anchor = required(o, PresentationMember.anchor, d.anchor) else { return nil }
            d.popover.anchor = anchor
            d.popover.contentSize = d.contentSize
            return .popover(d.popover)
        case .adaptivePanel:
            d.panel.cornerRadius = d.cornerRadius
            return .adaptivePanel(d.panel)
        }
    }
}

/// A presentation's members as they are read, before its kind says which count.
struct PresentationDraft {
    /// The members to ask for next: those of the kind once it is known.
    var asking: UInt64
    var id: String??
    var kind: Presentation.Kind??
    var presentedFrom: String?
    var intent: Intent?
    var placement: SheetPlacement?
    var sheet = SheetRequest()
    var popover = PopoverRequest(anchor: Rect(x: 0, y: 0, width: 0, height: 0))
    var panel = PanelRequest()
    var anchor: Rect??
    var cornerRadius: Double?
    var contentSize: Size?
    var selected: Detent?

}
