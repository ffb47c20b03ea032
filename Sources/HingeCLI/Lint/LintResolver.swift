import JSON
import LayoutEngine
import Resolving

/// The lint's one door into the application core: a scene body (and the overrides of one combination) in, the
/// resolution or the API's refusal out — through `Resolver`, the code `POST /v1/resolve` and `hinge resolve` run, so
/// the lint finds exactly what the API answers. Everything else of the lint works on these values only.
enum LintResolver {
    /// What the API answered for one combination.
    enum Outcome: Sendable {
        case resolved(Resolution)
        /// 400 or 422: every violation with its pointer, and the unknown fields listed beside them.
        case refused([LintViolation])
    }

    /// Resolves `body` as `POST /v1/resolve` does when nothing is patched; otherwise `value` (the parsed body) with the
    /// combination's `overrides` and the constants patched in, as `hinge resolve --device …` does.
    static func resolve(
        body: [UInt8], value: @autoclosure () -> JSONValue, overrides: SceneOverrides?, constants: [String: Double],
        dynamicTypeSize: DynamicTypeSize? = nil, catalog: any DeviceCatalog,
        constantSets: ConstantSetContext = ConstantSetContext()
    ) -> Outcome {
        let output: ResolveOutput
        if let dynamicTypeSize {
            var patched = patching(value(), constants: constants)
            if case .object(var scene) = patched {
                scene["dynamicTypeSize"] = .string(dynamicTypeSize.rawValue)
                patched = .object(scene)
            }
            output = Resolver.resolve(
                value: patched, catalog: catalog, overrides: overrides, constantSets: constantSets)
        } else if overrides == nil && constants.isEmpty {
            output = Resolver.resolve(body: body, catalog: catalog, constantSets: constantSets)
        } else {
            output = Resolver.resolve(
                value: patching(value(), constants: constants), catalog: catalog, overrides: overrides,
                constantSets: constantSets)
        }
        if let resolution = output.resolution, !output.isProblem { return .resolved(resolution) }
        return .refused(violations(inProblem: output.json))
    }

    /// `value` with each of `constants` set in its `constants` member (created when absent; a member that is not an
    /// object is left for the decoder to refuse).
    static func patching(_ value: JSONValue, constants: [String: Double]) -> JSONValue {
        guard !constants.isEmpty, case .object(var scene) = value else { return value }
        var table: JSONObject
        switch scene["constants"] {
        case .none, .null?: table = JSONObject()
        case .object(let o)?: table = o
        default: return value
        }
        for (key, v) in constants.sorted(by: { $0.key < $1.key }) { table[key] = .number(v) }
        scene["constants"] = .object(table)
        return .object(scene)
    }

    /// The violations of a problem document: `errors` (rule `invalid-scene`) and `unknownFields` (`unknown-field`,
    /// as the API would warn about them in a 200), or one violation at the root with its `detail`.
    static func violations(inProblem json: [UInt8]) -> [LintViolation] {
        guard let problem = try? JSONParser.parse(json) else {
            return [LintViolation(rule: LintRules.invalidScene, pointer: "", message: "the scene is refused")]
        }
        var out: [LintViolation] = []
        for (member, rule) in [
            ("errors", LintRules.invalidScene), ("unknownFields", DiagnosticCode.unknownField.rawValue),
        ] {
            for item in problem[member]?.arrayValue ?? [] {
                out.append(
                    LintViolation(
                        rule: rule, pointer: item["path"]?.stringValue ?? "",
                        message: item["message"]?.stringValue ?? "is invalid"))
            }
        }
        if !out.contains(where: { $0.rule == LintRules.invalidScene }) {
            let detail = problem["detail"]?.stringValue ?? "the scene is refused"
            let offset = problem["offset"]?.exactInteger
            out.insert(LintViolation(rule: LintRules.invalidScene, pointer: "", message: detail, offset: offset), at: 0)
        }
        return out
    }
}

/// One violation of a refused scene: its rule, pointer and message, and for a body that is not JSON the byte offset
/// where it stopped being JSON.
struct LintViolation: Sendable, Equatable {
    var rule: String
    var pointer: String
    var message: String
    var offset: Int?
}
