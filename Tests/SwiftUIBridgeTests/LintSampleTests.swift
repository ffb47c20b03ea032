import JSON
import LayoutEngine
import SwiftUIBridge
import Testing

/// The three corpus samples a lint of Swift sources must report, resolved with the engine as a lint's matrix would:
/// each diagnostic's pointer leads back to the line and column of the code that causes it.
@Suite struct LintSampleTests {
    private func scene(_ sample: String, _ id: String) throws -> ExtractedScene {
        try #require(Corpus.read(sample).scenes.first { $0.id == id })
    }

    private func diagnostics(_ s: ExtractedScene, _ changes: [String: JSONValue]) throws -> [Diagnostic] {
        let (decoded, problem) = engineScene(patched(s.scene.json(context: .standard), changes))
        let scene = try #require(decoded, "\(problem ?? "")")
        return LayoutEngine.resolve(scene).diagnostics
    }

    @Test("lint samples: a sheet presented from a sheet is a chained modal at the inner sheet's line")
    func chainedModal() throws {
        let s = try scene("lint-chained-modal", "SettingsView.swift#SettingsView/0")
        let found = try diagnostics(s, [:])
        let d = try #require(found.first { $0.code == .chainedModal })
        #expect(d.path == "/presentations/1/presentedFrom")
        #expect(s.position(of: d.path) == SourcePosition(path: "SettingsView.swift", line: 23, column: 18))
        // The inner sheet alone, the scene of the view that presents it, is no chain.
        let alone = try scene("lint-chained-modal", "SettingsView.swift#AccountView/0")
        #expect(try !diagnostics(alone, [:]).contains { $0.code == .chainedModal })
    }

    @Test("lint samples: a fitted sheet is cut off at accessibility text sizes, at its detents' line")
    func fittedRisk() throws {
        let s = try scene("lint-fitted-risk", "ReceiptView.swift#ReceiptView/0")
        let large = try diagnostics(s, ["dynamicTypeSize": "accessibility3"])
        let d = try #require(large.first { $0.code == .fittedAccessibilityRisk })
        #expect(d.path == "/presentations/0/detents")
        #expect(s.position(of: d.path) == SourcePosition(path: "ReceiptView.swift", line: 18, column: 22))
        #expect(try !diagnostics(s, [:]).contains { $0.code == .fittedAccessibilityRisk })
    }

    @Test("lint samples: a split that may only stack hides its secondary on the iPhone Duo half-opened")
    func splitHidden() throws {
        let s = try scene("lint-split-hidden", "ReaderView.swift#ReaderView/0")
        let folded = try diagnostics(s, ["device": "iphone-duo", "posture": "halfOpened"])
        let d = try #require(folded.first { $0.code == .secondaryHidden })
        #expect(d.path == "/arrangement/axes")
        #expect(s.position(of: d.path) == SourcePosition(path: "ReaderView.swift", line: 14, column: 10))
        // An iPhone in portrait stacks: the secondary shows.
        #expect(try !diagnostics(s, [:]).contains { $0.code == .secondaryHidden })
    }

    @Test("read: every corpus scene is a scene the engine accepts as it is")
    func engineAccepts() {
        for (sample, s) in Corpus.scenes {
            let json = s.scene.json(context: .standard)
            let (scene, problem) = engineScene(json)
            #expect(scene != nil, "\(sample) \(s.id): \(problem ?? "")")
        }
    }
}
