import SwiftCodeModel

/// The `present-by-item` finding (docs/swiftui.md#present-by-item): a presentation driven by a boolean whose content
/// reads an optional the view also holds. The flag and the value are two states that nothing keeps together — the
/// sheet that shows empty, or shows the previous item — where `.sheet(item:)` makes them one.
enum PresentByItem {
    static let code = "present-by-item"

    static func check(
        _ p: PresentingModifier, content: CodeExpr, at point: SourcePoint, ctx: WalkContext, index: ProjectIndex
    ) {
        guard let type = ctx.scope.type, let members = index.members(of: type) else { return }
        let optionals = Set(members.stored.filter(\.isOptional).map(\.name))
        guard !optionals.isEmpty, let read = firstUnwrapped(in: content, among: optionals) else { return }
        let modifier = modifierName(p)
        let flag = ValueReader(index: index, scope: ctx.scope).bindingName(p.binding).map { "$" + $0 } ?? "…"
        ctx.node.findings.append(
            (
                code, point,
                "`.\(modifier)(isPresented: \(flag))` shows content that unwraps `\(read)`, an optional the view also "
                    + "holds: the flag and the value can disagree (an empty or stale \(modifier)). Present by item "
                    + "instead: `.\(modifier)(item: $\(read))`, so that the value is what presents."
            ))
    }

    private static func modifierName(_ p: PresentingModifier) -> String {
        switch p.kind {
        case .sheet: return "sheet"
        case .fullScreenCover: return "fullScreenCover"
        case .popover: return "popover"
        case .adaptivePanel: return "adaptivePanel"
        }
    }

    /// The first of `names` that the content unwraps: `if let x = name`, `if let name`, `guard let … = name`,
    /// `name!`.
    static func firstUnwrapped(in e: CodeExpr, among names: Set<String>) -> String? {
        var found: String?
        func condition(_ c: CodeCondition) {
            guard found == nil, case .optionalBinding(let bound, let value) = c else { return }
            if let value {
                if let n = CodeWalk.referencedName(value), names.contains(n) { found = n }
            } else if names.contains(bound) {
                found = bound
            }
        }
        func statement(_ s: CodeStatement) {
            switch s {
            case .branches(let b): for branch in b.branches { branch.conditions.forEach(condition) }
            case .guardStatement(let conditions, _): conditions.forEach(condition)
            default: break
            }
            CodeWalk.forEachExpression(in: s) { expression($0) }
            switch s {
            case .branches(let b):
                for branch in b.branches { branch.body.forEach(statement) }
                b.elseBody?.forEach(statement)
            case .switchStatement(_, let cases, _, _): for c in cases { c.forEach(statement) }
            case .loop(_, let body): body.forEach(statement)
            default: break
            }
        }
        func expression(_ e: CodeExpr) {
            guard found == nil else { return }
            switch e {
            case .forceUnwrap(let x, _):
                if let n = CodeWalk.referencedName(x), names.contains(n) { found = n } else { expression(x) }
            case .call(let c):
                expression(c.callee)
                for a in c.arguments { expression(a.value) }
            case .member(let base?, _, _): expression(base)
            case .array(let xs, _): xs.forEach(expression)
            case .closure(let c): c.body.forEach(statement)
            case .ternary(let a, let b, let c, _): [a, b, c].forEach(expression)
            case .statement(let s, _): statement(s)
            case .other(_, let children, _): children.forEach(expression)
            case .member(nil, _, _), .name, .string, .number, .bool, .nilLiteral: break
            }
        }
        expression(e)
        return found
    }
}
