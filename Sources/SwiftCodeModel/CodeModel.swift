// SwiftUIBridge's model of Swift code: the part of a parsed file that view code is made of, lowered from
// SwiftSyntax's tree once per file (SyntaxLowering.swift) on the thread that parsed it. Everything the bridge reads is
// here, in plain Sendable values, so files parsed on different threads are read together without sharing a syntax
// tree, and no module but this one sees SwiftSyntax (docs/swiftui.md#toolchain).

/// A place in a file read: the file's index in the run and a UTF-8 byte offset into its text.
@frozen public struct SourcePoint: Sendable, Hashable {
    public var file: Int
    public var offset: Int
}

/// An expression, reduced to what reading views needs; anything else is `other`, which keeps its children so that a
/// walk still finds the closures inside it.
@frozen public indirect enum CodeExpr: Sendable {
    case call(CodeCall)
    /// `.medium` (no base) or `base.name`.
    case member(base: CodeExpr?, name: String, at: SourcePoint)
    /// An identifier: `showsEditor`, `$showsEditor` (with its `$`), `Text`, `self`.
    case name(String, at: SourcePoint)
    /// A string literal; nil when it interpolates or cannot be read.
    case string(String?, at: SourcePoint)
    case number(Double, at: SourcePoint)
    case bool(Bool, at: SourcePoint)
    case nilLiteral(at: SourcePoint)
    case array([CodeExpr], at: SourcePoint)
    case closure(CodeClosure)
    case forceUnwrap(CodeExpr, at: SourcePoint)
    /// `condition ? a : b`.
    case ternary(CodeExpr, CodeExpr, CodeExpr, at: SourcePoint)
    /// An `if` or `switch` used as an expression (in a closure of one expression).
    case statement(CodeStatement, at: SourcePoint)
    /// Anything else: its source text (for messages) and its sub-expressions.
    case other(text: String, children: [CodeExpr], at: SourcePoint)

    public var at: SourcePoint {
        switch self {
        case .call(let c): return c.at
        case .member(_, _, let at), .name(_, let at), .string(_, let at), .number(_, let at), .bool(_, let at),
            .nilLiteral(let at), .array(_, let at), .forceUnwrap(_, let at), .ternary(_, _, _, let at),
            .statement(_, let at), .other(_, _, let at):
            return at
        case .closure(let c): return c.at
        }
    }
}

@frozen public struct CodeCall: Sendable {
    public var callee: CodeExpr
    /// Arguments in order, trailing closures last (the first trailing closure has no label).
    public var arguments: [CodeArgument]
    public var at: SourcePoint

    /// The argument labelled `label` (nil: the first unlabelled one).
    public func argument(_ label: String?) -> CodeExpr? {
        arguments.first { $0.label == label }?.value
    }

    /// The closures passed, in order, with their labels.
    public var closures: [(label: String?, closure: CodeClosure)] {
        arguments.compactMap { a in
            if case .closure(let c) = a.value { return (a.label, c) }
            return nil
        }
    }
}

@frozen public struct CodeArgument: Sendable {
    public var label: String?
    public var value: CodeExpr
    public var trailing: Bool
}

@frozen public struct CodeClosure: Sendable {
    public var parameters: [String]
    public var body: [CodeStatement]
    public var at: SourcePoint
}

/// A condition of an `if` or `guard`.
@frozen public enum CodeCondition: Sendable {
    /// `#available(iOS 27.0, *)`: the iOS version asked for (major, minor), nil when iOS is not named.
    case available(iOS: (major: Int, minor: Int)?)
    /// `let x = value` (`value` nil for the shorthand `if let x`).
    case optionalBinding(name: String, value: CodeExpr?)
    case expression(CodeExpr)
}

@frozen public indirect enum CodeStatement: Sendable {
    case expression(CodeExpr)
    /// An `if` (with its `else if`s as further branches) whose text is kept for messages.
    case branches(CodeBranches)
    case guardStatement(conditions: [CodeCondition], elseBody: [CodeStatement])
    case switchStatement(subject: CodeExpr, cases: [[CodeStatement]], text: String, at: SourcePoint)
    /// `for … in sequence { body }`.
    case loop(sequence: CodeExpr, body: [CodeStatement])
    /// `let name = value` / `var name = value` inside a body.
    case binding(name: String, value: CodeExpr?)
    /// `target = value` (also `self.target = value`).
    case assignment(target: String, value: CodeExpr, at: SourcePoint)
    case returnStatement(CodeExpr?)
    /// A nested declaration or any other statement: only the closures inside are kept.
    case other([CodeExpr])
}

@frozen public struct CodeBranches: Sendable {
    @frozen public struct Branch: Sendable {
        public var conditions: [CodeCondition]
        /// The conditions as written (`isEditing`, `let item = selected`), for messages.
        public var text: String
        public var body: [CodeStatement]
        public var at: SourcePoint
    }
    public var branches: [Branch]
    public var elseBody: [CodeStatement]?
}

/// A stored or computed property.
@frozen public struct CodeProperty: Sendable {
    public var name: String
    /// Attribute names without `@`: `State`, `Binding`, `ViewBuilder`, `Environment`.
    public var attributes: [String]
    /// Declared with `let`: a value set once, which an initializer here fixes for good.
    public var isConstant: Bool
    /// The declared type as written (`Item?`, `Bool`), nil when inferred.
    public var type: String?
    public var initializer: CodeExpr?
    /// The getter of a computed property.
    public var getter: [CodeStatement]?
    public var at: SourcePoint

    public var isOptional: Bool {
        guard let type else { return false }
        return type.hasSuffix("?") || type.hasPrefix("Optional<")
    }
    /// A stored property whose type is a function (`() -> Content`, `@ViewBuilder let content: …`).
    public var holdsClosure: Bool { getter == nil && (type?.contains("->") ?? false) }
}

@frozen public struct CodeParameter: Sendable {
    /// The argument label (nil for `_`).
    public var label: String?
    /// The name inside the body.
    public var name: String
    public var defaultValue: CodeExpr?
    /// Its type is a function (`() -> Content`, `@escaping (Item) -> V`).
    public var isClosure: Bool
}

@frozen public struct CodeFunction: Sendable {
    public var name: String
    public var parameters: [CodeParameter]
    public var body: [CodeStatement]
    public var at: SourcePoint
}

/// A struct, class, enum or extension with the members view code uses.
@frozen public struct CodeType: Sendable {
    @frozen public enum Kind: Sendable { case structure, classType, enumeration, extensionOf }
    public var name: String
    public var kind: Kind
    /// Inherited types and protocols as written (`View`, `ViewModifier`).
    public var inherits: [String]
    public var properties: [CodeProperty]
    public var functions: [CodeFunction]
    /// The position of the type's name.
    public var at: SourcePoint

    public var isView: Bool { inherits.contains("View") || inherits.contains("SwiftUI.View") }
    public var isViewModifier: Bool { inherits.contains("ViewModifier") || inherits.contains("SwiftUI.ViewModifier") }
}

/// One file lowered: its declarations in source order.
@frozen public struct CodeFile: Sendable {
    public var index: Int
    public var types: [CodeType]
    public var lines: LineTable
}
