/// docs/rules.md#covered-presentation: a presented placement whose frame lies wholly inside the frame of a
/// later one (presented after it, so higher in z-order) shows nothing while that one is up. Reported when the
/// one on top is a real popover (a warning: a popover points at content beside its anchor and should hide no
/// presentation, its presenter included) or, over a modal, a non-modal panel (info: a panel is part of the view
/// it sits in, beneath what is presented). A modal over what lies beneath it is how modal presentation works,
/// and panels side by side in one view are the view's own layout: not reported.
enum CoverageRules {
    /// The tolerance of "wholly inside" (docs/rules.md#coordinates).
    static let tolerance = 0.01

    static func warnCovered(
        _ presentations: [Presentation], _ placements: [Placement], diagnostics: inout [Diagnostic]
    ) {
        // By index, reading fields in place: a placement copied out would retain and release its strings, and
        // this runs on every resolve.
        let n = placements.count
        for i in 0..<n where placements[i].status == .presented {
            guard let frame = placements[i].frame, i + 1 < n else { continue }
            // The topmost of the later placements that cover it and are reported.
            var coverIndex = -1
            for j in (i + 1)..<n where placements[j].status == .presented {
                guard let g = placements[j].frame, contains(g, frame) else { continue }
                if placements[j].style == .popover
                    || (!ModalStack.isModal(presentations[j]) && ModalStack.isModal(presentations[i]))
                {
                    coverIndex = j
                }
            }
            guard coverIndex >= 0 else { continue }
            let p = placements[i]
            let cover = placements[coverIndex]
            let popover = cover.style == .popover
            var message =
                "\"\(p.id)\" is wholly covered by \"\(cover.id)\", presented after it: none of it shows while "
            message += "\"\(cover.id)\" is up"
            message +=
                popover
                ? "; a popover points at content and should not hide a presentation: move its anchor (window "
                    + "coordinates, which rtl does not mirror) or its arrowEdge"
                : "; a non-modal panel is part of the view beneath presentations: list it before \"\(p.id)\""
            diagnostics.append(
                Diagnostic(
                    code: .presentationCovered, severity: popover ? .warning : .info, presentation: p.id,
                    path: .presentation(index: i, member: "", item: -1), message: .text(message)))
        }
    }

    /// Whether `outer` holds all of `inner`.
    static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        outer.minX <= inner.minX + tolerance && outer.minY <= inner.minY + tolerance
            && outer.maxX >= inner.maxX - tolerance && outer.maxY >= inner.maxY - tolerance
    }
}
