import LayoutEngine
import SwiftCodeModel

/// The presentation modifiers read into a presentation's members (docs/swiftui.md#read), and the arguments of the
/// presenting modifier itself (a popover's anchor and arrow edge, a panel's fields).
struct PresentationMembers {
    static let names: Set<String> = [
        "presentationDetents", "presentationSizing", "presentationPlacement", "presentationBackgroundInteraction",
        "interactiveDismissDisabled", "presentationDragIndicator", "presentationCornerRadius",
        "presentationCompactAdaptation",
    ]

    let walker: ViewWalker
    let node: PresentationNode
    let ctx: WalkContext

    var values: ValueReader { ValueReader(index: walker.index, scope: ctx.scope) }

    /// Sets a member once: the first place met (the innermost modifier) wins; a different value later is reported.
    private func set<T: Equatable>(
        _ path: WritableKeyPath<CodePresentation, T?>, _ reading: Reading<T>, _ suffix: String, at point: SourcePoint,
        modifier: String
    ) {
        switch reading {
        case .value(let v):
            if let existing = node.presentation[keyPath: path] {
                if existing != v {
                    node.unresolved(
                        point,
                        "`.\(modifier)` is applied twice to this presentation with different values: "
                            + "the innermost is read")
                }
                return
            }
            node.presentation[keyPath: path] = v
            node.member(suffix, at: point)
        case .omitted: break
        case .unresolved(let message): node.unresolved(point, message)
        }
    }

    /// `.popover(…, attachmentAnchor:, arrowEdge:)`; `.adaptivePanel(…, breakpoint:, alignment:, panelWidth:,
    /// panelHeight:, modal:, cornerRadius:)`.
    func modifierArguments(_ c: CodeCall, at point: SourcePoint) {
        switch node.presentation.kind {
        case .popover:
            if let a = c.argument("attachmentAnchor") {
                set(\.attachmentAnchor, values.attachmentAnchor(a), "anchor", at: point, modifier: "popover")
            }
            set(
                \.arrowEdge, values.name(c.argument("arrowEdge"), ArrowEdge.self), "arrowEdge", at: point,
                modifier: "popover")
        case .adaptivePanel:
            set(
                \.breakpoint, values.number(c.argument("breakpoint")), "breakpoint", at: point,
                modifier: "adaptivePanel")
            set(
                \.alignment, values.name(c.argument("alignment"), PanelAlignment.self), "alignment", at: point,
                modifier: "adaptivePanel")
            set(
                \.panelWidth, values.number(c.argument("panelWidth")), "panelWidth", at: point,
                modifier: "adaptivePanel")
            set(
                \.panelHeight, values.number(c.argument("panelHeight")), "panelHeight", at: point,
                modifier: "adaptivePanel")
            set(\.modal, values.bool(c.argument("modal")), "modal", at: point, modifier: "adaptivePanel")
            set(
                \.cornerRadius, values.number(c.argument("cornerRadius")), "cornerRadius", at: point,
                modifier: "adaptivePanel")
        case .sheet, .fullScreenCover: break
        }
    }

    /// The modifiers each kind has a member for: a sheet all but the compact adaptation; a popover that; any
    /// kind `placement` (only sheets honour it: the engine warns `placement-ignored`, docs/rules.md#stray-placement).
    static func applies(_ name: String, to kind: Presentation.Kind) -> Bool {
        switch (name, kind) {
        case ("presentationPlacement", _): return true
        case ("presentationCompactAdaptation", .popover): return true
        case ("presentationCompactAdaptation", _): return false
        case (_, .sheet): return true
        default: return false
        }
    }

    /// One presentation modifier applied inside the content.
    func read(_ name: String, _ c: CodeCall, at point: SourcePoint) {
        guard Self.applies(name, to: node.presentation.kind) else {
            return node.unresolved(
                point, "the scene's \(node.presentation.kind.rawValue) has no member for `.\(name)(…)`: it is not read")
        }
        let argument = c.arguments.first?.value
        switch name {
        case "presentationDetents":
            guard let argument else { return }
            set(\.detents, values.detents(argument), "detents", at: point, modifier: name)
            if let selection = c.argument("selection") {
                var reading = values.selection(selection)
                if case .value(let d) = reading, !(node.presentation.detents ?? []).contains(d) {
                    reading = .unresolved("the selected detent's initial value is not one of the detents")
                }
                set(\.selectedDetent, reading, "selectedDetent", at: point, modifier: name)
            }
        case "presentationSizing":
            guard let argument else { return }
            switch values.sizing(argument) {
            case .value(let (sizing, axes)):
                set(\.sizing, .value(sizing), "sizing", at: point, modifier: name)
                if let axes { set(\.fittedAxes, .value(axes), "fittedAxes", at: point, modifier: name) }
            case .omitted: break
            case .unresolved(let m): node.unresolved(point, m)
            }
        case "presentationPlacement":
            set(\.placement, values.name(argument, SheetPlacement.self), "placement", at: point, modifier: name)
        case "presentationBackgroundInteraction":
            set(
                \.backgroundInteraction, values.backgroundInteraction(argument), "backgroundInteraction", at: point,
                modifier: name)
        case "interactiveDismissDisabled":
            let reading: Reading<Bool> =
                argument == nil
                ? .value(true)
                : values.bool(argument).mapUnresolved {
                    "interactive dismissal is disabled while `\(CodeText.describe(argument!))` holds, which only runtime "
                        + "decides: the scene leaves `interactiveDismissDisabled` out"
                }
            set(\.interactiveDismissDisabled, reading, "interactiveDismissDisabled", at: point, modifier: name)
        case "presentationDragIndicator":
            set(\.dragIndicator, values.name(argument, DragIndicator.self), "dragIndicator", at: point, modifier: name)
        case "presentationCornerRadius":
            set(\.cornerRadius, values.number(argument), "cornerRadius", at: point, modifier: name)
        default:
            set(\.compactAdaptation, values.compactAdaptation(c), "compactAdaptation", at: point, modifier: name)
        }
    }
}

extension Reading {
    func mapUnresolved(_ message: () -> String) -> Reading {
        if case .unresolved = self { return .unresolved(message()) }
        return self
    }
}

extension ViewWalker {
    /// A presentation modifier: it configures the presentation whose content it is in (none at the root), unless a
    /// runtime condition decides whether it applies.
    func presentationMember(_ name: String, _ c: CodeCall, at point: SourcePoint, _ ctx: WalkContext) {
        guard !ctx.node.isRoot else { return }
        if let condition = ctx.condition {
            return ctx.node.unresolved(
                point,
                "`.\(name)(…)` applies only when \(condition) holds, which only runtime decides: the scene leaves it out"
            )
        }
        PresentationMembers(walker: self, node: ctx.node, ctx: ctx).read(name, c, at: point)
    }
}
