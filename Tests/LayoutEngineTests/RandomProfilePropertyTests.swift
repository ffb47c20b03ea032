import JSON
import Testing

@testable import LayoutEngine

/// Properties over seeded random *device profiles* (not only the fixtures): any profile that
/// validates resolves every scene without trapping, with frames finite and inside the window and nothing
/// crossing a separating fold; any profile that does not validate is refused with at least one error.
@Suite("Properties over seeded random device profiles")
struct RandomProfilePropertyTests {
    static let seeds: [UInt64] = [11, 12, 13]
    static let profilesPerSeed = 60
    static let scenesPerProfile = 8

    /// A random profile as JSON: one or two displays, random sizes and insets, sometimes a fold (seamless or
    /// a hinge, anywhere inside the display), and — one time in eight — a deliberately broken value.
    static func profileJSON(_ g: inout SceneGenerator, id: String) -> (JSONValue, broken: Bool) {
        var broken = false
        func display(_ name: String) -> JSONValue {
            let w = g.round(g.range(200, 1600))
            let h = g.round(g.range(200, 1600))
            var d: JSONObject = [
                "id": .string(name), "width": .number(w), "height": .number(h), "scale": .number(g.pick([1, 2, 3])),
                "safeArea": [
                    "top": .number(g.round(g.range(0, 60))), "bottom": .number(g.round(g.range(0, 40))),
                    "leading": .number(g.round(g.range(0, 30))), "trailing": .number(g.round(g.range(0, 30))),
                ],
                "landscapeSafeArea": [
                    "top": .number(g.round(g.range(0, 30))), "bottom": .number(g.round(g.range(0, 30))),
                    "leading": .number(g.round(g.range(0, 60))), "trailing": .number(g.round(g.range(0, 60))),
                ],
                "sizeClasses": [
                    "portrait": ["horizontal": .string(g.pick(SizeClass.allCases).rawValue), "vertical": "regular"],
                    "landscape": [
                        "horizontal": .string(g.pick(SizeClass.allCases).rawValue),
                        "vertical": .string(g.pick(SizeClass.allCases).rawValue),
                    ],
                ],
            ]
            if g.chance(0.5) {
                let vertical = g.chance(0.7)
                let extent = vertical ? w : h
                d["fold"] = [
                    "orientation": .string(vertical ? "vertical" : "horizontal"),
                    "position": .number(g.round(g.range(0.25, 0.75) * extent)),
                    "thickness": .number(g.chance(0.6) ? 0 : g.round(g.range(1, 24))),
                ]
            }
            if g.chance(1.0 / 16) {
                broken = true
                switch g.int(3) {
                case 0: d["width"] = .number(-w)
                case 1: d["safeArea"] = ["top": .number(h), "bottom": .number(h)]
                default: d["fold"] = ["orientation": "vertical", "position": .number(w * 2)]
                }
            }
            return .object(d)
        }
        let two = g.chance(0.4)
        let displays: [JSONValue] = two ? [display("outer"), display("inner")] : [display("main")]
        let folds = displays.contains { $0["fold"] != nil }
        let o: JSONObject = [
            "id": .string(id), "name": .string("Random \(id)"),
            // A foldable needs a display with a fold (docs/rules.md#foldable-needs-fold).
            "kind": .string(two && folds ? "foldable" : g.pick(["phone", "tablet", "desktop"])),
            "displays": .array(displays),
            "regularWidthMin": .number(g.round(g.range(300, 900))),
            "regularHeightMin": .number(g.round(g.range(300, 900))),
        ]
        return (.object(o), broken)
    }

    @Test(
        "Random valid profiles resolve random scenes inside the window and off the fold; broken ones are refused",
        arguments: seeds)
    func randomProfiles(_ seed: UInt64) {
        var g = SceneGenerator(seed: seed)
        var valid = 0
        var refused = 0
        var resolved = 0
        for i in 0..<Self.profilesPerSeed {
            let id = "random-\(seed)-\(i)"
            let (json, broken) = Self.profileJSON(&g, id: id)
            let mapper = JSONMapper()
            guard let profile = DeviceProfile.decode(json, mapper: mapper) else {
                #expect(!mapper.errors.isEmpty, "refused without an error")
                #expect(broken, "a well-formed random profile was refused: \(mapper.errors)")
                refused += 1
                continue
            }
            #expect(!broken, "a broken profile was accepted: \(json)")
            valid += 1
            let catalog = StaticDeviceCatalog([profile])
            for _ in 0..<Self.scenesPerProfile {
                var o = JSONObject()
                o["device"] = .string(id)
                let landscape = g.chance(0.4)
                if landscape { o["orientation"] = "landscape" }
                o["posture"] = .string(g.pick(Posture.allCases).rawValue)
                if g.chance(0.5) { o["layoutDirection"] = "rtl" }
                let count = g.int(6)
                o["presentations"] = .array((0..<count).map { g.presentation($0, W: 300, H: 300) })
                if g.chance(0.5) { o["arrangement"] = g.arrangement() }
                guard let scene = Scene.decode(.object(o), catalog: catalog).scene else {
                    Issue.record("scene on \(id) refused: \(Scene.decode(.object(o), catalog: catalog).errors)")
                    continue
                }
                let r = LayoutEngine.resolve(scene)
                resolved += 1
                let W = r.environment.window.width
                let H = r.environment.window.height
                let fold = r.environment.separatingFold
                for p in r.placements where p.status == .presented {
                    guard let f = p.frame else {
                        Issue.record("\(p.id) presented without a frame")
                        continue
                    }
                    check(PropertyTests.inside(f, W, H), "\(id): \(p.id) \(f) outside \(W)×\(H)")
                    if let fold, p.style != .fullWindow {
                        check(!PropertyTests.crosses(f, fold), "\(id): \(p.id) \(f) crosses \(fold)")
                    }
                }
                if let a = r.arrangement, a.style == .split, let fold, a.secondary.visible {
                    for v in [a.primary, a.secondary] {
                        if let f = v.frame {
                            check(!PropertyTests.crosses(f, fold), "\(id): split view crosses the fold")
                        }
                    }
                }
            }
        }
        #expect(valid > Self.profilesPerSeed / 2)
        #expect(resolved >= valid * Self.scenesPerProfile / 2)
        #expect(refused > 0, "no broken profile was generated: the refusal path went untested")
    }
}
