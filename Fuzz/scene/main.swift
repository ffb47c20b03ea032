// libFuzzer target: any bytes → the one-pass reader and JSON parser → Scene.decode → LayoutEngine.resolve →
// encoders → SVG.
// Compiled as one module with the JSON and LayoutEngine sources and the SVG renderer (Fuzz/build.sh).
//
// Invariants (a violation traps, which libFuzzer reports as a crash):
// - nothing traps, whatever the bytes;
// - a refused scene has at least one error, each with a message;
// - decoding the parsed document and decoding the value tree agree exactly;
// - the one-pass reader (the service's first try) takes only bytes the parser accepts and the general
//   decoder reads as a scene without unknown fields, and its scene is that scene;
// - the direct encoder and the tree writer give the same bytes, and those bytes parse back;
// - every presented frame is finite;
// - the SVG renderer accepts every resolution.
let catalog = loadFixtureCatalog()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let onePass = Scene.decodeInOnePass(UnsafeBufferPointer(start: data, count: size), catalog: catalog)
    guard let document = try? JSONParser.document(bytes) else {
        if onePass != nil { fatalError("the one-pass reader took bytes the parser refuses") }
        return 0
    }
    let value = document.root.value
    let decoded = Scene.decode(document.root, catalog: catalog)
    let fromTree = Scene.decode(value, catalog: catalog)
    switch (decoded, fromTree) {
    case (.scene(let a), .scene(let b)) where a == b: break
    case (.invalid(let e1, let u1), .invalid(let e2, let u2)) where e1 == e2 && u1 == u2: break
    default: fatalError("the document and the tree decode differently")
    }
    if let onePass {
        guard case .scene(let general) = decoded, general.unknownFields.isEmpty, general == onePass else {
            fatalError("the one-pass reader and the general decoder disagree")
        }
    }
    switch decoded {
    case .invalid(let errors, _):
        if errors.isEmpty { fatalError("refused without an error") }
        for e in errors where e.message.isEmpty { fatalError("error without a message at \(e.path)") }
    case .scene(let scene):
        let resolution = LayoutEngine.resolve(scene)
        let direct = resolution.encoded
        if direct != JSONWriter.encode(resolution.json) { fatalError("encoders disagree") }
        if (try? JSONParser.parse(direct)) == nil { fatalError("the response is not JSON") }
        for p in resolution.placements {
            if let f = p.frame, !(f.x.isFinite && f.y.isFinite && f.width.isFinite && f.height.isFinite) {
                fatalError("non-finite frame for \(p.id)")
            }
        }
        // With the scene too, so that its toolbar items (any bytes) reach the picture.
        if SVGRenderer.render(resolutionJSON: resolution.json, scene: value) == nil {
            fatalError("SVG refused a resolution")
        }
    }
    return 0
}
