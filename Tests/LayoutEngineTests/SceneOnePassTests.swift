import JSON
import TestSupport
import Testing

@testable import LayoutEngine

/// The scene reader's two sources against each other: the quiet one (`Scene.decodeInOnePass`, the bytes read once)
/// and the reporting one (`JSONParser.document` + `Scene.decode`). Whenever the quiet source answers, its scene is
/// the reporting source's; it answers for the scenes it is meant to take; and it declines every mutation of them
/// that the reporting source refuses or reads with unknown fields.
@Suite("One-pass scene decoding")
struct SceneOnePassTests {
    /// The reporting source's scene of `bytes`, nil when it refuses them (not JSON, or invalid).
    static func general(_ bytes: [UInt8]) -> Scene? {
        guard let document = try? JSONParser.document(bytes) else { return nil }
        return Scene.decode(document.root, catalog: Fixtures.catalog).scene
    }

    static func onePass(_ bytes: [UInt8]) -> Scene? {
        bytes.withUnsafeBufferPointer { Scene.decodeInOnePass($0, catalog: Fixtures.catalog) }
    }

    /// The law: the one-pass reader declines, or agrees with the reporting source — which then has a scene
    /// without unknown fields (an unknown field is a warning the one-pass reader cannot give).
    static func check(_ bytes: [UInt8], _ comment: @autoclosure () -> String) {
        guard let fast = onePass(bytes) else {
            // Declined after reading it whole or in part: the body is not JSON, is invalid or has an unknown
            // member.
            if bytes.withUnsafeBufferPointer(JSONStreamReader.reads), let slow = general(bytes) {
                #expect(!slow.unknownFields.isEmpty, "one pass declined a valid request: \(comment())")
            }
            return
        }
        let slow = general(bytes)
        #expect(slow != nil, "one pass took what the reporting source refuses: \(comment())")
        guard let slow else { return }
        #expect(slow.unknownFields.isEmpty, "one pass took a scene with unknown fields: \(comment())")
        #expect(fast == slow, "the two sources disagree: \(comment())")
    }

    static func text(_ v: JSONValue, pretty: Bool) -> [UInt8] {
        JSONWriter.encode(v, options: pretty ? .pretty : .compact)
    }

    /// `v` with every object's members in reverse sorted order (the writer sorts them): the one-pass reader
    /// meets members in the order they are written, so both orders are read.
    static func reversedText(_ v: JSONValue) -> [UInt8] {
        switch v {
        case .object(let o):
            let members = o.members.sorted { $0.key > $1.key }.map { m in
                JSONWriter.encode(.string(m.key)) + Array(":".utf8) + reversedText(m.value)
            }
            return Array("{".utf8) + Array(members.joined(separator: Array(",".utf8))) + Array("}".utf8)
        case .array(let a):
            return Array("[".utf8) + Array(a.map(reversedText).joined(separator: Array(",".utf8))) + Array("]".utf8)
        default:
            return JSONWriter.encode(v)
        }
    }

    @Test("Takes every golden scene without unknown members, compact, pretty and reversed, as the reporting source")
    func goldenScenes() throws {
        var taken = 0
        for name in GoldenSceneTests.names {
            let scene = try GoldenSceneTests.load(name + ".scene.json")
            for bytes in [Self.text(scene, pretty: false), Self.text(scene, pretty: true), Self.reversedText(scene)] {
                Self.check(bytes, name)
                // A golden scene with an unknown member (a warning) is the reporting source's alone.
                guard Self.general(bytes)?.unknownFields.isEmpty == true else { continue }
                #expect(Self.onePass(bytes) != nil, "one pass declined \(name)")
                taken += 1
            }
        }
        #expect(taken >= 27)
    }

    @Test("Takes every valid random scene, and agrees on all")
    func randomScenes() {
        var g = SceneGenerator(seed: 0x0E_9A55)
        var taken = 0
        for k in 0..<400 {
            let (scene, _, _) = g.scene()
            let bytes = k % 3 == 2 ? Self.reversedText(scene) : Self.text(scene, pretty: k % 3 == 1)
            Self.check(bytes, "random scene \(k): \(String(decoding: bytes, as: UTF8.self))")
            guard Self.general(bytes) != nil else { continue }
            #expect(Self.onePass(bytes) != nil, "one pass declined \(String(decoding: bytes, as: UTF8.self))")
            taken += 1
        }
        #expect(taken >= 300)
    }

    /// Values a member is replaced by in the mutations: every JSON type, limits and their neighbours.
    static let replacements: [JSONValue] = [
        .null, true, false, 0, -0.0, -1, 0.5, 1, 2, 1e-9, 64, 129, 257, 100_000, 100_001, 1e300, "", "x",
        "medium", "large", "fitted", "sheet", "popover", "fullScreenCover", "adaptivePanel", "horizontal",
        "test-phone", "test-foldable", "inner",
        "p0", .string(String(repeating: "a", count: 129)), "é", "👍🏽", .string(String(repeating: "é", count: 129)),
        .string(String(repeating: "e\u{301}", count: 128)), [], ["medium"], [[:]], [:], ["height": 10],
        ["fraction": 0], ["upThrough": "fitted"], ["x": 1, "y": 2], ["width": 10, "height": 10],
    ]

    /// Members added to an object that lacks them: each kind's own members on the others, members of one
    /// object on another.
    static let additions: [(String, JSONValue)] = [
        ("detents", ["medium"]), ("selectedDetent", "large"), ("sizing", "form"), ("toolbar", []),
        ("backgroundInteraction", "enabled"), ("contentSize", ["width": 10, "height": 10]), ("cornerRadius", 5),
        ("anchor", ["x": 1, "y": 2]), ("arrowEdge", "top"), ("compactAdaptation", "sheet"), ("panelWidth", 100),
        ("modal", true), ("breakpoint", 10), ("alignment", "leading"), ("placement", "center"), ("intent", [:]),
        ("presentedFrom", "p0"), ("display", "inner"), ("window", ["width": 100, "height": 100]),
        ("fixedSize", ["horizontal": true]), ("ratio", 0.5), ("overlayEdge", "top"), ("axes", ["vertical"]),
        ("height", 10), ("x", 0), ("top", 1), ("upThrough", "medium"), ("title", "t"),
        ("fold", ["orientation": "vertical", "position": 100]),
        ("sizeClass", ["horizontal": "compact", "vertical": "regular"]),
        ("constants", ["sheet.margin": 10]), ("sheet.topGap", 5000), ("thickness", 1), ("orientation", "vertical"),
        ("horizontal", "compact"), ("constantSet", "acme@2"),
    ]

    /// `value` with each node removed or replaced by each of `replacements`, and each object given each of
    /// `additions` it lacks, an unknown member and its first member twice.
    static func mutations(of value: JSONValue) -> [JSONValue] {
        var out: [JSONValue] = []
        func visit(_ v: JSONValue, _ rebuild: (JSONValue?) -> JSONValue) {
            out.append(rebuild(nil))
            for r in replacements { out.append(rebuild(r)) }
            switch v {
            case .object(let o):
                var extra = o
                extra["zUnknown"] = 1
                out.append(rebuild(.object(extra)))
                if let m = o.members.first { out.append(rebuild(.object(JSONObject(o.members + [m])))) }
                for (key, added) in additions where o[key] == nil {
                    var copy = o
                    copy[key] = added
                    out.append(rebuild(.object(copy)))
                }
                for m in o.members {
                    visit(m.value) { replacement in
                        var copy = o
                        copy[m.key] = replacement
                        return rebuild(.object(copy))
                    }
                }
            case .array(let a):
                out.append(rebuild(.array(a + a)))
                for (i, element) in a.enumerated() {
                    visit(element) { replacement in
                        var copy = a
                        if let replacement { copy[i] = replacement } else { copy.remove(at: i) }
                        return rebuild(.array(copy))
                    }
                }
            default:
                break
            }
        }
        visit(value) { $0 ?? .null }
        return out
    }

    @Test("Declines or agrees on every mutation of random and golden scenes")
    func mutatedScenes() throws {
        var g = SceneGenerator(seed: 0x0E_9A56)
        var sources: [JSONValue] = []
        for _ in 0..<40 { sources.append(g.scene().0) }
        for name in GoldenSceneTests.names { sources.append(try GoldenSceneTests.load(name + ".scene.json")) }
        var declined = 0
        var checked = 0
        for source in sources {
            for (k, mutant) in Self.mutations(of: source).enumerated() {
                let bytes = k % 2 == 0 ? Self.text(mutant, pretty: false) : Self.reversedText(mutant)
                Self.check(bytes, String(decoding: bytes, as: UTF8.self))
                if Self.onePass(bytes) == nil { declined += 1 }
                checked += 1
            }
        }
        // Most mutations make a scene invalid: the reader must have declined many, not taken everything.
        #expect(checked > 10_000)
        #expect(declined > checked / 3)
    }

    @Test("The reporting source gives the same result from a parsed document and from a value tree, valid or not")
    func documentAndTree() throws {
        var g = SceneGenerator(seed: 0x0E_9A57)
        var invalid = 0
        for _ in 0..<8 {
            for mutant in Self.mutations(of: g.scene().0) {
                let text = Self.text(mutant, pretty: false)
                guard let document = try? JSONParser.document(text), let tree = try? JSONParser.parse(text) else {
                    continue
                }
                let fromDocument = Scene.decode(document.root, catalog: Fixtures.catalog)
                let fromTree = Scene.decode(tree, catalog: Fixtures.catalog)
                switch (fromDocument, fromTree) {
                case (.scene(let a), .scene(let b)): #expect(a == b)
                case (.invalid(let e1, let u1), .invalid(let e2, let u2)):
                    #expect(e1 == e2 && u1 == u2)
                    invalid += 1
                default: Issue.record("one decoding is valid, the other not: \(JSONWriter.string(mutant))")
                }
            }
        }
        #expect(invalid > 500)
    }

    @Test("Declines what the parser refuses or decodes: syntax errors, escapes, bad UTF-8, repeats, a BOM")
    func text() {
        let valid = #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet"}]}"#
        #expect(Self.onePass(Array(valid.utf8)) != nil)
        Self.check(Array(valid.utf8), valid)
        let declined = [
            "", " ", "{", "[]", "null", #"{"device": "test-phone"}x"#, #"{"device": "test-phone",}"#,
            #"{"device": "test-phone" "posture": "flat"}"#, #"{"device": "test-\u0070hone"}"#,
            #"{"device": "test-phone", "device": "test-phone"}"#, #"{"device": "test-phone", "display": "m\u00e4in"}"#,
            "{\"device\": \"test-phone\", \"presentations\": [{\"id\": \"\(String(repeating: "é", count: 129))\", \"kind\": \"sheet\"}]}",
            "\u{FEFF}{\"device\": \"test-phone\"}", #"{"device": "test-phone", "orientation": "portrait\n"}"#,
            #"{"window": {"width": 1e400, "height": 10}}"#, #"{"window": {"width": 01, "height": 10}}"#,
            #"{"window": {"width": 10, "height": 10, "width": 10}}"#,
            #"{"device": "test-phone", "fold": {"orientation": "vertical", "position": 100}}"#,
            #"{"window": {"width": 100, "height": 100}, "constants": {"sheet.margin": 1, "sheet.margin": 2}}"#,
            #"{"window": {"width": 100, "height": 100}, "constants": {"sheet.margin": null}}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet", "id": "b"}]}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet"}, {"id": "a", "kind": "sheet"}]}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet", "presentedFrom": "a"}]}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet", "detents": ["fitted"]}]}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "sheet", "selectedDetent": "medium"}]}"#,
            #"{"device": "test-phone", "presentations": [{"id": "a", "kind": "fullScreenCover", "detents": []}]}"#,
            #"{"device": "test-phone", "arrangement": {"axes": ["horizontal", "vertical", "horizontal"]}}"#,
            #"{"device": "test-phone", "arrangement": {"primary": {"fixedSize": {"horizontal": true}}}}"#,
        ]
        for text in declined {
            #expect(Self.onePass(Array(text.utf8)) == nil, "one pass took \(text)")
            Self.check(Array(text.utf8), text)
        }
        // Ill-formed UTF-8 (a lone continuation byte, an overlong form, an encoded surrogate, a truncated
        // sequence) is refused by the parser and declined here.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            let bytes =
                Array(#"{"device": "test-phone", "presentations": [{"kind": "sheet", "id": "a"#.utf8) + bad
                + Array(#""}]}"#.utf8)
            #expect(Self.onePass(bytes) == nil, "one pass took \(bad)")
            Self.check(bytes, "\(bad)")
        }
        // Text beyond ASCII is read as the parser reads it, its length counted in characters.
        let texts = [
            "Añadir", "保存", "👍🏽", String(repeating: "é", count: 128), String(repeating: "e\u{301}", count: 128),
        ]
        for title in texts {
            let text =
                #"{"device": "test-phone", "presentations": [{"id": ""# + title
                + #"", "kind": "sheet", "toolbar": [{"title": ""# + title + #""}]}]}"#
            #expect(Self.onePass(Array(text.utf8)) != nil, "one pass declined \(title)")
            Self.check(Array(text.utf8), text)
        }
        // Numbers are the parser's: exponents, fractions and negative zero read alike.
        let numbers = #"{"window": {"width": 3.9e2, "height": 844.000, "x": -0, "y": 0.25}}"#
        #expect(Self.onePass(Array(numbers.utf8)) != nil)
        Self.check(Array(numbers.utf8), numbers)
        // Axes repeated within the limit are kept once, as the reporting source keeps them.
        let axes = #"{"device": "test-phone", "arrangement": {"axes": ["vertical", "vertical"]}}"#
        #expect(Self.onePass(Array(axes.utf8))?.arrangement?.axes == [.vertical])
        Self.check(Array(axes.utf8), axes)
    }
}
