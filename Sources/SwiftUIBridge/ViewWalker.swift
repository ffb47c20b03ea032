import LayoutEngine
import SwiftCodeModel

/// A name bound to code: an expression to read in its own scope, or (nil) a value only runtime knows (a closure's
/// parameter, a binding of `if let`).
struct Bound {
    var expr: CodeExpr?
    var scope: Scope
}

/// Names in scope while reading: the locals and parameters of the code being read, and the type whose members are
/// reachable without `self.`.
final class Scope {
    let type: String?
    var locals: [String: Bound] = [:]
    let parent: Scope?

    init(type: String?) {
        self.type = type
        self.parent = nil
    }

    /// A nested scope (a closure, a branch) of the same type.
    init(inside parent: Scope) {
        self.type = parent.type
        self.parent = parent
    }

    func lookup(_ name: String) -> Bound? { locals[name] ?? parent?.lookup(name) }
}

/// A presentation found while reading, with the presentations nested in its content; the root stands for the view.
final class PresentationNode {
    var presentation: CodePresentation
    let point: SourcePoint
    var children: [PresentationNode] = []
    /// Where each member is written: the pointer below `/presentations/i` (`detents`, `toolbar/0`) and its place.
    var members: [(suffix: String, point: SourcePoint)] = []
    var unresolved: [(point: SourcePoint, message: String)] = []
    var findings: [(code: String, point: SourcePoint, message: String)] = []
    let isRoot: Bool

    init(_ presentation: CodePresentation, at point: SourcePoint, isRoot: Bool = false) {
        self.presentation = presentation
        self.point = point
        self.isRoot = isRoot
    }

    func unresolved(_ point: SourcePoint, _ message: String) { unresolved.append((point, message)) }

    /// Records where `suffix` is written, once (the first place wins).
    func member(_ suffix: String, at point: SourcePoint) {
        if !members.contains(where: { $0.suffix == suffix }) { members.append((suffix, point)) }
    }
}

enum ArrangedSlot { case primary, secondary }

/// Where the walk is: what a modifier met now applies to.
struct WalkContext {
    var scope: Scope
    /// The presentation whose content is being read (the root outside any).
    var node: PresentationNode
    /// Inside `ArrangementView`'s primary or secondary content (at the root).
    var arranged: ArrangedSlot?
    /// The runtime condition the code read sits under, since `node` (or `arranged`) began: configuration under it
    /// is unresolved.
    var condition: String?
    /// A scrolling container around the code read (`List`, `ScrollView`, `Form`), for an arrangement inside it.
    var container: ArrangementContainer?
    /// Whether a view declared in the files read is followed into: inside presented content (where its modifiers
    /// configure the presentation), not at the root (where it is a view of its own).
    var followViews: Bool
    /// Whether a statement here is a view (a view builder), so that an unknown helper in it matters.
    var viewBuilder: Bool
    /// Inside an inlined custom modifier: the place of the call the view's code makes, where everything it
    /// configures is reported.
    var callSite: SourcePoint?
    var depth: Int

    func point(_ own: SourcePoint) -> SourcePoint { callSite ?? own }
}

/// Reads one view: walks its `body` (following helpers, custom modifiers and, inside presented content, the views
/// it shows) and builds the tree of presentations and the arrangement (docs/swiftui.md#read).
final class ViewWalker {
    let index: ProjectIndex
    let root: PresentationNode
    var arrangement: CodeArrangement?
    var arrangementPoints: [(suffix: String, point: SourcePoint)] = []
    /// ArrangementViews met, so that a style modifier knows whether its view holds one.
    var arrangementsMet = 0
    /// Declarations the code uses and the files read do not have: types (and extensions) and custom modifiers.
    var missingTypes = Set<String>()
    var missingFunctions = Set<String>()
    /// Helpers and views being read, so that recursion stops.
    var active = Set<String>()

    static let maximumDepth = 24

    init(index: ProjectIndex, view: CodeType) {
        self.index = index
        root = PresentationNode(CodePresentation(id: "", kind: .sheet), at: view.at, isRoot: true)
    }

    /// Reads the view's `body`.
    func run(_ view: CodeType) {
        guard let body = index.members(of: view.name)?.properties["body"]?.getter else { return }
        let ctx = WalkContext(
            scope: Scope(type: view.name), node: root, arranged: nil, condition: nil, container: nil,
            followViews: false, viewBuilder: true, callSite: nil, depth: 0)
        active.insert(view.name + ".body")
        walk(body, ctx)
    }

    // MARK: Statements

    func walk(_ list: [CodeStatement], _ ctx: WalkContext) {
        for s in list {
            switch s {
            case .expression(let e): view(e, ctx, position: ctx.viewBuilder)
            case .returnStatement(let e?): view(e, ctx, position: true)
            case .returnStatement(nil), .assignment: break
            case .binding(let name, let value):
                ctx.scope.locals[name] = Bound(expr: value, scope: ctx.scope)
                if let value { view(value, ctx, position: false) }
            case .branches(let b): branches(b, ctx)
            case .guardStatement(let conditions, _): bind(conditions, in: ctx.scope)
            case .switchStatement(_, let cases, let text, _):
                for c in cases {
                    var inner = ctx
                    inner.scope = Scope(inside: ctx.scope)
                    inner.condition = ctx.condition ?? "`switch \(text)`"
                    walk(c, inner)
                }
            case .loop(_, let body):
                var inner = ctx
                inner.scope = Scope(inside: ctx.scope)
                walk(body, inner)
            case .other(let es): for e in es { view(e, ctx, position: false) }
            }
        }
    }

    private func branches(_ b: CodeBranches, _ ctx: WalkContext) {
        for branch in b.branches {
            var inner = ctx
            inner.scope = Scope(inside: ctx.scope)
            bind(branch.conditions, in: inner.scope)
            switch Self.availability(branch.conditions) {
            case true?:
                // `if #available(iOS 27, *)`: the model is iOS 27, so the branch is the code that runs.
                walk(branch.body, inner)
                return
            case false?: continue
            case nil:
                inner.condition = ctx.condition ?? "`\(branch.text)`"
                walk(branch.body, inner)
            }
        }
        if let elseBody = b.elseBody {
            var inner = ctx
            inner.scope = Scope(inside: ctx.scope)
            inner.condition = ctx.condition ?? "the `else` of `\(b.branches.last?.text ?? "")`"
            walk(elseBody, inner)
        }
    }

    /// True or false for conditions that are all `#available` checks (the scene models iOS 27.x); nil otherwise.
    static func availability(_ conditions: [CodeCondition]) -> Bool? {
        var result = true
        for c in conditions {
            guard case .available(let version) = c else { return nil }
            if let version, version.major > 27 { result = false }
        }
        return conditions.isEmpty ? nil : result
    }

    private func bind(_ conditions: [CodeCondition], in scope: Scope) {
        for c in conditions {
            if case .optionalBinding(let name, _) = c { scope.locals[name] = Bound(expr: nil, scope: scope) }
        }
    }

    // MARK: Expressions

    /// Reads `e`; `position` says whether it stands where a view does (a statement of a view builder).
    func view(_ e: CodeExpr, _ ctx: WalkContext, position: Bool) {
        guard ctx.depth < Self.maximumDepth else { return }
        switch e {
        case .call(let c): call(c, ctx, position: position)
        case .name(let n, let at): reference(n, at: at, ctx, position: position)
        case .member(let base?, let name, let at):
            if case .name("self", _) = base {
                reference(name, at: at, ctx, position: position)
            } else {
                view(base, ctx, position: false)
            }
        case .closure(let c):
            var inner = ctx
            inner.scope = Scope(inside: ctx.scope)
            for p in c.parameters { inner.scope.locals[p] = Bound(expr: nil, scope: inner.scope) }
            walk(c.body, inner)
        case .ternary(let condition, let a, let b, _):
            var inner = ctx
            inner.condition = ctx.condition ?? "`\(CodeText.describe(condition))`"
            view(a, inner, position: position)
            view(b, inner, position: position)
        case .statement(let s, _): walk([s], ctx)
        case .array(let xs, _): for x in xs { view(x, ctx, position: false) }
        case .forceUnwrap(let x, _): view(x, ctx, position: false)
        case .other(_, let children, _): for x in children { view(x, ctx, position: false) }
        case .member(nil, _, _), .string, .number, .bool, .nilLiteral: break
        }
    }

    private func call(_ c: CodeCall, _ ctx: WalkContext, position: Bool) {
        switch c.callee {
        case .member(.name("self", _)?, let name, let at):
            named(name, at: at, c, ctx, position: position)
        case .member(let base?, let name, let at):
            let before = arrangementsMet
            view(base, ctx, position: position)
            modifier(name, at: at, c, ctx, holdsArrangement: arrangementsMet > before)
        case .name(let name, let at):
            named(name, at: at, c, ctx, position: position)
        default:
            view(c.callee, ctx, position: false)
            arguments(c, ctx, viewBuilders: false)
        }
    }

    /// A call by name: `ArrangementView {…}`, `Text(…)`, a helper `row(item)`, a view of the project, a closure held
    /// in a property (`content()`), or `sheet(…)` inside a custom modifier.
    private func named(_ name: String, at: SourcePoint, _ c: CodeCall, _ ctx: WalkContext, position: Bool) {
        if name == "ArrangementView" { return arrangementView(c, at: at, ctx) }
        if PresentingModifier(name: name, call: c) != nil || name == "modifier" || name == "toolbar" {
            return modifier(name, at: at, c, ctx, holdsArrangement: false)
        }
        if let bound = ctx.scope.lookup(name) {
            guard let expr = bound.expr else { return arguments(c, ctx, viewBuilders: false) }
            var inner = ctx
            inner.scope = bound.scope
            inner.depth += 1
            if case .closure(let closure) = expr {
                return walk(closure.body, inner.nested())
            }
            return view(expr, inner, position: position)
        }
        if let f = index.function(name, of: ctx.scope.type, for: c), ctx.scope.type != nil {
            return inline(f, key: "\(ctx.scope.type ?? "").\(name)", c, ctx, type: ctx.scope.type, callSite: nil)
        }
        if index.isView(name) { return viewStruct(name, c, ctx) }
        if let type = ctx.scope.type, let p = index.members(of: type)?.properties[name] {
            // A value held in a property and called (`dismiss()`), or a closure given by the caller.
            if let getter = p.getter { walk(getter, ctx.nested()) }
            return arguments(c, ctx, viewBuilders: false)
        }
        let uppercase = name.first?.isUppercase ?? false
        if uppercase, ctx.followViews, ctx.node !== root, !SwiftUINames.views.contains(name) {
            missingTypes.insert(name)
        }
        if !uppercase, position, ctx.viewBuilder, let type = ctx.scope.type {
            missingTypes.insert(type)
            ctx.node.unresolved(
                ctx.point(at),
                "`\(name)(…)` is declared where the reader cannot see it (a file not read, or another module): "
                    + "what it shows is not read")
        }
        var inner = ctx
        if let container = SwiftUINames.scrollContainers[name] { inner.container = container }
        for a in c.arguments {
            var argument = inner
            argument.viewBuilder = SwiftUINames.isViewBuilder(a, of: c, calledBy: name)
            view(a.value, argument, position: false)
        }
    }

    /// A reference by name: a local, a helper property (`var editor: some View`), a stored property.
    private func reference(_ name: String, at: SourcePoint, _ ctx: WalkContext, position: Bool) {
        if let bound = ctx.scope.lookup(name) {
            guard let expr = bound.expr, !active.contains("local." + name) else { return }
            var inner = ctx
            inner.scope = bound.scope
            inner.depth += 1
            active.insert("local." + name)
            if case .closure(let closure) = expr {
                walk(closure.body, inner.nested())
            } else {
                view(expr, inner, position: position)
            }
            active.remove("local." + name)
            return
        }
        if let type = ctx.scope.type, let p = index.members(of: type)?.properties[name] {
            guard let getter = p.getter else { return }
            let key = "\(type).\(name)"
            guard !active.contains(key) else { return }
            active.insert(key)
            var inner = ctx
            inner.scope = Scope(type: type)
            inner.viewBuilder = true
            inner.depth += 1
            walk(getter, inner)
            active.remove(key)
            return
        }
        if name == "self" || name.first?.isUppercase == true || !position || !ctx.viewBuilder { return }
        guard let type = ctx.scope.type else { return }
        missingTypes.insert(type)
        ctx.node.unresolved(
            ctx.point(at),
            "`\(name)` is declared where the reader cannot see it (a file not read, or another module): "
                + "what it shows is not read")
    }

    /// The arguments of a call that is not read for itself: closures as views (`viewBuilders`) or as actions.
    func arguments(_ c: CodeCall, _ ctx: WalkContext, viewBuilders: Bool) {
        for a in c.arguments {
            if case .closure = a.value {
                var inner = ctx
                inner.viewBuilder = viewBuilders
                view(a.value, inner, position: false)
            } else {
                view(a.value, ctx, position: false)
            }
        }
    }

    /// A view of the project shown in presented content: its `body` is read with its stored properties bound to
    /// the arguments (memberwise: by label, a trailing closure to the next property holding a closure).
    private func viewStruct(_ name: String, _ c: CodeCall, _ ctx: WalkContext) {
        guard ctx.followViews, !active.contains(name + ".body"),
            let members = index.members(of: name), let body = members.properties["body"]?.getter
        else { return arguments(c, ctx, viewBuilders: true) }
        let scope = Scope(type: name)
        var closureProperties = members.stored.filter(\.holdsClosure).map(\.name)[...]
        for a in c.arguments {
            if let label = a.label, members.properties[label] != nil {
                scope.locals[label] = Bound(expr: a.value, scope: ctx.scope)
                closureProperties.removeAll { $0 == label }
            } else if a.trailing, let property = closureProperties.popFirst() {
                scope.locals[property] = Bound(expr: a.value, scope: ctx.scope)
            }
        }
        active.insert(name + ".body")
        var inner = ctx
        inner.scope = scope
        inner.viewBuilder = true
        inner.callSite = nil
        inner.depth += 1
        walk(body, inner)
        active.remove(name + ".body")
    }

    /// Reads a function's body with its parameters bound to the call's arguments: a helper of the view, a custom
    /// modifier (`extension View`), a `ViewModifier`'s `body(content:)`.
    func inline(
        _ f: CodeFunction, key: String, _ c: CodeCall?, _ ctx: WalkContext, type: String?, callSite: SourcePoint?,
        bindings: [String: Bound] = [:]
    ) {
        guard !active.contains(key), ctx.depth < Self.maximumDepth else { return }
        let scope = Scope(type: type)
        scope.locals = bindings
        let arguments = c.map(ArgumentBinding.arguments) ?? []
        let taken = ArgumentBinding.bind(f.parameters, arguments: arguments) ?? []
        for (i, p) in f.parameters.enumerated() {
            if i < taken.count, let a = taken[i], let c {
                scope.locals[p.name] = Bound(expr: c.arguments[a].value, scope: ctx.scope)
            } else {
                scope.locals[p.name] = Bound(expr: p.defaultValue, scope: scope)
            }
        }
        active.insert(key)
        var inner = ctx
        inner.scope = scope
        inner.viewBuilder = true
        inner.callSite = callSite ?? ctx.callSite
        inner.depth += 1
        walk(f.body, inner)
        active.remove(key)
    }
}

extension WalkContext {
    /// The context for a closure's body read in place of a call.
    func nested() -> WalkContext {
        var inner = self
        inner.scope = Scope(inside: scope)
        inner.viewBuilder = true
        return inner
    }
}
