import LayoutEngine
import SwiftCodeModel

/// A presenting modifier: `.sheet`, `.fullScreenCover`, `.popover` (each `isPresented:` or `item:`), and the
/// `.adaptivePanel(isPresented:…)` modifier of the adaptive panel pattern (docs/swiftui.md#adaptive-panel).
struct PresentingModifier {
    var kind: Presentation.Kind
    var binding: CodeExpr
    var byItem: Bool

    init?(name: String, call: CodeCall) {
        switch name {
        case "sheet": kind = .sheet
        case "fullScreenCover": kind = .fullScreenCover
        case "popover": kind = .popover
        case "adaptivePanel": kind = .adaptivePanel
        default: return nil
        }
        if let b = call.argument("isPresented") {
            binding = b
            byItem = false
        } else if let b = call.argument("item") {
            binding = b
            byItem = true
        } else {
            return nil
        }
    }

    /// The content: the `content:` (or `panel:`) argument, else the trailing closure.
    static func content(of c: CodeCall) -> CodeExpr? {
        c.argument("content") ?? c.argument("panel") ?? c.arguments.first { $0.trailing && $0.label == nil }?.value
    }
}

extension ViewWalker {
    /// A modifier applied to a view: presenting, configuring the presentation or the arrangement being read, a
    /// custom modifier to read through, or any other (whose closures are read).
    func modifier(_ name: String, at: SourcePoint, _ c: CodeCall, _ ctx: WalkContext, holdsArrangement: Bool) {
        let point = ctx.point(at)
        if let p = PresentingModifier(name: name, call: c) { return present(p, at: point, c, ctx) }
        if PresentationMembers.names.contains(name) { return presentationMember(name, c, at: point, ctx) }
        if ArrangedViewMembers.names.contains(name) { return arrangedMember(name, c, at: point, ctx) }
        switch name {
        case "toolbar":
            if !ctx.node.isRoot, ctx.node.presentation.kind == .sheet {
                ToolbarReader(walker: self, ctx: ctx).read(c, at: point)
            }
            arguments(c, ctx, viewBuilders: true)
        case "modifier":
            inlineViewModifier(c, at: point, ctx)
        case "arrangementViewStyle":
            if holdsArrangement { arrangementStyle(c, at: point, ctx) }
        default:
            if let f = index.function(name, of: nil, for: c) {
                return inline(f, key: "View.\(name)", c, ctx, type: nil, callSite: point)
            }
            if c.argument("isPresented") != nil || c.argument("item") != nil {
                missingFunctions.insert(name)
                ctx.node.unresolved(
                    point,
                    "`.\(name)(…)` may present through a custom modifier whose declaration is not in the files read: "
                        + "what it presents is not read")
            } else if !ctx.node.isRoot || ctx.arranged != nil {
                missingFunctions.insert(name)
            }
            arguments(c, ctx, viewBuilders: SwiftUINames.viewBuilderModifiers.contains(name))
        }
    }

    /// A presentation: a node under the current one, its modifier's arguments, then its content, read with the
    /// node as what configuration applies to.
    private func present(_ p: PresentingModifier, at point: SourcePoint, _ c: CodeCall, _ ctx: WalkContext) {
        let values = ValueReader(index: index, scope: ctx.scope)
        let id = values.bindingName(p.binding) ?? p.kind.rawValue
        let node = PresentationNode(CodePresentation(id: id, kind: p.kind), at: point)
        ctx.node.children.append(node)
        PresentationMembers(walker: self, node: node, ctx: ctx).modifierArguments(c, at: point)
        var inner = ctx
        inner.node = node
        inner.condition = nil
        inner.arranged = nil
        inner.container = nil
        inner.followViews = true
        inner.viewBuilder = true
        inner.depth += 1
        if let content = PresentingModifier.content(of: c) {
            contentRoot(content, ctx, node: node, at: point)
            if !p.byItem { PresentByItem.check(p, content: content, at: point, ctx: ctx, index: index) }
            view(content, inner, position: true)
        }
        if p.kind == .popover {
            node.unresolved(
                point,
                "the popover's anchor is where its presenting view lies in the window, which only layout decides: "
                    + "the scene's `anchor` is the caller's presenter frame, with the code's attachment anchor")
        }
        if node.presentation.measuresContent {
            let p = node.presentation
            let cause = p.sizing == .fitted || p.fittedAxes != nil ? "sizing" : "detents"
            let measured = node.members.first { $0.suffix == cause }?.point ?? point
            node.unresolved(
                measured,
                "the content's measured size is known only when it runs: the scene's `contentSize` is the caller's")
        }
    }

    /// What the presented content is at its root: `contentScrollable` when it is a `ScrollView`, `List` or `Form`
    /// (through `NavigationStack`, `NavigationView`, `Group`, helpers and views of the project); an unresolved entry
    /// when it is a view the files read do not declare.
    private func contentRoot(_ content: CodeExpr, _ ctx: WalkContext, node: PresentationNode, at point: SourcePoint) {
        var seen = Set<String>()
        func rootName(_ e: CodeExpr, _ scope: Scope, depth: Int) -> (name: String, at: SourcePoint)? {
            guard depth < Self.maximumDepth else { return nil }
            switch e {
            case .closure(let c): return rootName(of: c.body, scope, depth: depth + 1)
            case .call(let c):
                switch c.callee {
                case .member(let base?, _, _):
                    if case .name("self", _) = base { break }
                    return rootName(base, scope, depth: depth + 1)
                case .name(let n, let at):
                    if SwiftUINames.transparentRoots.contains(n), let first = c.closures.first?.closure {
                        return rootName(of: first.body, scope, depth: depth + 1)
                    }
                    if let bound = scope.lookup(n) {
                        return bound.expr.flatMap { rootName($0, bound.scope, depth: depth + 1) }
                    }
                    if let type = scope.type, let f = index.function(n, of: type, for: c) {
                        return rootName(of: f.body, Scope(type: type), depth: depth + 1)
                    }
                    if index.isView(n), !seen.contains(n), let body = index.members(of: n)?.properties["body"]?.getter {
                        seen.insert(n)
                        return rootName(of: body, Scope(type: n), depth: depth + 1)
                    }
                    return (n, at)
                default: break
                }
                return nil
            case .name(let n, _):
                if let bound = scope.lookup(n) {
                    return bound.expr.flatMap { rootName($0, bound.scope, depth: depth + 1) }
                }
                if let type = scope.type, let getter = index.members(of: type)?.properties[n]?.getter, !seen.contains(n)
                {
                    seen.insert(n)
                    return rootName(of: getter, Scope(type: type), depth: depth + 1)
                }
                return nil
            default: return nil
            }
        }
        func rootName(of body: [CodeStatement], _ scope: Scope, depth: Int) -> (name: String, at: SourcePoint)? {
            // `if #available(iOS 27, *) { … } else { … }`: the branch that runs.
            if body.count == 1, case .branches(let b) = body[0] {
                for branch in b.branches {
                    switch Self.availability(branch.conditions) {
                    case true?: return rootName(of: branch.body, scope, depth: depth + 1)
                    case false?: continue
                    case nil: return nil
                    }
                }
                return b.elseBody.flatMap { rootName(of: $0, scope, depth: depth + 1) }
            }
            let views = body.compactMap { s -> CodeExpr? in
                switch s {
                case .expression(let e), .returnStatement(let e?): return e
                default: return nil
                }
            }
            guard views.count == 1, body.count == views.count else { return nil }
            return rootName(views[0], scope, depth: depth)
        }
        guard let root = rootName(content, ctx.scope, depth: 0) else { return }
        if SwiftUINames.scrollingRoots.contains(root.name) {
            node.presentation.contentScrollable = true
            node.member("contentScrollable", at: ctx.point(root.at))
        } else if root.name.first?.isUppercase == true, !SwiftUINames.views.contains(root.name),
            !index.isView(root.name)
        {
            missingTypes.insert(root.name)
            node.unresolved(
                ctx.point(root.at),
                "the presented view `\(root.name)` is not declared in the files read: "
                    + "the presentation modifiers it applies (detents, sizing, toolbar, …) are not read")
        }
    }

    /// `.modifier(M(…))`: `M`'s `body(content:)` read with its stored properties bound to the arguments.
    private func inlineViewModifier(_ c: CodeCall, at point: SourcePoint, _ ctx: WalkContext) {
        guard let argument = c.arguments.first?.value else { return }
        let (resolved, scope) = ValueReader(index: index, scope: ctx.scope).resolve(argument)
        guard case .call(let made) = resolved, let name = CodeWalk.calleeName(made.callee) else {
            return view(argument, ctx, position: false)
        }
        guard index.isViewModifier(name), let members = index.members(of: name),
            let body = members.functions["body"]?.first
        else {
            if !ctx.node.isRoot || ctx.arranged != nil { missingTypes.insert(name) }
            return view(argument, ctx, position: false)
        }
        var bindings: [String: Bound] = [:]
        var closureProperties = members.stored.filter(\.holdsClosure).map(\.name)[...]
        for a in made.arguments {
            if let label = a.label, members.properties[label] != nil {
                bindings[label] = Bound(expr: a.value, scope: scope)
                closureProperties.removeAll { $0 == label }
            } else if a.trailing, let property = closureProperties.popFirst() {
                bindings[property] = Bound(expr: a.value, scope: scope)
            }
        }
        inline(body, key: "\(name).body", nil, ctx, type: name, callSite: point, bindings: bindings)
    }

    // MARK: Arrangement

    /// `ArrangementView { primary } secondary: { secondary }`: the root arrangement when it is the view's first at
    /// the root; its contents are read either way.
    func arrangementView(_ c: CodeCall, at: SourcePoint, _ ctx: WalkContext) {
        arrangementsMet += 1
        let point = ctx.point(at)
        var takes = ctx.node.isRoot && ctx.arranged == nil
        if takes {
            if arrangement == nil {
                var a = CodeArrangement()
                a.container = ctx.container
                arrangement = a
                arrangementPoints.append(("", point))
                if ctx.container != nil { arrangementPoints.append(("container", point)) }
            } else {
                takes = false
                root.unresolved(
                    point, "a second `ArrangementView` at the root: the scene's arrangement is the first one")
            }
        }
        for a in c.arguments {
            var inner = ctx
            if takes, case .closure = a.value {
                inner.arranged = a.label == "secondary" ? .secondary : .primary
                inner.condition = nil
            } else {
                inner.arranged = nil
            }
            inner.container = nil
            inner.viewBuilder = true
            view(a.value, inner, position: false)
        }
    }

    private func arrangementStyle(_ c: CodeCall, at point: SourcePoint, _ ctx: WalkContext) {
        guard arrangement != nil, let argument = c.arguments.first?.value else { return }
        if let condition = ctx.condition {
            return root.unresolved(
                point, "`.arrangementViewStyle(…)` applies only when \(condition) holds, which only runtime decides")
        }
        switch ValueReader(index: index, scope: ctx.scope).arrangementStyle(argument) {
        case .value(let (style, axes)):
            guard arrangement?.style == nil else { return }
            arrangement?.style = style
            arrangement?.axes = axes
            arrangementPoints.append(("style", point))
            if axes != nil { arrangementPoints.append(("axes", point)) }
        case .omitted: break
        case .unresolved(let message): root.unresolved(point, message)
        }
    }

    private func arrangedMember(_ name: String, _ c: CodeCall, at point: SourcePoint, _ ctx: WalkContext) {
        guard let slot = ctx.arranged, arrangement != nil else { return }
        if let condition = ctx.condition {
            return root.unresolved(
                point, "`.\(name)(…)` applies only when \(condition) holds, which only runtime decides")
        }
        let prefix = slot == .primary ? "primary" : "secondary"
        var view = slot == .primary ? arrangement!.primary : arrangement!.secondary
        let values = ValueReader(index: index, scope: ctx.scope)
        var suffix = ""
        var problem: String?
        switch name {
        case "splitArrangementLayoutRatio", "splitArrangementLayoutSize":
            let isRatio = name == "splitArrangementLayoutRatio"
            suffix = isRatio ? "ratio" : "size"
            switch values.preference(c) {
            case .value(let p): if isRatio { view.ratio = view.ratio ?? p } else { view.size = view.size ?? p }
            case .omitted: break
            case .unresolved(let m): problem = m
            }
        case "splitArrangementFixedLayoutSize":
            suffix = "fixedSize"
            switch values.fixedSize(c) {
            case .value(let (h, v)):
                view.fixedHorizontal = h
                view.fixedVertical = v
            case .omitted: break
            case .unresolved(let m): problem = m
            }
        default:
            suffix = "overlayEdge"
            switch values.edge(c.arguments.first?.value) {
            case .value(let e): view.overlayEdge = view.overlayEdge ?? e
            case .omitted: break
            case .unresolved(let m): problem = m
            }
        }
        if let problem { return root.unresolved(point, problem) }
        if slot == .primary { arrangement!.primary = view } else { arrangement!.secondary = view }
        if !arrangementPoints.contains(where: { $0.suffix == prefix }) { arrangementPoints.append((prefix, point)) }
        arrangementPoints.append(("\(prefix)/\(suffix)", point))
        if suffix == "fixedSize" {
            root.unresolved(
                point,
                "the content's measured size is known only when it runs: the view's `contentSize` is the caller's")
        }
    }
}

enum ArrangedViewMembers {
    static let names: Set<String> = [
        "splitArrangementLayoutRatio", "splitArrangementLayoutSize", "splitArrangementFixedLayoutSize",
        "overlayArrangementEdge",
    ]
}
