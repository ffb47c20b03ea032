/// Deterministic JSON writer. PLACEHOLDER API — implemented in the JSON issue (#3):
/// keys sorted, shortest round-trip numbers, escaped strings, no insignificant whitespace.
public enum JSONWriter {
    /// Shortest text that reads back as the same Double; integers without a fraction.
    public static func formatNumber(_ d: Double) -> String {
        if d == d.rounded(.towardZero), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}
