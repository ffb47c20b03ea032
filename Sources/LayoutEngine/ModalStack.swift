/// SPEC §3.1 Modal stack, chaining, concurrency (seed 003).
struct ModalStack {
    /// For each presentation so far: whether it is modal, and whether it was presented.
    private var modal: [Bool] = []
    private var presented: [Bool] = []
    /// The presenters (nil = the scene's root context) that already present a modal.
    private var busyRoot = false
    private var busy: [Bool] = []

    init(capacity: Int) {
        modal.reserveCapacity(capacity)
        presented.reserveCapacity(capacity)
        busy.reserveCapacity(capacity)
    }

    /// SPEC §3.1: `sheet`, `fullScreenCover` and `popover` are modal; `adaptivePanel` only with modal: true.
    static func isModal(_ p: Presentation) -> Bool {
        switch p.content {
        case .sheet, .fullScreenCover, .popover: return true
        case .adaptivePanel(let panel): return panel.modal
        }
    }

    /// Decides whether `p` is presented, adding `chained-modal` / `concurrent-presentation`. Each context
    /// (the root, or a presentation named by `presentedFrom`) presents at most one modal at a time: a
    /// second modal from the same context is ignored, as SwiftUI does (docs/rules.md).
    mutating func admit(_ p: Presentation, names: [String], diagnostics d: inout PresentationDiagnostics) -> Bool {
        let isModal = Self.isModal(p)
        var ok = true
        if let from = p.presentedFrom, from < modal.count {
            if !presented[from] {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "presentedFrom",
                    .presenterNotOnScreen(names[from], id: p.id))
            } else if isModal, busy[from] {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "",
                    .presenterBusy(names[from]))
            } else if isModal, modal[from] {
                d.add(
                    .chainedModal, .warning, "presentedFrom",
                    .chainedModal(names[from]))
            }
            if ok, isModal { busy[from] = true }
        } else if isModal {
            if busyRoot {
                ok = false
                d.add(
                    .concurrentPresentation, .warning, "",
                    "an earlier modal is still up: SwiftUI ignores a second presentation from the same context; give it presentedFrom (the modal on top) or present it after dismissing the first")
            } else {
                busyRoot = true
            }
        }
        modal.append(isModal)
        presented.append(ok)
        busy.append(false)
        return ok
    }
}
