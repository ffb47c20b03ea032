import LayoutEngine
import SwiftCodeModel

/// A sheet's toolbar items from `.toolbar { … }` in its content: `ToolbarItem(placement:)`, `ToolbarItemGroup`, and
/// bare buttons, each with the title and SF Symbol its button or label shows (docs/swiftui.md#read).
struct ToolbarReader {
    let walker: ViewWalker
    let ctx: WalkContext

    static let controls: Set<String> = ["Button", "Menu", "Link", "ShareLink", "Toggle", "NavigationLink"]

    private var node: PresentationNode { ctx.node }
    private var values: ValueReader { ValueReader(index: walker.index, scope: ctx.scope) }

    func read(_ c: CodeCall, at point: SourcePoint) {
        guard let content = c.argument("content") ?? c.arguments.first(where: { $0.trailing })?.value,
            case .closure(let closure) = content
        else { return }
        if node.presentation.toolbar == nil {
            node.presentation.toolbar = []
            node.member("toolbar", at: point)
        }
        items(closure.body, placement: .automatic, condition: ctx.condition)
    }

    private func items(_ statements: [CodeStatement], placement: ToolbarPlacement, condition: String?) {
        for s in statements {
            switch s {
            case .expression(let e), .returnStatement(let e?): item(e, placement: placement, condition: condition)
            case .branches(let b):
                for branch in b.branches {
                    items(branch.body, placement: placement, condition: condition ?? "`\(branch.text)`")
                }
                if let e = b.elseBody { items(e, placement: placement, condition: condition ?? "a condition") }
            case .switchStatement(_, let cases, let text, _):
                for c in cases { items(c, placement: placement, condition: condition ?? "`switch \(text)`") }
            default: break
            }
        }
    }

    private func item(_ e: CodeExpr, placement: ToolbarPlacement, condition: String?) {
        guard case .call(let c) = e else { return }
        // A modifier on an item (`.disabled(…)`, `.popover(…)`): the item is the view it modifies.
        if case .member(let base?, _, _) = c.callee { return item(base, placement: placement, condition: condition) }
        guard case .name(let name, let at) = c.callee else { return }
        let point = ctx.point(at)
        switch name {
        case "ToolbarItem", "ToolbarItemGroup":
            let p = self.placement(c.argument("placement"), at: point) ?? .automatic
            if let content = c.closures.first?.closure { items(content.body, placement: p, condition: condition) }
        case "ToolbarSpacer": break
        default:
            if let condition {
                return node.unresolved(
                    point, "the toolbar item is there only when \(condition) holds, which only runtime decides")
            }
            var toolbarItem = ToolbarItem(placement: placement)
            label(of: c, name: name, into: &toolbarItem, at: point)
            let i = node.presentation.toolbar?.count ?? 0
            node.presentation.toolbar?.append(toolbarItem)
            node.member("toolbar/\(i)", at: point)
        }
    }

    private func placement(_ e: CodeExpr?, at point: SourcePoint) -> ToolbarPlacement? {
        guard let e else { return nil }
        switch values.name(e, ToolbarPlacement.self) {
        case .value(let p): return p
        case .omitted: return .automatic
        case .unresolved:
            node.unresolved(
                point,
                "the placement `\(CodeText.describe(e))` has no counterpart in the scene (cancellationAction, "
                    + "confirmationAction, primaryAction, automatic): the item is read as automatic")
            return .automatic
        }
    }

    /// The title and symbol a control shows: `Button("Close", systemImage: "xmark")`, `Label(…)`, `Image(systemName:)`,
    /// `Text(…)` in its label.
    private func label(of c: CodeCall, name: String, into item: inout ToolbarItem, at point: SourcePoint) {
        if name == "Label" { return labelView(c, into: &item, at: point) }
        guard Self.controls.contains(name) else {
            return node.unresolved(point, "the title and symbol of the toolbar item `\(name)` are not read")
        }
        if let title = c.arguments.first(where: { $0.label == nil && !$0.trailing })?.value {
            item.title = text(title, at: point, what: "title")
        }
        if let image = c.argument("systemImage") { item.systemImage = text(image, at: point, what: "symbol") }
        // The label closure: labelled `label:`, or the trailing closure when the action is an argument.
        let labelClosure =
            c.closures.first(where: { $0.label == "label" })?.closure
            ?? (c.argument("action") != nil || name != "Button"
                ? c.closures.first(where: { $0.label == nil })?.closure : nil)
        guard item.title == nil && item.systemImage == nil, let labelClosure else { return }
        for s in labelClosure.body {
            guard case .expression(.call(let inner)) = s, case .name(let n, _) = inner.callee else { continue }
            switch n {
            case "Label": labelView(inner, into: &item, at: point)
            case "Image":
                if let s = inner.argument("systemName") { item.systemImage = text(s, at: point, what: "symbol") }
            case "Text": if let t = inner.arguments.first?.value { item.title = text(t, at: point, what: "title") }
            case "EmptyView": break
            default: node.unresolved(point, "the label `\(n)` of the toolbar item is not read")
            }
        }
    }

    private func labelView(_ c: CodeCall, into item: inout ToolbarItem, at point: SourcePoint) {
        if let title = c.arguments.first(where: { $0.label == nil && !$0.trailing })?.value {
            item.title = text(title, at: point, what: "title")
        }
        if let image = c.argument("systemImage") { item.systemImage = text(image, at: point, what: "symbol") }
    }

    private func text(_ e: CodeExpr, at point: SourcePoint, what: String) -> String? {
        let (v, _) = values.resolve(e)
        if case .string(let s?, _) = v { return s }
        node.unresolved(point, "the toolbar item's \(what) `\(CodeText.describe(e))` is known only when it runs")
        return nil
    }
}
