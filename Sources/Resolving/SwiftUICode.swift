#if HINGE_SWIFTUI
    import JSON
    import LayoutEngine
    import SwiftUIBridge

    /// Scenes from SwiftUI source, and SwiftUI from a scene (docs/swiftui.md): what `POST /v1/scenes/from-swift`
    /// and `POST /v1/swiftui` answer, as `hinge scenes` prints it.
    public enum SwiftUICode {
        /// The scenes the views of one Swift file present, as `hinge scenes` prints them for that file: `path` names
        /// the file in scene ids and positions. 400 for bytes that are not UTF-8 (Swift source is).
        public static func scenes(source: [UInt8], path: String) throws(Problem) -> JSONValue {
            guard String(validating: source, as: UTF8.self) != nil else {
                throw .badParameter("The body is not UTF-8 text: send the Swift file's bytes as they are.")
            }
            let report = SwiftUIReader.read([SwiftSourceFile(path: path, bytes: source)], jobs: 1)
            return report.json(context: .standard)
        }

        /// A SwiftUI view presenting what the scene body presents, nested as `presentedFrom` says, with its
        /// arrangement; the scene is checked as `POST /v1/resolve` checks it (400 not JSON, 422 with every violation).
        public static func view(sceneBody: [UInt8], catalog: any DeviceCatalog) throws(Problem) -> String {
            let value = try Problem.parse(sceneBody).get()
            switch Scene.decode(value, catalog: catalog) {
            case .invalid(let errors, let unknownFields): throw .invalid(errors, unknownFields: unknownFields)
            case .scene(let scene): return SwiftUIWriter.source(scene)
            }
        }
    }
#endif
