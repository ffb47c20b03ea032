internal import SwiftParser
internal import SwiftSyntax

/// Parses a Swift file with the toolchain's parser and lowers its declarations to the model of CodeModel.swift.
/// Everything SwiftSyntax-specific is in this file.
public enum SyntaxLowering {
    /// `text` is the file without its byte order mark (`LineTable.withoutByteOrderMark`); `file` is the index
    /// every `SourcePoint` of it carries.
    public static func lower(_ text: [UInt8], file: Int) -> CodeFile {
        let types = text.withUnsafeBufferPointer { buffer in
            var lowerer = Lowerer(file: file, text: buffer)
            lowerer.topLevel(Parser.parse(source: buffer).statements)
            return lowerer.types
        }
        return CodeFile(index: file, types: types, lines: LineTable(text: text))
    }

    /// Parses `text` and drops the tree: the parser's cost alone (the benchmark's floor).
    public static func parseOnly(_ text: [UInt8]) -> Int {
        text.withUnsafeBufferPointer { Parser.parse(source: $0).statements.count }
    }
}

private struct Lowerer {
    let file: Int
    /// The file's text, for the source text of messages.
    let source: UnsafeBufferPointer<UInt8>
    var types: [CodeType] = []

    init(file: Int, text: UnsafeBufferPointer<UInt8>) {
        self.file = file
        self.source = text
    }

    func point(_ node: some SyntaxProtocol) -> SourcePoint {
        SourcePoint(file: file, offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    }

    // MARK: Declarations

    mutating func topLevel(_ items: CodeBlockItemListSyntax) {
        for item in items {
            if case .decl(let decl) = item.item { declaration(decl) }
        }
    }

    /// Collects a type declaration (and the types nested in it) into `types`.
    mutating func declaration(_ decl: DeclSyntax) {
        if let s = decl.as(StructDeclSyntax.self) {
            type(s.name.text, .structure, s.inheritanceClause, s.memberBlock, at: point(s.name))
        } else if let c = decl.as(ClassDeclSyntax.self) {
            type(c.name.text, .classType, c.inheritanceClause, c.memberBlock, at: point(c.name))
        } else if let e = decl.as(EnumDeclSyntax.self) {
            type(e.name.text, .enumeration, e.inheritanceClause, e.memberBlock, at: point(e.name))
        } else if let x = decl.as(ExtensionDeclSyntax.self) {
            type(x.extendedType.trimmedDescription, .extensionOf, x.inheritanceClause, x.memberBlock, at: point(x))
        } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
            for clause in ifConfig.clauses {
                switch clause.elements {
                case .statements(let items): topLevel(items)
                case .decls(let members): for m in members { declaration(m.decl) }
                default: break
                }
            }
        }
    }

    private mutating func type(
        _ name: String, _ kind: CodeType.Kind, _ inheritance: InheritanceClauseSyntax?, _ block: MemberBlockSyntax,
        at: SourcePoint
    ) {
        var t = CodeType(
            name: name, kind: kind,
            inherits: inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? [],
            properties: [], functions: [], at: at)
        members(block.members, into: &t)
        types.append(t)
    }

    private mutating func members(_ list: MemberBlockItemListSyntax, into t: inout CodeType) {
        for member in list {
            let decl = member.decl
            if let v = decl.as(VariableDeclSyntax.self) {
                t.properties += properties(v)
            } else if let f = decl.as(FunctionDeclSyntax.self) {
                t.functions.append(function(f))
            } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case .decls(let inner) = clause.elements { members(inner, into: &t) }
                }
            } else {
                declaration(decl)
            }
        }
    }

    private func properties(_ v: VariableDeclSyntax) -> [CodeProperty] {
        let attributes = v.attributes.compactMap { element -> String? in
            guard case .attribute(let a) = element else { return nil }
            return a.attributeName.trimmedDescription
        }
        let isConstant = v.bindingSpecifier.text == "let"
        return v.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
            var getter: [CodeStatement]?
            switch binding.accessorBlock?.accessors {
            case .getter(let items)?: getter = statements(items)
            case .accessors(let list)?:
                if let get = list.first(where: { $0.accessorSpecifier.text == "get" }), let body = get.body {
                    getter = statements(body.statements)
                }
            default: break
            }
            return CodeProperty(
                name: name, attributes: attributes, isConstant: isConstant,
                type: binding.typeAnnotation?.type.trimmedDescription,
                initializer: binding.initializer.map { expression($0.value) }, getter: getter, at: point(binding))
        }
    }

    private func function(_ f: FunctionDeclSyntax) -> CodeFunction {
        let parameters = f.signature.parameterClause.parameters.map { p in
            let first = p.firstName.text
            return CodeParameter(
                label: first == "_" ? nil : first, name: p.secondName?.text ?? first,
                defaultValue: p.defaultValue.map { expression($0.value) },
                isClosure: p.type.trimmedDescription.contains("->"))
        }
        return CodeFunction(
            name: f.name.text, parameters: parameters, body: f.body.map { statements($0.statements) } ?? [],
            at: point(f.name))
    }

    // MARK: Statements

    func statements(_ items: CodeBlockItemListSyntax) -> [CodeStatement] {
        items.map { item in
            switch item.item {
            case .decl(let decl): return declarationStatement(decl)
            case .stmt(let stmt): return statement(stmt)
            case .expr(let e): return expressionStatement(e)
            @unknown default: return .other([])
            }
        }
    }

    private func declarationStatement(_ decl: DeclSyntax) -> CodeStatement {
        if let v = decl.as(VariableDeclSyntax.self), let binding = v.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        {
            return .binding(name: name, value: binding.initializer.map { expression($0.value) })
        }
        return .other([])
    }

    private func statement(_ stmt: StmtSyntax) -> CodeStatement {
        if let e = stmt.as(ExpressionStmtSyntax.self) { return expressionStatement(e.expression) }
        if let r = stmt.as(ReturnStmtSyntax.self) { return .returnStatement(r.expression.map { expression($0) }) }
        if let g = stmt.as(GuardStmtSyntax.self) {
            return .guardStatement(conditions: conditions(g.conditions), elseBody: statements(g.body.statements))
        }
        if let f = stmt.as(ForStmtSyntax.self) {
            return .loop(sequence: expression(f.sequence), body: statements(f.body.statements))
        }
        return .other(childExpressions(Syntax(stmt)))
    }

    private func expressionStatement(_ e: ExprSyntax) -> CodeStatement {
        if let i = e.as(IfExprSyntax.self) { return .branches(branches(i)) }
        if let s = e.as(SwitchExprSyntax.self) { return switchStatement(s) }
        if let seq = e.as(SequenceExprSyntax.self), let assignment = assignment(seq) { return assignment }
        return .expression(expression(e))
    }

    private func assignment(_ seq: SequenceExprSyntax) -> CodeStatement? {
        let elements = Array(seq.elements)
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        let target: String
        if let ref = elements[0].as(DeclReferenceExprSyntax.self) {
            target = ref.baseName.text
        } else if let m = elements[0].as(MemberAccessExprSyntax.self),
            m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
        {
            target = m.declName.baseName.text
        } else {
            return nil
        }
        let value: CodeExpr =
            elements.count == 3
            ? expression(elements[2])
            : .other(
                text: text(seq), children: elements.dropFirst(2).map { expression($0) }, at: point(elements[2]))
        return .assignment(target: target, value: value, at: point(elements[0]))
    }

    private func branches(_ first: IfExprSyntax) -> CodeBranches {
        var result = CodeBranches(branches: [], elseBody: nil)
        var current = first
        while true {
            result.branches.append(
                CodeBranches.Branch(
                    conditions: conditions(current.conditions), text: text(current.conditions),
                    body: statements(current.body.statements), at: point(current.conditions)))
            switch current.elseBody {
            case .ifExpr(let next)?: current = next
            case .codeBlock(let block)?:
                result.elseBody = statements(block.statements)
                return result
            default: return result
            }
        }
    }

    private func switchStatement(_ s: SwitchExprSyntax) -> CodeStatement {
        let cases: [[CodeStatement]] = s.cases.compactMap { element in
            guard case .switchCase(let c) = element else { return nil }
            return statements(c.statements)
        }
        return .switchStatement(
            subject: expression(s.subject), cases: cases, text: text(s.subject), at: point(s.subject))
    }

    private func conditions(_ list: ConditionElementListSyntax) -> [CodeCondition] {
        list.map { element in
            switch element.condition {
            case .availability(let a):
                let text = a.trimmedDescription
                guard text.hasPrefix("#available") else {
                    return .expression(.other(text: text, children: [], at: point(a)))
                }
                return .available(iOS: Self.iOSVersion(in: text))
            case .optionalBinding(let b):
                let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? b.pattern.trimmedDescription
                return .optionalBinding(name: name, value: b.initializer.map { expression($0.value) })
            case .expression(let e):
                return .expression(expression(e))
            default:
                return .expression(.other(text: text(element), children: [], at: point(element)))
            }
        }
    }

    /// The iOS version of `#available(iOS 27.0, *)`.
    public static func iOSVersion(in text: String) -> (major: Int, minor: Int)? {
        let scalars = Array(text.unicodeScalars)
        guard
            let at = scalars.indices.first(where: { i in
                i + 3 <= scalars.count && String(String.UnicodeScalarView(scalars[i..<i + 3])) == "iOS"
            })
        else { return nil }
        let rest = String(String.UnicodeScalarView(scalars[(at + 3)...])).drop { $0 == " " }
        let digits = rest.prefix { $0.isNumber || $0 == "." }.split(separator: ".")
        guard let major = digits.first.flatMap({ Int($0) }) else { return nil }
        return (major, digits.count > 1 ? Int(digits[1]) ?? 0 : 0)
    }

    // MARK: Expressions

    func expression(_ e: ExprSyntax) -> CodeExpr {
        if let c = e.as(FunctionCallExprSyntax.self) { return .call(call(c)) }
        if let m = e.as(MemberAccessExprSyntax.self) {
            return .member(base: m.base.map { expression($0) }, name: m.declName.baseName.text, at: point(m.declName))
        }
        if let r = e.as(DeclReferenceExprSyntax.self) { return .name(r.baseName.text, at: point(r)) }
        if let s = e.as(StringLiteralExprSyntax.self) { return .string(Self.stringValue(s), at: point(s)) }
        if let i = e.as(IntegerLiteralExprSyntax.self) {
            guard let v = i.representedLiteralValue else { return .other(text: text(i), children: [], at: point(i)) }
            return .number(Double(v), at: point(i))
        }
        if let f = e.as(FloatLiteralExprSyntax.self) {
            guard let v = f.representedLiteralValue else { return .other(text: text(f), children: [], at: point(f)) }
            return .number(v, at: point(f))
        }
        if let b = e.as(BooleanLiteralExprSyntax.self) { return .bool(b.literal.text == "true", at: point(b)) }
        if e.is(NilLiteralExprSyntax.self) { return .nilLiteral(at: point(e)) }
        if let a = e.as(ArrayExprSyntax.self) {
            return .array(a.elements.map { expression($0.expression) }, at: point(a))
        }
        if let c = e.as(ClosureExprSyntax.self) { return .closure(closure(c)) }
        if let f = e.as(ForceUnwrapExprSyntax.self) { return .forceUnwrap(expression(f.expression), at: point(f)) }
        if let t = e.as(TernaryExprSyntax.self) {
            return .ternary(
                expression(t.condition), expression(t.thenExpression), expression(t.elseExpression), at: point(t))
        }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil {
            return expression(only.expression)
        }
        if let t = e.as(TryExprSyntax.self) { return expression(t.expression) }
        if let a = e.as(AwaitExprSyntax.self) { return expression(a.expression) }
        if let g = e.as(GenericSpecializationExprSyntax.self) { return expression(g.expression) }
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "-",
            case .number(let v, let at) = expression(p.expression)
        {
            return .number(-v, at: at)
        }
        if let i = e.as(IfExprSyntax.self) { return .statement(.branches(branches(i)), at: point(i)) }
        if let s = e.as(SwitchExprSyntax.self) { return .statement(switchStatement(s), at: point(s)) }
        return .other(text: text(e), children: childExpressions(Syntax(e)), at: point(e))
    }

    private func call(_ c: FunctionCallExprSyntax) -> CodeCall {
        var arguments = c.arguments.map { a in
            CodeArgument(label: a.label?.text, value: expression(a.expression), trailing: false)
        }
        if let t = c.trailingClosure {
            arguments.append(CodeArgument(label: nil, value: .closure(closure(t)), trailing: true))
        }
        for extra in c.additionalTrailingClosures {
            arguments.append(
                CodeArgument(label: extra.label.text, value: .closure(closure(extra.closure)), trailing: true))
        }
        return CodeCall(callee: expression(c.calledExpression), arguments: arguments, at: point(c))
    }

    private func closure(_ c: ClosureExprSyntax) -> CodeClosure {
        var parameters: [String] = []
        switch c.signature?.parameterClause {
        case .simpleInput(let list)?: parameters = list.map { $0.name.text }
        case .parameterClause(let clause)?: parameters = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        default: break
        }
        return CodeClosure(parameters: parameters, body: statements(c.statements), at: point(c))
    }

    /// The outermost expressions under `node` (for an expression or statement the model does not name).
    private func childExpressions(_ node: Syntax) -> [CodeExpr] {
        var out: [CodeExpr] = []
        for child in node.children(viewMode: .sourceAccurate) {
            if let e = child.as(ExprSyntax.self) {
                out.append(expression(e))
            } else if let block = child.as(CodeBlockItemListSyntax.self) {
                out += statements(block).map { .statement($0, at: point(child)) }
            } else {
                out += childExpressions(child)
            }
        }
        return out
    }

    /// Source text for messages: the node's first 80 bytes or so, on one line (blanks and line breaks as one
    /// space). Read from the file's bytes: a node's own description would build its whole subtree's text.
    func text(_ node: some SyntaxProtocol) -> String {
        let start = max(0, min(node.positionAfterSkippingLeadingTrivia.utf8Offset, source.count))
        let end = max(start, min(node.endPositionBeforeTrailingTrivia.utf8Offset, source.count))
        var bytes: [UInt8] = []
        var space = false
        var i = start
        while i < end {
            let b = source[i]
            i += 1
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                space = true
                continue
            }
            if space && !bytes.isEmpty { bytes.append(0x20) }
            space = false
            bytes.append(b)
            // Stop at 80 bytes, at the end of a character.
            if bytes.count >= 80 && (i >= end || source[i] & 0xC0 != 0x80) {
                return String(decoding: bytes, as: UTF8.self) + (i < end ? "…" : "")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string literal's value when it has no interpolation.
    static func stringValue(_ s: StringLiteralExprSyntax) -> String? {
        var raw = ""
        for segment in s.segments {
            guard case .stringSegment(let text) = segment else { return nil }
            raw += text.content.text
        }
        if s.openingPounds != nil { return raw }
        if s.openingQuote.text == "\"\"\"" { return nil }
        return SwiftStringEscapes.unescape(raw)
    }
}
