/// Sheet (docs/rules.md#sheet): style (the first rule that applies wins), detents and selection, behaviour.
enum SheetRules {
    /// Where the sheet is and how it is laid out, before behaviour.
    private struct Layout {
        var style: PresentationStyle
        var frame: Rect
        var container: Region
        var resolved: ResolvedSheetPlacement
        /// Detent heights are listed (bottom, region and edge-attached sheets).
        var listsDetents: Bool
        /// The selected detent sets the height (bottom and region bottom sheets); elsewhere the sheet
        /// counts as at its largest detent.
        var detentsApply: Bool
        /// A floating card (all four corners round).
        var isCard: Bool
        var toolbarVertical: Bool
    }

    /// Resolves a sheet. `forcedRegion` is the anchor's region of a popover adapted to a sheet
    /// (docs/rules.md#popover-adaptation).
    static func resolve(
        _ sheet: SheetRequest, into p: inout Placement, env: ResolvedEnvironment, constants c: Constants,
        diagnostics d: inout PresentationDiagnostics, forcedRegion: Region? = nil
    ) {
        let layout = self.layout(sheet, env: env, constants: c, diagnostics: &d, forcedRegion: forcedRegion)
        let region = layout.container
        let metrics = DetentMetrics(
            containerHeight: region.frame.height, safeTop: region.insets.top, contentHeight: sheet.contentSize?.height,
            constants: c)

        var heights = resolvedHeights(sheet, metrics: metrics, listed: layout.listsDetents, diagnostics: &d)
        let selected = sheet.selectedDetent ?? smallest(heights)
        let selectedHeight = heights.first { $0.detent == selected }?.height ?? metrics.large
        let largest = heights.reduce(0) { max($0, $1.height) }

        var frame = layout.frame
        if layout.detentsApply {
            // docs/rules.md#bottom-sheet: attached to the bottom edge, height = the selected detent.
            frame.height = selectedHeight
            frame.y = region.frame.maxY - selectedHeight
        }

        p.style = layout.style
        p.frame = frame
        p.region = env.side(of: frame)
        p.placement = PlacementChoice(requested: sheet.placement, resolved: layout.resolved)
        if layout.listsDetents {
            sortStably(&heights)  // nothing below depends on the request order of `heights`
            p.detents = heights
        }
        p.selectedDetent = layout.detentsApply ? selected : nil

        // Where detents are ignored the sheet counts as at its largest.
        let current = layout.detentsApply ? selectedHeight : largest
        applyInteraction(sheet, currentHeight: current, metrics: metrics, into: &p, diagnostics: &d)
        p.dragIndicatorVisible = dragIndicatorVisible(sheet.dragIndicator, heights: heights, layout: layout)
        applyToolbar(sheet.toolbar, vertical: layout.toolbarVertical, into: &p, diagnostics: &d)
        // docs/rules.md#dynamic-type-risk.
        if env.dynamicTypeSize.isAccessibility, !sheet.contentScrollable,
            sheet.detents.allSatisfy({ if case .height = $0 { return true } else { return $0 == .fitted } })
        {
            d.add(
                .fittedAccessibilityRisk, .warning, "detents",
                .fittedAccessibilityRisk(env.dynamicTypeSize))
        }
        let r = sheet.cornerRadius ?? c.sheetCornerRadius
        p.cornerRadii = layout.isCard ? .all(r) : .top(r)
        p.transitionEdge = .bottom
    }

    /// docs/rules.md#detent-heights, docs/rules.md#detent-order: each requested detent's height, in request
    /// order (the placement lists them sorted ascending, ties in request order).
    private static func resolvedHeights(
        _ sheet: SheetRequest, metrics: DetentMetrics, listed: Bool, diagnostics d: inout PresentationDiagnostics
    ) -> [ResolvedDetent] {
        var heights: [ResolvedDetent] = []
        heights.reserveCapacity(sheet.detents.count)
        for (i, detent) in sheet.detents.enumerated() {
            let (h, clamped) = metrics.height(detent)
            heights.append(ResolvedDetent(detent: detent, height: h))
            if clamped, listed {
                d.add(
                    .detentClamped, .info, "detents", item: i, .detentClamped(detent, h))
            }
        }
        return heights
    }

    /// docs/rules.md#background-interaction: dimming and background interaction up through a detent (UIKit
    /// largestUndimmedDetentIdentifier), and how the sheet can be dismissed.
    private static func applyInteraction(
        _ sheet: SheetRequest, currentHeight: Double, metrics: DetentMetrics, into p: inout Placement,
        diagnostics d: inout PresentationDiagnostics
    ) {
        switch sheet.backgroundInteraction {
        case .disabled:
            p.dimsBackground = true
            p.backgroundInteractive = false
        case .enabled:
            p.dimsBackground = false
            p.backgroundInteractive = true
        case .upThrough(let limit):
            let undimmed = currentHeight <= metrics.height(limit).height + 1e-9
            p.dimsBackground = !undimmed
            p.backgroundInteractive = undimmed
        }
        let swipe = !sheet.interactiveDismissDisabled
        p.swipeToDismiss = swipe
        // docs/rules.md#tap-outside-to-dismiss: a tap on the dimmed background dismisses like a swipe does.
        p.tapOutsideToDismiss = swipe && (p.dimsBackground ?? false)
        if sheet.hasUnsavedChanges, swipe {
            d.add(
                .unsavedChangesDismissible, .warning, "hasUnsavedChanges",
                "a swipe can dismiss this sheet and lose its unsaved changes: set interactiveDismissDisabled while there are changes and offer an explicit Cancel/Save"
            )
        }
    }

    /// Whether the drag indicator shows: as asked, or (automatic) when the sheet can move between heights.
    private static func dragIndicatorVisible(
        _ indicator: DragIndicator, heights: [ResolvedDetent], layout: Layout
    ) -> Bool {
        switch indicator {
        case .visible: return true
        case .hidden: return false
        case .automatic:
            // More than one distinct height: some height differs from the first.
            let distinctHeights = heights.contains { $0.height != heights[0].height }
            return layout.detentsApply && distinctHeights
                && (layout.style == .bottomSheet || layout.style == .regionSheet)
        }
    }

    /// docs/rules.md#toolbar: vertical for a side presentation at the trailing edge; its items need icons there,
    /// and a modal's bar needs an explicit exit.
    private static func applyToolbar(
        _ toolbar: [ToolbarItem]?, vertical: Bool, into p: inout Placement, diagnostics d: inout PresentationDiagnostics
    ) {
        p.toolbarOrientation = vertical ? .vertical : .horizontal
        if let toolbar {
            if vertical {
                for (i, item) in toolbar.enumerated() where item.systemImage == nil {
                    d.add(
                        .toolbarItemMissingIcon, .warning, "toolbar", item: i,
                        .toolbarItemMissingIcon(title: item.title, index: i))
                }
            }
            if !toolbar.contains(where: { $0.placement == .cancellationAction || $0.placement == .confirmationAction })
            {
                d.add(
                    .toolbarMissingExit, .info, "toolbar",
                    "the sheet's toolbar has no cancellationAction or confirmationAction: give the modal an explicit exit (Cancel/Done) in its bar"
                )
            }
        }
    }

    /// docs/rules.md#default-selected-detent: the smallest detent, as UIKit does (first on a tie).
    private static func smallest(_ heights: [ResolvedDetent]) -> Detent {
        var best: ResolvedDetent?
        for h in heights where best == nil || h.height < best!.height { best = h }
        return best?.detent ?? .large
    }

    private static func sortStably(_ sorted: inout [ResolvedDetent]) {
        // Insertion sort (at most 16 detents): an element moves only past strictly taller ones, so ties keep
        // their request order. An element not shorter than the one before it stays where it is (nothing is written
        // for detents listed in ascending order, as most requests list them).
        for i in sorted.indices.dropFirst() where sorted[i - 1].height > sorted[i].height {
            let x = sorted[i]
            var j = i
            while j > 0, sorted[j - 1].height > x.height {
                sorted[j] = sorted[j - 1]
                j -= 1
            }
            sorted[j] = x
        }
    }

    private static func detentsAreDefault(_ s: SheetRequest) -> Bool { s.detents.allSatisfy { $0 == .large } }

    private static func layout(
        _ sheet: SheetRequest, env: ResolvedEnvironment, constants c: Constants,
        diagnostics d: inout PresentationDiagnostics, forcedRegion: Region?
    ) -> Layout {
        // docs/rules.md#region-sheet: a separating fold crosses the window; the sheet never crosses it.
        if let fold = env.separatingFold {
            let region: Region
            if let forcedRegion {
                region = forcedRegion
            } else if fold.orientation == .vertical {
                // A folded phone's centre is its leading half: center goes there like automatic and leading.
                region = env.region(sheet.placement == .trailing ? .trailing : .leading) ?? env.windowRegion
            } else {
                region = env.region(.bottom) ?? env.windowRegion
            }
            var inner = compactOrCard(
                sheet, in: region, env: env, constants: c, diagnostics: &d,
                quietPlacement: fold.orientation == .vertical || forcedRegion != nil)
            inner.style = .regionSheet
            if fold.orientation == .vertical, let side = region.side {
                inner.resolved = side == .trailing ? .trailing : .leading
                inner.toolbarVertical = side == .trailing
                if forcedRegion == nil, sheet.placement != .automatic, sheet.placement.rawValue != side.rawValue {
                    d.add(
                        .placementMovedByFold, .info, "placement",
                        .placementMovedByFold(sheet.placement, side))
                }
            }
            return inner
        }
        let bounds = env.windowRegion
        // docs/rules.md#full-window-sheet: vertical size class compact (a phone in landscape).
        if env.sizeClass.vertical == .compact {
            if !detentsAreDefault(sheet) {
                d.add(
                    .detentsIgnored, .info, "detents",
                    "detents are ignored in a compact-height window: the sheet covers the window (medium is inactive in compact height); set edgeAttachedInCompactHeight to keep a bottom-attached sheet"
                )
            }
            var layout = Layout(
                style: .fullWindow, frame: bounds.frame, container: bounds, resolved: .fullWidth, listsDetents: false,
                detentsApply: false, isCard: false, toolbarVertical: false)
            if sheet.edgeAttachedInCompactHeight {
                // UIKit prefersEdgeAttachedInCompactHeight: bottom-attached, as wide as the safe area (or its
                // content), centred, as tall as the large detent.
                let i = bounds.insets
                let safeWidth = max(0, env.width - i.left - i.right)
                var w = safeWidth
                if sheet.widthFollowsContentSize, let cs = sheet.contentSize { w = min(cs.width, env.width) }
                let x = clamp(i.left + (safeWidth - w) / 2, 0, env.width - w)
                let h = DetentMetrics(containerHeight: env.height, safeTop: i.top, contentHeight: nil, constants: c)
                    .large
                layout.frame = Rect(x: x, y: env.height - h, width: w, height: h)
                layout.listsDetents = true
                layout.resolved = w == safeWidth ? .fullWidth : .center
            }
            if sheet.placement != .automatic, sheet.placement.rawValue != layout.resolved.rawValue {
                d.add(
                    .placementNoEffect, .info, "placement",
                    .placementNoEffectCompactHeight(sheet.placement))
            }
            return layout
        }
        return compactOrCard(sheet, in: bounds, env: env, constants: c, diagnostics: &d, quietPlacement: false)
    }

    /// docs/rules.md#bottom-sheet and docs/rules.md#card inside `container` (the window, or a region for rule 1).
    private static func compactOrCard(
        _ sheet: SheetRequest, in container: Region, env: ResolvedEnvironment, constants c: Constants,
        diagnostics d: inout PresentationDiagnostics, quietPlacement: Bool
    ) -> Layout {
        let f = container.frame
        if container.sizeClass.horizontal == .compact {
            // Rule 3 — bottomSheet: full width, attached to the bottom; placement has no visible effect.
            if !quietPlacement, sheet.placement != .automatic {
                d.add(
                    .placementNoEffect, .info, "placement",
                    .placementNoEffectCompactWidth(sheet.placement, region: container.side != nil))
            }
            return Layout(
                style: .bottomSheet, frame: f, container: container, resolved: .fullWidth, listsDetents: true,
                detentsApply: true, isCard: false, toolbarVertical: false)
        }
        // Rule 4 — card: a floating card, detents ignored, size from sizing.
        if !detentsAreDefault(sheet) {
            d.add(
                .detentsIgnored, .info, "detents",
                .detentsIgnoredByCard(region: container.side != nil))
        }
        let m = c.sheetMargin
        var w: Double
        var h: Double
        switch sheet.sizing {
        case .automatic, .form:
            w = c.sheetFormWidth
            h = c.sheetFormHeight
        case .page:
            w = min(f.width - 2 * m, c.sheetPageWidth)
            h = f.height - container.insets.top - c.sheetTopGap
        case .fitted:
            w = sheet.contentSize?.width ?? c.sheetFormWidth
            h = sheet.contentSize?.height ?? c.sheetFormHeight
        }
        // docs/rules.md#sheet-fitted-axes: on a fitted axis the size is the content's.
        if let content = sheet.contentSize {
            if sheet.fittedAxes.contains(.horizontal) { w = content.width }
            if sheet.fittedAxes.contains(.vertical) { h = content.height }
        }
        // Always clamped to the container minus sheet.margin on every side.
        w = max(0, min(w, f.width - 2 * m))
        h = max(0, min(h, f.height - 2 * m))
        let y = f.minY + (f.height - h) / 2
        let x: Double
        let resolved: ResolvedSheetPlacement
        switch sheet.placement {
        case .automatic, .center:
            x = f.minX + (f.width - w) / 2
            resolved = .center
        case .leading:
            x = env.x(docking: w, to: true, in: f, inset: m)
            resolved = .leading
        case .trailing:
            x = env.x(docking: w, to: false, in: f, inset: m)
            resolved = .trailing
        }
        return Layout(
            style: .card, frame: Rect(x: x, y: y, width: w, height: h), container: container, resolved: resolved,
            listsDetents: false, detentsApply: false, isCard: true, toolbarVertical: resolved == .trailing)
    }
}
