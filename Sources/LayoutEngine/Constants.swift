import JSON

/// The named constants (docs/rules.md#constants). Every number the rules use lives here, so a request can calibrate the
/// model against a real device with `"constants": {"sheet.topGap": 12}`.
public struct Constants: Sendable, Equatable {
    public var sheetTopGap = 10.0
    public var sheetMediumFraction = 0.5
    public var sheetFormWidth = 540.0
    public var sheetFormHeight = 620.0
    public var sheetPageWidth = 704.0
    public var sheetMargin = 20.0
    public var sheetCornerRadius = 10.0
    public var popoverWidth = 320.0
    public var popoverHeight = 320.0
    public var popoverMargin = 10.0
    public var panelBreakpoint = 700.0
    public var panelWidth = 360.0
    public var panelHeight = 320.0
    public var panelCornerRadius = 24.0
    public var arrangementDefaultRatio = 0.5
    public var arrangementMinLength = 44.0

    public init() {}

    public static let defaults = Constants()

    /// One entry of the constants table (docs/rules.md#constants): its key, the range a request may set, its meaning
    /// and where it is stored.
    public struct Definition: Sendable {
        public let key: String
        public let range: ClosedRange<Double>
        public let meaning: String
        public let keyPath: WritableKeyPath<Constants, Double> & Sendable
    }

    /// In the order of the table in docs/rules.md#constants. Sizes are bounded so that no override can make a
    /// number non-finite; fractions lie in [0, 1] (the medium fraction in (0, 1]).
    public static let definitions: [Definition] = [
        Definition(
            key: "sheet.topGap", range: 0...10_000, meaning: "gap between the top safe-area inset and a large detent",
            keyPath: \.sheetTopGap),
        Definition(
            key: "sheet.mediumFraction", range: 0.000_001...1,
            meaning: "medium detent, as a fraction of the large detent", keyPath: \.sheetMediumFraction),
        Definition(
            key: "sheet.formWidth", range: 1...100_000, meaning: "form sheet card width (UIKit formSheet)",
            keyPath: \.sheetFormWidth),
        Definition(
            key: "sheet.formHeight", range: 1...100_000, meaning: "form sheet card height (UIKit formSheet)",
            keyPath: \.sheetFormHeight),
        Definition(
            key: "sheet.pageWidth", range: 1...100_000, meaning: "widest page sheet card", keyPath: \.sheetPageWidth),
        Definition(
            key: "sheet.margin", range: 0...10_000, meaning: "card/popover distance to the window edge",
            keyPath: \.sheetMargin),
        Definition(
            key: "sheet.cornerRadius", range: 0...10_000, meaning: "default sheet corner radius",
            keyPath: \.sheetCornerRadius),
        Definition(
            key: "popover.width", range: 1...100_000, meaning: "default popover content width", keyPath: \.popoverWidth),
        Definition(
            key: "popover.height", range: 1...100_000, meaning: "default popover content height",
            keyPath: \.popoverHeight),
        Definition(
            key: "popover.margin", range: 0...10_000, meaning: "popover distance to the window edge",
            keyPath: \.popoverMargin),
        Definition(
            key: "panel.breakpoint", range: 0...100_000,
            meaning: "adaptive panel breakpoint: side panel at or above this window width", keyPath: \.panelBreakpoint),
        Definition(key: "panel.width", range: 1...100_000, meaning: "side panel width", keyPath: \.panelWidth),
        Definition(key: "panel.height", range: 1...100_000, meaning: "bottom panel height", keyPath: \.panelHeight),
        Definition(
            key: "panel.cornerRadius", range: 0...10_000, meaning: "panel corner radius", keyPath: \.panelCornerRadius),
        Definition(
            key: "arrangement.defaultRatio", range: 0...1,
            meaning: "secondary's share of a split when nothing is asked", keyPath: \.arrangementDefaultRatio),
        Definition(
            key: "arrangement.minLength", range: 0...10_000, meaning: "smallest length a split view keeps",
            keyPath: \.arrangementMinLength),
    ]

    /// The keys of `definitions`, in its order: the members a request's `constants` may have (read by the scene
    /// reader, SceneDecodingReader.swift). A key is a single pointer token ("." needs no escaping).
    static let keys = definitions.map(\.key)

    /// The error for a key of a request's `constants` that is not one of `keys`.
    static func unknownKeyMessage(_ key: String) -> String {
        let guess = NameSuggestion.suggestion(for: key, among: keys)
        return "unknown constant \"\(key)\"" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "")
            + "; GET /v1/constants lists the valid keys"
    }

    /// The body of `GET /v1/constants`:
    /// `{"constants": {key: {"default": v, "meaning": "…", "minimum": lo, "maximum": hi}}}`.
    public static var json: JSONValue {
        var o = JSONObject()
        for d in definitions {
            o.members.append(
                JSONMember(
                    d.key,
                    .object([
                        "default": .number(Constants.defaults[keyPath: d.keyPath]), "meaning": .string(d.meaning),
                        "minimum": .number(d.range.lowerBound), "maximum": .number(d.range.upperBound),
                    ])))
        }
        return .object(["constants": .object(o)])
    }

    /// The values in effect, as a flat `{key: value}` object.
    public var json: JSONValue {
        .object(JSONObject(Constants.definitions.map { JSONMember($0.key, .number(self[keyPath: $0.keyPath])) }))
    }
}
