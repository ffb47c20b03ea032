/// `environment` of the response (docs/rules.md#environment, docs/rules.md#response-shape).
public struct ResolvedEnvironment: Sendable, Equatable {
    public var device: String?
    public var display: String?
    public var orientation: Orientation
    /// The posture in effect: `flat` when the request's posture was ignored (docs/rules.md#posture).
    public var posture: Posture
    public var layoutDirection: LayoutDirection
    public var dynamicTypeSize: DynamicTypeSize
    /// The window: its origin on the display and its size. Every other frame is in window coordinates.
    public var window: Rect
    /// Semantic insets (leading/trailing follow the layout direction).
    public var safeArea: Insets
    public var sizeClass: SizeClassPair
    public var windowClass: WindowClass
    public var fold: FoldState?
    public var regions: [Region]
    /// Whether the device folds (or the scene gave a fold): where a posture means something
    /// (docs/rules.md#posture). Not part of the response.
    public var folds = false

    /// Physical insets in window coordinates.
    var insets: PhysicalInsets
    var width: Double { window.width }
    var height: Double { window.height }
    var bounds: Rect { Rect(x: 0, y: 0, width: window.width, height: window.height) }
    var separatingFold: FoldState? { fold?.separating == true ? fold : nil }
    var isRTL: Bool { layoutDirection == .rtl }

    /// The window as a region (the container of rules that do not look at the fold).
    var windowRegion: Region { Region(frame: bounds, side: nil, sizeClass: sizeClass, insets: insets) }

    func region(_ side: RegionSide) -> Region? {
        for i in regions.indices where regions[i].side == side { return regions[i] }
        return nil
    }

    /// The region containing `point`; a point inside the hinge band goes to the nearer region (the
    /// leading/top one on a tie, the same under the RTL mirror).
    func region(containing x: Double, _ y: Double) -> Region {
        guard let f = separatingFold, regions.count == 2 else { return regions.first ?? windowRegion }
        let v = f.orientation == .vertical ? x : y
        if v < f.position { return regions[0] }
        if v > f.position { return regions[1] }
        return (f.orientation == .vertical && isRTL) ? regions[1] : regions[0]
    }

    /// The region a frame lies in, or nil when there is no separating fold or the frame spans it.
    func side(of frame: Rect) -> RegionSide? {
        guard fold?.separating == true else { return nil }
        for i in regions.indices {
            let r = regions[i].frame
            if frame.minX >= r.minX - 1e-9 && frame.maxX <= r.maxX + 1e-9 && frame.minY >= r.minY - 1e-9
                && frame.maxY <= r.maxY + 1e-9
            {
                return regions[i].side
            }
        }
        return nil
    }

    /// Physical x of a frame of `width` docked to the semantic `edge` of `r` at `inset` from it.
    func x(docking width: Double, to leading: Bool, in r: Rect, inset: Double) -> Double {
        (leading != isRTL) ? r.minX + inset : r.maxX - inset - width
    }
}

enum EnvironmentResolver {
    /// docs/rules.md#display-choice: the display asked for, else `outer` when closed, else the profile's `inner` if it
    /// has one, else its first.
    static func display(of s: Scene) -> Display? {
        guard let p = s.profile, let i = displayIndex(of: s, in: p) else { return nil }
        return p.displays[i]
    }

    /// `display(of:)` as an index into `p.displays` (`p` is the scene's profile).
    private static func displayIndex(of s: Scene, in p: DeviceProfile) -> Int? {
        if let id = s.displayID { return p.displayIndex(id: id) }
        let posture = p.folds ? s.posture : .flat
        if posture == .closed, let outer = p.displayIndex(id: "outer") { return outer }
        if posture != .closed, let inner = p.displayIndex(id: "inner") { return inner }
        return p.displays.isEmpty ? nil : 0
    }

    /// What the environment reads of the display `display(of:)` chooses, in the scene's orientation.
    private struct DisplayFacts {
        /// In the profile's `displays`.
        var index: Int
        /// Portrait points.
        var width: Double
        var height: Double
        /// The profile's safe area for the orientation (physical: leading = left).
        var safeArea: Insets
        /// The profile's size classes of the whole display in the orientation.
        var sizeClass: SizeClassPair
        /// In the display's portrait coordinates.
        var fold: Fold?
    }

    /// The chosen display's facts, read in place from the profile (the display itself is not copied; nor is its
    /// id read here, which would make the compiler copy the whole display: see `displayID(of:at:)`).
    private static func displayFacts(of s: Scene) -> DisplayFacts? {
        guard let p = s.profile, let i = displayIndex(of: s, in: p) else { return nil }
        let landscape = s.orientation == .landscape
        return DisplayFacts(
            index: i, width: p.displays[i].width, height: p.displays[i].height,
            safeArea: landscape ? p.displays[i].landscapeSafeArea : p.displays[i].safeArea,
            sizeClass: landscape ? p.displays[i].landscapeSizeClass : p.displays[i].portraitSizeClass,
            fold: p.displays[i].fold)
    }

    /// The id of the profile's display at `index`.
    private static func displayID(of s: Scene, at index: Int) -> String? { s.profile?.displays[index].id }

    /// docs/rules.md#environment: everything the presentation rules need to know about where they are.
    static func resolve(_ s: Scene, diagnostics: inout [Diagnostic]) -> ResolvedEnvironment {
        let display = displayFacts(of: s)
        // docs/rules.md#posture: posture only means something on a device that folds (or with a fold given directly).
        let folds = s.profile?.folds ?? (s.fold != nil)
        var posture = s.posture
        if !folds, posture != .flat {
            diagnostics.append(
                Diagnostic(
                    code: .postureIgnored, severity: .info, presentation: nil, path: .fixed("/posture"),
                    message: .postureIgnored(posture, device: s.profile?.id)))
            posture = .flat
        }
        // docs/rules.md#orientation: landscape swaps the display's width and height.
        var dw = 0.0
        var dh = 0.0
        if let d = display { (dw, dh) = s.orientation == .landscape ? (d.height, d.width) : (d.width, d.height) }
        let w = s.window ?? WindowRequest(width: dw, height: dh)
        let whole = display != nil && (s.window == nil || (w.x == 0 && w.y == 0 && w.width == dw && w.height == dh))
        // docs/rules.md#safe-area: as requested; else the display's when the window is the whole display, else
        // zero. Profiles store physical insets (leading = left); requests speak the layout direction
        // (docs/rules.md#profile-safe-area-is-physical).
        var insets = PhysicalInsets.zero
        if let r = s.safeArea {
            insets =
                s.layoutDirection == .ltr
                ? PhysicalInsets(top: r.top, left: r.leading, bottom: r.bottom, right: r.trailing)
                : PhysicalInsets(top: r.top, left: r.trailing, bottom: r.bottom, right: r.leading)
        } else if whole, let i = display?.safeArea {
            insets = PhysicalInsets(top: i.top, left: i.leading, bottom: i.bottom, right: i.trailing)
        }
        let sizeClass = SizeClassRules.window(
            requested: s.sizeClass, displaySizeClass: display?.sizeClass, wholeDisplay: whole,
            width: w.width, height: w.height, profile: s.profile)
        let fold = FoldRules.state(
            fold: FoldRules.foldInWindow(
                displayFold: display?.fold, sceneFold: s.fold, orientation: s.orientation, window: w),
            posture: posture, width: w.width, height: w.height)
        let regions = FoldRules.regions(
            fold: fold, width: w.width, height: w.height, insets: insets, windowSizeClass: sizeClass,
            direction: s.layoutDirection, profile: s.profile)
        let semantic =
            s.layoutDirection == .ltr
            ? Insets(top: insets.top, leading: insets.left, bottom: insets.bottom, trailing: insets.right)
            : Insets(top: insets.top, leading: insets.right, bottom: insets.bottom, trailing: insets.left)
        var environment = ResolvedEnvironment(
            device: s.profile?.id, display: display.flatMap { displayID(of: s, at: $0.index) },
            orientation: s.orientation, posture: posture,
            layoutDirection: s.layoutDirection, dynamicTypeSize: s.dynamicTypeSize,
            window: Rect(x: w.x, y: w.y, width: w.width, height: w.height), safeArea: semantic, sizeClass: sizeClass,
            windowClass: WindowClass(width: w.width, height: w.height), fold: fold, regions: regions, insets: insets)
        environment.folds = folds
        return environment
    }
}
