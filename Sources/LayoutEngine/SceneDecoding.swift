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
    /// The scene of `body` when the body is a valid request without a backslash, read in one pass
    /// (docs/rules.md#one-pass): the scene reader over the quiet byte source. Nil for anything else — an error,
    /// an unknown or repeated member, an escape — and the caller then decodes the body with
    /// `JSONParser.document` and `Scene.decode(_:catalog:)`, the same reader over the reporting source, which gives
    /// the same scene for every body this accepts (`SceneOnePassTests` compare them) and reports what is wrong
    /// with the others.
    public static func decodeInOnePass(_ body: UnsafeBufferPointer<UInt8>, catalog: any DeviceCatalog) -> Scene? {
        var reader = SceneReader(src: QuietSource(r: JSONStreamReader(body)))
        var scene = Scene()
        guard reader.scene(into: &scene, catalog: catalog), reader.src.r.atEnd() else { return nil }
        return scene
    }

    /// Decodes and validates a request body (docs/rules.md#validation). Collects every violation with its
    /// pointer; members no rule reads are reported as unknown fields.
    ///
    /// The tree is written out and read by the quiet source first (the matrix decodes one request per
    /// combination, nearly always valid); only what it declines is read by the reporting source, which gives the
    /// same scene for everything the quiet source takes.
    public static func decode(
        _ value: JSONValue, catalog: any DeviceCatalog, overrides: SceneOverrides? = nil
    ) -> SceneDecoding {
        let request = overrides?.apply(to: value) ?? value
        let bytes = JSONWriter.encode(request)
        if let scene = bytes.withUnsafeBufferPointer({ decodeInOnePass($0, catalog: catalog) }) { return .scene(scene) }
        return decode(JSONDocument(request).root, catalog: catalog)
    }

    /// Decodes a request straight from its parsed document (`JSONParser.document`), in one pass of the scene reader
    /// over the reporting source: the service's path for a body the one-pass reader declined, which never builds
    /// a `JSONValue` tree.
    public static func decode(_ value: JSONNode, catalog: any DeviceCatalog) -> SceneDecoding {
        let mapper = JSONMapper()
        var reader = SceneReader(src: ReportingSource(value, mapper: mapper))
        var scene = Scene()
        guard reader.scene(into: &scene, catalog: catalog), mapper.errorCount == 0 else {
            return .invalid(errors: mapper.errors, unknownFields: mapper.unknownFields)
        }
        scene.unknownFields = mapper.unknownFields
        return .scene(scene)
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
        var reader = SceneReader(src: ReportingSource(JSONDocument(.null).root, mapper: mapper))
        reader.validateEnvironment(&s)
        if mapper.errorCount == 0 { return .scene(s) }
        return .invalid(errors: mapper.errors, unknownFields: unknownFields)
    }
}

@inline(__always)
func fmt(_ d: Double) -> String { JSONWriter.formatNumber(d) }
