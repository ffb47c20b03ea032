import JSON
import LayoutEngine
import Wireframe

extension Matrix {
    /// `?pictures=svg[&width=N]`: each result also carries its wireframe, drawn at `width` pixels (nil: no
    /// pixel size), as `POST /v1/resolve?format=svg[&width=N]` draws it (docs/api.md#matrix-pictures).
    public struct Pictures: Sendable, Equatable {
        public var width: Int?
        public init(width: Int? = nil) { self.width = width }

        /// The work a picture adds to its combination, in the units of `Limits.maxWork` (about 0.6 µs each),
        /// for a scene of `sceneNodes` JSON nodes holding `presentations` presentations. Drawing costs far more
        /// than resolving, and follows what is drawn (each presentation's frame, labels and toolbar) more than
        /// the scene's size: a fixed part (the header, the environment, the legend, the scoping of names), a
        /// part per presentation and a little per node (text to measure and wrap). Measured with
        /// `Benchmarks/picture_cost.py` (docs/api.md#matrix-pictures), rounded up.
        public static func work(sceneNodes: Int, presentations: Int) -> Int {
            fixedWork + presentationWork * presentations + nodeWork * sceneNodes
        }
        static let fixedWork = 3_000
        static let presentationWork = 400
        static let nodeWork = 8
    }

    /// The body of a matrix answer, written one result at a time: the same bytes as the JSON writer gives the
    /// result objects (keys in sorted order), with each resolution from its direct encoder.
    struct ResultsWriter {
        private(set) var out: [UInt8] = Array(#"{"results":["#.utf8)
        /// The distinct codes of every resolution, in first-occurrence order.
        private(set) var codes: [String] = []
        /// Where the `,"svg":…` members are in `out`, to leave them out of the recorded body.
        private var pictureRanges: [Range<Int>] = []
        /// The scene's unknown fields are the same in every combination: reported once, at the top level.
        private var sceneUnknown: JSONUnknownFields? = nil
        private var count = 0

        /// Resolves (and, with pictures, draws) one combination and writes its result.
        mutating func append(_ c: Combination, of plan: Plan, catalog: any DeviceCatalog) {
            if count > 0 { out.append(UInt8(ascii: ",")) }
            count += 1
            let overrides = SceneOverrides(
                device: c.device, posture: c.posture, orientation: c.orientation, layoutDirection: c.direction)
            out.append(contentsOf: #"{"device":"#.utf8)
            JSONWriter.appendString(c.device, to: &out)
            out.append(contentsOf: #","errors":"#.utf8)
            var resolution: Resolution? = nil
            switch Scene.decode(plan.scene, catalog: catalog, overrides: overrides) {
            case .invalid(let e, let unknown):
                JSONWriter.write(ProblemDocument.issues(e), into: &out)
                if sceneUnknown == nil { sceneUnknown = unknown }
            case .scene(var s):
                if sceneUnknown == nil { sceneUnknown = s.unknownFields }
                s.unknownFields = JSONUnknownFields()
                var used: String?
                var refusal: JSONIssue?
                if let reference = plan.constantSets.pin ?? s.constantSet {
                    switch plan.constantSets.use(reference, in: &s) {
                    case .failure(let r): refusal = r.issue
                    case .success(let u): used = u.name
                    }
                }
                if let refusal {
                    JSONWriter.write(ProblemDocument.issues([refusal]), into: &out)
                } else {
                    out.append(contentsOf: "null".utf8)
                    var res = LayoutEngine.resolve(s)
                    res.constantSet = used
                    for code in res.codes where !codes.contains(code) { codes.append(code) }
                    resolution = res
                }
            }
            out.append(contentsOf: #","layoutDirection":""#.utf8)
            out.append(contentsOf: c.direction.rawValue.utf8)
            out.append(contentsOf: #"","orientation":""#.utf8)
            out.append(contentsOf: c.orientation.rawValue.utf8)
            out.append(contentsOf: #"","posture":""#.utf8)
            out.append(contentsOf: c.posture.rawValue.utf8)
            out.append(contentsOf: #"","resolution":"#.utf8)
            out.append(contentsOf: resolution?.encoded ?? Array("null".utf8))
            if let pictures = plan.pictures { appendPicture(of: resolution, scene: plan.scene, pictures) }
            out.append(UInt8(ascii: "}"))
        }

        /// `,"svg":…` (after `resolution`, keys sorted): the bytes `POST /v1/resolve?format=svg` answers for the
        /// combination, drawn from the same resolution and the scene's toolbars; null without a resolution.
        private mutating func appendPicture(of resolution: Resolution?, scene: JSONValue, _ pictures: Pictures) {
            let start = out.count
            out.append(contentsOf: #","svg":"#.utf8)
            if let resolution {
                JSONWriter.appendString(Picture.draw(resolution, scene: scene, width: pictures.width), to: &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            pictureRanges.append(start..<out.count)
        }

        /// Closes the results and writes the warnings: the matrix request's unknown fields, then the scene's.
        mutating func finish(unknownFields: JSONUnknownFields) -> [UInt8] {
            out.append(contentsOf: #"],"warnings":"#.utf8)
            var unknown = unknownFields
            if let sceneUnknown { unknown.append(contentsOf: sceneUnknown.nested(under: JSONPointer(["scene"]))) }
            JSONWriter.write(unknown.json, into: &out)
            out.append(UInt8(ascii: "}"))
            return out
        }

        /// `body` (what `finish` returned) without the `svg` members: the answer without pictures, byte for byte.
        func withoutPictures(_ body: [UInt8]) -> [UInt8] {
            var kept: [UInt8] = []
            kept.reserveCapacity(body.count - pictureRanges.reduce(0) { $0 + $1.count })
            var from = 0
            for r in pictureRanges {
                kept.append(contentsOf: body[from..<r.lowerBound])
                from = r.upperBound
            }
            kept.append(contentsOf: body[from...])
            return kept
        }
    }
}
