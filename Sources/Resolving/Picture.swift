import JSON
import LayoutEngine
import Wireframe

/// The one way Hinge draws a resolution (docs/svg.md): `POST /v1/resolve?format=svg` and `/v1/resolve/svg`,
/// `hinge resolve --format svg`, a matrix's pictures and a record's picture all come through `draw`, from the
/// resolution's JSON (the body the service answers and the request log stores) and the scene (for the toolbar
/// items the answer does not repeat).
public enum Picture {
    /// The picture of a resolution's JSON; nil when it is not a resolution (a problem document, for instance).
    public static func draw(resolutionJSON: JSONValue, scene: JSONValue?, title: String? = nil, width: Int?) -> String?
    {
        SVGRenderer.render(resolutionJSON: resolutionJSON, scene: scene, title: title, width: width)
    }

    /// The picture of a resolution just made from the request body `scene`.
    public static func draw(_ resolution: Resolution, scene: JSONValue?, width: Int?) -> String {
        SVGRenderer.render(resolution, scene: scene, width: width)
    }

    /// The picture that answers a resolve of `body` (`output`, not a problem), within `limit` bytes: the
    /// picture's bytes, or the 422 that says it is too large.
    public static func answer(
        _ resolution: Resolution, body: [UInt8], width: Int?, limit: Int
    ) -> Result<[UInt8], Problem> {
        let svg = Array(draw(resolution, scene: try? JSONParser.parse(body), width: width).utf8)
        guard svg.count <= limit else {
            return .failure(.responseTooLarge(written: svg.count, done: 1, of: 1, limit: limit))
        }
        return .success(svg)
    }

    /// The width a picture is asked for with (`?width=`, `--width`): nil when not given; 400 for text that is
    /// not a width within `SVGRenderer.widthRange`.
    public static func width(_ text: String?) throws(Problem) -> Int? {
        guard let text else { return nil }
        guard let width = SVGRenderer.width(parsing: text) else {
            throw .badParameter("Query parameter width: \(SVGRenderer.widthProblem(text))")
        }
        return width
    }
}
