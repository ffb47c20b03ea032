/// Popover (docs/rules.md#popover): compact adaptation, flipping and clamping, fold-aware.
enum PopoverRules {
    static func resolve(
        _ popover: PopoverRequest, into p: inout Placement, env: ResolvedEnvironment, constants c: Constants,
        diagnostics d: inout PresentationDiagnostics
    ) {
        let anchor = popover.anchor
        // Size classes are those of the anchor's region when a fold separates, else the window's.
        let region = env.region(containing: anchor.midX, anchor.midY)
        let sizeClass = env.separatingFold != nil ? region.sizeClass : env.sizeClass
        if adapted(popover, into: &p, env: env, region: region, sizeClass: sizeClass, constants: c, diagnostics: &d) {
            return
        }
        placePopover(popover, into: &p, env: env, region: region, constants: c)
    }

    /// The sheet a popover becomes on a compact width: detents medium and large, selected large.
    private static let adaptedSheet: SheetRequest = {
        var sheet = SheetRequest()
        sheet.detents = [.medium, .large]
        sheet.selectedDetent = .large
        return sheet
    }()

    /// docs/rules.md#popover-adaptation: the sheet or full-screen cover the popover becomes in a compact size
    /// class; false when it stays a popover.
    private static func adapted(
        _ popover: PopoverRequest, into p: inout Placement, env: ResolvedEnvironment, region: Region,
        sizeClass: SizeClassPair, constants c: Constants, diagnostics d: inout PresentationDiagnostics
    ) -> Bool {
        let adaptation = popover.compactAdaptation
        // docs/rules.md#popover-both-compact: when both classes are compact the vertical adaptation decides — a
        // full-screen cover, unless the adaptation is popover — as SwiftUI uses the vertical adaptation there.
        if sizeClass.vertical == .compact {
            if adaptation == .popover { return false }
            adaptToCover(
                &p, env: env, diagnostics: &d,
                reason: .popoverAsCoverVerticallyCompact(folded: env.separatingFold != nil))
            return true
        }
        if sizeClass.horizontal == .compact, adaptation == .automatic || adaptation == .sheet {
            // On a compact width it becomes a sheet (docs/rules.md#popover-adaptation) — a region sheet in the anchor's
            // region when a fold separates — with detents medium and large, selected large (`adaptedSheet`).
            SheetRules.resolve(
                adaptedSheet, into: &p, env: env, constants: c, diagnostics: &d,
                forcedRegion: env.separatingFold != nil ? region : nil)
            p.adaptedFrom = .popover
            p.placement = nil  // a popover has no sheet placement; `region` says where the sheet went
            d.add(.popoverAdapted, .info, "", .popoverAsSheet(folded: env.separatingFold != nil))
            return true
        }
        if sizeClass.horizontal == .compact, adaptation == .fullScreenCover {
            adaptToCover(&p, env: env, diagnostics: &d, reason: .popoverAsCover(folded: env.separatingFold != nil))
            return true
        }
        return false
    }

    /// A real popover: beside its anchor on the side its arrow edge asks for, flipped when that side is too
    /// small and the other has more room, then clamped into the window (the anchor's region when a fold
    /// separates).
    private static func placePopover(
        _ popover: PopoverRequest, into p: inout Placement, env: ResolvedEnvironment, region: Region,
        constants c: Constants
    ) {
        let anchor = popover.anchor
        let container = env.separatingFold != nil ? region.frame : env.bounds
        let m = c.popoverMargin
        let size = popover.contentSize ?? Size(width: c.popoverWidth, height: c.popoverHeight)
        let w = max(0, min(size.width, container.width - 2 * m))
        let h = max(0, min(size.height, container.height - 2 * m))
        let minX = container.minX + m
        let maxX = container.maxX - m
        let minY = container.minY + m
        let maxY = container.maxY - m
        // Room on each physical side of the anchor.
        let below = maxY - anchor.maxY
        let above = anchor.minY - minY
        let right = maxX - anchor.maxX
        let left = anchor.minX - minX

        var edge = popover.arrowEdge
        var x: Double
        var y: Double
        switch edge {
        case .top, .bottom:
            // top → the popover sits below the anchor; bottom → above. Flip when the preferred side is too
            // small and the other side has more room.
            var sitsBelow = edge == .top
            let (preferred, opposite) = sitsBelow ? (below, above) : (above, below)
            if preferred < h, opposite > preferred { sitsBelow.toggle() }
            edge = sitsBelow ? .top : .bottom
            y = sitsBelow ? anchor.maxY : anchor.minY - h
            x = anchor.midX - w / 2
        case .leading, .trailing:
            // leading → on the anchor's trailing side; trailing → on its leading side.
            let trailingIsRight = !env.isRTL
            var onRight = (edge == .leading) == trailingIsRight
            let (preferred, opposite) = onRight ? (right, left) : (left, right)
            if preferred < w, opposite > preferred { onRight.toggle() }
            edge = (onRight == trailingIsRight) ? .leading : .trailing
            x = onRight ? anchor.maxX : anchor.minX - w
            y = anchor.midY - h / 2
        }
        // Then clamped into the window, and into the anchor's region when a fold separates.
        x = clamp(x, minX, maxX - w)
        y = clamp(y, minY, maxY - h)
        p.style = .popover
        p.frame = Rect(x: x, y: y, width: w, height: h)
        p.region = env.side(of: p.frame!)
        p.arrowEdge = edge
        p.dimsBackground = false
        p.backgroundInteractive = false
        p.swipeToDismiss = false
        p.tapOutsideToDismiss = true
    }

    private static func adaptToCover(
        _ p: inout Placement, env: ResolvedEnvironment, diagnostics d: inout PresentationDiagnostics,
        reason: DiagnosticMessage
    ) {
        FullScreenCoverRules.resolve(into: &p, env: env, diagnostics: &d)
        p.adaptedFrom = .popover
        d.add(.popoverAdapted, .info, "", reason)
    }
}
