import Foundation
import JSON
import LayoutEngine
import SwiftUIBridge
import TestSupport
import Testing

/// Scene → SwiftUI → scene: reading what the writer writes gives back the presentations and the arrangement
/// (docs/swiftui.md#write), for the corpus and for random scenes; the text is Swift the toolchain parses.
@Suite struct WriterRoundTripTests {
    /// The presentations and arrangement read back from `source`: the view's scenes (one per chain of
    /// presentations) put together again, each presentation once.
    static func readBack(_ source: String) -> CodeScene {
        let report = SwiftUIReader.read([SwiftSourceFile(path: "SceneView.swift", bytes: Array(source.utf8))], jobs: 1)
        var merged = CodeScene()
        for s in report.scenes {
            merged.arrangement = merged.arrangement ?? s.scene.arrangement
            for p in s.scene.presentations where !merged.presentations.contains(where: { $0.id == p.id }) {
                merged.presentations.append(p)
            }
        }
        return merged
    }

    /// The same presentations in id order (a scene lists them in any order; the code nests them).
    static func byID(_ s: CodeScene) -> CodeScene {
        var out = s
        out.presentations.sort { $0.id < $1.id }
        return out
    }

    @Test("write: every corpus scene reads back as the same presentations and arrangement")
    func corpus() {
        for (sample, s) in Corpus.scenes {
            let text = SwiftUIWriter.source(s.scene)
            #expect(Self.readBack(text) == s.scene, "\(sample) \(s.id):\n\(text)")
        }
    }

    @Test("write: from scene JSON, the same (the attachment anchor is layout there: the JSON has the anchor)")
    func corpusJSON() throws {
        for (sample, s) in Corpus.scenes {
            let text = try SwiftUIWriter.source(json: s.scene.json(context: .standard))
            var expected = s.scene
            for i in expected.presentations.indices { expected.presentations[i].attachmentAnchor = nil }
            #expect(Self.readBack(text) == expected, "\(sample) \(s.id):\n\(text)")
        }
    }

    @Test("write: deterministic, indented with four spaces, one view")
    func format() {
        let s = Corpus.scenes.first { $0.scene.id == "SettingsView.swift#SettingsView/0" }!.scene.scene
        let a = SwiftUIWriter.source(s, viewName: "Settings")
        #expect(a == SwiftUIWriter.source(s, viewName: "Settings"))
        #expect(a.hasPrefix("import SwiftUI\n\nstruct Settings: View {\n    @State private var showsAccount = false\n"))
        for line in a.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            #expect(indent % 4 == 0 && !line.contains("\t") && line.last != " ", "\(line)")
        }
        // The chained sheet is a modifier of the first sheet's content, one level in.
        #expect(a.contains("\n                }\n                    .sheet(isPresented: $confirmsSignOut) {\n"))
    }

    @Test("write: 300 random scenes read back as the same presentations and arrangement")
    func random() {
        var rng = SplitMix64(seed: 0x5C3E_2026)
        var kinds = Set<Presentation.Kind>()
        var nested = 0
        var arrangements = 0
        for n in 0..<300 {
            let scene = RandomScenes.scene(&rng)
            let text = SwiftUIWriter.source(scene, viewName: "Random\(n)")
            let back = Self.readBack(text)
            #expect(Self.byID(back) == Self.byID(RandomScenes.expected(scene)), "scene \(n):\n\(text)")
            kinds.formUnion(back.presentations.map(\.kind))
            nested += back.presentations.count { $0.presentedFrom != nil }
            arrangements += back.arrangement == nil ? 0 : 1
        }
        // The scenes are not trivial: every kind, presentations nested in others, arrangements.
        #expect(kinds == Set(Presentation.Kind.allCases) && nested > 100 && arrangements > 100)
    }

    static let swiftc: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(dir) + "/swiftc"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    @Test(
        "write: the toolchain's `swiftc -parse` takes every file written (corpus and 100 random scenes)",
        .enabled(if: swiftc != nil, "swiftc is not on PATH"))
    func parses() throws {
        let dir = TemporaryDirectory(prefix: "hinge-swiftui-writer")
        var files: [String] = []
        for (i, (_, s)) in Corpus.scenes.enumerated() {
            files.append(dir.file("Corpus\(i).swift"))
            writeFile(files.last!, Array(SwiftUIWriter.source(s.scene, viewName: "Corpus\(i)").utf8))
        }
        var rng = SplitMix64(seed: 0xBEEF)
        for n in 0..<100 {
            files.append(dir.file("Random\(n).swift"))
            let text = SwiftUIWriter.source(RandomScenes.scene(&rng), viewName: "Random\(n)")
            writeFile(files.last!, Array(text.utf8))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.swiftc))
        process.arguments = ["-parse"] + files
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(!output.contains("error:"), "\(output)")
    }
}

/// Random scenes from the enumerations' `allCases`, as the engine holds them, with what only code says
/// (attachment anchors) added, and fitted axes and the automatic arrangement style where the random engine scene has none.
enum RandomScenes {
    static let titles = ["Cancel", "Save", "Añadir anotación", "Say \"hi\"", "a\\b", "tab\there", "📎 Attach", ""]
    static let symbols = ["xmark", "checkmark", "square.and.pencil", "info.circle"]

    static func pick<T>(_ xs: [T], _ rng: inout SplitMix64) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    static func chance(_ percent: UInt64, _ rng: inout SplitMix64) -> Bool { rng.next() % 100 < percent }
    static func number(_ range: ClosedRange<Double>, _ rng: inout SplitMix64) -> Double {
        // Two decimals: numbers written and read as Swift literals.
        ((range.lowerBound + Double(rng.next() % 10_000) / 10_000 * (range.upperBound - range.lowerBound)) * 100)
            .rounded() / 100
    }

    static func detent(_ rng: inout SplitMix64) -> Detent {
        switch rng.next() % 5 {
        case 0: return .medium
        case 1: return .large
        case 2: return .fitted
        case 3: return .height(max(1, number(1...900, &rng)))
        default: return .fraction(max(0.01, min(1, number(0.01...1, &rng))))
        }
    }

    static func sheet(_ rng: inout SplitMix64) -> SheetRequest {
        var s = SheetRequest()
        s.placement = pick(SheetPlacement.allCases, &rng)
        s.sizing = pick(SheetSizing.allCases, &rng)
        var detents: [Detent] = []
        for _ in 0..<(1 + rng.next() % 4) {
            let d = detent(&rng)
            if !detents.contains(d) { detents.append(d) }
        }
        s.detents = detents
        if chance(40, &rng) { s.selectedDetent = pick(detents, &rng) }
        switch rng.next() % 3 {
        case 0: s.backgroundInteraction = .disabled
        case 1: s.backgroundInteraction = .enabled
        default: s.backgroundInteraction = .upThrough(detent(&rng))
        }
        s.interactiveDismissDisabled = chance(50, &rng)
        s.dragIndicator = pick(DragIndicator.allCases, &rng)
        if chance(50, &rng) { s.cornerRadius = number(0...40, &rng) }
        if chance(60, &rng) {
            s.toolbar = (0..<rng.next() % 4).map { _ in
                ToolbarItem(
                    title: chance(80, &rng) ? pick(titles, &rng) : nil,
                    systemImage: chance(60, &rng) ? pick(symbols, &rng) : nil,
                    placement: pick(ToolbarPlacement.allCases, &rng))
            }
        }
        s.contentScrollable = chance(40, &rng)
        return s
    }

    static func panel(_ rng: inout SplitMix64) -> PanelRequest {
        var p = PanelRequest()
        if chance(50, &rng) { p.breakpoint = number(300...1200, &rng) }
        p.alignment = pick(PanelAlignment.allCases, &rng)
        if chance(50, &rng) { p.panelWidth = number(100...500, &rng) }
        if chance(50, &rng) { p.panelHeight = number(100...500, &rng) }
        p.modal = chance(50, &rng)
        if chance(50, &rng) { p.cornerRadius = number(0...40, &rng) }
        return p
    }

    static func preference(_ rng: inout SplitMix64) -> AxisPreference? {
        switch rng.next() % 3 {
        case 0: return nil
        case 1:
            let v = number(0...1, &rng)
            return AxisPreference(idealHorizontal: v, idealVertical: v)
        default:
            return AxisPreference(
                minHorizontal: chance(50, &rng) ? 0.1 : nil, idealHorizontal: chance(50, &rng) ? 0.4 : nil,
                maxHorizontal: chance(50, &rng) ? 0.8 : nil, idealVertical: chance(50, &rng) ? 0.3 : nil)
        }
    }

    static func arrangedView(_ rng: inout SplitMix64) -> ArrangedViewRequest {
        var v = ArrangedViewRequest()
        v.ratio = preference(&rng)
        v.size = preference(&rng)
        v.fixedHorizontal = chance(20, &rng)
        v.fixedVertical = chance(20, &rng)
        if chance(50, &rng) { v.overlayEdge = pick(Edge.allCases, &rng) }
        return v
    }

    static func scene(_ rng: inout SplitMix64) -> CodeScene {
        var s = Scene()
        let count = Int(rng.next() % 5) + (chance(85, &rng) ? 1 : 0)
        for i in 0..<count {
            let content: Presentation.Content
            switch pick(Presentation.Kind.allCases, &rng) {
            case .sheet: content = .sheet(sheet(&rng))
            case .fullScreenCover: content = .fullScreenCover
            case .popover:
                var p = PopoverRequest(anchor: Rect(x: 0, y: 0, width: 44, height: 44))
                p.arrowEdge = pick(ArrowEdge.allCases, &rng)
                p.compactAdaptation = pick(CompactAdaptation.allCases, &rng)
                content = .popover(p)
            case .adaptivePanel: content = .adaptivePanel(panel(&rng))
            }
            var p = Presentation(id: "p\(i)", content: content)
            if i > 0, chance(60, &rng) { p.presentedFrom = Int(rng.next() % UInt64(i)) }
            if p.kind != .sheet, chance(20, &rng) { p.strayPlacement = pick(SheetPlacement.allCases, &rng) }
            s.presentations.append(p)
        }
        if count == 0 || chance(50, &rng) {
            var a = ArrangementRequest()
            a.style = pick(ArrangementStyle.allCases, &rng)
            a.axes = pick([[.horizontal], [.vertical], [.horizontal, .vertical], [.vertical, .horizontal]], &rng)
            a.container = pick(ArrangementContainer.allCases, &rng)
            a.primary = arrangedView(&rng)
            a.secondary = arrangedView(&rng)
            s.arrangement = a
        }
        var code = CodeScene(s)
        for i in code.presentations.indices {
            switch code.presentations[i].kind {
            case .popover where chance(60, &rng):
                code.presentations[i].attachmentAnchor = pick(
                    [
                        .bounds, .point(x: 0.5, y: 0), .point(x: 1, y: 1), .point(x: 0.25, y: 0.75),
                        .rect(Rect(x: 2, y: 4, width: 20, height: 10)),
                    ], &rng)
            case .sheet where chance(25, &rng):
                code.presentations[i].fittedAxes = pick([[.horizontal], [.vertical], [.horizontal, .vertical]], &rng)
            default: break
            }
        }
        if code.arrangement != nil, chance(25, &rng) { code.arrangement?.style = .automatic }
        return code
    }

    /// What reading gives back: everything, except a selected fitted detent (the measured height, which no initial
    /// value can name: the writer leaves the selection out).
    static func expected(_ scene: CodeScene) -> CodeScene {
        var s = scene
        for i in s.presentations.indices where s.presentations[i].selectedDetent == .fitted {
            s.presentations[i].selectedDetent = nil
        }
        return s
    }
}
