import JSON
import LayoutEngine
import SwiftCodeModel

// A code scene written as the scene JSON of docs/api.md#resolve, with the caller's layout facts.

extension CodeScene {
    /// The scene as the body of `POST /v1/resolve`: `device` from the context, the presentations and the
    /// arrangement as the code writes them, and the layout facts the engine needs from the context (a popover's
    /// `anchor`, a measured `contentSize`).
    public func json(context: SceneContext) -> JSONValue {
        var o = JSONObject()
        o["device"] = .string(context.device)
        o["presentations"] = .array(presentations.map { $0.json(context: context) })
        if let arrangement { o["arrangement"] = arrangement.json(context: context) }
        return .object(o)
    }
}

extension CodePresentation {
    func json(context: SceneContext) -> JSONValue {
        var o = JSONObject()
        o["id"] = .string(id)
        o["kind"] = .string(kind.rawValue)
        if let presentedFrom { o["presentedFrom"] = .string(presentedFrom) }
        if let placement { o["placement"] = .string(placement.rawValue) }
        if let sizing { o["sizing"] = .string(sizing.rawValue) }
        if let fittedAxes { o["fittedAxes"] = .array(fittedAxes.map { .string($0.rawValue) }) }
        if let detents { o["detents"] = .array(detents.map(\.json)) }
        if let selectedDetent { o["selectedDetent"] = selectedDetent.json }
        if let backgroundInteraction { o["backgroundInteraction"] = backgroundInteraction.json }
        if let interactiveDismissDisabled { o["interactiveDismissDisabled"] = .bool(interactiveDismissDisabled) }
        if let dragIndicator { o["dragIndicator"] = .string(dragIndicator.rawValue) }
        if let cornerRadius { o["cornerRadius"] = .number(cornerRadius) }
        if let toolbar { o["toolbar"] = .array(toolbar.map(\.json)) }
        if let contentScrollable { o["contentScrollable"] = .bool(contentScrollable) }
        if measuresContent { o["contentSize"] = context.contentSize.json }
        if kind == .popover { o["anchor"] = anchor(in: context.presenterFrame).json }
        if let arrowEdge { o["arrowEdge"] = .string(arrowEdge.rawValue) }
        if let compactAdaptation { o["compactAdaptation"] = .string(compactAdaptation.rawValue) }
        if let breakpoint { o["breakpoint"] = .number(breakpoint) }
        if let alignment { o["alignment"] = .string(alignment.rawValue) }
        if let panelWidth { o["panelWidth"] = .number(panelWidth) }
        if let panelHeight { o["panelHeight"] = .number(panelHeight) }
        if let modal { o["modal"] = .bool(modal) }
        return .object(o)
    }

    /// A popover's anchor in window coordinates: its `attachmentAnchor` on the presenting view's frame.
    public func anchor(in frame: Rect) -> Rect {
        switch attachmentAnchor ?? .bounds {
        case .bounds: return frame
        case .point(let x, let y):
            return Rect(x: frame.x + x * frame.width, y: frame.y + y * frame.height, width: 0, height: 0)
        case .rect(let r): return Rect(x: frame.x + r.x, y: frame.y + r.y, width: r.width, height: r.height)
        }
    }
}

extension CodeArrangement {
    func json(context: SceneContext) -> JSONValue {
        var o = JSONObject()
        if let style { o["style"] = .string(style.rawValue) }
        if let axes { o["axes"] = .array(axes.map { .string($0.rawValue) }) }
        if let container { o["container"] = .string(container.rawValue) }
        if !primary.isEmpty { o["primary"] = primary.json(context: context) }
        if !secondary.isEmpty { o["secondary"] = secondary.json(context: context) }
        return .object(o)
    }
}

extension CodeArrangedView {
    func json(context: SceneContext) -> JSONValue {
        var o = JSONObject()
        if let ratio { o["ratio"] = ratio.json }
        if let size { o["size"] = size.json }
        if fixesSize {
            o["fixedSize"] = .object([
                "horizontal": .bool(fixedHorizontal ?? false), "vertical": .bool(fixedVertical ?? false),
            ])
            o["contentSize"] = context.contentSize.json
        }
        if let overlayEdge { o["overlayEdge"] = .string(overlayEdge.rawValue) }
        return .object(o)
    }
}

extension CodePreference {
    var json: JSONValue {
        switch self {
        case .both(let v): return .number(v)
        case .axes(let p):
            var o = JSONObject()
            if let v = p.minHorizontal { o["minHorizontal"] = .number(v) }
            if let v = p.idealHorizontal { o["idealHorizontal"] = .number(v) }
            if let v = p.maxHorizontal { o["maxHorizontal"] = .number(v) }
            if let v = p.idealVertical { o["idealVertical"] = .number(v) }
            return .object(o)
        }
    }
}

extension BackgroundInteraction {
    var json: JSONValue {
        switch self {
        case .disabled: return "disabled"
        case .enabled: return "enabled"
        case .upThrough(let d): return .object(["upThrough": d.json])
        }
    }
}

extension ToolbarItem {
    var json: JSONValue {
        var o = JSONObject()
        if let title { o["title"] = .string(title) }
        if let systemImage { o["systemImage"] = .string(systemImage) }
        o["placement"] = .string(placement.rawValue)
        return .object(o)
    }
}

extension Size {
    var json: JSONValue { .object(["width": .number(width), "height": .number(height)]) }
}

extension Rect {
    var json: JSONValue {
        .object(["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)])
    }
}
