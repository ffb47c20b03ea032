import JSON
import LayoutEngine

/// `POST /v1/resolve/matrix` (SPEC §9): one scene across devices × postures × orientations × layout
/// directions.
///
/// Decisions where the spec is silent (docs/api.md):
/// - Every dimension may be omitted and then means all of its values: `devices` → `"all"`, `postures` →
///   `flat, halfOpened, closed`, `orientations` → `portrait, landscape`, `layoutDirections` → `ltr, rtl`.
/// - Postures apply only to devices that fold; the others get one `flat` entry.
/// - A combination the scene cannot be resolved in (say its `window` does not fit that device) is not a
///   failure of the whole matrix: its result has `resolution: null` and the violations in `errors`.
/// - More than `maxCombinations` combinations → 422 before anything is resolved.
public enum Matrix {
    public static let maxCombinations = 512

    public static func resolve(body: [UInt8], catalog: any DeviceCatalog) -> ResolveOutput {
        switch ResolveOutput.parse(body) {
        case .failure(let f): return f.output
        case .success(let value): return resolve(value: value, catalog: catalog)
        }
    }

    struct Combination {
        var device: String, posture: Posture, orientation: Orientation, direction: LayoutDirection
    }

    public static func resolve(value: JSONValue, catalog: any DeviceCatalog) -> ResolveOutput {
        let mapper = JSONMapper()
        guard var r = mapper.object(value, at: .root) else { return invalid(mapper.errors) }
        let scene = r.value("scene")
        if scene == nil { r.error("scene", "is required") } else if scene?.isObject == false {
            r.error("scene", "expected an object, found \(scene!.typeName)")
        }
        var devices: [DeviceProfile] = []
        let requested = r.value("devices")
        if requested == nil || requested?.isString("all") == true {
            devices = catalog.allProfiles()
        } else if let requested, requested.isArray {
            let ids = requested.elements
            if ids.isEmpty { r.error("devices", "must name at least one device, or be \"all\"") }
            for (i, v) in ids.enumerated() {
                let p = r.pointer("devices").appending(i)
                guard let id = v.stringValue else {
                    mapper.error(p, "expected a device id (string), found \(v.typeName)")
                    continue
                }
                if let profile = catalog.profile(id: id) { devices.append(profile) } else {
                    mapper.error(p, "unknown device \"\(id)\" (GET /v1/devices lists them)")
                }
            }
        } else if let other = requested {
            r.error("devices", "expected a list of device ids or \"all\", found \(other.typeName)")
        }
        let postures: [Posture] = list(&r, "postures") ?? Posture.allCases
        let orientations: [Orientation] = list(&r, "orientations") ?? Orientation.allCases
        let directions: [LayoutDirection] = list(&r, "layoutDirections") ?? LayoutDirection.allCases
        r.finish()
        if !mapper.errors.isEmpty { return invalid(mapper.errors, unknownFields: mapper.unknownFields) }

        var combinations: [Combination] = []
        var total = 0
        for d in devices { total += (d.folds ? postures.count : 1) * orientations.count * directions.count }
        if total > maxCombinations {
            return invalid([
                JSONIssue(
                    path: .root,
                    message: "asks for \(total) combinations, at most \(maxCombinations) are allowed: name fewer "
                        + "devices, postures, orientations or layout directions")
            ])
        }
        combinations.reserveCapacity(total)
        for d in devices {
            for posture in d.folds ? postures : [.flat] {
                for o in orientations {
                    for l in directions {
                        combinations.append(Combination(device: d.id, posture: posture, orientation: o, direction: l))
                    }
                }
            }
        }

        var results: [JSONValue] = []
        results.reserveCapacity(combinations.count)
        var codes: [String] = []
        // The scene's unknown fields are the same in every combination: reported once, at the top level.
        var sceneUnknown: JSONUnknownFields? = nil
        let sceneValue = scene?.value ?? .object(JSONObject())
        for c in combinations {
            let overrides = SceneOverrides(
                device: c.device, posture: c.posture, orientation: c.orientation, layoutDirection: c.direction)
            var resolution: JSONValue = .null
            var errors: JSONValue = .null
            switch Scene.decode(sceneValue, catalog: catalog, overrides: overrides) {
            case .invalid(let e, let unknown):
                errors = Problem.issuesJSON(e)
                if sceneUnknown == nil { sceneUnknown = unknown }
            case .scene(var s):
                if sceneUnknown == nil { sceneUnknown = s.unknownFields }
                s.unknownFields = JSONUnknownFields()
                let res = LayoutEngine.resolve(s)
                for code in res.codes where !codes.contains(code) { codes.append(code) }
                resolution = res.json
            }
            results.append(
                .object([
                    "device": .string(c.device), "errors": errors, "layoutDirection": .string(c.direction.rawValue),
                    "orientation": .string(c.orientation.rawValue), "posture": .string(c.posture.rawValue),
                    "resolution": resolution,
                ]))
        }
        var unknown = mapper.unknownFields
        if let sceneUnknown { unknown.append(contentsOf: sceneUnknown.nested(under: JSONPointer(["scene"]))) }
        let body = JSONWriter.encode(.object(["results": .array(results), "warnings": unknown.json]))
        return ResolveOutput(status: 200, json: body, resolution: nil, device: nil, givenCodes: codes)
    }

    private static func list<E: RawRepresentable & CaseIterable>(_ r: inout ObjectReader, _ key: StaticString) -> [E]?
    where E.RawValue == String {
        guard let items = r.array(key) else { return nil }
        if items.isEmpty {
            r.error(key, "must list at least one value (omit it for all)")
            return nil
        }
        var out: [E] = []
        for (v, p) in items {
            if let e: E = JSONMapper.enumeration(v, at: p, mapper: r.mapper) {
                if out.contains(where: { $0.rawValue == e.rawValue }) { r.mapper.error(p, "\"\(e.rawValue)\" is listed twice") } else { out.append(e) }
            }
        }
        return out
    }

    private static func invalid(_ errors: [JSONIssue], unknownFields: JSONUnknownFields = JSONUnknownFields()) -> ResolveOutput {
        ResolveOutput(problem: Problem.invalid(errors, what: "matrix request", unknownFields: unknownFields))
    }
}
