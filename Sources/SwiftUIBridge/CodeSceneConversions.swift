import JSON
import LayoutEngine

// A code scene from the engine's `Scene` or from scene JSON, for the writer (docs/swiftui.md#write).

extension CodeScene {
    /// What code can say of an engine scene: every presentation member SwiftUI has a modifier for, the arrangement.
    /// A popover's anchor, content sizes and what no modifier says (`hasUnsavedChanges`, `intent`,
    /// `edgeAttachedInCompactHeight`, `widthFollowsContentSize`) are left out.
    public init(_ scene: Scene) {
        self.init()
        for p in scene.presentations {
            var c = CodePresentation(id: p.id, kind: p.kind)
            c.presentedFrom = p.presentedFrom.map { scene.presentations[$0].id }
            c.placement = p.strayPlacement
            switch p.content {
            case .sheet(let s):
                c.placement = s.placement
                c.sizing = s.sizing
                c.fittedAxes = s.fittedAxes.isEmpty ? nil : s.fittedAxes
                c.detents = s.detents
                c.selectedDetent = s.selectedDetent
                c.backgroundInteraction = s.backgroundInteraction
                c.interactiveDismissDisabled = s.interactiveDismissDisabled
                c.dragIndicator = s.dragIndicator
                c.cornerRadius = s.cornerRadius
                c.toolbar = s.toolbar
                c.contentScrollable = s.contentScrollable ? true : nil
            case .fullScreenCover: break
            case .popover(let pop):
                c.arrowEdge = pop.arrowEdge
                c.compactAdaptation = pop.compactAdaptation
            case .adaptivePanel(let panel):
                c.breakpoint = panel.breakpoint
                c.alignment = panel.alignment
                c.panelWidth = panel.panelWidth
                c.panelHeight = panel.panelHeight
                c.modal = panel.modal
                c.cornerRadius = panel.cornerRadius
            }
            presentations.append(c)
        }
        if let a = scene.arrangement {
            var c = CodeArrangement(style: CodeArrangementStyle(rawValue: a.style.rawValue) ?? .split)
            c.axes = a.axes
            c.container = a.container == .plain ? nil : a.container
            c.primary = CodeArrangedView(a.primary)
            c.secondary = CodeArrangedView(a.secondary)
            arrangement = c
        }
    }
}

extension CodeArrangedView {
    init(_ v: ArrangedViewRequest) {
        self.init()
        ratio = v.ratio.map(CodePreference.init)
        size = v.size.map(CodePreference.init)
        if v.fixedHorizontal || v.fixedVertical {
            fixedHorizontal = v.fixedHorizontal
            fixedVertical = v.fixedVertical
        }
        overlayEdge = v.overlayEdge
    }
}

extension CodePreference {
    /// A preference with the same ideal on both axes and no bounds is a bare number.
    init(_ p: AxisPreference) {
        if p.minHorizontal == nil, p.maxHorizontal == nil, let h = p.idealHorizontal, p.idealVertical == h {
            self = .both(h)
        } else {
            self = .axes(p)
        }
    }
}

/// A member of scene JSON the writer cannot read, at its pointer.
public struct CodeSceneError: Error, Equatable, CustomStringConvertible {
    public var pointer: String
    public var message: String
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }
    public var description: String { "\(pointer): \(message)" }
}

extension CodeScene {
    /// The presentations and arrangement of scene JSON (the body of `POST /v1/resolve`); the environment and members
    /// code cannot say are ignored.
    public init(json: JSONValue) throws(CodeSceneError) {
        self.init()
        guard case .object(let root) = json else { throw CodeSceneError(pointer: "", message: "expected an object") }
        if let list = root["presentations"] {
            guard case .array(let items) = list else {
                throw CodeSceneError(pointer: "/presentations", message: "expected an array")
            }
            for (i, item) in items.enumerated() {
                presentations.append(try JSONFields(item, "/presentations/\(i)").presentation())
            }
        }
        if let a = root["arrangement"], a != .null {
            arrangement = try JSONFields(a, "/arrangement").arrangement()
        }
    }
}

/// Reading one object of scene JSON, with the pointer of each member for errors.
private struct JSONFields {
    let object: JSONObject
    let pointer: String

    init(_ value: JSONValue, _ pointer: String) throws(CodeSceneError) {
        guard case .object(let o) = value else { throw CodeSceneError(pointer: pointer, message: "expected an object") }
        object = o
        self.pointer = pointer
    }

    func fail(_ key: String, _ message: String) -> CodeSceneError {
        CodeSceneError(pointer: pointer + "/" + key, message: message)
    }

    func value(_ key: String) -> JSONValue? {
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    func string(_ key: String) throws(CodeSceneError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw fail(key, "expected a string") }
        return s
    }

    func number(_ key: String) throws(CodeSceneError) -> Double? {
        guard let v = value(key) else { return nil }
        guard case .number(let d) = v else { throw fail(key, "expected a number") }
        return d
    }

    func bool(_ key: String) throws(CodeSceneError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw fail(key, "expected a boolean") }
        return b
    }

    func name<E: RawRepresentable>(_ key: String, _: E.Type) throws(CodeSceneError) -> E? where E.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let e = E(rawValue: s) else { throw fail(key, "\"\(s)\" is not a value the scene has") }
        return e
    }

    func names<E: RawRepresentable>(_ key: String, _: E.Type) throws(CodeSceneError) -> [E]?
    where E.RawValue == String {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail(key, "expected an array") }
        var out: [E] = []
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item, let e = E(rawValue: s) else {
                throw fail("\(key)/\(i)", "not a value the scene has")
            }
            out.append(e)
        }
        return out
    }

    func detent(_ v: JSONValue, _ key: String) throws(CodeSceneError) -> Detent {
        switch v {
        case .string("medium"): return .medium
        case .string("large"): return .large
        case .string("fitted"): return .fitted
        case .object(let o):
            if case .number(let h)? = o["height"] { return .height(h) }
            if case .number(let f)? = o["fraction"] { return .fraction(f) }
        default: break
        }
        throw fail(key, "not a detent")
    }

    func presentation() throws(CodeSceneError) -> CodePresentation {
        guard let id = try string("id") else { throw fail("id", "is required") }
        guard let kind = try name("kind", Presentation.Kind.self) else { throw fail("kind", "is required") }
        var p = CodePresentation(id: id, kind: kind, presentedFrom: try string("presentedFrom"))
        p.placement = try name("placement", SheetPlacement.self)
        p.sizing = try name("sizing", SheetSizing.self)
        p.fittedAxes = try names("fittedAxes", Axis.self)
        if let v = value("detents") {
            guard case .array(let items) = v else { throw fail("detents", "expected an array") }
            var detents: [Detent] = []
            for (i, item) in items.enumerated() { detents.append(try detent(item, "detents/\(i)")) }
            p.detents = detents
        }
        if let v = value("selectedDetent") { p.selectedDetent = try detent(v, "selectedDetent") }
        if let v = value("backgroundInteraction") {
            switch v {
            case .string("disabled"): p.backgroundInteraction = .disabled
            case .string("enabled"): p.backgroundInteraction = .enabled
            case .object(let o) where o["upThrough"] != nil:
                p.backgroundInteraction = .upThrough(try detent(o["upThrough"]!, "backgroundInteraction/upThrough"))
            default: throw fail("backgroundInteraction", "not a background interaction")
            }
        }
        p.interactiveDismissDisabled = try bool("interactiveDismissDisabled")
        p.dragIndicator = try name("dragIndicator", DragIndicator.self)
        p.cornerRadius = try number("cornerRadius")
        if let v = value("toolbar") {
            guard case .array(let items) = v else { throw fail("toolbar", "expected an array") }
            var toolbar: [ToolbarItem] = []
            for (i, item) in items.enumerated() {
                let f = try JSONFields(item, pointer + "/toolbar/\(i)")
                toolbar.append(
                    ToolbarItem(
                        title: try f.string("title"), systemImage: try f.string("systemImage"),
                        placement: try f.name("placement", ToolbarPlacement.self) ?? .automatic))
            }
            p.toolbar = toolbar
        }
        p.contentScrollable = try bool("contentScrollable")
        p.arrowEdge = try name("arrowEdge", ArrowEdge.self)
        p.compactAdaptation = try name("compactAdaptation", CompactAdaptation.self)
        p.breakpoint = try number("breakpoint")
        p.alignment = try name("alignment", PanelAlignment.self)
        p.panelWidth = try number("panelWidth")
        p.panelHeight = try number("panelHeight")
        p.modal = try bool("modal")
        return p
    }

    func arrangement() throws(CodeSceneError) -> CodeArrangement {
        var a = CodeArrangement(style: try name("style", CodeArrangementStyle.self))
        a.axes = try names("axes", Axis.self)
        a.container = try name("container", ArrangementContainer.self)
        if let v = value("primary") { a.primary = try JSONFields(v, pointer + "/primary").arrangedView() }
        if let v = value("secondary") { a.secondary = try JSONFields(v, pointer + "/secondary").arrangedView() }
        if a.container == .plain { a.container = nil }
        return a
    }

    func arrangedView() throws(CodeSceneError) -> CodeArrangedView {
        var v = CodeArrangedView()
        v.ratio = try preference("ratio")
        v.size = try preference("size")
        if let f = value("fixedSize") {
            let fields = try JSONFields(f, pointer + "/fixedSize")
            let h = try fields.bool("horizontal") ?? false
            let vertical = try fields.bool("vertical") ?? false
            if h || vertical {
                v.fixedHorizontal = h
                v.fixedVertical = vertical
            }
        }
        v.overlayEdge = try name("overlayEdge", Edge.self)
        return v
    }

    func preference(_ key: String) throws(CodeSceneError) -> CodePreference? {
        guard let v = value(key) else { return nil }
        if case .number(let d) = v { return .both(d) }
        let f = try JSONFields(v, pointer + "/" + key)
        return .axes(
            AxisPreference(
                minHorizontal: try f.number("minHorizontal"), idealHorizontal: try f.number("idealHorizontal"),
                maxHorizontal: try f.number("maxHorizontal"), idealVertical: try f.number("idealVertical")))
    }
}
