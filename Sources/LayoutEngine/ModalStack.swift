/// Modal stack, chaining, concurrency (docs/rules.md#modal-stack).
struct ModalStack {
    /// For each presentation so far: whether it is modal, whether it was presented, and whether it already
    /// presents a modal.
    private struct Entry {
        var modal = false
        var presented = false
        var busy = false
    }
    /// The entries of the first 64 presentations, one bit each (most scenes need no allocation)…
    private var modal: UInt64 = 0
    private var presented: UInt64 = 0
    private var busy: UInt64 = 0
    /// …and those of the presentations after them.
    private var more: [Entry] = []
    /// How many presentations were admitted or refused so far.
    private var count = 0
    /// Whether the scene's root context already presents a modal.
    private var busyRoot = false
    /// For each presented non-modal panel named by `presentedFrom` inside a modal's view hierarchy, that modal's
    /// index (docs/rules.md#panel-context); a panel not listed sits in the root's. Empty in most scenes, so a
    /// list searched in order (an empty array costs nothing to make or search; a dictionary hashes each look-up).
    private var panelContexts: [(panel: Int, context: Int)] = []

    private func panelContext(_ panel: Int) -> Int? {
        for entry in panelContexts where entry.panel == panel { return entry.context }
        return nil
    }

    private subscript(index: Int) -> Entry {
        @inline(__always) get {
            guard index < 64 else { return more[index - 64] }
            let bit: UInt64 = 1 << UInt64(index)
            return Entry(modal: modal & bit != 0, presented: presented & bit != 0, busy: busy & bit != 0)
        }
        @inline(__always) set {
            guard index < 64 else {
                if index - 64 == more.count { more.append(newValue) } else { more[index - 64] = newValue }
                return
            }
            let bit: UInt64 = 1 << UInt64(index)
            modal = newValue.modal ? modal | bit : modal & ~bit
            presented = newValue.presented ? presented | bit : presented & ~bit
            busy = newValue.busy ? busy | bit : busy & ~bit
        }
    }

    /// `sheet`, `fullScreenCover` and `popover` are modal; `adaptivePanel` only with modal: true.
    static func isModal(_ p: Presentation) -> Bool {
        switch p.content {
        case .sheet, .fullScreenCover, .popover: return true
        case .adaptivePanel(let panel): return panel.modal
        }
    }

    /// Decides whether `p` is presented, adding `chained-modal` / `concurrent-presentation`. Each context
    /// (the root, or a modal named by `presentedFrom`) presents at most one modal at a time: a second modal
    /// from the same context is ignored, as SwiftUI does (docs/rules.md#modal-stack). A non-modal panel is
    /// no context of its own: what it presents, the context holding it presents
    /// (docs/rules.md#panel-context). `earlier` holds the presentations before `p` (their ids name
    /// presenters in messages).
    mutating func admit(
        _ p: Presentation, earlier: ArraySlice<Presentation>, diagnostics d: inout PresentationDiagnostics
    ) -> Bool {
        let isModal = Self.isModal(p)
        var ok = true
        if let from = p.presentedFrom, from < count {
            if !self[from].presented {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "presentedFrom",
                    .presenterNotOnScreen(earlier[from].id, id: p.id))
            } else if let context = self[from].modal ? from : panelContext(from) {
                if isModal {
                    ok = admitModal(from: from, in: context, earlier: earlier, diagnostics: &d)
                } else {
                    panelContexts.append((count, context))
                }
            } else if isModal {
                // A non-modal panel in the root's view hierarchy: the root presents.
                ok = !busyRoot
                if busyRoot {
                    d.add(.concurrentPresentation, .warning, "", .panelContextBusy(earlier[from].id, context: nil))
                }
                busyRoot = true
            }
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
        self[count] = Entry(modal: isModal, presented: ok, busy: false)
        count += 1
        return ok
    }

    /// Admits a modal presented from `from` into `context`, the modal that presents it: `from` itself, or the
    /// modal whose view hierarchy holds the non-modal panel `from`.
    private mutating func admitModal(
        from: Int, in context: Int, earlier: ArraySlice<Presentation>, diagnostics d: inout PresentationDiagnostics
    ) -> Bool {
        if self[context].busy {
            d.add(
                .concurrentPresentation, .warning, "",
                context == from
                    ? .presenterBusy(earlier[from].id)
                    : .panelContextBusy(earlier[from].id, context: earlier[context].id))
            return false
        }
        d.add(.chainedModal, .warning, "presentedFrom", .chainedModal(earlier[context].id))
        self[context].busy = true
        return true
    }
}
