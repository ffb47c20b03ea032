import LayoutEngine
import SwiftCodeModel

/// A value read from an argument: known, written as the default (`.automatic`, `nil`: the scene leaves the member
/// out), or unknown without running the code (with the reason).
enum Reading<T> {
    case value(T)
    case omitted
    case unresolved(String)
}

/// Reads the values of modifier arguments: literals and SwiftUI's names, through the names bound in scope (a
/// parameter, a `let` constant), never the value a variable holds at run time (docs/swiftui.md#unresolved).
struct ValueReader {
    let index: ProjectIndex
    let scope: Scope

    /// `e` with names followed to what they are bound to (parameters, locals, `let` constants with a value), and
    /// the scope that is read in.
    func resolve(_ e: CodeExpr) -> (CodeExpr, Scope) {
        var current = e
        var scope = self.scope
        for _ in 0..<16 {
            guard let name = CodeWalk.referencedName(current), name != "self" else { break }
            if let bound = scope.lookup(name) {
                guard let expr = bound.expr else { break }
                current = expr
                scope = bound.scope
                continue
            }
            if let type = scope.type, let p = index.members(of: type)?.properties[name], p.isConstant, p.getter == nil,
                p.attributes.isEmpty, let initializer = p.initializer
            {
                current = initializer
                scope = Scope(type: type)
                continue
            }
            break
        }
        return (current, scope)
    }

    private func reader(_ scope: Scope) -> ValueReader { ValueReader(index: index, scope: scope) }

    /// The id a presentation takes from its binding: `$showsEditor` → `showsEditor`, `$model.selection` →
    /// `selection`.
    func bindingName(_ e: CodeExpr) -> String? {
        let (resolved, _) = resolve(e)
        switch resolved {
        case .name(let n, _): return n.hasPrefix("$") ? String(n.dropFirst()) : n
        case .member(_?, let n, _): return n
        default: return nil
        }
    }

    func number(_ e: CodeExpr?) -> Reading<Double> {
        guard let e else { return .omitted }
        let (v, _) = resolve(e)
        switch v {
        case .number(let d, _): return .value(d)
        case .nilLiteral: return .omitted
        default: return .unresolved("`\(CodeText.describe(e))` is not a number the code fixes: only runtime knows it")
        }
    }

    func bool(_ e: CodeExpr?) -> Reading<Bool> {
        guard let e else { return .omitted }
        let (v, _) = resolve(e)
        if case .bool(let b, _) = v { return .value(b) }
        return .unresolved("`\(CodeText.describe(e))` is not a value the code fixes: only runtime knows it")
    }

    /// A SwiftUI name (`.trailing`, `Edge.trailing`) among `E`'s cases; `.automatic` when `E` has no such case
    /// is the default (omitted).
    func name<E: RawRepresentable & CaseIterable>(_ e: CodeExpr?, _: E.Type, aliases: [String: E] = [:]) -> Reading<E>
    where E.RawValue == String {
        guard let e else { return .omitted }
        let (v, _) = resolve(e)
        switch v {
        case .member(_, let n, _):
            if let alias = aliases[n] { return .value(alias) }
            if let value = E(rawValue: n) { return .value(value) }
            if n == "automatic" { return .omitted }
            return .unresolved("`\(CodeText.describe(e))` has no counterpart in the scene")
        case .nilLiteral: return .omitted
        default: return .unresolved("`\(CodeText.describe(e))` is held in a variable: only runtime knows it")
        }
    }

    func edge(_ e: CodeExpr?) -> Reading<Edge> { name(e, Edge.self) }

    // MARK: Detents

    /// `presentationDetents`' set: an array or set literal of detents, `Set(…)`, `a.union(b)`.
    func detents(_ e: CodeExpr) -> Reading<[Detent]> {
        let (v, scope) = resolve(e)
        let r = reader(scope)
        switch v {
        case .array(let items, _):
            var out: [Detent] = []
            for item in items {
                switch r.detent(item) {
                case .value(let d): if !out.contains(d) { out.append(d) }
                case .omitted: break
                case .unresolved(let m): return .unresolved(m)
                }
            }
            return .value(out)
        case .call(let c):
            if case .name("Set", _) = c.callee, let inner = c.arguments.first?.value { return r.detents(inner) }
            if case .member(let base?, "union", _) = c.callee, let other = c.arguments.first?.value {
                guard case .value(let a) = r.detents(base) else { return r.detents(base) }
                guard case .value(let b) = r.detents(other) else { return r.detents(other) }
                return .value(a + b.filter { !a.contains($0) })
            }
        case .name(let n, _):
            return .unresolved("the detents are held in `\(n)`, whose value only runtime knows")
        default: break
        }
        return .unresolved("`\(CodeText.describe(e))` is not a set of detents the reader can evaluate")
    }

    /// One detent: `.medium`, `.large`, `.height(N)`, `.fraction(F)`, and `.height(h)` of a height the view
    /// measures (`fitted`).
    func detent(_ e: CodeExpr) -> Reading<Detent> {
        let (v, scope) = resolve(e)
        switch v {
        case .member(_, "medium", _): return .value(.medium)
        case .member(_, "large", _): return .value(.large)
        case .call(let c):
            guard case .member(_, let kind, _) = c.callee, let argument = c.arguments.first?.value else { break }
            if kind == "height" {
                let (h, hScope) = reader(scope).resolve(argument)
                if case .number(let d, _) = h { return .value(.height(d)) }
                if let name = CodeWalk.referencedName(h), let type = hScope.type,
                    index.members(of: type)?.measuredHeights.contains(name) == true
                {
                    return .value(.fitted)
                }
                return .unresolved(
                    "the detent's height `\(CodeText.describe(argument))` is held in a variable: only runtime knows it")
            }
            if kind == "fraction" {
                if case .value(let f) = reader(scope).number(argument) { return .value(.fraction(f)) }
                return .unresolved(
                    "the detent's fraction `\(CodeText.describe(argument))` is held in a variable: only runtime knows it"
                )
            }
            if kind == "custom" { return .unresolved("a custom detent's height is computed when it runs") }
        case .name(let n, _):
            return .unresolved("the detent is held in `\(n)`, whose value only runtime knows")
        default: break
        }
        return .unresolved("`\(CodeText.describe(e))` is not a detent the reader can evaluate")
    }

    /// `selection: $detent`: the detent a `@State` property starts with (`= .medium`).
    func selection(_ e: CodeExpr) -> Reading<Detent> {
        let (v, scope) = resolve(e)
        guard case .name(let n, _) = v, n.hasPrefix("$"), let type = scope.type,
            let p = index.members(of: type)?.properties[String(n.dropFirst())], p.attributes.contains("State"),
            let initial = p.initializer
        else {
            return .unresolved(
                "the selected detent is held in `\(CodeText.describe(e))`, whose value only runtime knows")
        }
        return ValueReader(index: index, scope: Scope(type: type)).detent(initial)
    }

    // MARK: Sheets

    /// `presentationSizing`: `.form`, `.page`, `.fitted`, `.automatic`, and `.page.fitted(horizontal:vertical:)`.
    func sizing(_ e: CodeExpr) -> Reading<(SheetSizing, [Axis]?)> {
        let (v, _) = resolve(e)
        if case .call(let c) = v, case .member(let base?, "fitted", _) = c.callee {
            guard case .value(let sizing) = name(base, SheetSizing.self) else {
                if case .member(_, "automatic", _) = base {
                    return fittedAxes(c).map { (SheetSizing.automatic, $0) }
                }
                return .unresolved("`\(CodeText.describe(e))` is not a sizing the scene can say")
            }
            return fittedAxes(c).map { (sizing, $0) }
        }
        switch name(v, SheetSizing.self) {
        case .value(let s): return .value((s, nil))
        case .omitted: return .value((.automatic, nil))
        case .unresolved(let m): return .unresolved(m)
        }
    }

    private func fittedAxes(_ c: CodeCall) -> Reading<[Axis]?> {
        guard case .value(let h) = bool(c.argument("horizontal")), case .value(let v) = bool(c.argument("vertical"))
        else { return .unresolved("the axes a sizing fits are not values the code fixes") }
        let axes = (h ? [Axis.horizontal] : []) + (v ? [Axis.vertical] : [])
        return .value(axes.isEmpty ? nil : axes)
    }

    /// `presentationBackgroundInteraction`: `.disabled`, `.enabled`, `.enabled(upThrough: detent)`, `.automatic`.
    func backgroundInteraction(_ e: CodeExpr?) -> Reading<BackgroundInteraction> {
        guard let e else { return .omitted }
        let (v, scope) = resolve(e)
        switch v {
        case .member(_, "disabled", _): return .value(.disabled)
        case .member(_, "enabled", _): return .value(.enabled)
        case .member(_, "automatic", _): return .omitted
        case .call(let c):
            if case .member(_, "enabled", _) = c.callee, let d = c.argument("upThrough") {
                return reader(scope).detent(d).map { .upThrough($0) }
            }
        default: break
        }
        return .unresolved("`\(CodeText.describe(e))` is not a background interaction the reader can evaluate")
    }

    /// `presentationCompactAdaptation(_:)` or `(horizontal:vertical:)` when both say the same.
    func compactAdaptation(_ c: CodeCall) -> Reading<CompactAdaptation> {
        let aliases: [String: CompactAdaptation] = ["none": .popover]
        if let only = c.arguments.first, only.label == nil {
            return name(only.value, CompactAdaptation.self, aliases: aliases)
        }
        let h = name(c.argument("horizontal"), CompactAdaptation.self, aliases: aliases)
        let v = name(c.argument("vertical"), CompactAdaptation.self, aliases: aliases)
        if case .value(let a) = h, case .value(let b) = v, a == b { return .value(a) }
        return .unresolved("the scene has one compact adaptation; the code gives one per size class")
    }

    /// `attachmentAnchor`: `.rect(.bounds)`, `.point(.top)`, `.point(UnitPoint(x:y:))`,
    /// `.rect(.rect(CGRect(x:y:width:height:)))`.
    func attachmentAnchor(_ e: CodeExpr) -> Reading<AttachmentAnchor> {
        let (v, scope) = resolve(e)
        let r = reader(scope)
        guard case .call(let c) = v, case .member(_, let kind, _) = c.callee, let inner = c.arguments.first?.value
        else { return .unresolved("`\(CodeText.describe(e))` is not an attachment anchor the reader can evaluate") }
        let (a, _) = r.resolve(inner)
        if kind == "point" {
            if case .member(_, let n, _) = a, let p = SwiftUINames.unitPoints[n] {
                return .value(.point(x: p.x, y: p.y))
            }
            if case .call(let u) = a, case .value(let x) = r.number(u.argument("x")),
                case .value(let y) = r.number(u.argument("y"))
            {
                return .value(.point(x: x, y: y))
            }
        }
        if kind == "rect" {
            if case .member(_, "bounds", _) = a { return .value(.bounds) }
            if case .call(let anchor) = a, case .member(_, "rect", _) = anchor.callee,
                case .call(let rect)? = anchor.arguments.first.map({ r.resolve($0.value).0 }),
                case .value(let x) = r.number(rect.argument("x")), case .value(let y) = r.number(rect.argument("y")),
                case .value(let w) = r.number(rect.argument("width")),
                case .value(let h) = r.number(rect.argument("height"))
            {
                return .value(.rect(Rect(x: x, y: y, width: w, height: h)))
            }
        }
        return .unresolved("`\(CodeText.describe(e))` is not an attachment anchor the reader can evaluate")
    }

    // MARK: Arrangement

    /// `arrangementViewStyle`: `.automatic`, `.split`, `.overlay`, each optionally `.axes(…)`.
    func arrangementStyle(_ e: CodeExpr) -> Reading<(CodeArrangementStyle, [Axis]?)> {
        let (v, scope) = resolve(e)
        if case .call(let c) = v, case .member(let base?, "axes", _) = c.callee, let set = c.arguments.first?.value {
            guard case .member(_, let n, _) = base, let style = CodeArrangementStyle(rawValue: n) else {
                return .unresolved("`\(CodeText.describe(e))` is not an arrangement style the reader can evaluate")
            }
            return reader(scope).axes(set).map { (style, $0) }
        }
        if case .member(_, let n, _) = v, let style = CodeArrangementStyle(rawValue: n) { return .value((style, nil)) }
        return .unresolved("`\(CodeText.describe(e))` is not an arrangement style the reader can evaluate")
    }

    /// `.horizontal`, `.vertical`, `[.horizontal, .vertical]`.
    private func axes(_ e: CodeExpr) -> Reading<[Axis]> {
        let (v, _) = resolve(e)
        let items: [CodeExpr]
        if case .array(let xs, _) = v { items = xs } else { items = [v] }
        var out: [Axis] = []
        for item in items {
            guard case .value(let axis) = name(item, Axis.self) else {
                return .unresolved("`\(CodeText.describe(e))` is not a set of axes the reader can evaluate")
            }
            if !out.contains(axis) { out.append(axis) }
        }
        return .value(out)
    }

    /// `splitArrangementLayoutRatio(0.35)`, or `(minHorizontal:idealHorizontal:maxHorizontal:idealVertical:)`.
    func preference(_ c: CodeCall) -> Reading<CodePreference> {
        if let only = c.arguments.first, only.label == nil { return number(only.value).map { .both($0) } }
        var p = AxisPreference()
        for a in c.arguments {
            guard case .value(let v) = number(a.value) else {
                return .unresolved("`\(CodeText.describe(a.value))` is not a number the code fixes")
            }
            switch a.label {
            case "minHorizontal": p.minHorizontal = v
            case "idealHorizontal": p.idealHorizontal = v
            case "maxHorizontal": p.maxHorizontal = v
            case "idealVertical": p.idealVertical = v
            default: return .unresolved("`\(a.label ?? "_"):` is not a preference the scene can say")
            }
        }
        return .value(.axes(p))
    }

    /// `splitArrangementFixedLayoutSize(horizontal:vertical:)` (both when no argument is given).
    func fixedSize(_ c: CodeCall) -> Reading<(Bool, Bool)> {
        if c.arguments.isEmpty { return .value((true, true)) }
        let h = c.argument("horizontal").map { bool($0) } ?? .value(false)
        let v = c.argument("vertical").map { bool($0) } ?? .value(false)
        guard case .value(let a) = h, case .value(let b) = v else {
            return .unresolved("the fixed axes are not values the code fixes")
        }
        return .value((a, b))
    }
}

extension Reading {
    func map<U>(_ f: (T) -> U) -> Reading<U> {
        switch self {
        case .value(let v): return .value(f(v))
        case .omitted: return .omitted
        case .unresolved(let m): return .unresolved(m)
        }
    }
}
