import JSON
import LayoutEngine
import Testing

@testable import Resolving

/// The decisions of docs/api.md#matrix, checked on `Matrix.resolve` directly with a small catalog: a phone
/// (does not fold) and a foldable.
@Suite("Matrix (docs/api.md#matrix)")
struct MatrixContractTests {
    static let sizeClasses = SizeClassPair(horizontal: .compact, vertical: .regular)
    static func display(_ id: String, _ w: Double, _ h: Double, fold: Fold? = nil) -> Display {
        Display(
            id: id, width: w, height: h, scale: 3, cornerRadius: 0, safeArea: .zero, landscapeSafeArea: .zero,
            fold: fold,
            portraitSizeClass: sizeClasses, landscapeSizeClass: sizeClasses)
    }
    static let catalog = StaticDeviceCatalog([
        DeviceProfile(id: "phone", name: "Phone", kind: .phone, displays: [display("main", 400, 800)]),
        DeviceProfile(
            id: "fold", name: "Fold", kind: .foldable,
            displays: [display("inner", 800, 900, fold: Fold(orientation: .vertical, position: 400))]),
    ])

    static func run(_ body: String) throws -> (status: Int, json: JSONValue) {
        let out = Matrix.resolve(body: Array(body.utf8), catalog: catalog)
        return (out.problemKind?.status ?? 200, try JSONParser.parse(String(decoding: out.json, as: UTF8.self)))
    }

    static func combinations(_ json: JSONValue) -> [String] {
        (json["results"]?.arrayValue ?? []).map {
            [$0["device"], $0["posture"], $0["orientation"], $0["layoutDirection"]]
                .map { $0?.stringValue ?? "?" }.joined(separator: " ")
        }
    }

    @Test("matrix-omitted-dimensions: an omitted dimension means every value; an empty list is refused")
    func omittedDimensions() throws {
        let all = try Self.run(#"{"scene":{}}"#)
        #expect(all.status == 200)
        // phone: 1 posture × 2 orientations × 2 directions; fold: 3 × 2 × 2.
        let names = Self.combinations(all.json)
        #expect(names.count == 4 + 12)
        #expect(
            names.prefix(5) == [
                "phone flat portrait ltr", "phone flat portrait rtl", "phone flat landscape ltr",
                "phone flat landscape rtl",
                "fold flat portrait ltr",
            ])
        #expect(
            Set(names.filter { $0.hasPrefix("fold") }.map { $0.split(separator: " ")[1] }) == [
                "flat", "halfOpened", "closed",
            ])
        let narrowed = try Self.run(#"{"scene":{},"devices":["fold"],"orientations":["landscape"]}"#)
        #expect(
            Self.combinations(narrowed.json) == [
                "fold flat landscape ltr", "fold flat landscape rtl", "fold halfOpened landscape ltr",
                "fold halfOpened landscape rtl", "fold closed landscape ltr", "fold closed landscape rtl",
            ])
        let empty = try Self.run(#"{"scene":{},"postures":[]}"#)
        #expect(empty.status == 422)
        #expect(empty.json["errors"]?[0]?["path"] == "/postures")
    }

    @Test("matrix-bad-combination: a combination that cannot be resolved has resolution null and its errors")
    func badCombination() throws {
        // A 500×850 window fits the fold's 800×900 portrait display, not the phone's 400×800 one.
        let r = try Self.run(
            #"{"scene":{"window":{"width":500,"height":850}},"orientations":["portrait"],"layoutDirections":["ltr"],"postures":["flat"]}"#
        )
        #expect(r.status == 200)
        let results = try #require(r.json["results"]?.arrayValue)
        #expect(results.count == 2)
        #expect(results[0]["device"] == "phone")
        #expect(results[0]["resolution"] == .null)
        #expect(results[0]["errors"]?[0]?["path"] == "/window")
        #expect(results[1]["device"] == "fold")
        #expect(results[1]["errors"] == .null)
        #expect(results[1]["resolution"]?["environment"]?["device"] == "fold")
        // A problem with the matrix request itself is a 422 for the whole request.
        let unknown = try Self.run(#"{"scene":{},"devices":["phone","nope"]}"#)
        #expect(unknown.status == 422)
        #expect(unknown.json["errors"]?[0]?["path"] == "/devices/1")
    }
}
