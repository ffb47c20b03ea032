/// Modal stack, chaining, concurrency (docs/rules.md#modal-stack).
struct ModalStack {
    /// For each presentation so far: whether it is modal, whether it was presented, and whether it already
    /// presents a modal (one array: one allocation per resolution).
    private struct Entry {
        var modal: Bool
        var presented: Bool
        var busy: Bool
    }
    private var entries: [Entry] = []
    /// Whether the scene's root context already presents a modal.
    private var busyRoot = false

    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// `sheet`, `fullScreenCover` and `popover` are modal; `adaptivePanel` only with modal: true.
    static func isModal(_ p: Presentation) -> Bool {
        switch p.content {
        case .sheet, .fullScreenCover, .popover: return true
        case .adaptivePanel(let panel): return panel.modal
        }
    }

    /// Decides whether `p` is presented, adding `chained-modal` / `concurrent-presentation`. Each context
    /// (the root, or a presentation named by `presentedFrom`) presents at most one modal at a time: a
    /// second modal from the same context is ignored, as SwiftUI does (docs/rules.md#modal-stack).
    /// `earlier` holds the presentations before `p` (their ids name presenters in messages).
    mutating func admit(
        _ p: Presentation, earlier: ArraySlice<Presentation>, diagnostics d: inout PresentationDiagnostics
    ) -> Bool {
        let isModal = Self.isModal(p)
        var ok = true
        if let from = p.presentedFrom, from < entries.count {
            if !entries[from].presented {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "presentedFrom",
                    .presenterNotOnScreen(earlier[from].id, id: p.id))
            } else if isModal, entries[from].busy {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "",
                    .presenterBusy(earlier[from].id))
            } else if isModal, entries[from].modal {
                d.add(
                    .chainedModal, .warning, "presentedFrom",
                    .chainedModal(earlier[from].id))
            }
            if ok, isModal { entries[from].busy = true }
        } else if isModal {
            if busyRoot {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "",
                    "an earlier modal is still up: SwiftUI ignores a second presentation from the same context; give it presentedFrom (the modal on top) or present it after dismissing the first"
                )
            } else {
                busyRoot = true
            }
        }
        entries.append(Entry(modal: isModal, presented: ok, busy: false))
        return ok
    }
}
