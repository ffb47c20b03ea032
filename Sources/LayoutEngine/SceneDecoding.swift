import JSON

// The request body → Scene: decoding, validation and the limits every client-controlled value stays in
// (docs/rules.md#validation, docs/rules.md#limits). The model itself is in Scene.swift.

// MARK: - Limits

/// Limits on everything a client controls (docs/rules.md#limits).
public enum SceneLimits {
    public static let maxPresentations = 256
    public static let idLength = 1...128
    public static let maxDetents = 16
    public static let maxToolbarItems = 32
    public static let textLength = 0...256
    /// Sizes (window, content, panel) in points.
    public static let size = 0.000_001...100_000.0
    /// Coordinates (window origin, anchors, direct folds).
    public static let coordinate = -100_000.0...100_000.0
    public static let inset = 0.0...100_000
}

// MARK: - Decoding

/// The outcome of decoding a request body: a scene (whose `unknownFields` become warnings), or every
/// violation with its JSON pointer (→ 422) along with the unknown fields found on the way.
public enum SceneDecoding: Sendable {
    case scene(Scene)
    case invalid(errors: [JSONIssue], unknownFields: JSONUnknownFields)

    public var scene: Scene? { if case .scene(let s) = self { return s } else { return nil } }
    public var errors: [JSONIssue] { if case .invalid(let e, _) = self { return e } else { return [] } }

    /// Runs `body` on the scene in place (the decoding is `.scene`): the scene is taken out of `self`, not
    /// copied, and put back.
    fileprivate mutating func decodeScene<R>(_ body: (inout Scene) -> R) -> R {
        guard case .scene(var s) = consume self else { preconditionFailure("decodeScene on .invalid") }
        defer { self = .scene(s) }
        return body(&s)
    }
}

/// Fields the matrix endpoint and the CLI (`--device --posture --orientation`) set on a request before it
/// is decoded: patching the JSON and decoding again re-runs every validation (a window that no longer fits
/// the new display is reported at `/window`, exactly as if the client had sent it).
public struct SceneOverrides: Sendable, Equatable {
    public var device: String?
    public var posture: Posture?
    public var orientation: Orientation?
    public var layoutDirection: LayoutDirection?
    public init(
        device: String? = nil, posture: Posture? = nil, orientation: Orientation? = nil,
        layoutDirection: LayoutDirection? = nil
    ) {
        self.device = device
        self.posture = posture
        self.orientation = orientation
        self.layoutDirection = layoutDirection
    }

    /// `value` with the overridden top-level members replaced (non-objects are returned unchanged, and
    /// decoding reports them).
    public func apply(to value: JSONValue) -> JSONValue {
        guard case .object(var o) = value else { return value }
        if let device { o["device"] = .string(device) }
        if let posture { o["posture"] = .string(posture.rawValue) }
        if let orientation { o["orientation"] = .string(orientation.rawValue) }
        if let layoutDirection { o["layoutDirection"] = .string(layoutDirection.rawValue) }
        return .object(o)
    }
}

extension Scene {
    /// Decodes and validates a request body (docs/rules.md#validation). Collects every violation with its
    /// pointer; members no rule reads are reported as unknown fields.
    public static func decode(
        _ value: JSONValue, catalog: any DeviceCatalog, overrides: SceneOverrides? = nil
    ) -> SceneDecoding {
        decode(JSONDocument(overrides?.apply(to: value) ?? value).root, catalog: catalog)
    }

    /// Decodes a request straight from its parsed document (`JSONParser.document`): the service's path, which
    /// never builds a `JSONValue` tree.
    ///
    /// Most requests are valid and name only known members, so the first pass is quiet (`JSONMapper(recording:
    /// false)`): it keeps no locations or keys asked. Only a request in which it counts an error or an unknown
    /// field is decoded again, by a recording mapper, and that second pass alone gives the result. A request of
    /// more than `quietPassNodeLimit` nodes is decoded by the recording pass alone: a document that large is
    /// more often one of thousands of unknown members than a scene, and every look-up walks them in each pass.
    /// `quietPass: false` skips the quiet pass: the caller knows the request has an error or an unknown member
    /// (the one-pass reader read it and declined it, docs/rules.md#one-pass); the result is the same.
    public static func decode(_ value: JSONNode, catalog: any DeviceCatalog, quietPass: Bool = true) -> SceneDecoding {
        // Decoded in place, inside the result that is returned: a copy of a Scene moves all its bytes and retains
        // every member (`.scene(scene)` from a local copied it).
        var result = SceneDecoding.scene(Scene())
        if quietPass && value.nodeCount <= quietPassNodeLimit {
            if decode(value, catalog: catalog, mapper: JSONMapper(recording: false), into: &result) { return result }
            result = .scene(Scene())
        }
        let mapper = JSONMapper()
        if decode(value, catalog: catalog, mapper: mapper, into: &result) { return result }
        return .invalid(errors: mapper.errors, unknownFields: mapper.unknownFields)
    }

    /// Nodes (`JSONNode.nodeCount`) above which a request skips the quiet pass. The typical scene of the
    /// benchmarks has 68, one of 50 presentations 656.
    static let quietPassNodeLimit = 2_048

    /// One pass of `decode(_:catalog:)` with `mapper` into `result` (a `.scene` of a fresh `Scene()`): true when
    /// the pass found no error, and, for a quiet mapper, no unknown field either (a recording mapper makes them
    /// the scene's).
    private static func decode(
        _ value: JSONNode, catalog: any DeviceCatalog, mapper: JSONMapper, into result: inout SceneDecoding
    ) -> Bool {
        result.decodeScene { scene in
            guard SceneDecoder(mapper: mapper, catalog: catalog).decode(value, into: &scene), mapper.errorCount == 0,
                mapper.recording || mapper.unknownCount == 0
            else { return false }
            scene.unknownFields = mapper.unknownFields
            return true
        }
    }

    /// The same scene with device, posture, orientation or layout direction replaced, validated again.
    /// Works on the decoded value (for callers that no longer hold the JSON); prefer
    /// `decode(_:catalog:overrides:)` when they do, since its error paths point into the request.
    public func with(_ overrides: SceneOverrides, catalog: any DeviceCatalog) -> SceneDecoding {
        var s = self
        if let d = overrides.device {
            guard let p = catalog.profile(id: d) else {
                return .invalid(
                    errors: [JSONIssue(path: JSONPointer(["device"]), message: "unknown device \"\(d)\"")],
                    unknownFields: unknownFields)
            }
            s.deviceID = d
            s.profile = p
            if s.fold != nil {
                return .invalid(
                    errors: [
                        JSONIssue(
                            path: JSONPointer(["fold"]),
                            message: "a scene with a device takes its fold from the device profile; remove \"fold\"")
                    ], unknownFields: unknownFields)
            }
        }
        if let p = overrides.posture { s.posture = p }
        if let o = overrides.orientation { s.orientation = o }
        if let l = overrides.layoutDirection { s.layoutDirection = l }
        let mapper = JSONMapper()
        SceneDecoder(mapper: mapper, catalog: catalog).validateEnvironment(&s)
        if mapper.errorCount == 0 { return .scene(s) }
        return .invalid(errors: mapper.errors, unknownFields: unknownFields)
    }
}

/// One decoding pass over a request.
struct SceneDecoder {
    let mapper: JSONMapper
    let catalog: any DeviceCatalog

    /// Decodes `value` into `s` (a fresh `Scene()`); false when the root is not an object.
    func decode(_ value: JSONNode, into s: inout Scene) -> Bool {
        guard var r = mapper.object(value, at: .root) else { return false }
        if let id = r.string("device", length: 1...128) {
            s.deviceID = id
            s.profile = catalog.profile(id: id)
            if s.profile == nil {
                r.error("device", "unknown device \"\(id)\" (`GET /v1/devices` or `hinge devices` lists the known ids)")
            }
        }
        s.displayID = r.string("display", length: 1...64)
        s.orientation = r.enumeration("orientation") ?? .portrait
        s.posture = r.enumeration("posture") ?? .flat
        s.layoutDirection = r.enumeration("layoutDirection") ?? .ltr
        s.dynamicTypeSize = r.enumeration("dynamicTypeSize") ?? .large
        if var w = r.object("window") {
            let width = w.number("width", required: true, range: SceneLimits.size)
            let height = w.number("height", required: true, range: SceneLimits.size)
            let x = w.number("x", range: SceneLimits.coordinate) ?? 0
            let y = w.number("y", range: SceneLimits.coordinate) ?? 0
            w.finish()
            if let width, let height { s.window = WindowRequest(x: x, y: y, width: width, height: height) }
        } else if s.deviceID == nil {
            // A misspelt "device" is the likely cause: the error names it first (it is also an unknown field).
            if let typo = r.unreadMember(typoOf: "device") {
                mapper.error(
                    r.path.appending(typo),
                    "unknown field \"\(typo)\": did you mean \"device\"? Without a device, \"window\" is required")
            } else {
                r.error("window", "is required when no device is given")
            }
        }
        if let v = r.value("safeArea") {
            if var i = mapper.object(v, at: r.location("safeArea")) {
                s.safeArea = Insets(
                    top: i.number("top", range: SceneLimits.inset) ?? 0,
                    leading: i.number("leading", range: SceneLimits.inset) ?? 0,
                    bottom: i.number("bottom", range: SceneLimits.inset) ?? 0,
                    trailing: i.number("trailing", range: SceneLimits.inset) ?? 0)
                i.finish()
            }
        }
        if let v = r.value("sizeClass") {
            s.sizeClass = SizeClassPair.decode(v, mapper: mapper, at: r.pointer("sizeClass"))
        }
        if let v = r.value("fold") {
            if s.deviceID != nil {
                r.error("fold", "a scene with a device takes its fold from the device profile; remove \"fold\"")
            } else {
                s.fold = Fold.decode(v, mapper: mapper, at: r.pointer("fold"))
            }
        }
        if let v = r.value("constants") {
            s.constants = Constants.decode(
                v, mapper: mapper, at: r.pointer("constants"), given: &s.overriddenConstants)
        }
        if let text = r.string("constantSet", length: 1...ConstantSetReference.maxLength) {
            s.constantSet = ConstantSetReference(text)
            if s.constantSet == nil {
                r.error(
                    "constantSet",
                    "expected \"default\", a constant set's name or name@version (letters, digits, '-', '_' and '.', "
                        + "then '@' and a positive number); GET /v1/constant-sets lists the sets")
            }
        }
        if let items = r.elements("presentations", maxCount: SceneLimits.maxPresentations) {
            var ids = PresentationIDs()
            s.presentations.reserveCapacity(items.count)
            for (index, v) in items.enumerated() {
                let p = r.location("presentations", index: index)
                guard let pr = decodePresentation(v, at: p, ids: ids) else { continue }
                if let first = ids[pr.id] {
                    mapper.error(p, member: "id", "duplicate id \"\(pr.id)\" (already used by /presentations/\(first))")
                } else {
                    ids.insert(pr.id, at: index)
                }
                s.presentations.append(pr)
            }
        }
        if let v = r.value("arrangement") {
            var a = ArrangementRequest()
            if ArrangementRequest.decode(v, into: &a, mapper: mapper, at: r.location("arrangement")) {
                s.arrangement = a
            }
        }
        r.finish()
        validateEnvironment(&s)
        return true
    }

    /// Checks that depend on the device and orientation (docs/rules.md#window, docs/rules.md#fold-outside-window); also
    /// run by `Scene.with`.
    func validateEnvironment(_ s: inout Scene) {
        if s.profile == nil, s.displayID != nil, s.deviceID == nil {
            mapper.error(JSONPointer(["display"]), "a display can only be chosen together with a device")
        }
        if let profile = s.profile {
            if let d = s.displayID, profile.display(id: d) == nil {
                let known = profile.displays.map { "\"\($0.id)\"" }.joined(separator: ", ")
                mapper.error(
                    JSONPointer(["display"]), "device \"\(profile.id)\" has no display \"\(d)\" (it has \(known))")
            } else if let w = s.window, let display = EnvironmentResolver.display(of: s) {
                let (dw, dh) =
                    s.orientation == .landscape ? (display.height, display.width) : (display.width, display.height)
                let eps = 1e-9
                if w.x < -eps || w.y < -eps || w.x + w.width > dw + eps || w.y + w.height > dh + eps {
                    mapper.error(
                        JSONPointer(["window"]),
                        "a \(fmt(w.width))×\(fmt(w.height)) window at (\(fmt(w.x)), \(fmt(w.y))) does not fit inside the "
                            + "\(fmt(dw))×\(fmt(dh)) \(s.orientation.rawValue) display \"\(display.id)\"")
                }
            }
        } else if s.deviceID == nil, s.window == nil {
            // reported by decode
        }
        if s.profile == nil, let fold = s.fold, let w = s.window {
            let extent = fold.orientation == .vertical ? w.width : w.height
            if !(fold.position > 0 && fold.position < extent) {
                mapper.error(
                    JSONPointer(["fold", "position"]),
                    "the fold line must cross the window (0 < position < \(fmt(extent))), is \(fmt(fold.position))")
            }
        }
    }

    private func decodePresentation(_ value: JSONNode, at path: JSONLocation, ids: PresentationIDs) -> Presentation? {
        let before = mapper.errorCount
        guard var r = mapper.object(value, at: path) else { return nil }
        let id = r.string("id", required: true, length: SceneLimits.idLength)
        let kind: Presentation.Kind? = r.enumeration("kind", required: true)
        var presentedFrom: Int?
        if let from = r.string("presentedFrom", length: SceneLimits.idLength) {
            if let i = ids[from] {
                presentedFrom = i
            } else if from == id {
                r.error("presentedFrom", "a presentation cannot present itself")
            } else {
                r.error(
                    "presentedFrom", "\"\(from)\" is not the id of an earlier presentation; list the presenter first")
            }
        }
        var intent: Intent?
        if var i = r.object("intent") {
            intent = Intent(
                hasDecision: i.bool("hasDecision"), abandonableWithoutCost: i.bool("abandonableWithoutCost"))
            i.finish()
        }
        var stray: SheetPlacement?
        var content: Presentation.Content?
        switch kind {
        case .sheet?:
            content = decodeSheet(&r).map { .sheet($0) }
        case .fullScreenCover?:
            stray = r.enumeration("placement")
            content = .fullScreenCover
        case .popover?:
            stray = r.enumeration("placement")
            content = decodePopover(&r).map { .popover($0) }
        case .adaptivePanel?:
            stray = r.enumeration("placement")
            content = decodePanel(&r).map { .adaptivePanel($0) }
        case nil:
            break
        }
        // A kind that is given but unknown leaves the members a presentation may have unknown too: listing
        // them (`detents` of a "sheeet") would only hide the one error that matters.
        if kind != nil || !r.contains("kind") { r.finish() }
        guard mapper.errorCount == before, let id, let content else {
            // Keep the id so that later presentations can still name this one without a spurious error.
            if let id, kind != nil {
                return Presentation(
                    id: id, content: content ?? .fullScreenCover, presentedFrom: presentedFrom, intent: intent)
            }
            return nil
        }
        var p = Presentation(id: id, content: content, presentedFrom: presentedFrom, intent: intent)
        p.strayPlacement = stray
        return p
    }

    private func decodeSheet(_ r: inout ObjectReader) -> SheetRequest? {
        let before = mapper.errorCount
        var s = SheetRequest()
        s.placement = r.enumeration("placement") ?? .automatic
        s.sizing = r.enumeration("sizing") ?? .automatic
        s.contentSize = decodeSize(&r, "contentSize")
        if let items = r.elements("detents", maxCount: SceneLimits.maxDetents) {
            if items.isEmpty { r.error("detents", "must list at least one detent (omit it for [\"large\"])") }
            var detents: [Detent] = []
            detents.reserveCapacity(items.count)
            for (i, v) in items.enumerated() {
                let p = r.location("detents", index: i)
                if let d = Detent.decode(v, mapper: mapper, at: p) {
                    if d == .fitted, s.contentSize == nil {
                        mapper.error(p, "a fitted detent needs the measured \"contentSize\" (its height)")
                    }
                    detents.append(d)
                }
            }
            if !items.isEmpty { s.detents = detents }
        }
        if let v = r.value("selectedDetent"), let d = Detent.decode(v, mapper: mapper, at: r.location("selectedDetent"))
        {
            if s.detents.contains(d) {
                s.selectedDetent = d
            } else {
                r.error("selectedDetent", "\(d.text) is not one of the sheet's detents")
            }
        }
        if let v = r.value("backgroundInteraction") {
            let p = r.location("backgroundInteraction")
            if v.isString("disabled") {
                s.backgroundInteraction = .disabled
            } else if v.isString("enabled") {
                s.backgroundInteraction = .enabled
            } else if v.isObject {
                if var o = mapper.object(v, at: p) {
                    if let dv = o.value("upThrough") {
                        if let d = Detent.decode(dv, mapper: mapper, at: o.location("upThrough")) {
                            if d == .fitted, s.contentSize == nil {
                                o.error("upThrough", "a fitted detent needs the measured \"contentSize\" (its height)")
                            }
                            s.backgroundInteraction = .upThrough(d)
                        }
                    } else {
                        o.error("upThrough", "is required")
                    }
                    o.finish()
                }
            } else {
                mapper.error(p, "expected \"disabled\", \"enabled\" or {\"upThrough\": <detent>}")
            }
        }
        s.interactiveDismissDisabled = r.bool("interactiveDismissDisabled") ?? false
        s.hasUnsavedChanges = r.bool("hasUnsavedChanges") ?? false
        s.dragIndicator = r.enumeration("dragIndicator") ?? .automatic
        s.cornerRadius = r.number("cornerRadius", range: 0...10_000)
        if let items = r.elements("toolbar", maxCount: SceneLimits.maxToolbarItems) {
            var toolbar: [ToolbarItem] = []
            toolbar.reserveCapacity(items.count)
            for (i, v) in items.enumerated() {
                guard var o = mapper.object(v, at: r.location("toolbar", index: i)) else { continue }
                let item = ToolbarItem(
                    title: o.string("title", length: SceneLimits.textLength),
                    systemImage: o.string("systemImage", length: SceneLimits.textLength),
                    placement: o.enumeration("placement") ?? .automatic)
                o.finish()
                toolbar.append(item)
            }
            s.toolbar = toolbar
        }
        s.contentScrollable = r.bool("contentScrollable") ?? false
        s.edgeAttachedInCompactHeight = r.bool("edgeAttachedInCompactHeight") ?? false
        s.widthFollowsContentSize = r.bool("widthFollowsContentSize") ?? false
        if s.sizing == .fitted, s.contentSize == nil {
            r.error("sizing", "fitted sizing needs the measured \"contentSize\"")
        }
        return mapper.errorCount == before ? s : nil
    }

    private func decodePopover(_ r: inout ObjectReader) -> PopoverRequest? {
        let before = mapper.errorCount
        var anchor: Rect?
        if var a = r.object("anchor", required: true) {
            let x = a.number("x", required: true, range: SceneLimits.coordinate)
            let y = a.number("y", required: true, range: SceneLimits.coordinate)
            let w = a.number("width", range: 0...100_000) ?? 0
            let h = a.number("height", range: 0...100_000) ?? 0
            a.finish()
            if let x, let y { anchor = Rect(x: x, y: y, width: w, height: h) }
        }
        let arrowEdge: ArrowEdge = r.enumeration("arrowEdge") ?? .top
        let contentSize = decodeSize(&r, "contentSize")
        let adaptation: CompactAdaptation = r.enumeration("compactAdaptation") ?? .automatic
        guard mapper.errorCount == before, let anchor else { return nil }
        var p = PopoverRequest(anchor: anchor)
        p.arrowEdge = arrowEdge
        p.contentSize = contentSize
        p.compactAdaptation = adaptation
        return p
    }

    private func decodePanel(_ r: inout ObjectReader) -> PanelRequest? {
        let before = mapper.errorCount
        var p = PanelRequest()
        p.breakpoint = r.number("breakpoint", range: 0...100_000)
        p.alignment = r.enumeration("alignment") ?? .trailing
        p.panelWidth = r.number("panelWidth", range: SceneLimits.size)
        p.panelHeight = r.number("panelHeight", range: SceneLimits.size)
        p.modal = r.bool("modal") ?? false
        p.cornerRadius = r.number("cornerRadius", range: 0...10_000)
        return mapper.errorCount == before ? p : nil
    }

    private func decodeSize(_ r: inout ObjectReader, _ key: StaticString) -> Size? {
        guard var o = r.object(key) else { return nil }
        let w = o.number("width", required: true, range: 0...100_000)
        let h = o.number("height", required: true, range: 0...100_000)
        o.finish()
        guard let w, let h else { return nil }
        return Size(width: w, height: h)
    }
}

@inline(__always)
func fmt(_ d: Double) -> String { JSONWriter.formatNumber(d) }

// MARK: - Enumerations matched by their bytes

extension Orientation: JSONStringEnumeration { public static let jsonNames = JSONNames(Orientation.self) }
extension Posture: JSONStringEnumeration { public static let jsonNames = JSONNames(Posture.self) }
extension LayoutDirection: JSONStringEnumeration { public static let jsonNames = JSONNames(LayoutDirection.self) }
extension DynamicTypeSize: JSONStringEnumeration { public static let jsonNames = JSONNames(DynamicTypeSize.self) }
extension Presentation.Kind: JSONStringEnumeration { public static let jsonNames = JSONNames(Presentation.Kind.self) }
extension SheetPlacement: JSONStringEnumeration { public static let jsonNames = JSONNames(SheetPlacement.self) }
extension SheetSizing: JSONStringEnumeration { public static let jsonNames = JSONNames(SheetSizing.self) }
extension DragIndicator: JSONStringEnumeration { public static let jsonNames = JSONNames(DragIndicator.self) }
extension ToolbarPlacement: JSONStringEnumeration { public static let jsonNames = JSONNames(ToolbarPlacement.self) }
extension ArrowEdge: JSONStringEnumeration { public static let jsonNames = JSONNames(ArrowEdge.self) }
extension CompactAdaptation: JSONStringEnumeration {
    public static let jsonNames = JSONNames(CompactAdaptation.self)
}
extension PanelAlignment: JSONStringEnumeration { public static let jsonNames = JSONNames(PanelAlignment.self) }
extension ArrangementStyle: JSONStringEnumeration { public static let jsonNames = JSONNames(ArrangementStyle.self) }
extension ArrangementContainer: JSONStringEnumeration {
    public static let jsonNames = JSONNames(ArrangementContainer.self)
}
extension Edge: JSONStringEnumeration { public static let jsonNames = JSONNames(Edge.self) }
extension DeviceProfile.Kind: JSONStringEnumeration { public static let jsonNames = JSONNames(DeviceProfile.Kind.self) }
extension SizeClass: JSONStringEnumeration { public static let jsonNames = JSONNames(SizeClass.self) }
extension Axis: JSONStringEnumeration { public static let jsonNames = JSONNames(Axis.self) }
