import JSON
import Testing

@testable import LayoutEngine

/// Messages that must point at the real cause: a typo before what it leaves missing, the region rather
/// than the window when the region decided, and a foldable profile that cannot fold.
@Suite("Messages that name the cause (docs/rules.md)")
struct MessageTests {
    /// The errors and unknown fields of a scene that does not decode.
    func refusal(_ text: String) throws -> (errors: [JSONIssue], unknown: [JSONUnknownField]) {
        switch Scene.decode(try parse(text), catalog: Fixtures.catalog) {
        case .scene: throw TestFailure(description: "the scene decoded: \(text)")
        case .invalid(let errors, let unknown): return (errors, Array(unknown))
        }
    }

    @Test("typo-leads: a misspelt device is the error, not the window it leaves required")
    func misspeltDevice() throws {
        let r = try refusal(#"{"devices":"test-phone","presentations":[]}"#)
        #expect(r.errors.map(\.path.description) == ["/devices"])
        #expect(
            r.errors.first?.message
                == #"unknown field "devices": did you mean "device"? Without a device, "window" is required"#)
        // Without a typo of "device", the window is what is missing.
        let plain = try refusal(#"{"presentations":[]}"#)
        #expect(plain.errors.map(\.description) == ["/window: is required when no device is given"])
    }

    @Test("typo-leads: a misspelt required member is the error, at the misspelt member")
    func misspeltRequiredMember() throws {
        let r = try refusal(#"{"device":"test-phone","presentations":[{"id":"s","knid":"sheet"}]}"#)
        #expect(r.errors.map(\.path.description) == ["/presentations/0/knid"])
        #expect(r.errors.first?.message == #"unknown field "knid": did you mean "kind"? "kind" is required"#)
        // A member that is no typo of it leaves the plain message.
        let other = try refusal(#"{"device":"test-phone","presentations":[{"id":"s","type":"sheet"}]}"#)
        #expect(other.errors.map(\.description) == ["/presentations/0/kind: is required"])
    }

    @Test("typo-leads: an unknown kind suggests the kind and lists none of the members it makes unknown")
    func unknownKind() throws {
        let r = try refusal(
            #"{"device":"test-phone","presentations":[{"id":"s","kind":"sheeet","detents":["medium"]}]}"#)
        #expect(r.errors.map(\.path.description) == ["/presentations/0/kind"])
        #expect(r.errors.first?.message.hasSuffix(#": did you mean "sheet"?"#) == true)
        #expect(r.unknown.isEmpty, "unknown fields listed beside an unknown kind: \(r.unknown)")
        // A known kind still reports a member it does not read.
        let sheet = try scene(#"{"device":"test-phone","presentations":[{"id":"s","kind":"sheet","anchor":{}}]}"#)
        #expect(sheet.unknownFields.map(\.path.description) == ["/presentations/0/anchor"])
        // A value far from every name gets no suggestion.
        let far = try refusal(#"{"device":"test-phone","presentations":[{"id":"s","kind":"bogus"}]}"#)
        #expect(far.errors.first?.message.contains("did you mean") == false)
    }

    @Test("popover-adaptation: the reason names the anchor's region when a fold separates")
    func regionReason() throws {
        let popover = #"{"id":"help","kind":"popover","anchor":{"x":120,"y":100,"width":44,"height":44}}"#
        let r = try resolve(
            #"{"device":"test-foldable","orientation":"landscape","posture":"halfOpened","presentations":[\#(popover)]}"#
        )
        // The window is regular in both directions; the region holding the anchor is vertically compact.
        #expect(r.environment.sizeClass == SizeClassPair(horizontal: .regular, vertical: .regular))
        #expect(r.environment.regions.allSatisfy { $0.sizeClass.vertical == .compact })
        let adapted = try #require(r.diagnostics.first { $0.code == .popoverAdapted })
        #expect(adapted.message.contains("the anchor's region is vertically compact"), "\(adapted.message)")
        #expect(!adapted.message.contains("the window is"))
        // Without a fold, the window is what is compact.
        let low = try resolve(#"{"window":{"width":900,"height":400},"presentations":[\#(popover)]}"#)
        let plain = try #require(low.diagnostics.first { $0.code == .popoverAdapted })
        #expect(plain.message.contains("the window is vertically compact"))
    }

    static func profile(kind: String, fold: Bool) -> String {
        let foldJSON = fold ? #","fold":{"orientation":"vertical","position":400}"# : ""
        return
            #"{"id":"p","name":"P","kind":"\#(kind)","displays":[{"id":"main","width":800,"height":1000\#(foldJSON)}]}"#
    }

    @Test("foldable-needs-fold: a foldable without a fold is refused at /displays")
    func foldableNeedsFold() throws {
        let mapper = JSONMapper()
        #expect(DeviceProfile.decode(try parse(Self.profile(kind: "foldable", fold: false)), mapper: mapper) == nil)
        #expect(mapper.errors.map(\.path.description) == ["/displays"])
        #expect(mapper.errors.first?.message.contains("a foldable needs a display with a \"fold\"") == true)
        let folding = try #require(
            DeviceProfile.decode(try parse(Self.profile(kind: "foldable", fold: true)), mapper: JSONMapper()))
        #expect(folding.folds)
        // Other kinds need no fold, and may have one.
        #expect(DeviceProfile.decode(try parse(Self.profile(kind: "tablet", fold: false)), mapper: JSONMapper()) != nil)
        #expect(DeviceProfile.decode(try parse(Self.profile(kind: "desktop", fold: true)), mapper: JSONMapper()) != nil)
        // A display that is itself invalid is reported alone, not as a missing fold as well.
        let broken = JSONMapper()
        let text = Self.profile(kind: "foldable", fold: false).replacing(#""width":800"#, with: #""width":-1"#)
        #expect(DeviceProfile.decode(try parse(text), mapper: broken) == nil)
        #expect(broken.errors.map(\.path.description) == ["/displays/0/width"])
    }
}

/// docs/rules.md#popover-both-compact: iPhone landscape (compact width and compact height) — the vertical
/// adaptation decides, for every value of `compactAdaptation`.
@Suite struct PopoverBothCompactTests {
    @Test(
        "popover-both-compact: the vertical adaptation decides",
        arguments: [
            ("automatic", "fullWindow", true), ("sheet", "fullWindow", true), ("fullScreenCover", "fullWindow", true),
            ("popover", "popover", false),
        ])
    func verticalWins(adaptation: String, style: String, adapted: Bool) throws {
        let popover =
            #"{"id":"help","kind":"popover","anchor":{"x":100,"y":60,"width":44,"height":44},"compactAdaptation":"\#(adaptation)"}"#
        let scene =
            #"{"window":{"width":844,"height":390},"sizeClass":{"horizontal":"compact","vertical":"compact"},"presentations":[\#(popover)]}"#
        let r = try resolve(scene)
        #expect(r.environment.sizeClass == SizeClassPair(horizontal: .compact, vertical: .compact))
        let p = try #require(r.placements.first)
        #expect(p.style?.rawValue == style)
        #expect(p.kind == .popover)
        #expect((p.adaptedFrom == .popover) == adapted)
        if adapted {
            let d = try #require(r.diagnostics.first { $0.code == .popoverAdapted })
            #expect(d.message.contains("vertically compact"), "\(d.message)")
        }
    }
}
