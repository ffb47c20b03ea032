import HTTPServer
import Store

/// Why the studio's files could not be assembled (a defect of the files themselves, caught by a test).
enum StudioAssetError: Error, Equatable, CustomStringConvertible {
    case importCycle(String)
    case unknownType(String)
    var description: String {
        switch self {
        case .importCycle(let name): "\(name) takes part in an import cycle"
        case .unknownType(let name): "\(name) has no known content type"
        }
    }
}

/// The studio's files with their references to one another rewritten to content-hashed names.
struct StudioAssets: Sendable {
    struct Asset: Sendable, Equatable {
        let contentType: String
        let body: [UInt8]
        let etag: String
    }

    /// `index.html`, with `"/studio/NAME"` references rewritten: writes need no key.
    let page: Asset
    /// The same page for a server with an API key (`writesMarker` becomes `keyedWritesMarker`).
    let keyedPage: Asset
    /// Served assets by hashed name (`app.0123456789abcdef.js`).
    let byHashedName: [String: Asset]
    /// Source name → hashed name (`app.js` → `app.0123456789abcdef.js`).
    let hashedNames: [String: String]

    static let pageName = "index.html"
    /// What the page says about writes: `open` (no key needed) as written, `key` on a server with one.
    static let writesMarker = #"<meta name="hinge-writes" content="open">"#
    static let keyedWritesMarker = #"<meta name="hinge-writes" content="key">"#

    /// The files compiled in (Package.swift lists `Studio/` under `embedInCode`); a test checks that this
    /// list names every file of the directory.
    static let sources: [(name: String, bytes: [UInt8])] = [
        ("index.html", PackageResources.index_html),
        ("studio.css", PackageResources.studio_css),
        ("icon.svg", PackageResources.icon_svg),
        ("app.js", PackageResources.app_js),
        ("api.js", PackageResources.api_js),
        ("dom.js", PackageResources.dom_js),
        ("scene.js", PackageResources.scene_js),
        ("matrix.js", PackageResources.matrix_js),
        ("requests.js", PackageResources.requests_js),
        ("devices.js", PackageResources.devices_js),
        ("picture.js", PackageResources.picture_js),
        ("locate.js", PackageResources.locate_js),
        ("compare.js", PackageResources.compare_js),
        ("constants.js", PackageResources.constants_js),
        ("keep.js", PackageResources.keep_js),
    ]

    static let embedded: Result<StudioAssets, StudioAssetError> = Result { () throws(StudioAssetError) in
        try StudioAssets(sources: sources)
    }

    /// A reference to another file is its name in quotes, as a relative module specifier (`"./dom.js"`,
    /// in scripts) or an absolute path (`"/studio/app.js"`, in the page); each becomes the hashed name.
    /// A file's hash covers its rewritten text, so a change in a module renames every module importing it.
    init(sources: [(name: String, bytes: [UInt8])]) throws(StudioAssetError) {
        let texts = Dictionary(
            sources.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }, uniquingKeysWith: { a, _ in a })
        var hashed: [String: String] = [:]
        var served: [String: Asset] = [:]
        var visiting: Set<String> = []

        func rewrite(_ text: String) throws(StudioAssetError) -> String {
            var out = text
            for name in texts.keys.sorted() where name != Self.pageName {
                guard out.contains("\"./\(name)\"") || out.contains("\"/studio/\(name)\"") else { continue }
                let target = try finalName(name)
                out = out.replacing("\"./\(name)\"", with: "\"./\(target)\"")
                    .replacing("\"/studio/\(name)\"", with: "\"/studio/\(target)\"")
            }
            return out
        }
        func finalName(_ name: String) throws(StudioAssetError) -> String {
            if let done = hashed[name] { return done }
            guard visiting.insert(name).inserted else { throw .importCycle(name) }
            let body = Array(try rewrite(texts[name] ?? "").utf8)
            let asset = Asset(
                contentType: try Self.contentType(name), body: body, etag: EntityTag(canonicalBytes: body).quoted)
            let hashedName = Self.hashedName(name, etag: asset.etag)
            hashed[name] = hashedName
            served[hashedName] = asset
            visiting.remove(name)
            return hashedName
        }

        for name in texts.keys.sorted() where name != Self.pageName { _ = try finalName(name) }
        let pageText = try rewrite(texts[Self.pageName] ?? "")
        func asset(_ text: String) throws(StudioAssetError) -> Asset {
            let body = Array(text.utf8)
            return Asset(
                contentType: try Self.contentType(Self.pageName), body: body,
                etag: EntityTag(canonicalBytes: body).quoted)
        }
        page = try asset(pageText)
        keyedPage = try asset(pageText.replacing(Self.writesMarker, with: Self.keyedWritesMarker))
        byHashedName = served
        hashedNames = hashed
    }

    /// `app.js` + `"0123456789abcdef"` → `app.0123456789abcdef.js`.
    static func hashedName(_ name: String, etag: String) -> String {
        let hex = etag.filter { $0 != "\"" }
        guard let dot = name.lastIndex(of: ".") else { return name + "." + hex }
        return name[..<dot] + "." + hex + name[dot...]
    }

    static func contentType(_ name: String) throws(StudioAssetError) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        throw .unknownType(name)
    }
}
