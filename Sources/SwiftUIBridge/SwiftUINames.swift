import LayoutEngine
import SwiftCodeModel

/// Names of SwiftUI the reader knows without reading their declarations.
enum SwiftUINames {
    /// SwiftUI's own views: a presented view by one of these names is not "declared where the reader cannot see it".
    static let views: Set<String> = [
        "AnyView", "Button", "Canvas", "Color", "ContentUnavailableView", "ControlGroup", "DatePicker",
        "DisclosureGroup", "Divider", "EditButton", "EmptyView", "ForEach", "Form", "Gauge", "GeometryReader", "Grid",
        "GridRow", "Group", "GroupBox", "HStack", "Image", "Label", "LabeledContent", "LazyHGrid", "LazyHStack",
        "LazyVGrid", "LazyVStack", "Link", "List", "Menu", "NavigationLink", "NavigationSplitView", "NavigationStack",
        "NavigationView", "Picker", "ProgressView", "ScrollView", "ScrollViewReader", "Section", "SecureField",
        "ShareLink", "Slider", "Spacer", "Stepper", "TabView", "Text", "TextEditor", "TextField", "TimelineView",
        "Toggle", "VStack", "ViewThatFits", "ZStack", "ArrangementView", "ToolbarItem", "ToolbarItemGroup",
        "ToolbarSpacer",
    ]

    /// Modifiers whose closures are views (so an unknown helper in them matters); other modifiers' closures are
    /// actions.
    static let viewBuilderModifiers: Set<String> = [
        "background", "overlay", "mask", "safeAreaInset", "toolbar", "contextMenu", "navigationDestination",
        "tabItem", "alert", "confirmationDialog",
    ]

    /// Whether a closure given to a SwiftUI view builds views: a container's content, a control's `label:`; not a
    /// button's action. Views of other modules are not known: their closures count as actions.
    static func isViewBuilder(_ a: CodeArgument, of c: CodeCall, calledBy name: String) -> Bool {
        guard case .closure = a.value, views.contains(name) else { return false }
        switch name {
        case "Button":
            return a.label == "label" || (a.label == nil && a.trailing && c.argument("action") != nil)
        case "TextField", "SecureField", "Toggle", "Slider", "Stepper", "DatePicker":
            return a.label == "label"
        default:
            return true
        }
    }

    /// Containers that scroll: an arrangement inside one has no stable length (docs/rules.md#arrangement).
    static let scrollContainers: [String: ArrangementContainer] = [
        "List": .list, "Form": .list, "ScrollView": .scrollView,
    ]

    /// Presented content whose root is one of these scrolls (`contentScrollable`).
    static let scrollingRoots: Set<String> = ["List", "Form", "ScrollView"]

    /// Wrappers a presented view's root is looked through for `contentScrollable`.
    static let transparentRoots: Set<String> = ["NavigationStack", "NavigationView", "Group"]

    /// `UnitPoint`'s named points.
    static let unitPoints: [String: (x: Double, y: Double)] = [
        "zero": (0, 0), "center": (0.5, 0.5), "top": (0.5, 0), "bottom": (0.5, 1), "leading": (0, 0.5),
        "trailing": (1, 0.5), "topLeading": (0, 0), "topTrailing": (1, 0), "bottomLeading": (0, 1),
        "bottomTrailing": (1, 1),
    ]
}

/// Short source-like text of an expression, for messages.
enum CodeText {
    static func describe(_ e: CodeExpr) -> String {
        switch e {
        case .name(let n, _): return n
        case .member(let base?, let n, _): return describe(base) + "." + n
        case .member(nil, let n, _): return "." + n
        case .call(let c): return describe(c.callee) + "(…)"
        case .string(let s?, _): return SwiftStringEscapes.literal(s)
        case .string(nil, _): return "\"…\""
        case .number(let v, _): return format(v)
        case .bool(let b, _): return b ? "true" : "false"
        case .nilLiteral: return "nil"
        case .array: return "[…]"
        case .closure: return "{ … }"
        case .forceUnwrap(let x, _): return describe(x) + "!"
        case .ternary(let c, let a, let b, _): return "\(describe(c)) ? \(describe(a)) : \(describe(b))"
        case .statement: return "…"
        case .other(let text, _, _): return text
        }
    }

    /// A number as Swift source: integers without a fraction.
    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }
}
