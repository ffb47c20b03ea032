import JSON

/// A device profile (docs/rules.md#device-profiles): the displays a device has, their safe areas, fold and size-class
/// table. Built-in profiles ship with the Store; users add their own through `PUT /v1/devices/{id}`.
public struct DeviceProfile: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case phone, tablet, foldable, desktop }

    /// The fields, behind one immutable reference that copies share; changing a field makes a new one. A
    /// request copies its profile several times (out of the catalog, into the scene, out of the scene's
    /// `Optional` where a rule reads it): a copy of the fields themselves retained each of the three
    /// reference-counted ones through the runtime's generic `Optional` witnesses, about 1,600 instructions per
    /// typical decode (callgrind); a copy of the reference is one retain.
    struct Fields: Sendable, Equatable {
        var id: String
        var name: String
        var kind: Kind
        var displays: [Display]
        var regularWidthMin: Double
        var regularHeightMin: Double
        var builtIn: Bool
        var illustrative: Bool
    }

    final class Shared: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var shared: Shared

    /// Changes one field: the profile gets fields of its own (profiles are changed rarely, read per request).
    private mutating func change(_ body: (inout Fields) -> Void) {
        var f = shared.fields
        body(&f)
        shared = Shared(f)
    }

    // The reference-counted fields are yielded (`_read`), not returned: a rule that reads
    // `profile.displays[i].width` borrows the array instead of retaining and releasing it.
    public var id: String {
        _read { yield shared.fields.id }
        set { change { $0.id = newValue } }
    }
    public var name: String {
        _read { yield shared.fields.name }
        set { change { $0.name = newValue } }
    }
    public var kind: Kind {
        get { shared.fields.kind }
        set { change { $0.kind = newValue } }
    }
    public var displays: [Display] {
        _read { yield shared.fields.displays }
        set { change { $0.displays = newValue } }
    }
    /// docs/rules.md#size-classes: thresholds for windows that are not the whole display.
    public var regularWidthMin: Double {
        get { shared.fields.regularWidthMin }
        set { change { $0.regularWidthMin = newValue } }
    }
    public var regularHeightMin: Double {
        get { shared.fields.regularHeightMin }
        set { change { $0.regularHeightMin = newValue } }
    }
    public var builtIn: Bool {
        get { shared.fields.builtIn }
        set { change { $0.builtIn = newValue } }
    }
    public var illustrative: Bool {
        get { shared.fields.illustrative }
        set { change { $0.illustrative = newValue } }
    }

    public init(
        id: String, name: String, kind: Kind, displays: [Display], regularWidthMin: Double = 600,
        regularHeightMin: Double = 500, builtIn: Bool = false, illustrative: Bool = false
    ) {
        shared = Shared(
            Fields(
                id: id, name: name, kind: kind, displays: displays, regularWidthMin: regularWidthMin,
                regularHeightMin: regularHeightMin, builtIn: builtIn, illustrative: illustrative))
    }

    public static func == (a: DeviceProfile, b: DeviceProfile) -> Bool {
        a.shared === b.shared || a.shared.fields == b.shared.fields
    }

    /// True when some display has a fold: only such devices honour `posture` (docs/rules.md#posture).
    public var folds: Bool {
        for i in displays.indices where displays[i].fold != nil { return true }
        return false
    }

    public func display(id: String) -> Display? { displayIndex(id: id).map { displays[$0] } }

    /// The index of display `id` in `displays` (compares the ids in place, copying no display).
    func displayIndex(id: String) -> Int? {
        for i in displays.indices where displays[i].id == id { return i }
        return nil
    }
}

public struct Insets: Sendable, Equatable {
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public static let zero = Insets()
}

public enum SizeClass: String, Sendable, CaseIterable { case compact, regular }

public struct SizeClassPair: Sendable, Equatable {
    public var horizontal: SizeClass
    public var vertical: SizeClass
    public init(horizontal: SizeClass, vertical: SizeClass) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

public enum Axis: String, Sendable, CaseIterable { case horizontal, vertical }

/// A fold line in the display's portrait coordinates (docs/rules.md#fold), or in window coordinates when a scene
/// without a device gives it directly.
public struct Fold: Sendable, Equatable {
    /// `vertical`: the fold line is vertical (position is an x); `horizontal`: position is a y.
    public var orientation: Axis
    public var position: Double
    /// The occluded hinge band; 0 for a seamless folding screen.
    public var thickness: Double
    public init(orientation: Axis, position: Double, thickness: Double = 0) {
        self.orientation = orientation
        self.position = position
        self.thickness = thickness
    }
}

public struct Display: Sendable, Equatable {
    public var id: String
    /// Portrait points.
    public var width: Double
    public var height: Double
    public var scale: Double
    public var cornerRadius: Double
    public var safeArea: Insets
    public var landscapeSafeArea: Insets
    public var fold: Fold?
    public var portraitSizeClass: SizeClassPair
    public var landscapeSizeClass: SizeClassPair

    public init(
        id: String, width: Double, height: Double, scale: Double, cornerRadius: Double, safeArea: Insets,
        landscapeSafeArea: Insets, fold: Fold? = nil, portraitSizeClass: SizeClassPair,
        landscapeSizeClass: SizeClassPair
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.scale = scale
        self.cornerRadius = cornerRadius
        self.safeArea = safeArea
        self.landscapeSafeArea = landscapeSafeArea
        self.fold = fold
        self.portraitSizeClass = portraitSizeClass
        self.landscapeSizeClass = landscapeSizeClass
    }
}

/// Where the engine finds device profiles by id. The Store implements it with an in-memory cache kept
/// coherent with SQLite; tests use `StaticDeviceCatalog`.
public protocol DeviceCatalog: Sendable {
    func profile(id: String) -> DeviceProfile?
    func allProfiles() -> [DeviceProfile]
}

public struct StaticDeviceCatalog: DeviceCatalog {
    public var profiles: [DeviceProfile]
    public init(_ profiles: [DeviceProfile]) { self.profiles = profiles }
    public func profile(id: String) -> DeviceProfile? { profiles.first { $0.id == id } }
    public func allProfiles() -> [DeviceProfile] { profiles }
}

// MARK: - JSON

extension DeviceProfile {
    /// Maps and validates a profile (docs/rules.md#device-profiles): positive finite sizes, insets that leave a
    /// positive area, a fold inside the display, unique display ids. Every violation is recorded in `mapper` with its
    /// path; the result is nil when there was any. `builtIn` in the body is ignored (the store decides it).
    public static func decode(_ value: JSONValue, mapper: JSONMapper, at path: JSONPointer = .root) -> DeviceProfile? {
        decode(JSONDocument(value).root, mapper: mapper, at: path)
    }

    /// `decode` from a parsed document.
    public static func decode(_ value: JSONNode, mapper: JSONMapper, at path: JSONPointer = .root) -> DeviceProfile? {
        let before = mapper.errorCount
        guard var r = mapper.object(value, at: path) else { return nil }
        let id = r.string("id", required: true, length: 1...128)
        if let id, !DeviceProfile.isValidID(id) {
            r.error(
                "id",
                id.utf8.allSatisfy { $0 == 0x2E }
                    ? "must not consist of dots only: '.' and '..' are path segments in a URL, not names"
                    : "may contain only letters, digits, '-', '_' and '.'")
        }
        let name = r.string("name", required: true, length: 1...200)
        let kind: Kind? = r.enumeration("kind", required: true)
        let regularWidthMin = r.number("regularWidthMin", positive: true) ?? 600
        let regularHeightMin = r.number("regularHeightMin", positive: true) ?? 500
        _ = r.bool("builtIn")
        let illustrative = r.bool("illustrative") ?? false
        var displays: [Display] = []
        if let items = r.array("displays", required: true, maxCount: 8) {
            if items.isEmpty { r.error("displays", "must list at least one display") }
            var seen: Set<String> = []
            for (v, p) in items {
                let thresholds = (width: regularWidthMin, height: regularHeightMin)
                if let d = Display.decode(v, mapper: mapper, at: p, derivingSizeClassesFrom: thresholds, ids: &seen) {
                    displays.append(d)
                }
            }
        }
        r.finish()
        guard mapper.errorCount == before, let id, let name, let kind else { return nil }
        return DeviceProfile(
            id: id, name: name, kind: kind, displays: displays, regularWidthMin: regularWidthMin,
            regularHeightMin: regularHeightMin, builtIn: false, illustrative: illustrative)
    }

    /// Letters, digits, `-`, `_` and `.`, 1…128 bytes, and not dots only (`/v1/devices/..` would name the
    /// parent path, and clients normalise `.`/`..` segments away before sending).
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && !id.utf8.allSatisfy({ $0 == 0x2E })
            && id.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F || c == 0x2E
            }
    }

    public var json: JSONValue {
        .object([
            "id": .string(id), "name": .string(name), "kind": .string(kind.rawValue),
            "displays": .array(displays.map(\.json)), "regularWidthMin": .number(regularWidthMin),
            "regularHeightMin": .number(regularHeightMin), "builtIn": .bool(builtIn),
            "illustrative": .bool(illustrative),
        ])
    }
}

extension Insets {
    static func decode(_ value: JSONNode, mapper: JSONMapper, at path: JSONPointer) -> Insets? {
        guard var r = mapper.object(value, at: path) else { return nil }
        let range = 0.0...100_000
        let i = Insets(
            top: r.number("top", range: range) ?? 0, leading: r.number("leading", range: range) ?? 0,
            bottom: r.number("bottom", range: range) ?? 0, trailing: r.number("trailing", range: range) ?? 0)
        r.finish()
        return i
    }

    public var json: JSONValue {
        .object([
            "top": .number(top), "leading": .number(leading), "bottom": .number(bottom),
            "trailing": .number(trailing),
        ])
    }
}

extension SizeClassPair {
    static func decode(_ value: JSONNode, mapper: JSONMapper, at path: JSONPointer) -> SizeClassPair? {
        guard var r = mapper.object(value, at: path) else { return nil }
        let h: SizeClass? = r.enumeration("horizontal", required: true)
        let v: SizeClass? = r.enumeration("vertical", required: true)
        r.finish()
        guard let h, let v else { return nil }
        return SizeClassPair(horizontal: h, vertical: v)
    }

    public var json: JSONValue {
        .object(["horizontal": .string(horizontal.rawValue), "vertical": .string(vertical.rawValue)])
    }
}

extension Fold {
    public static func decode(_ value: JSONNode, mapper: JSONMapper, at path: JSONPointer) -> Fold? {
        guard var r = mapper.object(value, at: path) else { return nil }
        let o: Axis? = r.enumeration("orientation", required: true)
        let p = r.number("position", required: true)
        let t = r.number("thickness", range: 0...10_000) ?? 0
        r.finish()
        guard let o, let p else { return nil }
        return Fold(orientation: o, position: p, thickness: t)
    }

    public var json: JSONValue {
        .object([
            "orientation": .string(orientation.rawValue), "position": .number(position),
            "thickness": .number(thickness),
        ])
    }
}

extension Display {
    /// The size classes of a display whose profile gives no `sizeClasses` table
    /// (docs/rules.md#derived-size-classes): the profile's thresholds applied to the whole display in each
    /// orientation, as for a resizable window.
    static func derivedSizeClasses(
        width: Double, height: Double, thresholds: (width: Double, height: Double)
    ) -> (portrait: SizeClassPair, landscape: SizeClassPair) {
        func pair(_ w: Double, _ h: Double) -> SizeClassPair {
            SizeClassPair(
                horizontal: w >= thresholds.width ? .regular : .compact,
                vertical: h >= thresholds.height ? .regular : .compact)
        }
        return (pair(width, height), pair(height, width))
    }

    /// Maps and validates one display; `ids` holds the display ids of the profile read so far (its own is added
    /// when valid, even when the display is not).
    static func decode(
        _ value: JSONNode, mapper: JSONMapper, at path: JSONPointer,
        derivingSizeClassesFrom thresholds: (width: Double, height: Double), ids: inout Set<String>
    ) -> Display? {
        let before = mapper.errorCount
        guard var r = mapper.object(value, at: path) else { return nil }
        let id = r.string("id", required: true, length: 1...64)
        // docs/rules.md#profile-violations: a repeated id is listed whatever else is wrong with either display.
        if let id, !ids.insert(id).inserted { r.error("id", "duplicate display id \"\(id)\"") }
        let size = 1.0...100_000
        let width = r.number("width", required: true, range: size)
        let height = r.number("height", required: true, range: size)
        let scale = r.number("scale", range: 0.5...10) ?? 1
        let cornerRadius = r.number("cornerRadius", range: 0...10_000) ?? 0
        let safe = r.value("safeArea").flatMap { Insets.decode($0, mapper: mapper, at: r.pointer("safeArea")) } ?? .zero
        let landscapeSafe =
            r.value("landscapeSafeArea").flatMap {
                Insets.decode($0, mapper: mapper, at: r.pointer("landscapeSafeArea"))
            } ?? safe
        let fold = r.value("fold").flatMap { Fold.decode($0, mapper: mapper, at: r.pointer("fold")) }
        var portrait: SizeClassPair?
        var landscape: SizeClassPair?
        let givesTable = r.contains("sizeClasses")
        if var sc = r.object("sizeClasses") {
            portrait = sc.value("portrait").flatMap {
                SizeClassPair.decode($0, mapper: mapper, at: sc.pointer("portrait"))
            }
            landscape = sc.value("landscape").flatMap {
                SizeClassPair.decode($0, mapper: mapper, at: sc.pointer("landscape"))
            }
            if !sc.contains("portrait") { sc.error("portrait", "is required") }
            if !sc.contains("landscape") { sc.error("landscape", "is required") }
            sc.finish()
        }
        r.finish()
        // docs/rules.md#device-profiles: insets must leave a positive area, in both orientations.
        if let width, let height {
            if safe.leading + safe.trailing >= width || safe.top + safe.bottom >= height {
                mapper.error(
                    path.appending("safeArea"),
                    "leaves no area inside a \(JSONWriter.formatNumber(width))×\(JSONWriter.formatNumber(height)) display"
                )
            }
            if landscapeSafe.leading + landscapeSafe.trailing >= height
                || landscapeSafe.top + landscapeSafe.bottom >= width
            {
                mapper.error(path.appending("landscapeSafeArea"), "leaves no area inside the landscape display")
            }
            if let fold {
                let extent = fold.orientation == .vertical ? width : height
                if fold.position - fold.thickness / 2 <= 0 || fold.position + fold.thickness / 2 >= extent {
                    mapper.error(
                        path.appending("fold").appending("position"),
                        "the fold must lie inside the display (0 < position ± thickness/2 < \(JSONWriter.formatNumber(extent)))"
                    )
                }
            }
        }
        if !givesTable, let width, let height {
            (portrait, landscape) = derivedSizeClasses(width: width, height: height, thresholds: thresholds)
        }
        guard mapper.errorCount == before, let id, let width, let height, let portrait, let landscape else {
            return nil
        }
        return Display(
            id: id, width: width, height: height, scale: scale, cornerRadius: cornerRadius, safeArea: safe,
            landscapeSafeArea: landscapeSafe, fold: fold, portraitSizeClass: portrait, landscapeSizeClass: landscape)
    }

    public var json: JSONValue {
        var o: JSONObject = [
            "id": .string(id), "width": .number(width), "height": .number(height), "scale": .number(scale),
            "cornerRadius": .number(cornerRadius), "safeArea": safeArea.json,
            "landscapeSafeArea": landscapeSafeArea.json,
            "sizeClasses": .object(["portrait": portraitSizeClass.json, "landscape": landscapeSizeClass.json]),
        ]
        if let fold { o["fold"] = fold.json }
        return .object(o)
    }
}
