/// Material 3 window size classes (docs/rules.md#window-size-classes), reported for cross-platform tools.
public enum MaterialWidthClass: String, Sendable, CaseIterable { case compact, medium, expanded, large, extraLarge }
public enum MaterialHeightClass: String, Sendable, CaseIterable { case compact, medium, expanded }

public struct WindowClass: Sendable, Equatable {
    public var width: MaterialWidthClass
    public var height: MaterialHeightClass

    /// Lower bounds inclusive — width <600 compact, <840 medium, <1200 expanded, <1600 large,
    /// else extraLarge; height <480 compact, <900 medium, else expanded.
    public init(width w: Double, height h: Double) {
        width = w < 600 ? .compact : w < 840 ? .medium : w < 1200 ? .expanded : w < 1600 ? .large : .extraLarge
        height = h < 480 ? .compact : h < 900 ? .medium : .expanded
    }
}

enum SizeClassRules {
    /// docs/rules.md#size-classes, thresholds: horizontal regular iff width ≥ regularWidthMin, vertical regular iff
    /// height ≥ regularHeightMin (profile values; 600 and 500 without a device).
    static func fromThresholds(width: Double, height: Double, profile: DeviceProfile?) -> SizeClassPair {
        let wMin = profile?.regularWidthMin ?? 600
        let hMin = profile?.regularHeightMin ?? 500
        return SizeClassPair(
            horizontal: width >= wMin ? .regular : .compact, vertical: height >= hMin ? .regular : .compact)
    }

    /// docs/rules.md#size-classes, first rule that applies: 1 the request's `sizeClass`; 2 the profile's table when the
    /// window is the whole display (`displaySizeClass`: the table's entry for the display and orientation); 3 the
    /// thresholds.
    static func window(
        requested: SizeClassPair?, displaySizeClass: SizeClassPair?, wholeDisplay: Bool,
        width: Double, height: Double, profile: DeviceProfile?
    ) -> SizeClassPair {
        if let requested { return requested }  // rule 1
        if wholeDisplay, let displaySizeClass { return displaySizeClass }  // rule 2
        return fromThresholds(width: width, height: height, profile: profile)  // rule 3
    }
}
