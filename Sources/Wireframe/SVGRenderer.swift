import JSON
import LayoutEngine

/// An SVG wireframe of a resolution: the answer of `POST /v1/resolve` with `Accept: image/svg+xml` or
/// `?format=svg`, of `GET /v1/requests/{id}/svg` and of `hinge resolve --format svg` (docs/svg.md).
///
/// **One path, through the response JSON.** `render(_:)` pictures `resolution.json`, the very body the
/// service answers and the request log stores, and `render(resolutionJSON:)` pictures a stored body
/// without resolving it again. So a live answer and its log entry give the same bytes, and a record
/// written by an older engine still renders (the reader is lenient: a member it does not find is simply
/// not drawn). The scene (the request body) is read only for what the response does not repeat: the
/// toolbar items.
///
/// **Made to embed.** The picture has a `viewBox` and no pixel size, so it takes its container's width,
/// unless `width` asks for one. Every class and id starts with a prefix derived from the document's
/// bytes (`h` and 8 hex digits), so two pictures inlined in one page, or a page's own CSS, never collide;
/// the same resolution still gives the same bytes.
public enum SVGRenderer {
    /// Bounds of the `width` a caller may ask for, in pixels.
    public static let widthRange = 16...4096
    /// The width, in pixels, of the box the picture is laid out in when no width is asked for.
    public static let nominalWidth = 800.0

    /// The picture of a resolution. `title` (e.g. the scene's name) is shown above the environment line;
    /// `scene` is the request body, for the toolbar items; `width` (clamped to `widthRange`) fixes the
    /// picture's width in pixels, with the height in proportion.
    public static func render(
        _ resolution: Resolution, scene: JSONValue? = nil, title: String? = nil, width: Int? = nil
    ) -> String {
        // `Resolution.json` always has an environment with a window, so the reader cannot refuse it; the
        // fallback only keeps this function total.
        render(resolutionJSON: resolution.json, scene: scene, title: title, width: width) ?? unreadablePicture
    }

    /// The picture of a stored response body. nil when `resolutionJSON` is not a resolution — no
    /// `environment.window` with a positive finite size (a problem+json body, for instance).
    public static func render(
        resolutionJSON: JSONValue, scene: JSONValue? = nil, title: String? = nil, width: Int? = nil
    ) -> String? {
        guard let model = WireframeModel(json: resolutionJSON, scene: scene) else { return nil }
        let width = width.map { min(max($0, widthRange.lowerBound), widthRange.upperBound) }
        // A narrow picture is laid out narrow (text keeps its size and wraps) rather than shrunk.
        let boxWidth = width.map { min(max(Double($0), 320), 1600) } ?? nominalWidth
        var canvas = WireframeCanvas(model: model, title: title, box: (boxWidth, max(800, boxWidth)))
        return scoped(canvas.document(width: width))
    }

    /// A requested width (`?width=`, `--width`): decimal digits only, within `widthRange`; nil otherwise.
    public static func width(parsing text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let n = Int(text), widthRange.contains(n)
        else { return nil }
        return n
    }

    /// Why `text` is not a width, in words that name the bounds.
    public static func widthProblem(_ text: String) -> String {
        "expected an integer from \(widthRange.lowerBound) to \(widthRange.upperBound) (pixels), got \"\(text)\""
    }

    /// Replaces the placeholder the canvas writes before every class and id with `h` + a fingerprint of
    /// the document. Client text cannot hold the placeholder: `SVGText.escape` turns U+0001 into U+FFFD.
    static func scoped(_ document: String) -> String {
        let prefix = "h" + Fingerprint.hex(document)
        return document.split(separator: WireframeCanvas.placeholder, omittingEmptySubsequences: false)
            .joined(separator: prefix)
    }

    static let unreadablePicture =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 800 80\">"
        + "<text x=\"20\" y=\"45\" font-family=\"sans-serif\" font-size=\"16\">unreadable resolution</text></svg>\n"
}
