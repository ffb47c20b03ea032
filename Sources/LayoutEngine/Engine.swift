import JSON

/// The entry point: a `Scene` in, a `Resolution` out (docs/rules.md). Pure and deterministic — no I/O, no
/// clocks, no globals — and total: it never traps on a scene that `Scene.decode` returned.
public enum LayoutEngine {
    public static let version = Resolution.engineVersion

    public static func resolve(_ scene: Scene) -> Resolution { resolve(scene, constants: scene.constants) }

    /// `resolve` with `constants` in place of the scene's own (a constant set's values under the request's,
    /// `Scene.constants(over:)`), without changing the scene; the resolution names `constantSet`.
    public static func resolve(_ scene: Scene, constants c: Constants, constantSet: String? = nil) -> Resolution {
        var diagnostics: [Diagnostic] = []
        // (`unknownFields.listed` is the fields' array itself: no call per index.)
        diagnostics.reserveCapacity(scene.unknownFields.listed.count + 2 * scene.presentations.count + 4)
        // docs/rules.md#unknown-fields: every unknown member is a warning with its path.
        for field in scene.unknownFields.listed {
            diagnostics.append(
                Diagnostic(
                    code: .unknownField, severity: .warning, presentation: nil, path: .pointer(field.path),
                    message: field.suggestion == nil ? .unknownField(field.name) : .text(field.message)))
        }
        if scene.unknownFields.omitted > 0 {
            diagnostics.append(
                Diagnostic(
                    code: .unknownField, severity: .warning, presentation: nil, path: .pointer(.root),
                    message: .text(scene.unknownFields.omittedMessage)))
        }
        let env = EnvironmentResolver.resolve(scene, diagnostics: &diagnostics)
        var stack = ModalStack()
        var placements: [Placement] = []
        placements.reserveCapacity(scene.presentations.count)
        for (index, presentation) in scene.presentations.enumerated() {
            // The placement is resolved in place in `placements` (placements[index] belongs to this presentation).
            // The presentation's diagnostics are appended to the scene's list directly (moved in and out).
            var d = PresentationDiagnostics(id: presentation.id, index: index)
            swap(&d.items, &diagnostics)
            placements.append(Placement(id: presentation.id, kind: presentation.kind, status: .ignored))
            FullScreenCoverRules.warnStrayPlacement(presentation, diagnostics: &d)  // docs/rules.md#stray-placement
            // docs/rules.md#modal-stack decides whether it is presented at all.
            if stack.admit(presentation, earlier: scene.presentations[..<index], diagnostics: &d) {
                placements[index].status = .presented
                switch presentation.content {
                case .sheet(let sheet):
                    SheetRules.resolve(sheet, into: &placements[index], env: env, constants: c, diagnostics: &d)
                case .fullScreenCover: FullScreenCoverRules.resolve(into: &placements[index], env: env, diagnostics: &d)
                case .popover(let popover):
                    PopoverRules.resolve(popover, into: &placements[index], env: env, constants: c, diagnostics: &d)
                case .adaptivePanel(let panel):
                    AdaptivePanelRules.resolve(panel, into: &placements[index], env: env, constants: c, diagnostics: &d)
                }
            }
            // docs/rules.md#present-or-navigate, also for an ignored presentation.
            PresentOrNavigateRules.advise(
                presentation, swipeToDismiss: placements[index].swipeToDismiss, diagnostics: &d)
            swap(&d.items, &diagnostics)
        }
        // docs/rules.md#covered-presentation, once every placement is known.
        CoverageRules.warnCovered(scene.presentations, placements, diagnostics: &diagnostics)
        var arrangement: ResolvedArrangement?
        if let a = scene.arrangementBox?.request {
            arrangement = ArrangementRules.resolve(a, env: env, constants: c, diagnostics: &diagnostics)
        }
        return Resolution(
            environment: env, arrangement: arrangement, placements: placements, diagnostics: diagnostics,
            constantSet: constantSet)
    }
}
