import SwiftCodeModel

/// Plain searches over the code model: every call, every member named, every assignment.
enum CodeWalk {
    /// The name a call is made by: `sheet` for `x.sheet(…)` and `.sheet(…)`, `Text` for `Text(…)`.
    static func calleeName(_ callee: CodeExpr) -> String? {
        switch callee {
        case .member(_, let name, _), .name(let name, _): return name
        default: return nil
        }
    }

    /// Calls `body` for every call in `e`, outer ones first, closures included.
    static func forEachCall(in e: CodeExpr, _ body: (CodeCall) -> Void) {
        switch e {
        case .call(let c):
            body(c)
            forEachCall(in: c.callee, body)
            for a in c.arguments { forEachCall(in: a.value, body) }
        case .member(let base?, _, _): forEachCall(in: base, body)
        case .array(let xs, _): for x in xs { forEachCall(in: x, body) }
        case .closure(let c): for s in c.body { forEachCall(in: s, body) }
        case .forceUnwrap(let x, _): forEachCall(in: x, body)
        case .ternary(let a, let b, let c, _):
            forEachCall(in: a, body)
            forEachCall(in: b, body)
            forEachCall(in: c, body)
        case .statement(let s, _): forEachCall(in: s, body)
        case .other(_, let children, _): for x in children { forEachCall(in: x, body) }
        case .member(nil, _, _), .name, .string, .number, .bool, .nilLiteral: break
        }
    }

    static func forEachCall(in s: CodeStatement, _ body: (CodeCall) -> Void) {
        forEachExpression(in: s) { forEachCall(in: $0, body) }
    }

    /// Calls `body` for each expression a statement holds directly (conditions, values, nested statements' own).
    static func forEachExpression(in s: CodeStatement, _ body: (CodeExpr) -> Void) {
        switch s {
        case .expression(let e), .returnStatement(let e?), .binding(_, let e?), .assignment(_, let e, _): body(e)
        case .branches(let b):
            for branch in b.branches {
                for c in branch.conditions { condition(c, body) }
                for t in branch.body { forEachExpression(in: t, body) }
            }
            for t in b.elseBody ?? [] { forEachExpression(in: t, body) }
        case .guardStatement(let conditions, let elseBody):
            for c in conditions { condition(c, body) }
            for t in elseBody { forEachExpression(in: t, body) }
        case .switchStatement(let subject, let cases, _, _):
            body(subject)
            for c in cases { for t in c { forEachExpression(in: t, body) } }
        case .loop(let sequence, let loopBody):
            body(sequence)
            for t in loopBody { forEachExpression(in: t, body) }
        case .other(let es): for e in es { body(e) }
        case .returnStatement(nil), .binding(_, nil): break
        }
    }

    private static func condition(_ c: CodeCondition, _ body: (CodeExpr) -> Void) {
        switch c {
        case .available: break
        case .optionalBinding(_, let value?): body(value)
        case .optionalBinding(_, nil): break
        case .expression(let e): body(e)
        }
    }

    /// Whether `.name` (a member called `name`) appears in the statements.
    static func mentionsMember(_ name: String, in statements: [CodeStatement]) -> Bool {
        var found = false
        for s in statements {
            forEachExpression(in: s) { e in if !found { found = mentionsMember(name, in: e) } }
        }
        return found
    }

    static func mentionsMember(_ name: String, in e: CodeExpr) -> Bool {
        switch e {
        case .member(let base, let n, _): return n == name || (base.map { mentionsMember(name, in: $0) } ?? false)
        case .call(let c):
            return mentionsMember(name, in: c.callee) || c.arguments.contains { mentionsMember(name, in: $0.value) }
        case .array(let xs, _): return xs.contains { mentionsMember(name, in: $0) }
        case .closure(let c): return mentionsMember(name, in: c.body)
        case .forceUnwrap(let x, _): return mentionsMember(name, in: x)
        case .ternary(let a, let b, let c, _):
            return mentionsMember(name, in: a) || mentionsMember(name, in: b) || mentionsMember(name, in: c)
        case .statement(let s, _): return mentionsMember(name, in: [s])
        case .other(_, let children, _): return children.contains { mentionsMember(name, in: $0) }
        case .name, .string, .number, .bool, .nilLiteral: return false
        }
    }

    /// The names assigned to (`x = …`, `self.x = …`) anywhere in the statements.
    static func assignedNames(in statements: [CodeStatement]) -> [String] {
        var names: [String] = []
        func visit(_ list: [CodeStatement]) {
            for s in list {
                switch s {
                case .assignment(let target, _, _): names.append(target)
                case .branches(let b):
                    for branch in b.branches { visit(branch.body) }
                    visit(b.elseBody ?? [])
                case .guardStatement(_, let body): visit(body)
                case .switchStatement(_, let cases, _, _): for c in cases { visit(c) }
                case .loop(_, let body): visit(body)
                default: break
                }
                forEachExpression(in: s) { e in
                    forEachClosure(in: e) { visit($0.body) }
                }
            }
        }
        visit(statements)
        return names
    }

    /// Calls `body` for the outermost closures in `e`.
    static func forEachClosure(in e: CodeExpr, _ body: (CodeClosure) -> Void) {
        switch e {
        case .closure(let c): body(c)
        case .call(let c):
            forEachClosure(in: c.callee, body)
            for a in c.arguments { forEachClosure(in: a.value, body) }
        case .member(let base?, _, _): forEachClosure(in: base, body)
        case .array(let xs, _): for x in xs { forEachClosure(in: x, body) }
        case .forceUnwrap(let x, _): forEachClosure(in: x, body)
        case .ternary(let a, let b, let c, _):
            forEachClosure(in: a, body)
            forEachClosure(in: b, body)
            forEachClosure(in: c, body)
        case .statement(let s, _): forEachExpression(in: s) { forEachClosure(in: $0, body) }
        case .other(_, let children, _): for x in children { forEachClosure(in: x, body) }
        case .member(nil, _, _), .name, .string, .number, .bool, .nilLiteral: break
        }
    }

    /// `e` without `self.`: the property a reference names, if it names one (`selected`, `self.selected`).
    static func referencedName(_ e: CodeExpr) -> String? {
        switch e {
        case .name(let n, _): return n
        case .member(.name("self", _)?, let n, _): return n
        default: return nil
        }
    }
}
