import JSON
import TestSupport
import Testing

@testable import LayoutEngine

/// Seeded random scenes (SplitMix64): valid requests that exercise every kind, posture and direction.
struct SceneGenerator {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
    mutating func round(_ d: Double) -> Double { (d * 4).rounded() / 4 }

    /// A scene and its window size (for the mirror law, only scenes whose folds and insets are symmetric
    /// are generated: the fixture devices' folds are centred and their side insets equal).
    mutating func scene() -> (JSONValue, width: Double, height: Double) {
        var o = JSONObject()
        var W: Double
        var H: Double
        let device = pick(["test-phone", "test-tablet", "test-foldable", "test-hinged", "none", "none"])
        let landscape = chance(0.4)
        if device == "none" {
            W = round(range(200, 1600))
            H = round(range(200, 1600))
            o["window"] = ["width": .number(W), "height": .number(H)]
            if chance(0.5) {
                let vertical = chance(0.5)
                let extent = vertical ? W : H
                o["fold"] = [
                    "orientation": .string(vertical ? "vertical" : "horizontal"),
                    "position": .number(round(range(0.2, 0.8) * extent)),
                    "thickness": .number(chance(0.5) ? 0 : round(range(1, 30))),
                ]
            }
            if chance(0.3) {
                o["safeArea"] = [
                    "top": .number(round(range(0, 50))), "leading": .number(round(range(0, 50))),
                    "bottom": .number(round(range(0, 40))), "trailing": .number(round(range(0, 50))),
                ]
            }
        } else {
            o["device"] = .string(device)
            let profile = Fixtures.catalog.profile(id: device)!
            var display = profile.displays.last!
            if device == "test-foldable", chance(0.2) {
                o["posture"] = "closed"
                display = profile.displays[0]
            }
            (W, H) = landscape ? (display.height, display.width) : (display.width, display.height)
            if chance(0.25) {
                // A resizable window centred horizontally on the display (keeps the fold centred in it).
                let w = round(range(0.5, 1) * W / 2) * 2
                let h = round(range(0.4, 1) * H)
                o["window"] = [
                    "x": .number((W - w) / 2), "y": .number(round(range(0, H - h))), "width": .number(w),
                    "height": .number(h),
                ]
                (W, H) = (w, h)
            }
        }
        if landscape { o["orientation"] = "landscape" }
        if o["posture"] == nil, chance(0.6) { o["posture"] = .string(pick(["flat", "halfOpened"])) }
        if chance(0.5) { o["layoutDirection"] = "rtl" }
        if chance(0.3) { o["dynamicTypeSize"] = .string(pick(DynamicTypeSize.allCases).rawValue) }
        if chance(0.15) {
            o["sizeClass"] = [
                "horizontal": .string(pick(SizeClass.allCases).rawValue),
                "vertical": .string(pick(SizeClass.allCases).rawValue),
            ]
        }
        if chance(0.2) {
            o["constants"] = [
                "sheet.margin": .number(round(range(0, 200))), "popover.margin": .number(round(range(0, 100))),
                "panel.width": .number(round(range(100, 2000))), "sheet.topGap": .number(round(range(0, 600))),
            ]
        }
        var presentations: [JSONValue] = []
        let count = int(7)
        for i in 0..<count { presentations.append(presentation(i, W: W, H: H)) }
        o["presentations"] = .array(presentations)
        if chance(0.5) { o["arrangement"] = arrangement() }
        return (.object(o), W, H)
    }

    mutating func detent() -> JSONValue {
        switch int(5) {
        case 0: return "medium"
        case 1: return "large"
        case 2: return "fitted"
        case 3: return ["height": .number(round(range(1, 1500)))]
        default: return ["fraction": .number(range(0.05, 1))]
        }
    }

    mutating func presentation(_ i: Int, W: Double, H: Double) -> JSONValue {
        var p: JSONObject = ["id": .string("p\(i)")]
        if i > 0, chance(0.3) { p["presentedFrom"] = .string("p\(int(i))") }
        if chance(0.2) {
            p["intent"] = ["hasDecision": .bool(chance(0.5)), "abandonableWithoutCost": .bool(chance(0.5))]
        }
        switch int(4) {
        case 0:
            p["kind"] = "sheet"
            p["placement"] = .string(pick(SheetPlacement.allCases).rawValue)
            p["sizing"] = .string(pick(SheetSizing.allCases).rawValue)
            p["contentSize"] = ["width": .number(round(range(0, 1500))), "height": .number(round(range(0, 1500)))]
            let detents = (0...int(3)).map { _ in detent() }
            p["detents"] = .array(detents)
            if chance(0.5) { p["selectedDetent"] = pick(detents) }
            if chance(0.3) { p["backgroundInteraction"] = ["upThrough": detent()] }
            if chance(0.3) { p["edgeAttachedInCompactHeight"] = true }
            if chance(0.3) { p["widthFollowsContentSize"] = true }
            if chance(0.3) { p["interactiveDismissDisabled"] = true }
            if chance(0.3) { p["hasUnsavedChanges"] = true }
            if chance(0.3) {
                p["toolbar"] = [["title": "Done", "placement": "confirmationAction"], ["title": "More"]]
            }
        case 1:
            p["kind"] = "fullScreenCover"
        case 2:
            p["kind"] = "popover"
            let aw = round(range(0, 200))
            let ah = round(range(0, 200))
            p["anchor"] = [
                "x": .number(round(range(-50, W + 50 - aw))), "y": .number(round(range(-50, H + 50 - ah))),
                "width": .number(aw),
                "height": .number(ah),
            ]
            p["arrowEdge"] = .string(pick(ArrowEdge.allCases).rawValue)
            p["compactAdaptation"] = .string(pick(CompactAdaptation.allCases).rawValue)
            if chance(0.5) {
                p["contentSize"] = ["width": .number(round(range(0, 2000))), "height": .number(round(range(0, 2000)))]
            }
        default:
            p["kind"] = "adaptivePanel"
            p["alignment"] = .string(pick(PanelAlignment.allCases).rawValue)
            if chance(0.5) { p["panelWidth"] = .number(round(range(50, 2000))) }
            if chance(0.5) { p["panelHeight"] = .number(round(range(50, 2000))) }
            if chance(0.3) { p["breakpoint"] = .number(round(range(0, 2000))) }
            p["modal"] = .bool(chance(0.3))
        }
        return .object(p)
    }

    mutating func view() -> JSONValue {
        var v = JSONObject()
        switch int(5) {
        case 0: v["ratio"] = .number(range(0, 1))
        case 1:
            v["ratio"] = [
                "minHorizontal": .number(range(0, 0.4)), "idealHorizontal": .number(range(0, 1)),
                "idealVertical": .number(range(0, 1)),
            ]
        case 2:
            v["size"] = [
                "idealHorizontal": .number(round(range(0, 3000))), "idealVertical": .number(round(range(0, 3000))),
            ]
        case 3:
            v["fixedSize"] = ["horizontal": .bool(chance(0.5)), "vertical": .bool(chance(0.5))]
            v["contentSize"] = ["width": .number(round(range(0, 3000))), "height": .number(round(range(0, 3000)))]
        default: break
        }
        if chance(0.3) { v["overlayEdge"] = .string(pick(Edge.allCases).rawValue) }
        return .object(v)
    }

    mutating func arrangement() -> JSONValue {
        var a: JSONObject = [
            "style": .string(pick(ArrangementStyle.allCases).rawValue), "primary": view(), "secondary": view(),
        ]
        if chance(0.3) { a["axes"] = [.string(pick(Axis.allCases).rawValue)] }
        return .object(a)
    }
}

/// The same scene under the other layout direction, with every physical input mirrored (anchors, direct
/// folds, a window's origin on its display).
func mirrored(_ value: JSONValue, width W: Double) -> JSONValue {
    guard case .object(var o) = value else { return value }
    o["layoutDirection"] = o["layoutDirection"] == .string("rtl") ? "ltr" : "rtl"
    if case .object(var f)? = o["fold"], f["orientation"] == .string("vertical"), let p = f["position"]?.doubleValue {
        f["position"] = .number(W - p)
        o["fold"] = .object(f)
    }
    if case .array(let ps)? = o["presentations"] {
        o["presentations"] = .array(
            ps.map { p in
                guard case .object(var po) = p, case .object(var a)? = po["anchor"], let x = a["x"]?.doubleValue,
                    let w = a["width"]?.doubleValue
                else { return p }
                a["x"] = .number(W - x - w)
                po["anchor"] = .object(a)
                return .object(po)
            })
    }
    return .object(o)
}

/// A plain check for hot loops: `#expect` costs too much per call in a debug build of thousands of scenes.
@inline(__always)
func check(
    _ condition: Bool, _ message: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    if !condition { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
}

@Suite("Properties over seeded random scenes")
struct PropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]
    static let scenesPerSeed = 500

    static func decode(_ v: JSONValue) -> Scene? { Scene.decode(v, catalog: Fixtures.catalog).scene }

    static func inside(_ r: Rect, _ W: Double, _ H: Double) -> Bool {
        let eps = 1e-6
        return [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite) && r.width >= 0 && r.height >= 0 && r.minX >= -eps
            && r.minY >= -eps && r.maxX <= W + eps && r.maxY <= H + eps
    }

    static func crosses(_ r: Rect, _ f: FoldState) -> Bool {
        let lo = f.position - f.thickness / 2
        let hi = f.position + f.thickness / 2
        let (a, b) = f.orientation == .vertical ? (r.minX, r.maxX) : (r.minY, r.maxY)
        let eps = 1e-6
        return f.thickness > 0 ? (a < hi - eps && b > lo + eps) : (a < f.position - eps && b > f.position + eps)
    }

    @Test("Every presented frame is finite and inside the window; nothing crosses a separating fold", arguments: seeds)
    func framesInsideAndOffTheFold(_ seed: UInt64) throws {
        var g = SceneGenerator(seed: seed)
        var separatedScenes = 0
        for _ in 0..<Self.scenesPerSeed {
            let (value, W, H) = g.scene()
            guard let s = Self.decode(value) else {
                Issue.record(
                    "generated scene does not decode: \(Scene.decode(value, catalog: Fixtures.catalog).errors)")
                continue
            }
            let r = LayoutEngine.resolve(s)
            check(r.placements.count == s.presentations.count)
            let fold = r.environment.separatingFold
            if fold != nil { separatedScenes += 1 }
            for p in r.placements where p.status == .presented {
                guard let f = p.frame else {
                    Issue.record("\(p.id) presented without a frame")
                    continue
                }
                check(Self.inside(f, W, H), "\(p.id) \(f) in \(W)×\(H)")
                if let fold, p.style != .fullWindow {
                    check(!Self.crosses(f, fold), "\(p.id) \(String(describing: p.style)) \(f) crosses \(fold)")
                }
            }
            if let a = r.arrangement {
                for v in [a.primary, a.secondary] {
                    if let f = v.frame { check(Self.inside(f, W, H)) }
                    if a.style == .split, let fold, let f = v.frame, a.secondary.visible {
                        check(!Self.crosses(f, fold))
                    }
                }
            }
        }
        #expect(separatedScenes > Self.scenesPerSeed / 10)
    }

    @Test("RTL mirror law: x' = W − x − width, semantic values unchanged", arguments: seeds)
    func mirrorLaw(_ seed: UInt64) throws {
        var g = SceneGenerator(seed: seed &+ 100)
        for _ in 0..<Self.scenesPerSeed {
            let (value, W, _) = g.scene()
            guard let a = Self.decode(value), let b = Self.decode(mirrored(value, width: W)) else {
                Issue.record("generated scene does not decode")
                continue
            }
            let ra = LayoutEngine.resolve(a)
            let rb = LayoutEngine.resolve(b)
            func mirror(_ r: Rect?) -> Rect? {
                r.map { Rect(x: W - $0.x - $0.width, y: $0.y, width: $0.width, height: $0.height) }
            }
            func same(_ x: Rect?, _ y: Rect?) -> Bool {
                switch (x, y) {
                case (nil, nil): return true
                case (let x?, let y?):
                    return abs(x.x - y.x) < 1e-6 && abs(x.y - y.y) < 1e-6 && abs(x.width - y.width) < 1e-6
                        && abs(x.height - y.height) < 1e-6
                default: return false
                }
            }
            for (p, q) in zip(ra.placements, rb.placements) {
                check(
                    same(mirror(p.frame), q.frame),
                    "\(p.id): \(String(describing: p.frame)) vs \(String(describing: q.frame)) W=\(W)")
                var p2 = p
                p2.frame = q.frame
                check(p2 == q, "\(p.id) semantic values differ")
            }
            if let x = ra.arrangement, let y = rb.arrangement {
                check(same(mirror(x.primary.frame), y.primary.frame))
                check(same(mirror(x.secondary.frame), y.secondary.frame))
                check(x.axis == y.axis && x.separated == y.separated && x.primary.region == y.primary.region)
            }
            check(ra.diagnostics.map(\.code) == rb.diagnostics.map(\.code))
        }
    }

    @Test("Resolution is deterministic, never traps, and its direct encoder matches the writer", arguments: seeds)
    func deterministic(_ seed: UInt64) throws {
        var g = SceneGenerator(seed: seed &+ 200)
        for _ in 0..<100 {
            let (value, _, _) = g.scene()
            guard let s = Self.decode(value) else { continue }
            let bytes = JSONWriter.encode(LayoutEngine.resolve(s).json)
            check(bytes == JSONWriter.encode(LayoutEngine.resolve(s).json))
            // The direct encoder writes the same bytes as the tree + sorted-key writer.
            check(LayoutEngine.resolve(s).encoded == bytes, "direct encoder differs")
        }
    }
}
