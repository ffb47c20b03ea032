import JSON
import LayoutEngine

/// `POST /v1/resolve/matrix` (docs/api.md#matrix): one scene across devices × postures × orientations × layout
/// directions.
///
/// Decisions (docs/api.md#matrix-omitted-dimensions, docs/api.md#matrix-bad-combination):
/// - Every dimension may be omitted and then means all of its values: `devices` → `"all"`, `postures` →
///   `flat, halfOpened, closed`, `orientations` → `portrait, landscape`, `layoutDirections` → `ltr, rtl`.
///   A value listed twice in any of them is a 422 at its pointer, naming the first occurrence.
/// - Postures apply only to devices that fold; the others get one `flat` entry.
/// - A combination the scene cannot be resolved in (say its `window` does not fit that device) is not a
///   failure of the whole matrix: its result has `resolution: null` and the violations in `errors`.
/// - Refused before anything is resolved (422): more than `maxCombinations` combinations, or more than
///   `Limits.maxWork` units of work (combinations × the scene's JSON nodes: each combination decodes and
///   resolves the whole scene; with pictures, each combination also counts its picture, `Pictures.work`).
/// - With pictures (`?pictures=svg`, docs/api.md#matrix-pictures) each result also carries `svg`, the bytes
///   `POST /v1/resolve?format=svg` answers for that combination; the request log stores the answer without them.
/// - Refused while encoding (422): a response that would pass `Limits.maxResponseBytes`. The encoder stops
///   at the first combination past the budget, so the body never grows beyond it in memory.
///
/// Two steps, so that the service can check the cheap one on its event loop and run the costly one on a
/// worker thread: `plan` (parse, validate, count the work), then `run` (resolve and encode).
public enum Matrix {
    public static let maxCombinations = 512

    /// The budgets of one matrix request.
    public struct Limits: Sendable, Equatable {
        /// Largest combinations × scene nodes accepted. A unit costs about 0.6 µs (the heaviest accepted
        /// request, 28 combinations of 256 chained popovers, takes about 70 ms: Benchmarks/hostile.sh), so the
        /// default keeps any accepted matrix near 100 ms of one core.
        public var maxWork: Int
        /// Largest response body in bytes (also the budget of `POST /v1/resolve`).
        public var maxResponseBytes: Int

        public static let defaultMaxWork = 200_000
        public static let defaultMaxResponseBytes = 8 * 1024 * 1024

        public init(maxWork: Int = defaultMaxWork, maxResponseBytes: Int = defaultMaxResponseBytes) {
            self.maxWork = maxWork
            self.maxResponseBytes = maxResponseBytes
        }
    }

    struct Combination: Sendable {
        var device: String, posture: Posture, orientation: Orientation, direction: LayoutDirection
    }

    /// A validated matrix request: what to resolve and how much work that is.
    public struct Plan: Sendable {
        let scene: JSONValue
        let combinations: [Combination]
        let unknownFields: JSONUnknownFields
        /// Drawn for each combination when not nil.
        public let pictures: Pictures?
        /// Combinations × the scene's JSON nodes (plus `Pictures.work` each, with pictures): what
        /// `Limits.maxWork` bounds.
        public let work: Int
        /// Where the scene's `constantSet` is found (docs/rules.md#constant-sets); every combination uses it.
        public var constantSets = ConstantSetContext()
        public var combinationCount: Int { combinations.count }
    }

    /// A plan, or the refusal (400/422) already written.
    public enum Planning: Sendable {
        case plan(Plan)
        case refused(MatrixOutput)
    }

    public static func resolve(
        body: [UInt8], catalog: any DeviceCatalog, limits: Limits = Limits(), pictures: Pictures? = nil,
        constantSets: ConstantSetContext = ConstantSetContext()
    ) -> MatrixOutput {
        switch plan(body: body, catalog: catalog, limits: limits, pictures: pictures) {
        case .refused(let out): return out
        case .plan(var p):
            p.constantSets = constantSets
            return run(p, catalog: catalog, maxResponseBytes: limits.maxResponseBytes)
        }
    }

    public static func plan(
        body: [UInt8], catalog: any DeviceCatalog, limits: Limits = Limits(), pictures: Pictures? = nil
    ) -> Planning {
        switch ResolveOutput.parse(body) {
        case .failure(let f): return .refused(MatrixOutput(f.output))
        case .success(let value): return plan(value: value, catalog: catalog, limits: limits, pictures: pictures)
        }
    }

    public static func plan(
        value: JSONValue, catalog: any DeviceCatalog, limits: Limits = Limits(), pictures: Pictures? = nil
    ) -> Planning {
        let mapper = JSONMapper()
        guard var r = mapper.object(value, at: .root) else {
            return .refused(invalid(mapper.errors, unknownFields: mapper.unknownFields))
        }
        let scene = r.value("scene")
        if scene == nil {
            r.error("scene", "is required")
        } else if scene?.isObject == false {
            r.error("scene", "expected an object, found \(scene!.typeName)")
        }
        let devices = self.devices(&r, catalog: catalog)
        let postures: [Posture] = list(&r, "postures") ?? Posture.allCases
        let orientations: [Orientation] = list(&r, "orientations") ?? Orientation.allCases
        let directions: [LayoutDirection] = list(&r, "layoutDirections") ?? LayoutDirection.allCases
        r.finish()
        if !mapper.errors.isEmpty { return .refused(invalid(mapper.errors, unknownFields: mapper.unknownFields)) }

        var total = 0
        for d in devices { total += (d.folds ? postures.count : 1) * orientations.count * directions.count }
        if total > maxCombinations {
            return .refused(
                invalid([
                    JSONIssue(
                        path: .root,
                        message: "asks for \(total) combinations, at most \(maxCombinations) are allowed: name fewer "
                            + "devices, postures, orientations or layout directions")
                ]))
        }
        let sceneNodes = scene?.nodeCount ?? 1
        let pictureWork = pictures.map { _ in
            Pictures.work(sceneNodes: sceneNodes, presentations: scene?.member("presentations")?.count ?? 0)
        }
        let work = total * (sceneNodes + (pictureWork ?? 0))
        if work > limits.maxWork {
            return .refused(
                tooMuchWork(
                    combinations: total, sceneNodes: sceneNodes, pictureWork: pictureWork, work: work,
                    limit: limits.maxWork))
        }
        var combinations: [Combination] = []
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
        return .plan(
            Plan(
                scene: scene?.value ?? .object(JSONObject()), combinations: combinations,
                unknownFields: mapper.unknownFields, pictures: pictures, work: work))
    }

    /// Resolves every combination of `plan` (and draws it, with pictures), writing the response as it goes: past
    /// `maxResponseBytes`, pictures included, it stops and answers 422 instead. With pictures, the output's
    /// `recordedJSON` is the answer without its `svg` members (what the request log stores and replay compares).
    public static func run(_ plan: Plan, catalog: any DeviceCatalog, maxResponseBytes: Int) -> MatrixOutput {
        var writer = ResultsWriter()
        for (i, c) in plan.combinations.enumerated() {
            writer.append(c, of: plan, catalog: catalog)
            if writer.out.count > maxResponseBytes {
                return tooLarge(
                    written: writer.out.count, done: i + 1, of: plan.combinations.count, limit: maxResponseBytes)
            }
        }
        let out = writer.finish(unknownFields: plan.unknownFields)
        if out.count > maxResponseBytes {
            return tooLarge(
                written: out.count, done: plan.combinations.count, of: plan.combinations.count, limit: maxResponseBytes)
        }
        return MatrixOutput(
            ResolveOutput(problem: nil, json: out, resolution: nil), codes: writer.codes,
            withoutPictures: plan.pictures == nil ? nil : writer.withoutPictures(out))
    }

    /// `devices`: `"all"` (or absent), or a list of distinct known ids.
    private static func devices(_ r: inout ObjectReader, catalog: any DeviceCatalog) -> [DeviceProfile] {
        let requested = r.value("devices")
        if requested == nil || requested?.isString("all") == true { return catalog.allProfiles() }
        guard let requested, requested.isArray else {
            r.error("devices", "expected a list of device ids or \"all\", found \(requested!.typeName)")
            return []
        }
        let ids = requested.elements
        if ids.isEmpty { r.error("devices", "must name at least one device, or be \"all\"") }
        var devices: [DeviceProfile] = []
        var firstIndex: [String: Int] = [:]
        for (i, v) in ids.enumerated() {
            let p = r.pointer("devices").appending(i)
            guard let id = v.stringValue else {
                r.mapper.error(p, "expected a device id (string), found \(v.typeName)")
                continue
            }
            if let first = firstIndex[id] {
                r.mapper.error(p, "\"\(id)\" is listed twice (first at /devices/\(first))")
                continue
            }
            firstIndex[id] = i
            if let profile = catalog.profile(id: id) {
                devices.append(profile)
            } else {
                r.mapper.error(p, "unknown device \"\(id)\" (`GET /v1/devices` or `hinge devices` lists the known ids)")
            }
        }
        return devices
    }

    private static func list<E: RawRepresentable & CaseIterable>(_ r: inout ObjectReader, _ key: StaticString) -> [E]?
    where E.RawValue == String {
        guard let items = r.array(key) else { return nil }
        if items.isEmpty {
            r.error(key, "must list at least one value (omit it for all)")
            return nil
        }
        var out: [E] = []
        var firstPath: [JSONPointer] = []
        for (v, p) in items {
            guard let e: E = JSONMapper.enumeration(v, at: p, mapper: r.mapper) else { continue }
            if let k = out.firstIndex(where: { $0.rawValue == e.rawValue }) {
                r.mapper.error(p, "\"\(e.rawValue)\" is listed twice (first at \(firstPath[k]))")
            } else {
                out.append(e)
                firstPath.append(p)
            }
        }
        return out
    }

    private static func invalid(_ errors: [JSONIssue], unknownFields: JSONUnknownFields = JSONUnknownFields())
        -> MatrixOutput
    {
        MatrixOutput(problem: .invalid(errors, what: "matrix request", unknownFields: unknownFields))
    }

    private static func tooMuchWork(combinations: Int, sceneNodes: Int, pictureWork: Int?, work: Int, limit: Int)
        -> MatrixOutput
    {
        let drawn = pictureWork.map { ", each drawn (a picture counts \($0) units)" } ?? ""
        let formula = pictureWork == nil ? "combinations × nodes" : "combinations × (nodes + picture)"
        let message =
            "asks for \(combinations) combinations of a scene of \(sceneNodes) JSON nodes\(drawn): \(work) units of "
            + "work (\(formula)), at most \(limit) are allowed: name fewer devices, postures, orientations or layout "
            + "directions, or send a smaller scene" + (pictureWork == nil ? "" : ", or ask without pictures")
        return MatrixOutput(
            problem: Problem(
                .tooMuchWork, detail: "The matrix request is too much work: \(message).",
                members: [
                    JSONMember("errors", ProblemDocument.issues([JSONIssue(path: .root, message: message)])),
                    JSONMember("work", .number(Double(work))), JSONMember("maxWork", .number(Double(limit))),
                ]))
    }

    /// 422 for a response past the byte budget, with an estimate of its full size.
    private static func tooLarge(written: Int, done: Int, of total: Int, limit: Int) -> MatrixOutput {
        MatrixOutput(problem: .responseTooLarge(written: written, done: done, of: total, limit: limit))
    }
}

/// A matrix's answer (its status and body, as a `ResolveOutput`), with every diagnostic code of its resolutions
/// and, when it was answered with pictures, the body without them: what the request log stores and replay
/// compares.
public struct MatrixOutput: Sendable {
    public var output: ResolveOutput
    public var codes: [String]
    public var withoutPictures: [UInt8]?

    public init(_ output: ResolveOutput, codes: [String] = [], withoutPictures: [UInt8]? = nil) {
        self.output = output
        self.codes = codes
        self.withoutPictures = withoutPictures
    }

    init(problem: Problem) { self.init(ResolveOutput(problem: problem)) }

    public var json: [UInt8] { output.json }
    public var problemKind: Problem.Kind? { output.problemKind }
    public var isProblem: Bool { output.isProblem }
}
