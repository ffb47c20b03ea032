import JSON

// The scene reader: every member of a request declared once, as a case of the `…Member` enumeration of its
// object, and read once, in the `switch` over it (docs/rules.md#one-pass). It reads from a `SceneSource`: the
// quiet byte source of the one-pass path or the reporting source over a parsed document, and so it serves both.
// The scene's members are here, its presentations in SceneDecodingReader+Presentations.swift, its
// arrangement in SceneDecodingReader+Arrangement.swift. Rules between members are checked after the object's
// members are read, so that they hold whatever order the members come in.

/// The members of a request's top level.
enum SceneMember: String, SceneMembers {
    case device, display, orientation, posture, layoutDirection, dynamicTypeSize, window, safeArea, sizeClass
    case fold, constants, constantSet, presentations, arrangement
}

/// `window` and a popover's `anchor` (all four), a `contentSize` (`width` and `height`).
enum FrameMember: String, SceneMembers {
    case width, height, x, y
    static var size: UInt64 { Self.width.bit | Self.height.bit }
}

enum InsetsMember: String, SceneMembers {
    case top, leading, bottom, trailing
}

enum SizeClassMember: String, SceneMembers {
    case horizontal, vertical
}

enum FoldMember: String, SceneMembers {
    case orientation, position, thickness
}

struct SceneReader<S: SceneSource> {
    var src: S

    /// Reads the request's scene into `s` (a new `Scene`, which the caller owns: read in place, not returned, it
    /// is not copied out): false when the root is not an object (or the quiet source gave up). Problems are the
    /// source's: a reporting source's scene is valid only when it reported none.
    mutating func scene(into s: inout Scene, catalog: any DeviceCatalog) -> Bool {
        guard var o = src.object(SceneMember.self, "an object", nullIsAbsent: false) else { return false }
        var ids = PresentationIDs()
        var windowGiven = false
        var foldGiven = false
        while let m = src.next(&o, SceneMember.self, asking: SceneMember.everyMember) {
            switch m {
            case .device: device(into: &s, catalog: catalog)
            case .display: s.displayID = src.string(1...64)
            case .orientation: s.orientation = src.enumeration(Orientation.self) ?? .portrait
            case .posture: s.posture = src.enumeration(Posture.self) ?? .flat
            case .layoutDirection: s.layoutDirection = src.enumeration(LayoutDirection.self) ?? .ltr
            case .dynamicTypeSize: s.dynamicTypeSize = src.enumeration(DynamicTypeSize.self) ?? .large
            case .window:
                if var w = src.object(FrameMember.self) {
                    windowGiven = true
                    s.window = window(&w)
                }
            case .safeArea: s.safeArea = safeArea()
            case .sizeClass: s.sizeClass = sizeClass()
            case .fold:
                foldGiven = src.peek() != .null
                s.fold = fold()
            case .constants: constants(into: &s.constants, given: &s.overriddenConstants)
            case .constantSet: s.constantSet = constantSet()
            case .presentations: presentations(into: &s.presentations, ids: &ids)
            case .arrangement: arrangement(into: &s)
            }
            if src.failed { return false }
        }
        src.end(&o, SceneMember.self, reportUnknown: true)
        if !windowGiven, s.deviceID == nil {
            // A misspelt "device" is the likely cause: the error names it first (it is also an unknown field).
            if let typo = src.typo(o, SceneMember.self, of: SceneMember.device.rawValue) {
                src.problem(
                    at: typo,
                    "unknown field \"\(typo)\": did you mean \"device\"? Without a device, \"window\" is required")
            } else {
                src.problem(at: SceneMember.window.rawValue, "is required when no device is given")
            }
        }
        if foldGiven, s.deviceID != nil {
            src.problem(
                at: SceneMember.fold.rawValue,
                "a scene with a device takes its fold from the device profile; remove \"fold\"")
            s.fold = nil
        }
        guard !src.failed else { return false }
        validateEnvironment(&s)
        return !src.failed
    }

    /// `device`: a device of `catalog`.
    private mutating func device(into s: inout Scene, catalog: any DeviceCatalog) {
        guard let id = src.string(1...128) else { return }
        s.deviceID = id
        s.profile = catalog.profile(id: id)
        if s.profile == nil {
            src.problem("unknown device \"\(id)\" (`GET /v1/devices` or `hinge devices` lists the known ids)")
        }
    }

    /// `constantSet` (docs/rules.md#constant-sets).
    private mutating func constantSet() -> ConstantSetReference? {
        guard let text = src.string(1...ConstantSetReference.maxLength) else { return nil }
        guard let reference = ConstantSetReference(text) else {
            src.problem(
                "expected \"default\", a constant set's name or name@version (letters, digits, '-', '_' and '.', "
                    + "then '@' and a positive number); GET /v1/constant-sets lists the sets")
            return nil
        }
        return reference
    }

    /// Checks that depend on the device and orientation (docs/rules.md#window,
    /// docs/rules.md#fold-outside-window); also run by `Scene.with`.
    mutating func validateEnvironment(_ s: inout Scene) {
        if s.profile == nil, s.displayID != nil, s.deviceID == nil {
            src.problem(root: .display, "a display can only be chosen together with a device")
        }
        if let profile = s.profile {
            if let d = s.displayID, profile.display(id: d) == nil {
                src.problem(
                    root: .display,
                    "device \"\(profile.id)\" has no display \"\(d)\" (it has "
                        + "\(profile.displays.map { "\"\($0.id)\"" }.joined(separator: ", ")))")
            } else if let w = s.window, let display = EnvironmentResolver.display(of: s) {
                let (dw, dh) =
                    s.orientation == .landscape ? (display.height, display.width) : (display.width, display.height)
                let eps = 1e-9
                if w.x < -eps || w.y < -eps || w.x + w.width > dw + eps || w.y + w.height > dh + eps {
                    src.problem(
                        root: .window,
                        "a \(fmt(w.width))×\(fmt(w.height)) window at (\(fmt(w.x)), \(fmt(w.y))) does not fit inside "
                            + "the \(fmt(dw))×\(fmt(dh)) \(s.orientation.rawValue) display \"\(display.id)\"")
                }
            }
        }
        if s.profile == nil, let fold = s.fold, let w = s.window {
            let extent = fold.orientation == .vertical ? w.width : w.height
            if !(fold.position > 0 && fold.position < extent) {
                src.problem(
                    root: .fold, then: FoldMember.position.rawValue,
                    "the fold line must cross the window (0 < position < \(fmt(extent))), is \(fmt(fold.position))")
            }
        }
    }

    /// `window`, its object opened: `width` and `height` required.
    mutating func window(_ o: inout S.Object) -> WindowRequest? {
        var w = WindowRequest(width: 0, height: 0)
        while let m = src.next(&o, FrameMember.self, asking: FrameMember.everyMember) {
            switch m {
            case .width: w.width = src.numberNotNull(SceneLimits.size) ?? 0
            case .height: w.height = src.numberNotNull(SceneLimits.size) ?? 0
            case .x: w.x = src.number(SceneLimits.coordinate) ?? 0
            case .y: w.y = src.number(SceneLimits.coordinate) ?? 0
            }
        }
        src.end(&o, FrameMember.self, reportUnknown: true)
        return has(o, FrameMember.width, FrameMember.height) ? w : nil
    }

    /// Whether `o` (ended) had both required members, read with `numberNotNull` (a value refused is reported, or
    /// declined, as it is read); "is required" for each that was absent.
    mutating func has<M: SceneMembers>(_ o: S.Object, _ first: M, _ second: M) -> Bool {
        let given = src.given(o)
        if given & first.bit != 0, given & second.bit != 0 { return !src.failed }
        if given & first.bit == 0 { src.missing(o, first) }
        if given & second.bit == 0 { src.missing(o, second) }
        return false
    }

    /// The value of required member `member` of `o` (ended), given (`.some`) or not (`.none`, then "is required");
    /// nil when it is absent, or refused (reported as it was read).
    mutating func required<M: SceneMembers, T>(_ o: S.Object, _ member: M, _ value: T??) -> T? {
        switch value {
        case .none:
            src.missing(o, member)
            return nil
        case .some(nil):
            src.decline()
            return nil
        case .some(let v?): return v
        }
    }

    /// The object at hand, an element of an array: `null` is a problem there.
    mutating func element<M: SceneMembers>(_: M.Type) -> S.Object? {
        src.object(M.self, "an object", nullIsAbsent: false)
    }

    mutating func safeArea() -> Insets? {
        guard var o = src.object(InsetsMember.self) else { return nil }
        var i = Insets()
        while let m = src.next(&o, InsetsMember.self, asking: InsetsMember.everyMember) {
            switch m {
            case .top: i.top = src.number(SceneLimits.inset) ?? 0
            case .leading: i.leading = src.number(SceneLimits.inset) ?? 0
            case .bottom: i.bottom = src.number(SceneLimits.inset) ?? 0
            case .trailing: i.trailing = src.number(SceneLimits.inset) ?? 0
            }
        }
        src.end(&o, InsetsMember.self, reportUnknown: true)
        return i
    }

    /// `sizeClass`: both members required.
    mutating func sizeClass() -> SizeClassPair? {
        guard var o = src.object(SizeClassMember.self) else { return nil }
        var horizontal: SizeClass??
        var vertical: SizeClass??
        while let m = src.next(&o, SizeClassMember.self, asking: SizeClassMember.everyMember) {
            switch m {
            case .horizontal: horizontal = src.enumeration(SizeClass.self)
            case .vertical: vertical = src.enumeration(SizeClass.self)
            }
        }
        src.end(&o, SizeClassMember.self, reportUnknown: true)
        let h = required(o, SizeClassMember.horizontal, horizontal)
        guard let v = required(o, SizeClassMember.vertical, vertical), let h else { return nil }
        return SizeClassPair(horizontal: h, vertical: v)
    }

    /// A scene's own `fold`: `orientation` and `position` required.
    mutating func fold() -> Fold? {
        guard var o = src.object(FoldMember.self) else { return nil }
        var orientation: Axis??
        var position: Double??
        var thickness = 0.0
        while let m = src.next(&o, FoldMember.self, asking: FoldMember.everyMember) {
            switch m {
            case .orientation: orientation = src.enumeration(Axis.self)
            case .position: position = src.number(nil)
            case .thickness: thickness = src.number(0...10_000) ?? 0
            }
        }
        src.end(&o, FoldMember.self, reportUnknown: true)
        let axis = required(o, FoldMember.orientation, orientation)
        guard let p = required(o, FoldMember.position, position), let axis else { return nil }
        return Fold(orientation: axis, position: p, thickness: thickness)
    }

    /// `constants` (docs/rules.md#constants): each member one of `Constants.definitions`, a number in its range;
    /// `given` gets the bit of each (its index in `definitions`). Unknown keys are errors, not unknown fields.
    mutating func constants(into c: inout Constants, given: inout UInt32) {
        guard var o = src.object(SceneMember.self, "an object of constant overrides", nullIsAbsent: true) else {
            return
        }
        while let i = src.next(&o, listed: Constants.keys, unknown: Constants.unknownKeyMessage) {
            guard let v = src.numberNotNull(Constants.definitions[i].range) else { continue }
            c[keyPath: Constants.definitions[i].keyPath] = v
            given |= 1 << UInt32(i)
        }
        src.end(&o, SceneMember.self, reportUnknown: false)
    }

    /// `{"width", "height"}`, both required, 0…100,000 (a sheet's, a popover's or an arranged view's
    /// `contentSize`).
    mutating func size() -> Size? {
        guard var o = src.object(FrameMember.self) else { return nil }
        var width: Double??
        var height: Double??
        while let m = src.next(&o, FrameMember.self, asking: FrameMember.size) {
            switch m {
            case .width: width = src.number(0...100_000)
            case .height: height = src.number(0...100_000)
            case .x, .y: src.decline()
            }
        }
        src.end(&o, FrameMember.self, reportUnknown: true)
        let w = required(o, FrameMember.width, width)
        guard let h = required(o, FrameMember.height, height), let w else { return nil }
        return Size(width: w, height: h)
    }
}

extension SceneReader {
    /// `axes`: one or two axes, each once (a repeated one counts once).
    mutating func axes() -> [Axis]? {
        guard var e = src.array(maxCount: 2) else { return nil }
        var axes: [Axis] = []
        axes.reserveCapacity(2)
        var count = 0
        while src.next(&e) {
            count += 1
            if src.peek() == .null {
                src.problem("expected a string, found null")
            } else if let axis = src.enumeration(Axis.self), !axes.contains(axis) {
                axes.append(axis)
            }
        }
        if count == 0 { src.problem("must allow at least one axis") }
        return axes
    }
}
