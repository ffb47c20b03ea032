/// Which side of a separating fold a region lies on (docs/rules.md#regions).
public enum RegionSide: String, Sendable, CaseIterable { case leading, trailing, top, bottom }

public enum FoldStateName: String, Sendable, CaseIterable { case flat, halfOpened }

/// `environment.fold` (docs/rules.md#fold): the fold as it crosses this window.
public struct FoldState: Sendable, Equatable {
    public var orientation: Axis
    /// The hinge band in window coordinates (zero-thick for a seamless fold).
    public var bounds: Rect
    public var state: FoldStateName
    public var separating: Bool
    /// The fold line's x (vertical fold) or y (horizontal fold) in window coordinates.
    var position: Double
    var thickness: Double
}

/// One region of the window (docs/rules.md#regions): the whole window, or one side of a separating fold.
public struct Region: Sendable, Equatable {
    public var frame: Rect
    /// nil for the single region of a window without a separating fold.
    public var side: RegionSide?
    /// docs/rules.md#size-classes: a region of a separated window has size classes of its own (the thresholds on its
    /// size).
    public var sizeClass: SizeClassPair
    var insets: PhysicalInsets
}

enum FoldRules {
    /// The display's fold as seen in the window (docs/rules.md#orientation, docs/rules.md#off-centre-fold-rotation):
    /// landscape turns a vertical fold into a horizontal one and back, keeping its position along the new axis (the
    /// display is treated as a transpose of its portrait self, exact for the centred folds real devices have); then it
    /// is moved into window coordinates. A fold given directly by the scene is already in window coordinates.
    static func foldInWindow(displayFold: Fold?, sceneFold: Fold?, orientation: Orientation, window: WindowRequest)
        -> Fold?
    {
        if let f = sceneFold { return f }
        guard var f = displayFold else { return nil }
        if orientation == .landscape { f.orientation = f.orientation == .vertical ? .horizontal : .vertical }
        f.position -= f.orientation == .vertical ? window.x : window.y
        return f
    }

    /// docs/rules.md#fold: the fold state; nil when the fold line does not cross the window's interior. The fold is
    /// separating when the posture is halfOpened or it has a physical hinge (thickness > 0), and its whole band lies
    /// inside the window (docs/rules.md#hinge-band: a band touching an edge would leave no region on that side).
    static func state(fold: Fold?, posture: Posture, width: Double, height: Double) -> FoldState? {
        guard let f = fold else { return nil }
        let extent = f.orientation == .vertical ? width : height
        guard f.position > 0, f.position < extent else { return nil }
        let t = f.thickness
        let bandInside = f.position - t / 2 > 0 && f.position + t / 2 < extent
        let separating = (posture == .halfOpened || t > 0) && bandInside
        let bounds =
            f.orientation == .vertical
            ? Rect(x: f.position - t / 2, y: 0, width: t, height: height)
            : Rect(x: 0, y: f.position - t / 2, width: width, height: t)
        return FoldState(
            orientation: f.orientation, bounds: bounds, state: posture == .halfOpened ? .halfOpened : .flat,
            separating: separating, position: f.position, thickness: t)
    }

    /// docs/rules.md#regions, in physical order (left→right, top→bottom); under rtl the left region is
    /// `trailing`.
    static func regions(
        fold: FoldState?, width: Double, height: Double, insets: PhysicalInsets, windowSizeClass: SizeClassPair,
        direction: LayoutDirection, profile: DeviceProfile?
    ) -> [Region] {
        let window = Rect(x: 0, y: 0, width: width, height: height)
        guard let f = fold, f.separating else {
            return [Region(frame: window, side: nil, sizeClass: windowSizeClass, insets: insets)]
        }
        let a: Rect
        let b: Rect
        let sides: (RegionSide, RegionSide)
        if f.orientation == .vertical {
            a = Rect(x: 0, y: 0, width: f.bounds.minX, height: height)
            b = Rect(x: f.bounds.maxX, y: 0, width: width - f.bounds.maxX, height: height)
            sides = direction == .ltr ? (.leading, .trailing) : (.trailing, .leading)
        } else {
            a = Rect(x: 0, y: 0, width: width, height: f.bounds.minY)
            b = Rect(x: 0, y: f.bounds.maxY, width: width, height: height - f.bounds.maxY)
            sides = (.top, .bottom)
        }
        func region(_ r: Rect, _ side: RegionSide) -> Region {
            // The window's insets reach a region only where the region touches that window edge.
            let i = PhysicalInsets(
                top: max(0, insets.top - r.minY), left: max(0, insets.left - r.minX),
                bottom: max(0, insets.bottom - (height - r.maxY)), right: max(0, insets.right - (width - r.maxX)))
            return Region(
                frame: r, side: side,
                sizeClass: SizeClassRules.fromThresholds(width: r.width, height: r.height, profile: profile), insets: i)
        }
        return [region(a, sides.0), region(b, sides.1)]
    }
}
