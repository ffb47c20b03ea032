// hinge-bench: the Foundation equivalent of the engine's codec, for the comparison main.swift prints —
// Codable structs for the same request and response, decoded and encoded by JSONDecoder and JSONEncoder.
import Foundation
import JSON
import LayoutEngine

struct RectDTO: Codable { var x: Double, y: Double, width: Double, height: Double }
struct SizeDTO: Codable { var width: Double, height: Double }
struct ToolbarItemDTO: Codable { var title: String?, systemImage: String?, placement: String? }
enum DetentDTO: Codable {
    case named(String)
    case height(Double)
    case fraction(Double)
    private enum Keys: String, CodingKey { case height, fraction }
    init(from decoder: Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            self = .named(s)
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        if let h = try c.decodeIfPresent(Double.self, forKey: .height) {
            self = .height(h)
        } else {
            self = .fraction(try c.decode(Double.self, forKey: .fraction))
        }
    }
    func encode(to encoder: Encoder) throws {
        switch self {
        case .named(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .height(let h):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(h, forKey: .height)
        case .fraction(let f):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(f, forKey: .fraction)
        }
    }
}
enum InteractionDTO: Codable {
    case mode(String)
    case upThrough(DetentDTO)
    private enum Keys: String, CodingKey { case upThrough }
    init(from decoder: Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            self = .mode(s)
            return
        }
        self = .upThrough(try decoder.container(keyedBy: Keys.self).decode(DetentDTO.self, forKey: .upThrough))
    }
    func encode(to encoder: Encoder) throws {}
}
struct IntentDTO: Codable { var hasDecision: Bool?, abandonableWithoutCost: Bool? }
struct PresentationDTO: Codable {
    var id: String
    var kind: String
    var presentedFrom: String?
    var placement: String?
    var sizing: String?
    var detents: [DetentDTO]?
    var selectedDetent: DetentDTO?
    var contentSize: SizeDTO?
    var backgroundInteraction: InteractionDTO?
    var interactiveDismissDisabled: Bool?
    var hasUnsavedChanges: Bool?
    var dragIndicator: String?
    var cornerRadius: Double?
    var toolbar: [ToolbarItemDTO]?
    var anchor: RectDTO?
    var arrowEdge: String?
    var compactAdaptation: String?
    var breakpoint: Double?
    var alignment: String?
    var panelWidth: Double?
    var panelHeight: Double?
    var modal: Bool?
    var intent: IntentDTO?
}
struct RatioDTO: Codable {
    var value: Double?
    init(from decoder: Decoder) throws { value = try? decoder.singleValueContainer().decode(Double.self) }
    func encode(to encoder: Encoder) throws {}
}
struct ViewDTO: Codable { var ratio: RatioDTO?, overlayEdge: String? }
struct ArrangementDTO: Codable {
    var style: String?, axes: [String]?, primary: ViewDTO?, secondary: ViewDTO?, container: String?
}
struct SceneDTO: Codable {
    var device: String?
    var display: String?
    var posture: String?
    var orientation: String?
    var layoutDirection: String?
    var dynamicTypeSize: String?
    var window: RectDTO?
    var presentations: [PresentationDTO]?
    var arrangement: ArrangementDTO?
    var constants: [String: Double]?
}

struct DetentHeightDTO: Codable { var detent: String, height: Double }
struct PlacementChoiceDTO: Codable { var requested: String, resolved: String }
struct RadiiDTO: Codable { var topLeading: Double, topTrailing: Double, bottomLeading: Double, bottomTrailing: Double }
struct PlacementDTO: Codable {
    var id: String, kind: String, status: String
    var style: String?
    var frame: RectDTO?
    var region: String?
    var placement: PlacementChoiceDTO?
    var detents: [DetentHeightDTO]?
    var selectedDetent: String?
    var dimsBackground: Bool?, backgroundInteractive: Bool?, swipeToDismiss: Bool?, tapOutsideToDismiss: Bool?
    var dragIndicatorVisible: Bool?
    var toolbarOrientation: String?
    var cornerRadii: RadiiDTO?
    var transitionEdge: String?, contentAxis: String?, arrowEdge: String?, adaptedFrom: String?
}
struct DiagnosticDTO: Codable {
    var code: String, severity: String, presentation: String?, path: String, message: String
}
struct SizeClassDTO: Codable { var horizontal: String, vertical: String }
struct RegionDTO: Codable { var frame: RectDTO, side: String?, sizeClass: SizeClassDTO }
struct FoldDTO: Codable { var orientation: String, bounds: RectDTO, state: String, separating: Bool }
struct InsetsDTO: Codable { var top: Double, leading: Double, bottom: Double, trailing: Double }
struct EnvironmentDTO: Codable {
    var device: String?, display: String?, orientation: String, posture: String, layoutDirection: String,
        dynamicTypeSize: String
    var window: RectDTO, safeArea: InsetsDTO, sizeClass: SizeClassDTO, windowClass: [String: String]
    var fold: FoldDTO?
    var regions: [RegionDTO]
}
struct ArrangedViewDTO: Codable {
    var frame: RectDTO?
    var visible: Bool
    var zIndex: Double?
    var region: String?
}
struct ResolvedArrangementDTO: Codable {
    var style: String, axis: String?, separated: Bool, primary: ArrangedViewDTO, secondary: ArrangedViewDTO
}
struct ResolutionDTO: Codable {
    var engineVersion: String
    var environment: EnvironmentDTO
    var arrangement: ResolvedArrangementDTO?
    var placements: [PlacementDTO]
    var diagnostics: [DiagnosticDTO]
}

/// The engine's response for the typical scene, decoded once into the Codable mirror (outside the timing).
func responseDTO(_ bytes: [UInt8]) -> ResolutionDTO {
    let out = Data(JSONWriter.encode(LayoutEngine.resolve(decodeScene(bytes)).json))
    // Detent values are strings in the typical scene; the DTO keeps them as strings.
    guard let dto = try? JSONDecoder().decode(ResolutionDTO.self, from: out) else {
        print("the response does not fit the Codable mirror")
        exit(1)
    }
    return dto
}
