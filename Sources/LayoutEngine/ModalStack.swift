/// Modal stack, chaining, concurrency (docs/rules.md#modal-stack).
struct ModalStack {
    /// One flag per presentation so far: a word holds the first 64 (most scenes need no allocation), an array the
    /// rest.
    private struct Flags {
        private var word: UInt64 = 0
        private var more: [Bool] = []

        subscript(index: Int) -> Bool {
            get { index < 64 ? word & (1 << UInt64(index)) != 0 : index - 64 < more.count && more[index - 64] }
            set {
                if index < 64 {
                    if newValue { word |= 1 << UInt64(index) } else { word &= ~(1 << UInt64(index)) }
                } else {
                    while more.count <= index - 64 { more.append(false) }
                    more[index - 64] = newValue
                }
            }
        }
    }

    /// How many presentations were admitted or refused so far.
    private var count = 0
    /// For each of them: whether it is modal, whether it was presented, and whether it already presents a modal.
    private var modal = Flags()
    private var presented = Flags()
    private var busy = Flags()
    /// Whether the scene's root context already presents a modal.
    private var busyRoot = false

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
        if let from = p.presentedFrom, from < count {
            if !presented[from] {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "presentedFrom",
                    .presenterNotOnScreen(earlier[from].id, id: p.id))
            } else if isModal, busy[from] {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "",
                    .presenterBusy(earlier[from].id))
            } else if isModal, modal[from] {
                d.add(
                    .chainedModal, .warning, "presentedFrom",
                    .chainedModal(earlier[from].id))
            }
            if ok, isModal { busy[from] = true }
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
        modal[count] = isModal
        presented[count] = ok
        count += 1
        return ok
    }
}
