#if HINGE_SWIFTUI
    import HTTPServer
    import JSON
    import Resolving

    /// `POST /v1/scenes/from-swift` and `POST /v1/swiftui` (docs/api.md#swiftui): read the request, call the core's
    /// `SwiftUICode`, write the answer. Swift is parsed on the worker pool (a file takes milliseconds); a scene is
    /// written where its body is read.
    enum SwiftUIRoutes {
        static let swiftMediaType = "text/x-swift"
        static let swiftAnswer: HTTPHeaders = ["Content-Type": "text/x-swift; charset=utf-8"]

        static func register(on router: inout ServiceRouter, context: ServiceContext) {
            router.add(.POST, "/v1/scenes/from-swift", query: ["path"]) { request, reply throws(RouteError) in
                try requireSwift(request)
                let path = try sourcePath(request.queryParameter("path"))
                try context.offload(reply) { () throws(RouteError) in
                    let scenes = try core(try SwiftUICode.scenes(source: request.body, path: path))
                    reply.send(.json(JSONWriter.encode(scenes)))
                }
            }
            router.add(.POST, "/v1/swiftui") { request, reply throws(RouteError) in
                try RouteError.requireJSON(request)
                try context.readingBody(of: request, reply) { onLoop throws(RouteError) in
                    let catalog = onLoop ? context.catalog(for: request) : context.catalog
                    let code = try core(try SwiftUICode.view(sceneBody: request.body, catalog: catalog))
                    reply.send(HTTPResponse(status: .ok, headers: swiftAnswer, body: Array(code.utf8)))
                }
            }
        }

        /// 415 unless the body is declared Swift source (`Content-Type: text/x-swift`, any parameters).
        static func requireSwift(_ request: HTTPRequest) throws(RouteError) {
            let type = request.headers["Content-Type"].map(RouteError.mediaType)
            guard type == swiftMediaType else {
                throw RouteError(
                    status: .unsupportedMediaType,
                    detail:
                        "Send the Swift file with Content-Type: text/x-swift (got \(type.map { "\"\($0.prefix(80))\"" } ?? "none")), "
                        + "e.g. curl --data-binary @View.swift -H 'Content-Type: text/x-swift'.")
            }
        }

        /// `?path=`: the file's name in scene ids and positions (default `View.swift`): 1 to 256 printable
        /// characters.
        static func sourcePath(_ text: String?) throws(RouteError) -> String {
            guard let text else { return "View.swift" }
            guard !text.isEmpty, text.unicodeScalars.count <= 256,
                text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { throw RouteError.badQuery("path", "expected 1 to 256 printable characters") }
            return text
        }
    }
#endif
