import JSON
import TestSupport
import Testing

@testable import LayoutEngine

/// Fixture devices, defined here so that the tests do not depend on the Store's built-ins.
/// - test-phone: 390×844, insets 47/34, landscape 47/47/21 (the iPhone 13/14 geometry of
///   pointfreeco/swift-snapshot-testing ViewImageConfig), compact/regular, landscape compact/compact.
/// - test-tablet: 1024×1366 (iPad Pro 12.9"), insets 24/20, regular/regular.
/// - test-foldable: `outer` 390×844 like the phone, `inner` 780×844 with a seamless vertical fold at x=390,
///   regular/regular.
/// - test-hinged: one 1200×900 display with a 20 pt physical hinge at x=600 (separating even when flat).
enum Fixtures {
    static let phoneDisplay = Display(
        id: "main", width: 390, height: 844, scale: 3, cornerRadius: 47,
        safeArea: Insets(top: 47, bottom: 34), landscapeSafeArea: Insets(top: 0, leading: 47, bottom: 21, trailing: 47),
        portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
        landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact))
    static let phone = DeviceProfile(id: "test-phone", name: "Test phone", kind: .phone, displays: [phoneDisplay])
    static let tablet = DeviceProfile(
        id: "test-tablet", name: "Test tablet", kind: .tablet,
        displays: [
            Display(
                id: "main", width: 1024, height: 1366, scale: 2, cornerRadius: 18,
                safeArea: Insets(top: 24, bottom: 20),
                landscapeSafeArea: Insets(top: 24, bottom: 20),
                portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular))
        ])
    static let foldable = DeviceProfile(
        id: "test-foldable", name: "Test foldable", kind: .foldable,
        displays: [
            Display(
                id: "outer", width: 390, height: 844, scale: 3, cornerRadius: 47, safeArea: Insets(top: 47, bottom: 34),
                landscapeSafeArea: Insets(top: 0, leading: 47, bottom: 21, trailing: 47),
                portraitSizeClass: SizeClassPair(horizontal: .compact, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .compact, vertical: .compact)),
            Display(
                id: "inner", width: 780, height: 844, scale: 3, cornerRadius: 30, safeArea: Insets(top: 47, bottom: 34),
                landscapeSafeArea: Insets(top: 0, leading: 47, bottom: 21, trailing: 47),
                fold: Fold(orientation: .vertical, position: 390, thickness: 0),
                portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular)),
        ])
    static let hinged = DeviceProfile(
        id: "test-hinged", name: "Test hinged", kind: .foldable,
        displays: [
            Display(
                id: "main", width: 1200, height: 900, scale: 2, cornerRadius: 0, safeArea: .zero,
                landscapeSafeArea: .zero,
                fold: Fold(orientation: .vertical, position: 600, thickness: 20),
                portraitSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular),
                landscapeSizeClass: SizeClassPair(horizontal: .regular, vertical: .regular))
        ])
    static let catalog = StaticDeviceCatalog([phone, tablet, foldable, hinged])
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
}

func parse(_ text: String) throws -> JSONValue {
    do { return try JSONParser.parse(text) } catch {
        throw TestFailure(description: "test JSON does not parse: \(error)")
    }
}

/// Decodes `text` with the fixture catalog, failing the test with every issue when it does not decode.
func scene(_ text: String) throws -> Scene {
    switch Scene.decode(try parse(text), catalog: Fixtures.catalog) {
    case .scene(let s): return s
    case .invalid(let errors, _): throw TestFailure(description: "scene does not decode: \(errors)")
    }
}

func resolve(_ text: String) throws -> Resolution { LayoutEngine.resolve(try scene(text)) }

/// The decoding errors of `text` as "pointer: message".
func errors(_ text: String) throws -> [JSONIssue] {
    Scene.decode(try parse(text), catalog: Fixtures.catalog).errors
}

func close(_ a: Double, _ b: Double, tolerance: Double = 0.01) -> Bool { abs(a - b) <= tolerance }

func close(_ r: Rect?, _ e: (Double, Double, Double, Double)) -> Bool {
    guard let r else { return false }
    return close(r.x, e.0) && close(r.y, e.1) && close(r.width, e.2) && close(r.height, e.3)
}

extension Resolution {
    func placement(_ id: String) -> Placement? { placements.first { $0.id == id } }
    func has(_ code: DiagnosticCode, presentation: String? = nil) -> Bool {
        diagnostics.contains { $0.code == code && (presentation == nil || $0.presentation == presentation) }
    }
    var codeSet: Set<DiagnosticCode> { Set(diagnostics.map(\.code)) }
}
