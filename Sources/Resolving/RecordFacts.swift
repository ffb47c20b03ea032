import JSON
import LayoutEngine
import Store

/// What the request log keeps beside an answer (docs/api.md#request-log), read from the core's answer itself:
/// the device, the diagnostic codes, the posture (devices that fold), the constant set version, and the body
/// stored (a matrix's answer without its pictures).
public struct RecordFacts: Sendable {
    public var device: String?
    public var codes: [String]
    public var posture: String?
    /// `name@n`; nil for the built-in values.
    public var constantSet: String?
    /// The answer's body as stored.
    public var body: [UInt8]

    /// The facts of a resolve of `request` answered with `output`. A refused scene is read again only for the
    /// device it names (a body that is not JSON names none).
    public init(resolve output: ResolveOutput, request: [UInt8]) {
        body = output.json
        guard let resolution = output.resolution else {
            device = (try? JSONParser.document(request))?.root.member("device")?.stringValue
            codes = []
            return
        }
        let environment = resolution.environment
        device = environment.device
        codes = resolution.codes
        // docs/rules.md#posture: a posture means something only where there is a fold.
        posture = environment.folds ? environment.posture.rawValue : nil
        constantSet = resolution.constantSet == ConstantSetReference.defaultName ? nil : resolution.constantSet
    }

    /// The facts of a matrix's answer: every code of its resolutions, and its body without pictures.
    public init(matrix output: MatrixOutput) {
        body = output.withoutPictures ?? output.json
        codes = output.codes
    }
}
