import JSON
import LayoutEngine
import SwiftCodeModel

/// Scene → SwiftUI (docs/swiftui.md#write): a `View` that presents the scene's presentations with the matching
/// modifiers, each inside the content of the one it is presented from, over the scene's arrangement. Reading the
/// text back gives the same presentations and arrangement. Deterministic, indented with 4 spaces.
public enum SwiftUIWriter {
    /// The source of a view named `viewName` (a Swift identifier) presenting `scene`.
    public static func source(_ scene: CodeScene, viewName: String = "SceneView") -> String {
        var w = Writing(scene: scene)
        return w.file(viewName: viewName)
    }

    public static func source(_ scene: Scene, viewName: String = "SceneView") -> String {
        source(CodeScene(scene), viewName: viewName)
    }

    public static func source(json: JSONValue, viewName: String = "SceneView") throws(CodeSceneError) -> String {
        source(try CodeScene(json: json), viewName: viewName)
    }

    /// `id` as a Swift identifier: letters, digits and `_` kept, anything else `_`; a leading digit or a keyword
    /// gets a leading `_`.
    static func identifier(_ id: String) -> String {
        var s = String(
            id.unicodeScalars.map { c -> Character in
                c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" ? Character(c) : "_"
            })
        if s.isEmpty || s.first!.isNumber || keywords.contains(s) { s = "_" + s }
        return s
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false",
        "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "some", "any",
    ]
}

/// One writing: the state properties the view needs, and its lines.
private struct Writing {
    let scene: CodeScene
    /// For each presentation (by index): its binding, and the names of its measured height and selected detent.
    var binding: [String] = []
    var height: [String] = []
    var selection: [String] = []
    var lines: [String] = []
    var level = 0

    init(scene: CodeScene) {
        self.scene = scene
        var used = Set<String>()
        func unique(_ s: String) -> String {
            var name = s
            while used.contains(name) { name += "_" }
            used.insert(name)
            return name
        }
        for p in scene.presentations { binding.append(unique(SwiftUIWriter.identifier(p.id))) }
        for (i, p) in scene.presentations.enumerated() {
            height.append(unique(binding[i] + "Height"))
            // A selected fitted detent is the measured height, which no initial value can name: not written.
            selection.append(
                p.selectedDetent == nil || p.selectedDetent == .fitted ? "" : unique(binding[i] + "Detent"))
        }
    }

    mutating func line(_ s: String) { lines.append(s.isEmpty ? "" : String(repeating: "    ", count: level) + s) }

    mutating func block(_ opening: String, _ body: (inout Writing) -> Void, closing: String = "}") {
        line(opening)
        level += 1
        body(&self)
        level -= 1
        line(closing)
    }

    mutating func file(viewName: String) -> String {
        line("import SwiftUI")
        line("")
        block("struct \(viewName): View {") { w in
            for (i, p) in w.scene.presentations.enumerated() {
                w.line("@State private var \(w.binding[i]) = false")
                if w.measures(p) { w.line("@State private var \(w.height[i]): CGFloat = 1") }
                if let d = p.selectedDetent, !w.selection[i].isEmpty {
                    w.line("@State private var \(w.selection[i]): PresentationDetent = \(w.detent(d, i))")
                }
            }
            if !w.scene.presentations.isEmpty { w.line("") }
            w.block("var body: some View {") { w in w.root() }
        }
        if scene.presentations.contains(where: { $0.kind == .adaptivePanel }) { adaptivePanelDeclaration() }
        return lines.joined(separator: "\n") + "\n"
    }

    func measures(_ p: CodePresentation) -> Bool {
        (p.detents ?? []).contains(.fitted) || p.backgroundInteraction == .upThrough(.fitted)
    }

    /// The arrangement (or an empty view), then the presentations from the root.
    mutating func root() {
        if let a = scene.arrangement {
            switch a.container {
            case .list?: block("List {") { w in w.arrangement(a) }
            case .scrollView?: block("ScrollView {") { w in w.arrangement(a) }
            default: arrangement(a)
            }
        } else {
            line("Color.clear")
        }
        level += 1
        presentations(from: nil)
        level -= 1
    }

    mutating func arrangement(_ a: CodeArrangement) {
        block("ArrangementView {", { w in w.arrangedView(a.primary) }, closing: "} secondary: {")
        level += 1
        arrangedView(a.secondary)
        level -= 1
        line("}")
        if a.style != nil || a.axes != nil {
            let style = (a.style ?? .split).rawValue
            line(".arrangementViewStyle(." + style + (a.axes.map { ".axes(\(axes($0)))" } ?? "") + ")")
        }
    }

    func axes(_ list: [Axis]) -> String {
        list.count == 1 ? "." + list[0].rawValue : "[" + list.map { "." + $0.rawValue }.joined(separator: ", ") + "]"
    }

    mutating func arrangedView(_ v: CodeArrangedView) {
        line("Color.clear")
        level += 1
        if let r = v.ratio { line(".splitArrangementLayoutRatio(\(preference(r)))") }
        if let s = v.size { line(".splitArrangementLayoutSize(\(preference(s)))") }
        if v.fixesSize {
            line(
                ".splitArrangementFixedLayoutSize(horizontal: \(v.fixedHorizontal ?? false), "
                    + "vertical: \(v.fixedVertical ?? false))")
        }
        if let e = v.overlayEdge { line(".overlayArrangementEdge(.\(e.rawValue))") }
        level -= 1
    }

    func preference(_ p: CodePreference) -> String {
        switch p {
        case .both(let v): return number(v)
        case .axes(let a):
            let parts: [(String, Double?)] = [
                ("minHorizontal", a.minHorizontal), ("idealHorizontal", a.idealHorizontal),
                ("maxHorizontal", a.maxHorizontal), ("idealVertical", a.idealVertical),
            ]
            return parts.compactMap { k, v in v.map { "\(k): \(number($0))" } }.joined(separator: ", ")
        }
    }

    func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }

    /// The presentations presented from `parent` (nil: the root), each as a modifier of the view being written.
    mutating func presentations(from parent: String?) {
        for (i, p) in scene.presentations.enumerated() where p.presentedFrom == parent {
            presentation(i, p)
        }
    }

    mutating func presentation(_ i: Int, _ p: CodePresentation) {
        var opening: String
        switch p.kind {
        case .sheet: opening = ".sheet(isPresented: $\(binding[i])"
        case .fullScreenCover: opening = ".fullScreenCover(isPresented: $\(binding[i])"
        case .popover:
            opening = ".popover(isPresented: $\(binding[i])"
            if let a = p.attachmentAnchor { opening += ", attachmentAnchor: \(anchor(a))" }
            if let e = p.arrowEdge { opening += ", arrowEdge: .\(e.rawValue)" }
        case .adaptivePanel:
            opening = ".adaptivePanel(isPresented: $\(binding[i])"
            if let v = p.breakpoint { opening += ", breakpoint: \(number(v))" }
            if let v = p.alignment { opening += ", alignment: .\(v.rawValue)" }
            if let v = p.panelWidth { opening += ", panelWidth: \(number(v))" }
            if let v = p.panelHeight { opening += ", panelHeight: \(number(v))" }
            if let v = p.modal { opening += ", modal: \(v)" }
            if let v = p.cornerRadius { opening += ", cornerRadius: \(number(v))" }
        }
        block(opening + ") {") { w in w.content(i, p) }
    }

    func anchor(_ a: AttachmentAnchor) -> String {
        switch a {
        case .bounds: return ".rect(.bounds)"
        case .point(let x, let y):
            if let named = SwiftUINames.unitPoints.sorted(by: { $0.key < $1.key }).first(where: {
                $0.value.x == x && $0.value.y == y
            }) {
                return ".point(.\(named.key))"
            }
            return ".point(UnitPoint(x: \(number(x)), y: \(number(y))))"
        case .rect(let r):
            return ".rect(.rect(CGRect(x: \(number(r.x)), y: \(number(r.y)), width: \(number(r.width)), "
                + "height: \(number(r.height)))))"
        }
    }

    /// A presentation's content: a text naming it (in a scroll view when it scrolls, in a navigation stack with its
    /// toolbar), its presentation modifiers, then what it presents.
    mutating func content(_ i: Int, _ p: CodePresentation) {
        let text = "Text(\(SwiftStringEscapes.literal(p.id)))"
        let scrolls = p.contentScrollable == true
        if let toolbar = p.toolbar {
            block("NavigationStack {") { w in
                if scrolls {
                    w.block("ScrollView {") { w in w.line(text) }
                } else {
                    w.line(text)
                }
                w.level += 1
                w.block(".toolbar {") { w in w.toolbarItems(toolbar) }
                w.level -= 1
            }
        } else if scrolls {
            block("ScrollView {") { w in w.line(text) }
        } else {
            line(text)
        }
        level += 1
        modifiers(i, p)
        presentations(from: p.id)
        level -= 1
    }

    mutating func toolbarItems(_ items: [ToolbarItem]) {
        for item in items {
            block("ToolbarItem(placement: .\(item.placement.rawValue)) {") { w in
                switch (item.title, item.systemImage) {
                case (let t?, let s?):
                    w.line("Button(\(SwiftStringEscapes.literal(t)), systemImage: \(SwiftStringEscapes.literal(s))) {}")
                case (let t?, nil): w.line("Button(\(SwiftStringEscapes.literal(t))) {}")
                case (nil, let s?):
                    w.line("Button {} label: { Image(systemName: \(SwiftStringEscapes.literal(s))) }")
                case (nil, nil): w.line("Button {} label: { EmptyView() }")
                }
            }
        }
    }

    mutating func modifiers(_ i: Int, _ p: CodePresentation) {
        if measures(p) {
            block(
                ".onGeometryChange(for: CGFloat.self) { proxy in", { w in w.line("proxy.size.height") },
                closing: "} action: { newHeight in")
            level += 1
            line("\(height[i]) = max(1, newHeight)")
            level -= 1
            line("}")
        }
        if let detents = p.detents {
            let list = "[" + detents.map { detent($0, i) }.joined(separator: ", ") + "]"
            line(".presentationDetents(\(list)" + (selection[i].isEmpty ? ")" : ", selection: $\(selection[i]))"))
        }
        if let v = p.sizing {
            let fitted = p.fittedAxes.map {
                ".fitted(horizontal: \($0.contains(.horizontal)), vertical: \($0.contains(.vertical)))"
            }
            line(".presentationSizing(.\(v.rawValue)\(fitted ?? ""))")
        }
        if let v = p.placement { line(".presentationPlacement(.\(v.rawValue))") }
        if let v = p.backgroundInteraction {
            switch v {
            case .disabled: line(".presentationBackgroundInteraction(.disabled)")
            case .enabled: line(".presentationBackgroundInteraction(.enabled)")
            case .upThrough(let d): line(".presentationBackgroundInteraction(.enabled(upThrough: \(detent(d, i))))")
            }
        }
        if let v = p.interactiveDismissDisabled { line(".interactiveDismissDisabled(\(v))") }
        if let v = p.dragIndicator { line(".presentationDragIndicator(.\(v.rawValue))") }
        if let v = p.cornerRadius, p.kind != .adaptivePanel { line(".presentationCornerRadius(\(number(v)))") }
        if let v = p.compactAdaptation { line(".presentationCompactAdaptation(.\(v.rawValue))") }
    }

    func detent(_ d: Detent, _ i: Int) -> String {
        switch d {
        case .medium: return ".medium"
        case .large: return ".large"
        case .fitted: return ".height(\(height[i]))"
        case .height(let h): return ".height(\(number(h)))"
        case .fraction(let f): return ".fraction(\(number(f)))"
        }
    }

    /// The adaptive panel pattern's modifier (docs/swiftui.md#adaptive-panel), so the file compiles on its own.
    mutating func adaptivePanelDeclaration() {
        let text = """

            /// A bottom panel that becomes a side panel in a wide window (docs/rules.md#adaptive-panel).
            extension View {
                func adaptivePanel<Panel: View>(
                    isPresented: Binding<Bool>, breakpoint: CGFloat = 700, alignment: HorizontalAlignment = .trailing,
                    panelWidth: CGFloat = 360, panelHeight: CGFloat = 320, modal: Bool = false,
                    cornerRadius: CGFloat = 24, @ViewBuilder panel: @escaping () -> Panel
                ) -> some View {
                    GeometryReader { proxy in
                        ZStack(alignment: proxy.size.width >= breakpoint ? Alignment(horizontal: alignment, vertical: .center) : .bottom) {
                            self
                            if isPresented {
                                if modal {
                                    Color.black.opacity(0.2).onTapGesture { isPresented.wrappedValue = false }
                                }
                                panel()
                                    .frame(
                                        width: proxy.size.width >= breakpoint ? panelWidth : nil,
                                        height: proxy.size.width >= breakpoint ? nil : panelHeight)
                                    .frame(maxWidth: proxy.size.width >= breakpoint ? nil : .infinity)
                                    .background(.regularMaterial, in: .rect(cornerRadius: cornerRadius))
                            }
                        }
                    }
                }
            }
            """
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
