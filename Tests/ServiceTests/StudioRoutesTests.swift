import Glibc
import HTTPServer
import TestSupport
import Testing

@testable import Service

/// `GET /` and `GET /studio/{asset}`: the embedded files, their hashed names, and how each may be cached.
@Suite struct StudioRoutesTests {
    static let studioDirectory: String = {
        let file = #filePath  // …/Tests/ServiceTests/StudioRoutesTests.swift
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Sources/Service/Studio"
    }()

    static func assets() throws -> StudioAssets { try StudioAssets.embedded.get() }

    /// Starts the service (no store) on port 0 and sends each request of `body` to it.
    func withServer(apiKey: String? = nil, _ body: (Int) throws -> Void) throws {
        var options = ServeOptions()
        options.apiKey = apiKey
        options.port = 0
        options.threads = 1
        options.logLevel = .warn
        let server = ServiceApp(options: options).makeServer()
        try server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        try body(server.port)
    }

    /// Every quoted `"/studio/NAME"` or `"./NAME"` reference in a text.
    static func references(in text: String) -> [String] {
        var found: [String] = []
        for prefix in ["\"/studio/", "\"./"] {
            var rest = text[...]
            while let start = rest.firstRange(of: prefix) {
                let after = rest[start.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { break }
                found.append(String(after[..<end]))
                rest = after[end...]
            }
        }
        return found
    }

    @Test func everyFileOfTheDirectoryIsEmbedded() throws {
        guard let dir = opendir(Self.studioDirectory) else {
            Issue.record("cannot open \(Self.studioDirectory)")
            return
        }
        defer { closedir(dir) }
        var onDisk: Set<String> = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { onDisk.insert(name) }
        }
        #expect(onDisk == Set(StudioAssets.sources.map(\.name)))
        for (name, bytes) in StudioAssets.sources {
            #expect(readFile(Self.studioDirectory + "/" + name) == bytes, "\(name) differs from the embedded copy")
        }
    }

    /// Text reaches the page only as text nodes and attribute values: no script parses markup or code.
    @Test func noScriptParsesMarkupOrCode() {
        let forbidden = [
            "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "DOMParser",
            "createContextualFragment",
        ]
        for (name, bytes) in StudioAssets.sources where name.hasSuffix(".js") {
            let text = String(decoding: bytes, as: UTF8.self)
            for word in forbidden { #expect(!text.contains(word), "\(name) uses \(word)") }
        }
        let page = String(decoding: StudioAssets.sources.first { $0.name == "index.html" }?.bytes ?? [], as: UTF8.self)
        #expect(!page.contains("<script>"), "inline script in the page")
        #expect(!page.contains(/\son[a-z]+\s*=/), "an event-handler attribute in the page")
    }

    @Test func everyReferenceIsRewrittenToAHashedAssetThatExists() throws {
        let assets = try Self.assets()
        #expect(assets.hashedNames.count == StudioAssets.sources.count - 1)
        let texts =
            [String(decoding: assets.page.body, as: UTF8.self)]
            + assets.byHashedName.values.map { String(decoding: $0.body, as: UTF8.self) }
        var referenced: Set<String> = []
        for text in texts {
            for name in Self.references(in: text) {
                #expect(assets.byHashedName[name] != nil, "\(name) is referenced but not served")
                referenced.insert(name)
            }
        }
        // The page reaches the entry module and the style sheet; the modules reach each other.
        for source in [
            "app.js", "studio.css", "icon.svg", "api.js", "dom.js", "scene.js", "matrix.js", "requests.js",
            "devices.js", "picture.js", "locate.js", "compare.js", "constants.js", "keep.js",
        ] {
            let hashed = try #require(assets.hashedNames[source])
            #expect(referenced.contains(hashed), "\(source) is never referenced")
            #expect(hashed.count == source.count + 17, "\(hashed) is not NAME.<16 hex>.EXT")
        }
    }

    @Test func aChangedModuleRenamesTheModulesThatImportIt() throws {
        let page = ("index.html", Array("<script type=\"module\" src=\"/studio/a.js\"></script>".utf8))
        let a = ("a.js", Array("import { b } from \"./b.js\";".utf8))
        let before = try StudioAssets(sources: [page, a, ("b.js", Array("export const b = 1;".utf8))])
        let after = try StudioAssets(sources: [page, a, ("b.js", Array("export const b = 2;".utf8))])
        #expect(before.hashedNames["b.js"] != after.hashedNames["b.js"])
        #expect(before.hashedNames["a.js"] != after.hashedNames["a.js"])
        #expect(before.page.body != after.page.body)
        let aText = String(
            decoding: try #require(after.byHashedName[after.hashedNames["a.js"] ?? ""]).body, as: UTF8.self)
        #expect(aText == "import { b } from \"./\(after.hashedNames["b.js"] ?? "?")\";")
    }

    @Test func anImportCycleOrAnUnknownTypeIsRefused() {
        let page = ("index.html", Array("\"/studio/a.js\"".utf8))
        #expect(throws: StudioAssetError.self) {
            try StudioAssets(sources: [page, ("a.js", Array("\"./b.js\"".utf8)), ("b.js", Array("\"./a.js\"".utf8))])
        }
        #expect(throws: StudioAssetError.unknownType("x.wasm")) {
            try StudioAssets(sources: [page, ("a.js", []), ("x.wasm", [])])
        }
    }

    @Test func thePageIsRevalidatedAndForbidsInlineScript() throws {
        try withServer { port in
            let reply = try HTTPClient.send(port: port, "GET", "/")
            #expect(reply.status == 200)
            #expect(reply.contentType == "text/html; charset=utf-8")
            #expect(reply.header("Cache-Control") == "no-cache")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            let csp = try #require(reply.header("Content-Security-Policy"))
            #expect(csp.contains("script-src 'self'"))
            #expect(csp.contains("object-src 'none'"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(reply.text.contains("<title>Hinge Studio</title>"))
            #expect(!reply.text.contains("<script>"), "inline script in the page")
            let etag = try #require(reply.header("ETag"))
            let again = try HTTPClient.send(port: port, "GET", "/", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let head = try HTTPClient.send(port: port, "HEAD", "/")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    /// The page says whether writes need a key, so the studio asks for one only on a server that has one.
    @Test func thePageSaysWhetherWritesNeedAKey() throws {
        var tags: [String] = []
        for key in [nil, "secret"] {
            try withServer(apiKey: key) { port in
                let reply = try HTTPClient.send(port: port, "GET", "/")
                let marker = key == nil ? StudioAssets.writesMarker : StudioAssets.keyedWritesMarker
                let other = key == nil ? StudioAssets.keyedWritesMarker : StudioAssets.writesMarker
                #expect(reply.text.contains(marker), "\(key ?? "no key"): \(marker) missing")
                #expect(!reply.text.contains(other))
                #expect(!reply.text.contains("secret"), "the key itself is in the page")
                tags.append(try #require(reply.header("ETag")))
            }
        }
        #expect(tags.count == 2 && tags[0] != tags[1], "both pages share one ETag: \(tags)")
    }

    @Test func everyAssetThePageReachesIsServedImmutableWithItsType() throws {
        try withServer { port in
            let page = try HTTPClient.send(port: port, "GET", "/")
            var queue = Self.references(in: page.text).filter { !$0.hasPrefix("./") }
            var seen: Set<String> = []
            while let name = queue.popLast() {
                guard seen.insert(name).inserted else { continue }
                let reply = try HTTPClient.send(port: port, "GET", "/studio/" + name)
                #expect(reply.status == 200, "\(name)")
                #expect(reply.header("Cache-Control") == "max-age=31536000, immutable", "\(name)")
                let expected =
                    name.hasSuffix(".js")
                    ? "text/javascript; charset=utf-8"
                    : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "image/svg+xml"
                #expect(reply.contentType == expected, "\(name)")
                queue += Self.references(in: reply.text)
            }
            #expect(seen.count == StudioAssets.sources.count - 1, "reached \(seen.sorted())")
        }
    }

    @Test(arguments: [
        "/studio/app.js", "/studio/app.0000000000000000.js", "/studio/nothing.css", "/studio/%2e%2e%2fPackage.swift",
    ])
    func anUnknownAssetIs404(_ target: String) throws {
        try withServer { port in
            let reply = try HTTPClient.send(port: port, "GET", target)
            #expect(reply.status == 404)
            #expect(reply.contentType == "application/problem+json")
        }
    }
}
