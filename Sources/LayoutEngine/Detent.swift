import JSON

/// A sheet detent (docs/rules.md#sheet-fields): `"medium"`, `"large"`, `"fitted"`, `{"height": h}`, `{"fraction": f}`.
public enum Detent: Sendable, Equatable {
    case medium, large, fitted
    case height(Double)
    case fraction(Double)

    public var json: JSONValue {
        switch self {
        case .medium: return "medium"
        case .large: return "large"
        case .fitted: return "fitted"
        case .height(let h): return .object(["height": .number(h)])
        case .fraction(let f): return .object(["fraction": .number(f)])
        }
    }

    /// Short text for messages.
    var text: String {
        switch self {
        case .medium: return "\"medium\""
        case .large: return "\"large\""
        case .fitted: return "\"fitted\""
        case .height(let h): return "{\"height\": \(fmt(h))}"
        case .fraction(let f): return "{\"fraction\": \(fmt(f))}"
        }
    }
}

/// The detent heights of one sheet container (docs/rules.md#detent-heights): `large` is the sheet's full
/// height inside the safe area (UIKit `maximumDetentValue`), the others are measured against it.
struct DetentMetrics {
    /// `H − safeTop − sheet.topGap`, never negative.
    let large: Double
    let mediumFraction: Double
    let contentHeight: Double?

    init(containerHeight: Double, safeTop: Double, contentHeight: Double?, constants: Constants) {
        large = max(0, containerHeight - safeTop - constants.sheetTopGap)
        mediumFraction = constants.sheetMediumFraction
        self.contentHeight = contentHeight
    }

    /// The height of `d`, and whether a `{"height"}` detent was clamped to `large`.
    func height(_ d: Detent) -> (height: Double, clamped: Bool) {
        switch d {
        case .large: return (large, false)
        case .medium: return (mediumFraction * large, false)  // Apple: "approximately half" the large detent
        case .height(let h): return h > large ? (large, true) : (h, false)
        case .fraction(let f): return (f * large, false)
        // A fitted sheet is never 0 pt tall, so empty content still shows (docs/rules.md#detent-heights).
        case .fitted: return (min(max(1, contentHeight ?? 1), large), false)
        }
    }
}

/// One entry of a placement's `detents`.
public struct ResolvedDetent: Sendable, Equatable {
    public var detent: Detent
    public var height: Double
}
