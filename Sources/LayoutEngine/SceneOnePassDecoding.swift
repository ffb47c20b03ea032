import JSON

// The one-pass decoding of a valid request (docs/rules.md#one-pass): the bytes read front to back into a
// `Scene`, with no parsed document in between. It answers only when it is sure; anything else goes to the
// general decoder (SceneDecoding.swift), which alone reports problems. The scene's members are here, its
// presentations in SceneOnePassDecoding+Presentations.swift, its arrangement in
// SceneOnePassDecoding+Arrangement.swift.

extension Scene {
    /// The scene of `body` when the body is a valid request without a backslash. Nil for anything else — an
    /// error, an unknown or repeated member, an escape — and the caller then decodes the body with
    /// `JSONParser.document` and `Scene.decode(_:catalog:quietPass:)`, which give the same scene for every
    /// body this accepts (`SceneOnePassTests` compare them) and report what is wrong with the others.
    ///
    /// Each rule the general decoder applies to a member is applied here too, as a condition to answer at
    /// all; the ranges and lengths are the same constants (`SceneLimits`). Checks that depend on the device
    /// are the general decoder's own (`SceneDecoder.validateEnvironment`).
    public static func decodeInOnePass(_ body: UnsafeBufferPointer<UInt8>, catalog: any DeviceCatalog) -> Scene? {
        var d = OnePassSceneDecoder(r: JSONStreamReader(body))
        guard let scene = d.scene(catalog: catalog), d.r.atEnd() else { return nil }
        return scene
    }
}

/// The members an object has had so far, one bit each, so that a repeated member (which the parser refuses)
/// is noticed.
struct SeenMembers {
    var bits: UInt32 = 0

    /// Notes member `bit`; false (and the reader fails) when it was there already.
    @inline(__always)
    mutating func note(_ bit: UInt32, _ r: inout JSONStreamReader) -> Bool {
        if bits & (1 << bit) != 0 {
            r.fail()
            return false
        }
        bits |= 1 << bit
        return true
    }

    func has(_ bit: UInt32) -> Bool { bits & (1 << bit) != 0 }
}

/// Whether `key` is `name`, byte for byte.
@inline(__always)
func matches(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    guard key.count == name.utf8CodeUnitCount else { return false }
    var k = 0
    while k < key.count {
        if key[k] != name.utf8Start[k] { return false }
        k &+= 1
    }
    return true
}

struct OnePassSceneDecoder {
    var r: JSONStreamReader

    // MARK: Values

    /// A number in `range`; nil for `null` (the member is absent). Out of range fails.
    mutating func number(_ range: ClosedRange<Double>) -> Double? {
        guard let d = r.number() else { return nil }
        if !range.contains(d) { r.fail() }
        return d
    }

    /// A number in `range` that must be there (`null` fails).
    mutating func requiredNumber(_ range: ClosedRange<Double>) -> Double {
        guard let d = number(range) else {
            r.fail()
            return 0
        }
        return d
    }

    /// A string whose length in characters lies in `length` (its length in bytes when it is ASCII).
    mutating func string(_ length: ClosedRange<Int>) -> String? {
        guard let bytes = r.stringBytes() else { return nil }
        let s = JSONStreamReader.string(bytes)
        if !length.contains(r.lastStringIsASCII ? bytes.count : s.count) { r.fail() }
        return s
    }

    /// One of `E`'s raw values; nil for `null`. Any other string fails.
    mutating func enumeration<E: JSONStringEnumeration>(_: E.Type = E.self) -> E? {
        guard let bytes = r.stringBytes() else { return nil }
        guard let k = E.jsonNames.ordinal(of: bytes) else {
            r.fail()
            return nil
        }
        let cases = E.allCases
        return cases[cases.index(cases.startIndex, offsetBy: k)]
    }

    /// `{"width", "height"}`, both required, 0…100,000 (`decodeSize`); nil for `null`.
    mutating func size() -> Size? {
        guard r.beginObject() else { return nil }
        var width: Double?
        var height: Double?
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "width"), seen.note(0, &r) {
                width = number(0...100_000)
            } else if matches(k, "height"), seen.note(1, &r) {
                height = number(0...100_000)
            } else {
                r.fail()
            }
        }
        guard let width, let height else {
            r.fail()
            return nil
        }
        return Size(width: width, height: height)
    }

    /// A detent (`Detent.decode`): a name, or an object of exactly one of `height` and `fraction`. `null`
    /// fails, as it does there.
    mutating func detent() -> Detent? {
        if r.peek() == UInt8(ascii: "{") {
            _ = r.beginObject()
            var first = true
            var d: Detent?
            if let k = r.nextKey(&first) {
                if matches(k, "height"), let h = number(SceneLimits.size) {
                    d = .height(h)
                } else if matches(k, "fraction"), let f = number(0...1), f > 0 {
                    d = .fraction(f)
                }
            }
            if d == nil || r.nextKey(&first) != nil { r.fail() }
            return r.failed ? nil : d
        }
        guard let bytes = r.stringBytes() else {
            r.fail()
            return nil
        }
        if matches(bytes, "medium") { return .medium }
        if matches(bytes, "large") { return .large }
        if matches(bytes, "fitted") { return .fitted }
        r.fail()
        return nil
    }

    // MARK: The scene

    mutating func scene(catalog: any DeviceCatalog) -> Scene? {
        guard r.beginObject() else { return nil }
        var s = Scene()
        var seen = SeenMembers()
        var ids = PresentationIDs()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "device"), seen.note(0, &r) {
                if let id = string(1...128) {
                    s.deviceID = id
                    s.profile = catalog.profile(id: id)
                    if s.profile == nil { r.fail() }
                }
            } else if matches(k, "display"), seen.note(1, &r) {
                s.displayID = string(1...64)
            } else if matches(k, "orientation"), seen.note(2, &r) {
                s.orientation = enumeration() ?? .portrait
            } else if matches(k, "posture"), seen.note(3, &r) {
                s.posture = enumeration() ?? .flat
            } else if matches(k, "layoutDirection"), seen.note(4, &r) {
                s.layoutDirection = enumeration() ?? .ltr
            } else if matches(k, "dynamicTypeSize"), seen.note(5, &r) {
                s.dynamicTypeSize = enumeration() ?? .large
            } else if matches(k, "window"), seen.note(6, &r) {
                s.window = window()
            } else if matches(k, "safeArea"), seen.note(7, &r) {
                s.safeArea = safeArea()
            } else if matches(k, "presentations"), seen.note(8, &r) {
                presentations(into: &s.presentations, ids: &ids)
            } else if matches(k, "arrangement"), seen.note(9, &r) {
                if r.beginObject() { s.arrangement = arrangement() }
            } else if matches(k, "sizeClass"), seen.note(10, &r) {
                if r.beginObject() { s.sizeClass = sizeClass() }
            } else if matches(k, "fold"), seen.note(11, &r) {
                if r.beginObject() { s.fold = fold() }
            } else if matches(k, "constants"), seen.note(12, &r) {
                if r.beginObject() { constants(into: &s.constants, given: &s.overriddenConstants) }
            } else if matches(k, "constantSet"), seen.note(13, &r) {
                if let text = string(1...ConstantSetReference.maxLength) {
                    s.constantSet = ConstantSetReference(text)
                    if s.constantSet == nil { r.fail() }
                }
            } else {
                r.fail()
            }
            if r.failed { return nil }
        }
        // A window is required without a device; a fold is the device's when there is one.
        if s.window == nil && s.deviceID == nil { r.fail() }
        if s.fold != nil && s.deviceID != nil { r.fail() }
        guard !r.failed else { return nil }
        let mapper = JSONMapper(recording: false)
        SceneDecoder(mapper: mapper, catalog: catalog).validateEnvironment(&s)
        return mapper.errorCount == 0 ? s : nil
    }

    mutating func window() -> WindowRequest? {
        guard r.beginObject() else { return nil }
        var w = WindowRequest(width: 0, height: 0)
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "width"), seen.note(0, &r) {
                w.width = requiredNumber(SceneLimits.size)
            } else if matches(k, "height"), seen.note(1, &r) {
                w.height = requiredNumber(SceneLimits.size)
            } else if matches(k, "x"), seen.note(2, &r) {
                w.x = number(SceneLimits.coordinate) ?? 0
            } else if matches(k, "y"), seen.note(3, &r) {
                w.y = number(SceneLimits.coordinate) ?? 0
            } else {
                r.fail()
            }
        }
        if !seen.has(0) || !seen.has(1) { r.fail() }
        return w
    }

    mutating func safeArea() -> Insets? {
        guard r.beginObject() else { return nil }
        var i = Insets()
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "top"), seen.note(0, &r) {
                i.top = number(SceneLimits.inset) ?? 0
            } else if matches(k, "leading"), seen.note(1, &r) {
                i.leading = number(SceneLimits.inset) ?? 0
            } else if matches(k, "bottom"), seen.note(2, &r) {
                i.bottom = number(SceneLimits.inset) ?? 0
            } else if matches(k, "trailing"), seen.note(3, &r) {
                i.trailing = number(SceneLimits.inset) ?? 0
            } else {
                r.fail()
            }
        }
        return i
    }

    /// `sizeClass`, the object opened (`SizeClassPair.decode`): both members required.
    mutating func sizeClass() -> SizeClassPair? {
        var horizontal: SizeClass?
        var vertical: SizeClass?
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "horizontal"), seen.note(0, &r) {
                horizontal = enumeration()
            } else if matches(k, "vertical"), seen.note(1, &r) {
                vertical = enumeration()
            } else {
                r.fail()
            }
        }
        guard let horizontal, let vertical else {
            r.fail()
            return nil
        }
        return SizeClassPair(horizontal: horizontal, vertical: vertical)
    }

    /// A scene's own `fold`, the object opened (`Fold.decode`): `orientation` and `position` required.
    mutating func fold() -> Fold? {
        var orientation: Axis?
        var position: Double?
        var thickness = 0.0
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            if matches(k, "orientation"), seen.note(0, &r) {
                orientation = enumeration()
            } else if matches(k, "position"), seen.note(1, &r) {
                position = r.number()
            } else if matches(k, "thickness"), seen.note(2, &r) {
                thickness = number(0...10_000) ?? 0
            } else {
                r.fail()
            }
        }
        guard let orientation, let position else {
            r.fail()
            return nil
        }
        return Fold(orientation: orientation, position: position, thickness: thickness)
    }

    /// `constants`, the object opened (`Constants.decode`): each member one of `Constants.definitions`, a
    /// number in its range.
    mutating func constants(into c: inout Constants, given: inout UInt32) {
        var seen = SeenMembers()
        var first = true
        while let k = r.nextKey(&first) {
            guard
                let i = Constants.definitions.firstIndex(where: { $0.key.utf8.elementsEqual(k) }), i < 32,
                seen.note(UInt32(i), &r), let v = number(Constants.definitions[i].range)
            else {
                r.fail()
                return
            }
            c[keyPath: Constants.definitions[i].keyPath] = v
            given |= 1 << UInt32(i)
        }
    }
}
