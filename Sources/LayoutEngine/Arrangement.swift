import JSON

// MARK: - Request (docs/rules.md#arrangement)

public enum ArrangementContainer: String, Sendable, CaseIterable { case plain, list, scrollView }

/// A per-axis preference (`splitArrangementLayoutRatio` / `splitArrangementLayoutSize`): a bare number is
/// the ideal on both axes.
public struct AxisPreference: Sendable, Equatable {
    public var minHorizontal: Double?
    public var idealHorizontal: Double?
    public var maxHorizontal: Double?
    public var idealVertical: Double?
    public init(
        minHorizontal: Double? = nil, idealHorizontal: Double? = nil, maxHorizontal: Double? = nil,
        idealVertical: Double? = nil
    ) {
        self.minHorizontal = minHorizontal
        self.idealHorizontal = idealHorizontal
        self.maxHorizontal = maxHorizontal
        self.idealVertical = idealVertical
    }

    /// The preferred value on `axis` (ideal clamped to min/max; a missing ideal is `fallback` clamped),
    /// or nil when the preference says nothing about that axis.
    func value(on axis: Axis, fallback: Double) -> Double? {
        switch axis {
        case .horizontal:
            guard minHorizontal != nil || idealHorizontal != nil || maxHorizontal != nil else { return nil }
            var v = idealHorizontal ?? fallback
            if let lo = minHorizontal { v = max(v, lo) }
            if let hi = maxHorizontal { v = min(v, hi) }
            return v
        case .vertical:
            return idealVertical
        }
    }
}

public struct ArrangedViewRequest: Sendable, Equatable {
    public var ratio: AxisPreference?
    public var size: AxisPreference?
    public var fixedHorizontal = false
    public var fixedVertical = false
    public var contentSize: Size?
    public var overlayEdge: Edge?
    public init() {}
}

public struct ArrangementRequest: Sendable, Equatable {
    public var style: ArrangementStyle = .split
    public var axes: [Axis] = [.horizontal, .vertical]
    public var primary = ArrangedViewRequest()
    public var secondary = ArrangedViewRequest()
    public var container: ArrangementContainer = .plain
    public init() {}
}

// MARK: - Rules (docs/rules.md#split, docs/rules.md#overlay)

enum ArrangementRules {
    static func resolve(
        _ a: ArrangementRequest, env: ResolvedEnvironment, constants c: Constants, diagnostics: inout [Diagnostic]
    ) -> ResolvedArrangement {
        if a.container != .plain {
            diagnostics.append(
                Diagnostic(
                    code: .arrangementInScrollContainer, severity: .warning, presentation: nil,
                    path: .fixed("/arrangement/container"),
                    message: .arrangementInScrollContainer(a.container)))
        }
        switch a.style {
        case .automatic, .split: return split(a, env: env, constants: c, diagnostics: &diagnostics)
        case .overlay: return overlay(a, env: env, diagnostics: &diagnostics)
        }
    }

    private static func view(_ frame: Rect, z: Double, env: ResolvedEnvironment) -> ArrangedView {
        ArrangedView(frame: frame, visible: true, zIndex: z, region: env.side(of: frame))
    }

    /// The regions of a separating fold as (leading/top, trailing/bottom).
    private static func orderedRegions(_ env: ResolvedEnvironment, _ fold: FoldState) -> (Region, Region)? {
        if fold.orientation == .vertical {
            guard let l = env.region(.leading), let t = env.region(.trailing) else { return nil }
            return (l, t)
        }
        guard let t = env.region(.top), let b = env.region(.bottom) else { return nil }
        return (t, b)
    }

    private static func split(
        _ a: ArrangementRequest, env: ResolvedEnvironment, constants c: Constants, diagnostics: inout [Diagnostic]
    ) -> ResolvedArrangement {
        let fold = env.separatingFold
        // A separating fold forces the axis it divides; otherwise wider-than-tall splits side by side.
        let axis: Axis =
            fold.map { $0.orientation == .vertical ? .horizontal : .vertical }
            ?? (env.width >= env.height ? .horizontal : .vertical)
        let hidden = ArrangedView(frame: nil, visible: false, zIndex: nil, region: nil)
        guard a.axes.contains(axis) else {
            diagnostics.append(
                Diagnostic(
                    code: .secondaryHidden, severity: .warning, presentation: nil, path: .fixed("/arrangement/axes"),
                    message: .secondaryHidden(axis, allowed: a.axes)))
            return ResolvedArrangement(
                style: .split, axis: nil, separated: false, primary: view(env.bounds, z: 0, env: env), secondary: hidden
            )
        }
        if let fold, let (first, second) = orderedRegions(env, fold) {
            // The split lands on the fold: primary in the leading/top region, preferences overridden.
            diagnostics.append(
                Diagnostic(
                    code: .splitFollowsFold, severity: .info, presentation: nil, path: .fixed("/arrangement"),
                    message: .splitFollowsFold(first.side, second.side)))
            return ResolvedArrangement(
                style: .split, axis: axis, separated: true, primary: view(first.frame, z: 0, env: env),
                secondary: view(second.frame, z: 0, env: env))
        }
        let length = axis == .horizontal ? env.width : env.height
        var share = secondaryShare(a, axis: axis, length: length, constants: c)
        // Each view keeps at least arrangement.minLength (half each when the window is too short for both).
        let minLength = c.arrangementMinLength
        share = length < 2 * minLength ? length / 2 : clamp(share, minLength, length - minLength)
        let primaryLength = length - share
        let primary: Rect
        let secondary: Rect
        if axis == .horizontal {
            // Primary first: leading (the right side under rtl).
            let px = env.isRTL ? share : 0
            let sx = env.isRTL ? 0 : primaryLength
            primary = Rect(x: px, y: 0, width: primaryLength, height: env.height)
            secondary = Rect(x: sx, y: 0, width: share, height: env.height)
        } else {
            primary = Rect(x: 0, y: 0, width: env.width, height: primaryLength)
            secondary = Rect(x: 0, y: primaryLength, width: env.width, height: share)
        }
        return ResolvedArrangement(
            style: .split, axis: axis, separated: false, primary: view(primary, z: 0, env: env),
            secondary: view(secondary, z: 0, env: env))
    }

    /// docs/rules.md#split: the secondary's share in points — fixedSize, then size, then ratio (secondary first, a
    /// preference on the primary gives the secondary the rest), default arrangement.defaultRatio.
    static func secondaryShare(_ a: ArrangementRequest, axis: Axis, length: Double, constants c: Constants) -> Double {
        func preference(_ v: ArrangedViewRequest) -> Double? {
            let fixed = axis == .horizontal ? v.fixedHorizontal : v.fixedVertical
            if fixed, let cs = v.contentSize { return axis == .horizontal ? cs.width : cs.height }
            if let s = v.size?.value(on: axis, fallback: c.arrangementDefaultRatio * length) { return s }
            if let r = v.ratio?.value(on: axis, fallback: c.arrangementDefaultRatio) { return r * length }
            return nil
        }
        if let s = preference(a.secondary) { return s }
        if let p = preference(a.primary) { return length - p }
        return c.arrangementDefaultRatio * length
    }

    private static func overlay(_ a: ArrangementRequest, env: ResolvedEnvironment, diagnostics: inout [Diagnostic])
        -> ResolvedArrangement
    {
        let overlaid = ResolvedArrangement(
            style: .overlay, axis: nil, separated: false, primary: view(env.bounds, z: 1, env: env),
            secondary: view(env.bounds, z: 0, env: env))
        guard let fold = env.separatingFold, let (first, second) = orderedRegions(env, fold) else { return overlaid }
        let axis: Axis = fold.orientation == .vertical ? .horizontal : .vertical
        guard a.axes.contains(axis) else {
            diagnostics.append(
                Diagnostic(
                    code: .contentSpansFold, severity: .warning, presentation: nil, path: .fixed("/arrangement/axes"),
                    message: .overlayCannotSeparate(axis)))
            return overlaid
        }
        // A view with overlayEdge takes the region on that side (the primary's wins a conflict); otherwise
        // the primary takes the trailing (vertical fold) or bottom (horizontal fold) region.
        func wantsFirst(_ e: Edge?) -> Bool? {
            switch (fold.orientation, e) {
            case (.vertical, .leading?), (.horizontal, .top?): return true
            case (.vertical, .trailing?), (.horizontal, .bottom?): return false
            default: return nil
            }
        }
        let primaryFirst = wantsFirst(a.primary.overlayEdge) ?? wantsFirst(a.secondary.overlayEdge).map { !$0 } ?? false
        let (p, s) = primaryFirst ? (first, second) : (second, first)
        return ResolvedArrangement(
            style: .overlay, axis: nil, separated: true, primary: view(p.frame, z: 0, env: env),
            secondary: view(s.frame, z: 0, env: env))
    }
}
