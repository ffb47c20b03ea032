import JSON
import Testing

@testable import LayoutEngine

/// The enumerations of the API's vocabulary (`WireNamed`), every one of them through `WireEnumeration.allCases`:
/// each case's name, its raw value, is matched by the reader's table, written by the encoder's and read by
/// `init?(rawValue:)`; the cases are stored as the tables assume; and every value a request carries decodes to its
/// case through both sources of the scene reader and comes back in the response where the response repeats it.
@Suite("Wire names, declared once")
struct WireNamesTests {
    @Test("Each enumeration's case in WireEnumeration names the enumeration itself")
    func registry() {
        for e in WireEnumeration.allCases {
            #expect(e.type.wireEnumeration == e, "\(e.type).wireEnumeration is .\(e.type.wireEnumeration), not .\(e)")
        }
    }

    static func checkLayout<E: WireNamed>(_: E.Type) {
        #expect(MemoryLayout<E>.size <= 1, "\(E.self) is not one byte")
        for (i, c) in E.allCases.enumerated() {
            #expect(c.ordinal == i, "\(E.self).\(c.rawValue) is stored as \(c.ordinal), not \(i)")
            #expect(E.ofOrdinal(i) == c, "\(E.self): position \(i) is not .\(c.rawValue)")
        }
    }

    static func checkBits<M: SceneMembers>(_: M.Type) {
        #expect(M.allCases.count <= 64, "\(M.self) has more members than a mask has bits")
        for (i, m) in M.allCases.enumerated() { #expect(m.bit == 1 << UInt64(i), "\(M.self).\(m.rawValue) bit") }
    }

    @Test(
        "A case is stored as its position in allCases, and a member's bit is that position",
        arguments: WireEnumeration.allCases)
    func layout(_ e: WireEnumeration) {
        Self.checkLayout(e.type)
        if let members = e.type as? any SceneMembers.Type { Self.checkBits(members) }
    }

    /// Every name of every enumeration, and near misses of each: a letter more, one less, the first in upper case.
    static let probes: [String] =
        WireEnumeration.allCases.flatMap { e -> [String] in
            func names<E: WireNamed>(_: E.Type) -> [String] { E.allCases.map(\.rawValue) }
            return names(e.type).flatMap { n in
                [n, n + "s", String(n.dropLast()), n.prefix(1).uppercased() + n.dropFirst()]
            }
        } + ["", " ", "\u{212A}"]

    static func checkNames<E: WireNamed>(_: E.Type) {
        let names = WireNameTables.shared.names(E.self).takeUnretainedValue()
        let quoted = WireNameTables.shared.quoted(E.self)
        let cases = Array(E.allCases)
        let all = cases.map(\.rawValue)
        #expect(Set(all).count == all.count, "\(E.self) spells two cases alike")
        // Written as they are, between quotes, by the encoder: nothing to escape.
        for n in all {
            #expect(!n.isEmpty && n.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }, "\(n)")
        }
        #expect(quoted.usable == (all.count > 1), "\(E.self): the encoder's table is not usable")
        for (i, c) in cases.enumerated() where quoted.usable {
            #expect(
                Array(quoted.name(c.ordinal)) == Array("\"\(all[i])\"".utf8), "\(E.self).\(all[i]) is written wrong")
        }
        for probe in probes {
            let expected = all.firstIndex(of: probe)
            let matched = Array(probe.utf8).withUnsafeBufferPointer { names.ordinal(of: $0) }
            #expect(matched == expected, "\(E.self): \"\(probe)\" matched as \(String(describing: matched))")
            #expect(E(rawValue: probe).map(\.ordinal) == expected, "\(E.self)(rawValue: \"\(probe)\")")
        }
        #expect(E.jsonNames === names)
    }

    @Test(
        "Every name is matched by the reader's table, written by the encoder's, and read by init?(rawValue:)",
        arguments: WireEnumeration.allCases)
    func names(_ e: WireEnumeration) { Self.checkNames(e.type) }

    @Test("An enumeration without a one-byte tag is left to its raw value")
    func unusableTable() {
        enum Single: String, CaseIterable { case only }  // size 0: no tag to index by
        #expect(!QuotedNameTable(Single.self).usable)
        enum Pair: String, CaseIterable { case first, second }
        #expect(QuotedNameTable(Pair.self).usable)
    }

    /// Where a request carries a value of an enumeration: the scene with the value `name`, the value's name as the
    /// decoded scene holds it, and as the response repeats it (nil where it does not).
    struct Carrier {
        let scene: (String) -> String
        let decoded: (Scene) -> String?
        var answered: ((JSONValue) -> JSONValue?)?
        /// How the answer names a value, when not by its own name.
        var answeredAs: (String) -> String = { $0 }
    }

    static func sheet(_ members: String) -> String {
        #"{"device":"test-phone","presentations":[{"id":"a","kind":"sheet","#
            + #""contentSize":{"width":300,"height":300},"# + members + "}]}"
    }
    static func popover(_ members: String) -> String {
        #"{"device":"test-tablet","presentations":[{"id":"a","kind":"popover","anchor":{"x":10,"y":10},"#
            + members + "}]}"
    }
    static func sheetRequest(_ s: Scene) -> SheetRequest? {
        if case .sheet(let r) = s.presentations.first?.content { return r }
        return nil
    }
    static func popoverRequest(_ s: Scene) -> PopoverRequest? {
        if case .popover(let r) = s.presentations.first?.content { return r }
        return nil
    }
    static func placement(_ r: JSONValue) -> JSONValue? { r["placements"]?[0] }

    /// One case per enumeration, so that a new one is placed in a request here, or said not to be in one.
    static func carrier(_ e: WireEnumeration) -> Carrier? {
        switch e {
        case .orientation:
            return Carrier(
                scene: { #"{"device":"test-phone","orientation":"\#($0)"}"# }, decoded: { $0.orientation.rawValue },
                answered: { $0["environment"]?["orientation"] })
        case .posture:
            return Carrier(
                scene: { #"{"device":"test-foldable","posture":"\#($0)"}"# }, decoded: { $0.posture.rawValue },
                answered: { $0["environment"]?["posture"] })
        case .layoutDirection:
            return Carrier(
                scene: { #"{"device":"test-phone","layoutDirection":"\#($0)"}"# },
                decoded: { $0.layoutDirection.rawValue }, answered: { $0["environment"]?["layoutDirection"] })
        case .dynamicTypeSize:
            return Carrier(
                scene: { #"{"device":"test-phone","dynamicTypeSize":"\#($0)"}"# },
                decoded: { $0.dynamicTypeSize.rawValue }, answered: { $0["environment"]?["dynamicTypeSize"] })
        case .sizeClass:
            return Carrier(
                scene: { #"{"device":"test-phone","sizeClass":{"horizontal":"\#($0)","vertical":"\#($0)"}}"# },
                decoded: { $0.sizeClass?.horizontal.rawValue },
                answered: { $0["environment"]?["sizeClass"]?["horizontal"] })
        case .axis:
            return Carrier(
                scene: { #"{"window":{"width":800,"height":600},"fold":{"orientation":"\#($0)","position":300}}"# },
                decoded: { $0.fold?.orientation.rawValue }, answered: { $0["environment"]?["fold"]?["orientation"] })
        case .presentationKind:
            return Carrier(
                scene: {
                    #"{"device":"test-tablet","presentations":[{"id":"a","kind":"\#($0)""#
                        + ($0 == "popover" ? #","anchor":{"x":10,"y":10}}]}"# : "}]}")
                }, decoded: { $0.presentations.first?.kind.rawValue }, answered: { placement($0)?["kind"] })
        case .sheetPlacement:
            return Carrier(
                scene: { sheet(#""placement":"\#($0)""#) }, decoded: { sheetRequest($0)?.placement.rawValue },
                answered: { placement($0)?["placement"]?["requested"] })
        case .detentName:
            return Carrier(
                scene: { sheet(#""detents":["\#($0)"]"#) },
                decoded: { sheetRequest($0)?.detents.first?.json.stringValue },
                answered: { placement($0)?["detents"]?[0]?["detent"] })
        case .sheetSizing:
            return Carrier(scene: { sheet(#""sizing":"\#($0)""#) }, decoded: { sheetRequest($0)?.sizing.rawValue })
        case .dragIndicator:
            return Carrier(
                scene: { sheet(#""dragIndicator":"\#($0)""#) }, decoded: { sheetRequest($0)?.dragIndicator.rawValue })
        case .toolbarPlacement:
            return Carrier(
                scene: { sheet(#""toolbar":[{"title":"Done","systemImage":"checkmark","placement":"\#($0)"}]"#) },
                decoded: { sheetRequest($0)?.toolbar?.first?.placement.rawValue })
        case .backgroundInteractionName:
            return Carrier(
                scene: { sheet(#""backgroundInteraction":"\#($0)""#) },
                decoded: {
                    switch sheetRequest($0)?.backgroundInteraction {
                    case .disabled: return "disabled"
                    case .enabled: return "enabled"
                    case .upThrough, nil: return nil
                    }
                })
        case .arrowEdge:
            return Carrier(
                scene: { popover(#""arrowEdge":"\#($0)""#) }, decoded: { popoverRequest($0)?.arrowEdge.rawValue })
        case .compactAdaptation:
            return Carrier(
                scene: { popover(#""compactAdaptation":"\#($0)""#) },
                decoded: { popoverRequest($0)?.compactAdaptation.rawValue })
        case .panelAlignment:
            return Carrier(
                scene: {
                    #"{"device":"test-tablet","presentations":[{"id":"a","kind":"adaptivePanel","alignment":"\#($0)"}]}"#
                },
                decoded: {
                    if case .adaptivePanel(let p) = $0.presentations.first?.content { return p.alignment.rawValue }
                    return nil
                })
        case .arrangementStyle:
            return Carrier(
                scene: { #"{"device":"test-phone","arrangement":{"style":"\#($0)"}}"# },
                decoded: { $0.arrangement?.style.rawValue },
                // docs/rules.md#arrangement: `automatic` is answered as the style it resolves as, `split`.
                answered: { $0["arrangement"]?["style"] }, answeredAs: { $0 == "automatic" ? "split" : $0 })
        case .arrangementContainer:
            return Carrier(
                scene: { #"{"device":"test-phone","arrangement":{"container":"\#($0)"}}"# },
                decoded: { $0.arrangement?.container.rawValue })
        case .edge:
            return Carrier(
                scene: {
                    #"{"device":"test-phone","arrangement":{"style":"overlay","secondary":{"overlayEdge":"\#($0)"}}}"#
                },
                decoded: { $0.arrangement?.secondary.overlayEdge?.rawValue })
        // Member names: every member is read by the scenes of SceneOnePassTests and ValidationTests.
        case .sceneMember, .frameMember, .insetsMember, .sizeClassMember, .foldMember, .presentationMember,
            .intentMember, .toolbarItemMember, .detentMember, .backgroundInteractionMember, .arrangementMember,
            .arrangedViewMember, .fixedSizeMember, .axisPreferenceMember:
            return nil
        // Not in a request: a device profile's, or a response's only.
        case .deviceKind, .diagnosticCode, .severity, .foldStateName, .regionSide, .resolvedSheetPlacement,
            .placementStatus, .presentationStyle, .materialWidthClass, .materialHeightClass:
            return nil
        }
    }

    static func roundTrip<E: WireNamed>(_: E.Type, _ carrier: Carrier) throws {
        for name in E.allCases.map(\.rawValue) {
            let bytes = Array(carrier.scene(name).utf8)
            let quiet = SceneOnePassTests.onePass(bytes)
            let reporting = SceneOnePassTests.general(bytes)
            #expect(quiet != nil, "the one-pass reader declines \(E.self) \"\(name)\"")
            #expect(reporting != nil, "the reporting source refuses \(E.self) \"\(name)\"")
            guard let quiet, let reporting else { continue }
            #expect(quiet == reporting)
            #expect(carrier.decoded(quiet) == name, "\(E.self) \"\(name)\" decodes as another value")
            guard let answered = carrier.answered else { continue }
            let response = try JSONParser.parse(LayoutEngine.resolve(quiet).encoded)
            #expect(
                answered(response)?.stringValue == carrier.answeredAs(name),
                "\(E.self) \"\(name)\" is answered as another value")
        }
    }

    @Test(
        "Every value a request carries decodes to its case in both sources, and comes back where answered",
        arguments: WireEnumeration.allCases)
    func decodeAndEncode(_ e: WireEnumeration) throws {
        guard let carrier = Self.carrier(e) else { return }
        try Self.roundTrip(e.type, carrier)
    }
}
