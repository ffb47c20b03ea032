import JSON
import LayoutEngine
import Store

/// Body bytes in, resolution (or problem) out: the one path that `POST /v1/resolve`, the matrix, replay
/// and the `hinge resolve` CLI share, so they can never disagree. What the request log keeps beside an answer is
/// read from the answer (`RecordFacts`), not carried by it.
public struct ResolveOutput: Sendable {
    /// nil for a resolution (or a matrix's results); else why the body was refused.
    public var problemKind: Problem.Kind?
    /// The answer's body: the resolution's JSON (docs/rules.md#response), the matrix's results, or the problem
    /// document.
    public var json: [UInt8]
    /// The resolution itself (nil for a problem or a matrix). Kept in a box: a resolution is a few hundred bytes
    /// of arrays and strings, and an output held inline was copied member by member (each retained) on its way
    /// out of the core; a box moves as one reference.
    public var resolution: Resolution? { resolutionBox?.value }
    private var resolutionBox: ResolutionBox?

    public init(problem: Problem.Kind?, json: [UInt8], resolution: consuming Resolution?) {
        self.problemKind = problem
        self.json = json
        // Moved into the box, not copied (`map` would copy it out of the optional).
        switch consume resolution {
        case .some(let r): resolutionBox = ResolutionBox(r)
        case .none: resolutionBox = nil
        }
    }

    public var isProblem: Bool { problemKind != nil }
}

extension ResolveOutput {
    /// A problem as the output: its document is the body.
    public init(problem: Problem) { self.init(problem: problem.kind, json: problem.document, resolution: nil) }

    /// The body as JSON, or the 400 that says where it broke (shared by resolve and the matrix).
    static func parse(_ body: [UInt8]) -> Result<JSONValue, ResolveOutputFailure> {
        document(body).map { $0.root.value }
    }

    /// The body as a parsed document (what the scene decoder reads), or the 400 that says where it broke.
    static func document(_ body: [UInt8]) -> Result<JSONDocument, ResolveOutputFailure> {
        do {
            return .success(try JSONParser.document(body))
        } catch {
            return .failure(ResolveOutputFailure(output: ResolveOutput(problem: .notJSON(error))))
        }
    }
}

/// A resolution behind one reference (`ResolveOutput.resolution`).
final class ResolutionBox: Sendable {
    let value: Resolution
    init(_ value: consuming Resolution) { self.value = value }
}

/// A body that could not be read as JSON, already answered.
struct ResolveOutputFailure: Error { let output: ResolveOutput }

public enum Resolver {
    /// Resolves one scene body. `overrides` patch device/posture/orientation/layoutDirection before
    /// decoding (CLI flags), so every validation still applies to the result.
    public static func resolve(
        body: [UInt8], catalog: any DeviceCatalog, overrides: SceneOverrides? = nil,
        constantSets: ConstantSetContext = ConstantSetContext()
    ) -> ResolveOutput {
        if let overrides {
            switch ResolveOutput.parse(body) {
            case .failure(let f): return f.output
            case .success(let value):
                return resolve(value: value, catalog: catalog, overrides: overrides, constantSets: constantSets)
            }
        }
        // The service's path. A valid request without escapes is read in one pass; any other is parsed, and
        // decoded from the parsed document (without a value tree), which reports what is wrong.
        if let scene = body.withUnsafeBufferPointer({ Scene.decodeInOnePass($0, catalog: catalog) }) {
            return output(scene, constantSets: constantSets)
        }
        switch ResolveOutput.document(body) {
        case .failure(let f): return f.output
        case .success(let document):
            let root = document.root
            return output(Scene.decode(root, catalog: catalog), constantSets: constantSets)
        }
    }

    public static func resolve(
        value: JSONValue, catalog: any DeviceCatalog, overrides: SceneOverrides? = nil,
        constantSets: ConstantSetContext = ConstantSetContext()
    ) -> ResolveOutput {
        output(Scene.decode(value, catalog: catalog, overrides: overrides), constantSets: constantSets)
    }

    /// The response for a decoded (or refused) scene.
    private static func output(
        _ decoding: consuming SceneDecoding, constantSets: ConstantSetContext
    ) -> ResolveOutput {
        // Consumed: the scene is moved out of the decoding, not copied (a copy retains each of its arrays).
        switch consume decoding {
        case .invalid(let errors, let unknownFields):
            return ResolveOutput(problem: .invalid(errors, unknownFields: unknownFields))
        case .scene(let scene):
            return output(scene, constantSets: constantSets)
        }
    }

    /// The response for a decoded scene: resolved, then encoded.
    private static func output(_ scene: borrowing Scene, constantSets: ConstantSetContext) -> ResolveOutput {
        if let reference = constantSets.pin ?? scene.constantSet {
            return pinned(scene, reference, constantSets)
        }
        let resolution = LayoutEngine.resolve(scene)
        // The direct byte encoder: the same bytes as `JSONWriter.encode(resolution.json)` (checked by the golden
        // and property tests) without building the value tree — 3× cheaper (hinge-bench).
        let json = resolution.encoded
        return ResolveOutput(problem: nil, json: json, resolution: resolution)
    }

    /// `output` for a scene resolved with a constant set (docs/rules.md#constant-sets): apart, so that the usual
    /// scene is not copied out of its decoding to be changed.
    private static func pinned(
        _ scene: borrowing Scene, _ reference: ConstantSetReference, _ constantSets: ConstantSetContext
    ) -> ResolveOutput {
        let used: ConstantSetContext.Used
        var constants = Constants()
        switch constantSets.constants(reference, for: scene, into: &constants) {
        case .failure(let problem): return ResolveOutput(problem: problem)
        case .success(let u): used = u
        }
        let resolution = LayoutEngine.resolve(scene, constants: constants, constantSet: used.name)
        let json = resolution.encoded
        return ResolveOutput(problem: nil, json: json, resolution: resolution)
    }
}
