import SwiftCodeModel

/// The declarations of every file read, by name: a view's members come from its declaration and all its extensions,
/// wherever they are; `extension View` functions are the custom modifiers.
struct ProjectIndex: Sendable {
    struct Members: Sendable {
        var properties: [String: CodeProperty] = [:]
        /// Stored properties in declaration order: what a memberwise initializer takes, in order.
        var stored: [CodeProperty] = []
        var functions: [String: [CodeFunction]] = [:]
        var inherits: [String] = []
        /// The declaration (not an extension), when one was read.
        var declaration: CodeType?
        /// `@State` properties that `onGeometryChange` sets from a measured height (docs/swiftui.md#fitted).
        var measuredHeights: Set<String> = []
    }

    private(set) var types: [String: Members] = [:]
    /// Functions of `extension View`: custom modifiers.
    private(set) var modifiers: [String: [CodeFunction]] = [:]
    /// The files read, in the order given.
    let files: [CodeFile]
    private let lineTables: [Int: LineTable]

    init(files: [CodeFile]) {
        self.files = files
        lineTables = Dictionary(uniqueKeysWithValues: files.map { ($0.index, $0.lines) })
        for file in files {
            for t in file.types { add(t) }
        }
        for (name, members) in types {
            types[name]?.measuredHeights = Self.measuredHeights(members)
        }
    }

    private mutating func add(_ t: CodeType) {
        if t.kind == .extensionOf && (t.name == "View" || t.name == "SwiftUI.View") {
            for f in t.functions { modifiers[f.name, default: []].append(f) }
            return
        }
        var m = types[t.name] ?? Members()
        for p in t.properties where m.properties[p.name] == nil {
            m.properties[p.name] = p
            if p.getter == nil { m.stored.append(p) }
        }
        for f in t.functions { m.functions[f.name, default: []].append(f) }
        m.inherits += t.inherits
        if t.kind != .extensionOf, m.declaration == nil { m.declaration = t }
        types[t.name] = m
    }

    func members(of type: String) -> Members? { types[type] }

    /// The lines of the file whose index (`SourcePoint.file`) is `file`.
    func lines(of file: Int) -> LineTable { lineTables[file] ?? LineTable(text: []) }

    func isView(_ type: String) -> Bool {
        guard let m = types[type] else { return false }
        return m.inherits.contains("View") || m.inherits.contains("SwiftUI.View")
    }

    func isViewModifier(_ type: String) -> Bool {
        guard let m = types[type] else { return false }
        return m.inherits.contains("ViewModifier") || m.inherits.contains("SwiftUI.ViewModifier")
    }

    /// The function `name` of `type` (nil: a custom modifier, in `extension View`) that the call's arguments fit.
    func function(_ name: String, of type: String?, for call: CodeCall?) -> CodeFunction? {
        let candidates = (type == nil ? modifiers[name] : types[type!]?.functions[name]) ?? []
        let arguments = call.map(ArgumentBinding.arguments) ?? []
        return candidates.first { ArgumentBinding.bind($0.parameters, arguments: arguments) != nil }
    }

    /// The `@State` properties of `t` assigned in the `action` of an `onGeometryChange` whose transform reads a
    /// height: SwiftUI's measured-height pattern of a sheet that fits its content.
    private static func measuredHeights(_ t: Members) -> Set<String> {
        var found = Set<String>()
        func statements(_ list: [CodeStatement]) { for s in list { statement(s) } }
        func statement(_ s: CodeStatement) {
            switch s {
            case .expression(let e), .returnStatement(let e?): expression(e)
            case .binding(_, let e?): expression(e)
            case .assignment(_, let e, _): expression(e)
            case .branches(let b):
                for branch in b.branches { statements(branch.body) }
                if let e = b.elseBody { statements(e) }
            case .guardStatement(_, let body): statements(body)
            case .switchStatement(_, let cases, _, _): for c in cases { statements(c) }
            case .loop(let e, let body):
                expression(e)
                statements(body)
            case .other(let es): for e in es { expression(e) }
            case .returnStatement(nil), .binding(_, nil): break
            }
        }
        func expression(_ e: CodeExpr) {
            CodeWalk.forEachCall(in: e) { call in
                guard CodeWalk.calleeName(call.callee) == "onGeometryChange" else { return }
                let closures = call.closures
                guard let transform = closures.first?.closure, CodeWalk.mentionsMember("height", in: transform.body),
                    let action = closures.first(where: { $0.label == "action" })?.closure
                else { return }
                for target in CodeWalk.assignedNames(in: action.body) { found.insert(target) }
            }
        }
        for p in t.properties.values {
            if let g = p.getter { statements(g) }
        }
        for fs in t.functions.values { for f in fs { statements(f.body) } }
        return found.filter { name in t.properties[name].map { $0.attributes.contains("State") } ?? false }
    }
}

/// Matching a call's arguments to a function's parameters: labels in order, defaults skipped, an unlabelled trailing
/// closure taken by the next parameter of a function type.
enum ArgumentBinding {
    struct Argument: Sendable {
        var label: String?
        var trailing: Bool
    }

    /// For each parameter, the index of the argument it takes (nil: its default); nil when the arguments do not fit.
    static func bind(_ parameters: [CodeParameter], arguments: [Argument]) -> [Int?]? {
        var result: [Int?] = []
        var next = 0
        for p in parameters {
            let fits: Bool
            if next < arguments.count {
                let a = arguments[next]
                fits = a.label == p.label || (a.trailing && a.label == nil && p.isClosure)
            } else {
                fits = false
            }
            if fits {
                result.append(next)
                next += 1
            } else if p.defaultValue != nil {
                result.append(nil)
            } else {
                return nil
            }
        }
        return next == arguments.count ? result : nil
    }

    static func arguments(of call: CodeCall) -> [Argument] {
        call.arguments.map { Argument(label: $0.label, trailing: $0.trailing) }
    }
}
