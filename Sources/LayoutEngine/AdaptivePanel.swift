/// Adaptive panel (docs/rules.md#adaptive-panel): a bottom panel that becomes a side panel on a wide window.
enum AdaptivePanelRules {
    static func resolve(
        _ panel: PanelRequest, into p: inout Placement, env: ResolvedEnvironment, constants c: Constants,
        diagnostics d: inout PresentationDiagnostics
    ) {
        let W = env.width
        let H = env.height
        let breakpoint = panel.breakpoint ?? c.panelBreakpoint
        var pw = panel.panelWidth ?? c.panelWidth
        var ph = panel.panelHeight ?? c.panelHeight
        let r = panel.cornerRadius ?? c.panelCornerRadius
        let leading = panel.alignment == .leading
        let side = W >= breakpoint
        var frame: Rect
        if side {
            // sidePanel: panelWidth wide, full height, at the alignment edge (leading/trailing mirror in rtl).
            if pw > W {
                d.add(.panelClamped, .info, "panelWidth", .panelWider(pw, window: W))
                pw = W
            }
            frame = Rect(x: env.x(docking: pw, to: leading, in: env.bounds, inset: 0), y: 0, width: pw, height: H)
            p.style = .sidePanel
            // Rounded on the two corners that face the content.
            p.cornerRadii =
                leading ? CornerRadii(topTrailing: r, bottomTrailing: r) : CornerRadii(topLeading: r, bottomLeading: r)
            p.transitionEdge = leading ? .leading : .trailing
            p.contentAxis = .vertical
        } else {
            if ph > H {
                d.add(.panelClamped, .info, "panelHeight", .panelTaller(ph, window: H))
                ph = H
            }
            frame = Rect(x: 0, y: H - ph, width: W, height: ph)
            p.style = .bottomPanel
            p.cornerRadii = .top(r)
            p.transitionEdge = .bottom
            p.contentAxis = .horizontal
        }
        // A panel that would cross a separating fold snaps to the region on its side (side panel) or to the
        // bottom region (bottom panel).
        if let fold = env.separatingFold, crosses(frame, fold) {
            let target: Region?
            if fold.orientation == .vertical {
                // Vertical fold: the region on the alignment side, for a bottom panel too (there is no
                // bottom region); the panel keeps its own height in it.
                target = env.region(leading ? .leading : .trailing)
                if let t = target {
                    frame =
                        side
                        ? t.frame
                        : Rect(x: t.frame.minX, y: H - ph, width: t.frame.width, height: ph)
                }
            } else {
                // Horizontal fold: the bottom region (a side panel keeps its width, a bottom panel fits).
                target = env.region(.bottom)
                if let t = target {
                    frame =
                        side
                        ? Rect(x: frame.minX, y: t.frame.minY, width: frame.width, height: t.frame.height)
                        : Rect(x: 0, y: max(t.frame.minY, H - ph), width: W, height: min(ph, t.frame.height))
                }
            }
            if let t = target, let s = t.side {
                d.add(.panelSnappedToFold, .info, "", .panelSnapped(side: side, s))
            }
        }
        p.frame = frame
        p.region = env.side(of: frame)
        // modal: false → the content behind stays usable; modal: true → a scrim that dismisses on tap.
        p.dimsBackground = panel.modal
        p.backgroundInteractive = !panel.modal
        p.tapOutsideToDismiss = panel.modal
        p.swipeToDismiss = false
    }

    /// True when `frame` overlaps the fold's hinge band (or crosses its line, for a seamless fold).
    static func crosses(_ frame: Rect, _ fold: FoldState) -> Bool {
        let lo = fold.position - fold.thickness / 2
        let hi = fold.position + fold.thickness / 2
        let (a, b) = fold.orientation == .vertical ? (frame.minX, frame.maxX) : (frame.minY, frame.maxY)
        return a < hi && b > lo && !(fold.thickness == 0 && (a >= fold.position || b <= fold.position))
    }
}
