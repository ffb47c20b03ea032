import LayoutEngine

/// The built-in device catalog (docs/rules.md#built-in-devices), seeded into the database at open.
///
/// Bump `catalogVersion` whenever a number here changes or a device is added or removed: a database seeded
/// by an older catalog then gets its built-ins upserted (custom profiles are never touched).
///
/// Sources, cited next to each number:
/// - **[HIG]** Apple Human Interface Guidelines, Layout → "Device screen sizes and orientations" table:
///   portrait dimensions in points and the scale factor.
/// - **[VIC]** pointfreeco/swift-snapshot-testing, `Sources/SnapshotTesting/Common/View.swift`,
///   `ViewImageConfig` and its `UITraitCollection` presets: safe-area insets and horizontal/vertical size
///   classes per orientation. E.g. `iPhone13ProMax`: portrait 428×926 insets top 47 bottom 34, landscape
///   926×428 insets left/right 47 bottom 21, traits regular/compact in landscape. Recent revisions define
///   `iPhone16 = iPhone15 = iPhone14Pro` (393×852: portrait 59/34, landscape 59 left/right, 21 bottom,
///   compact/compact) and `iPhone16ProMax` (440×956: portrait 62/34, landscape 62 left/right, 21 bottom,
///   regular/compact), `iPhoneSe`/`iPhone8` (portrait top 20 for the status bar, landscape no insets),
///   `iPadPro11` (insets top 24 bottom 20, regular/regular in both orientations).
/// - **[CR]** Display corner radii: Apple does not publish them. The values are the commonly reported
///   `_displayCornerRadius` figures, rounded; they only shape drawings (SVG), never a layout rule.
public enum BuiltInDevices {
    public static let catalogVersion = 1

    private static let phonePortrait = SizeClassPair(horizontal: .compact, vertical: .regular)  // [VIC] all iPhones
    private static let phoneLandscape = SizeClassPair(horizontal: .compact, vertical: .compact)  // [VIC] non-Max
    private static let maxLandscape = SizeClassPair(horizontal: .regular, vertical: .compact)  // [VIC] Max/Plus
    private static let regular = SizeClassPair(horizontal: .regular, vertical: .regular)  // [VIC] iPads, full screen

    /// [VIC] `iPadPro11`: the insets of an all-screen iPad (no home button), the same in both orientations.
    private static let allScreenIPadInsets = Insets(top: 24, leading: 0, bottom: 20, trailing: 0)

    public static let all: [DeviceProfile] = [
        DeviceProfile(
            id: "iphone-se-3", name: "iPhone SE (3rd generation)", kind: .phone,
            displays: [
                Display(
                    id: "main",
                    width: 375, height: 667, scale: 2,  // [HIG] 375×667 pt @2x
                    cornerRadius: 0,  // square-cornered LCD
                    safeArea: Insets(top: 20),  // [VIC] iPhoneSe/iPhone8 portrait: status bar 20
                    landscapeSafeArea: .zero,  // [VIC] iPhoneSe/iPhone8 landscape: no insets
                    portraitSizeClass: phonePortrait, landscapeSizeClass: phoneLandscape)  // [VIC] iPhone8 traits
            ], builtIn: true),
        DeviceProfile(
            id: "iphone-16", name: "iPhone 16", kind: .phone,
            displays: [
                Display(
                    id: "main",
                    width: 393, height: 852, scale: 3,  // [HIG] 393×852 pt @3x
                    cornerRadius: 55,  // [CR]
                    safeArea: Insets(top: 59, bottom: 34),  // [VIC] iPhone16 → iPhone14Pro portrait 59/34
                    landscapeSafeArea: Insets(leading: 59, bottom: 21, trailing: 59),  // [VIC] landscape 59/21/59
                    portraitSizeClass: phonePortrait, landscapeSizeClass: phoneLandscape)  // [VIC] compact/compact
            ], builtIn: true),
        DeviceProfile(
            id: "iphone-16-pro-max", name: "iPhone 16 Pro Max", kind: .phone,
            displays: [
                Display(
                    id: "main",
                    width: 440, height: 956, scale: 3,  // [HIG] 440×956 pt @3x
                    cornerRadius: 62,  // [CR]
                    safeArea: Insets(top: 62, bottom: 34),  // [VIC] iPhone16ProMax portrait 62/34
                    landscapeSafeArea: Insets(leading: 62, bottom: 21, trailing: 62),  // [VIC] landscape 62/21/62
                    portraitSizeClass: phonePortrait, landscapeSizeClass: maxLandscape)  // [VIC] regular/compact
            ], builtIn: true),
        DeviceProfile(
            id: "ipad-mini", name: "iPad mini (A17 Pro)", kind: .tablet,
            displays: [
                Display(
                    id: "main",
                    width: 744, height: 1133, scale: 2,  // [HIG] 744×1133 pt @2x
                    cornerRadius: 22,  // [CR]
                    // [VIC]'s `iPadMini` preset models the older home-button mini (top 20, bottom 0); this
                    // all-screen mini takes the all-screen iPad insets of `iPadPro11`.
                    safeArea: allScreenIPadInsets, landscapeSafeArea: allScreenIPadInsets,
                    portraitSizeClass: regular, landscapeSizeClass: regular)  // [VIC] iPadMini traits, full screen
            ], builtIn: true),
        DeviceProfile(
            id: "ipad-pro-11", name: "iPad Pro 11-inch (M4)", kind: .tablet,
            displays: [
                Display(
                    id: "main",
                    width: 834, height: 1210, scale: 2,  // [HIG] 834×1210 pt @2x
                    cornerRadius: 18,  // [CR]
                    safeArea: allScreenIPadInsets, landscapeSafeArea: allScreenIPadInsets,  // [VIC] iPadPro11 24/20
                    portraitSizeClass: regular, landscapeSizeClass: regular)  // [VIC] iPadPro11 traits
            ], builtIn: true),
        DeviceProfile(
            id: "ipad-pro-13", name: "iPad Pro 13-inch (M4)", kind: .tablet,
            displays: [
                Display(
                    id: "main",
                    width: 1032, height: 1376, scale: 2,  // [HIG] 1032×1376 pt @2x
                    cornerRadius: 18,  // [CR]
                    // [VIC] has only the home-button `iPadPro12_9` (top 20, bottom 0); the all-screen 13-inch
                    // takes the `iPadPro11` insets.
                    safeArea: allScreenIPadInsets, landscapeSafeArea: allScreenIPadInsets,
                    portraitSizeClass: regular, landscapeSizeClass: regular)  // [VIC] iPadPro12_9 traits, full screen
            ], builtIn: true),
        // ILLUSTRATIVE: no such device has been published. Every number below is invented to exercise the
        // foldable rules of docs/rules.md#fold (a book-style phone: a phone-sized outer screen and a small-tablet
        // inner screen with a seamless vertical fold at its middle). Insets and size classes follow the
        // phone ([VIC] iPhone14Pro-like) and all-screen iPad ([VIC] iPadPro11) patterns they imitate.
        DeviceProfile(
            id: "iphone-duo", name: "iPhone Duo (illustrative)", kind: .foldable,
            displays: [
                Display(
                    id: "outer", width: 376, height: 832, scale: 3, cornerRadius: 52,  // invented
                    safeArea: Insets(top: 59, bottom: 34),  // invented, iPhone-like
                    landscapeSafeArea: Insets(leading: 59, bottom: 21, trailing: 59),  // invented, iPhone-like
                    portraitSizeClass: phonePortrait, landscapeSizeClass: phoneLandscape),
                Display(
                    id: "inner", width: 752, height: 832, scale: 2, cornerRadius: 24,  // invented
                    safeArea: Insets(top: 24, bottom: 20),  // invented, all-screen-iPad-like
                    landscapeSafeArea: Insets(top: 24, bottom: 20),
                    fold: Fold(orientation: .vertical, position: 376, thickness: 0),  // seamless, at the middle
                    portraitSizeClass: regular, landscapeSizeClass: regular),
            ], builtIn: true, illustrative: true),
    ]
}
