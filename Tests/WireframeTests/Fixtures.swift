import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

// MARK: - Fixtures

/// Fixture devices (not the Store's built-ins, which live on another branch): a notched phone, a tablet
/// and an iPhone Duo-like foldable whose inner display has a seamless vertical fold at its middle.
enum SVGFixtures {
    static let phone = DeviceProfile(
        id: "phone", name: "Phone", kind: .phone,
        displays: [
            Display(
                id: "main", width: 390, height: 844, scale: 3, cornerRadius: 47,
                safeArea: Insets(top: 47, leading: 0, bottom: 34, trailing: 0),
                landscapeSafeArea: Insets(top: 0, leading: 47, bottom: 21, trailing: 47),
                portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact))
        ])
    static let tablet = DeviceProfile(
        id: "tablet", name: "Tablet", kind: .tablet,
        displays: [
            Display(
                id: "main", width: 1024, height: 1366, scale: 2, cornerRadius: 18,
                safeArea: Insets(top: 24, leading: 0, bottom: 20, trailing: 0),
                landscapeSafeArea: Insets(top: 24, leading: 0, bottom: 20, trailing: 0),
                portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular))
        ])
    static let duo = DeviceProfile(
        id: "iphone-duo", name: "iPhone Duo", kind: .foldable,
        displays: [
            Display(
                id: "outer", width: 390, height: 844, scale: 3, cornerRadius: 47,
                safeArea: Insets(top: 47, leading: 0, bottom: 34, trailing: 0),
                landscapeSafeArea: Insets(top: 0, leading: 47, bottom: 21, trailing: 47),
                portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact)),
            Display(
                id: "inner", width: 780, height: 844, scale: 3, cornerRadius: 40,
                safeArea: Insets(top: 32, leading: 0, bottom: 24, trailing: 0),
                landscapeSafeArea: Insets(top: 0, leading: 32, bottom: 24, trailing: 32),
                fold: Fold(orientation: .vertical, position: 390, thickness: 0),
                portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular)),
        ], illustrative: true)
    static let catalog = StaticDeviceCatalog([phone, tablet, duo])

    /// The devices of the engine's golden scenes (Tests/LayoutEngineTests/Support.swift): the same
    /// geometry under their `test-…` ids, plus a 1200×900 display with a 20 pt hinge at x=600.
    static let goldenCatalog: StaticDeviceCatalog = {
        func renamed(_ p: DeviceProfile, _ id: String) -> DeviceProfile {
            var p = p
            p.id = id
            return p
        }
        let hinged = DeviceProfile(
            id: "test-hinged", name: "Hinged", kind: .foldable,
            displays: [
                Display(
                    id: "main", width: 1200, height: 900, scale: 2, cornerRadius: 0, safeArea: .zero,
                    landscapeSafeArea: .zero, fold: Fold(orientation: .vertical, position: 600, thickness: 20),
                    portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                    landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular))
            ])
        return StaticDeviceCatalog([
            renamed(phone, "test-phone"), renamed(tablet, "test-tablet"), renamed(duo, "test-foldable"), hinged,
        ])
    }()

    /// The engine's golden scenes (`NN-name.scene.json`), read from its test folder.
    static func goldenScenes() -> [(name: String, json: String)] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LayoutEngineTests/Scenes")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return files.filter { $0.hasSuffix(".scene.json") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) else {
                return nil
            }
            return (String(name.dropLast(".scene.json".count)), text)
        }
    }

    /// name → scene JSON.
    static let scenes: [(name: String, json: String)] = [
        (
            "phone-bottom-sheet",
            #"""
            {"device": "phone", "presentations": [
              {"id": "filters", "kind": "sheet", "detents": ["medium", "large", {"height": 200}],
               "selectedDetent": "medium", "toolbar": [{"title": "Done", "placement": "confirmationAction"}]}]}
            """#
        ),
        (
            "ipad-trailing-card",
            #"""
            {"device": "tablet", "presentations": [
              {"id": "inspector", "kind": "sheet", "placement": "trailing",
               "toolbar": [{"title": "Close", "systemImage": "xmark", "placement": "cancellationAction"},
                           {"title": "Share", "placement": "primaryAction"}]}]}
            """#
        ),
        (
            "duo-half-opened",
            #"""
            {"device": "iphone-duo", "posture": "halfOpened",
             "arrangement": {"style": "split", "axes": ["horizontal", "vertical"], "primary": {}, "secondary": {}},
             "presentations": [
              {"id": "compose", "kind": "sheet", "placement": "center", "detents": ["medium", "large"],
               "toolbar": [{"title": "Send", "placement": "confirmationAction"}]}]}
            """#
        ),
        (
            "hostile-rtl",
            #"""
            {"device": "phone", "layoutDirection": "rtl", "presentations": [
              {"id": "a<b&\"c'", "kind": "sheet", "detents": ["medium", "large"], "hasUnsavedChanges": true},
              {"id": "]]><!-- &amp; \u0001", "kind": "fullScreenCover"},
              {"id": "x>y", "kind": "popover", "anchor": {"x": 10, "y": 100, "width": 44, "height": 44},
               "presentedFrom": "a<b&\"c'"}]}
            """#
        ),
        (
            "tablet-popover-panel-hidden-secondary",
            #"""
            {"device": "tablet", "orientation": "landscape",
             "arrangement": {"style": "split", "axes": ["vertical"], "primary": {}, "secondary": {}},
             "presentations": [
              {"id": "tools", "kind": "adaptivePanel", "modal": true},
              {"id": "info", "kind": "popover", "anchor": {"x": 600, "y": 300, "width": 40, "height": 40},
               "arrowEdge": "leading", "presentedFrom": "tools"}]}
            """#
        ),
        (
            "no-device-horizontal-fold-overlay",
            #"""
            {"window": {"width": 700, "height": 900}, "fold": {"orientation": "horizontal", "position": 450, "thickness": 20},
             "arrangement": {"style": "overlay", "axes": ["horizontal", "vertical"], "primary": {}, "secondary": {}},
             "presentations": [{"id": "p", "kind": "adaptivePanel"}, {"id": "s", "kind": "sheet"}]}
            """#
        ),
    ]

    /// Forty sheets: thirty-nine are ignored, each with a diagnostic — a legend longer than the picture.
    static let crowded: (name: String, json: String) = (
        "crowded",
        #"{"device": "phone", "orientation": "landscape", "presentations": ["#
            + (0..<40).map { #"{"id": "sheet-\#($0)", "kind": "sheet"}"# }.joined(separator: ", ") + "]}"
    )

    static var all: [(name: String, json: String)] { scenes + [crowded] }

    static let titles: [String: String] = [
        "phone-bottom-sheet": "Filters: a bottom sheet with three detents on a phone",
        "ipad-trailing-card": "Inspector: a sheet docked trailing on an iPad",
        "duo-half-opened": "Compose on an iPhone Duo, half-opened, over a split arrangement",
        "hostile-rtl": "Hostile ids, right-to-left",
        "tablet-popover-panel-hidden-secondary": "A modal side panel and a popover; the split's secondary is hidden",
        "no-device-horizontal-fold-overlay": "A window with a hinge: overlay separated by the fold",
    ]

    static func resolution(_ json: String) throws -> Resolution {
        let value = try JSONParser.parse(json)
        let decoded = Scene.decode(value, catalog: catalog)
        guard let scene = decoded.scene else {
            Issue.record("scene does not decode: \(decoded.errors)")
            throw FixtureError.invalidScene
        }
        return LayoutEngine.resolve(scene)
    }

    /// The resolution of `json` and its picture drawn with the scene (for the toolbar items), unscoped.
    static func picture(_ json: String, title: String? = nil, width: Int? = nil, catalog: StaticDeviceCatalog = catalog)
        throws -> (Resolution, String)
    {
        let value = try JSONParser.parse(json)
        let decoded = Scene.decode(value, catalog: catalog)
        guard let scene = decoded.scene else {
            Issue.record("scene does not decode: \(decoded.errors)")
            throw FixtureError.invalidScene
        }
        let resolution = LayoutEngine.resolve(scene)
        let svg = SVGRenderer.render(resolution, scene: value, title: title, width: width)
        return (resolution, XMLCheck.unscoped(svg))
    }

    enum FixtureError: Error { case invalidScene }
}
