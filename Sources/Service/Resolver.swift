import JSON
import LayoutEngine

/// Body bytes in, resolution (or problem) out: the one path that `POST /v1/resolve`, the matrix, replay
/// and the `hinge resolve` CLI share, so they can never disagree.
public struct ResolveOutput: Sendable {
    /// 200, or the problem's status (400 not JSON, 422 invalid).
    public var status: Int
    /// The response body: the resolution's JSON (SPEC §5) or an `application/problem+json` document.
    public var json: [UInt8]
    public var resolution: Resolution?
    /// The device the scene named (when it could be read), for the request log.
    public var device: String?
    /// Diagnostic codes of the resolution, first occurrence order.
    public var codes: [String]

    public var isProblem: Bool { status != 200 }
}

public enum Resolver {
    /// Resolves one scene body. `overrides` patch device/posture/orientation/layoutDirection before
    /// decoding (CLI flags), so every validation still applies to the result.
    public static func resolve(
        body: [UInt8], catalog: any DeviceCatalog, overrides: SceneOverrides? = nil
    ) -> ResolveOutput {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            let p = Problem.notJSON(error)
            return ResolveOutput(status: p.status, json: p.body, resolution: nil, device: nil, codes: [])
        }
        return resolve(value: value, catalog: catalog, overrides: overrides)
    }

    public static func resolve(
        value: JSONValue, catalog: any DeviceCatalog, overrides: SceneOverrides? = nil
    ) -> ResolveOutput {
        let device = overrides?.device ?? value["device"]?.stringValue
        switch Scene.decode(value, catalog: catalog, overrides: overrides) {
        case .invalid(let errors, _):
            let p = Problem.invalid(errors)
            return ResolveOutput(status: p.status, json: p.body, resolution: nil, device: device, codes: [])
        case .scene(let scene):
            let resolution = LayoutEngine.resolve(scene)
            // The direct byte encoder: the same bytes as `JSONWriter.encode(resolution.json)` (checked by the
            // golden and property tests) without building the value tree — 3× cheaper (hinge-bench, issue #3).
            return ResolveOutput(
                status: 200, json: resolution.encoded, resolution: resolution,
                device: scene.deviceID, codes: resolution.codes)
        }
    }
}
