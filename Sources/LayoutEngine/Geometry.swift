/// A rectangle in window coordinates (docs/rules.md#coordinates): origin at the window's top-left corner, x grows to
/// the right whatever the layout direction.
public struct Rect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}

public struct Size: Sendable, Equatable {
    public var width: Double, height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Insets in physical terms (left/right). Requests and responses speak leading/trailing; the engine
/// converts at the edges (docs/rules.md#coordinates: leading = left in ltr, right in rtl).
struct PhysicalInsets: Sendable, Equatable {
    var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0
    static let zero = PhysicalInsets()
}

/// `lo ≤ v ≤ hi`; when the interval is empty (an item larger than its room) the item is centred on it,
/// which keeps it symmetric under the RTL mirror (docs/rules.md#rtl-mirror) and never produces a non-finite value.
@inline(__always)
func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
    if hi < lo { return (lo + hi) / 2 }
    return v < lo ? lo : (v > hi ? hi : v)
}
