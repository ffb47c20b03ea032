import JSON
import TestSupport
import Testing

/// docs/api.md#swiftui: `POST /v1/scenes/from-swift` reads a Swift file as `hinge scenes` does; `POST /v1/swiftui`
/// writes a scene as SwiftUI, which reads back as the same presentations.
@Suite(.serialized) struct SwiftUIRoutesLiveTests {
    static let swift = [("Content-Type", "text/x-swift; charset=utf-8")]
    static let settings = """
        import SwiftUI

        struct SettingsView: View {
            @State private var showsAccount = false
            var body: some View {
                Button("Account") { showsAccount = true }
                    .sheet(isPresented: $showsAccount) {
                        Text("Account")
                            .presentationDetents([.medium, .large])
                    }
            }
        }
        """

    @Test func aSwiftFileAnswersItsScenesWithTheirPositions() throws {
        let s = try LiveServer(noRecord: true)
        let reply = try s.post("/v1/scenes/from-swift?path=App/Settings.swift", Self.settings, headers: Self.swift)
        #expect(reply.status == 200)
        let json = try #require(reply.json)
        #expect(json["files"] == 1)
        let scene = try #require(json["scenes"]?[0])
        #expect(scene["id"] == "App/Settings.swift#SettingsView/0")
        #expect(scene["view"] == "SettingsView")
        let presentation = try #require(scene["scene"]?["presentations"]?[0])
        #expect(presentation["id"] == "showsAccount")
        #expect(presentation["kind"] == "sheet")
        #expect(presentation["detents"] == .array(["medium", "large"]))
        // The presenting modifier's line and column in the file.
        #expect(scene["sources"]?["/presentations/0"]?["line"] == 7)
        #expect(scene["sources"]?["/presentations/0"]?["column"] == 14)
    }

    @Test func otherContentTypesAre415AndABadPathIs400() throws {
        let s = try LiveServer(noRecord: true)
        let json = try s.post("/v1/scenes/from-swift", Self.settings, headers: [("Content-Type", "application/json")])
        #expect(json.status == 415)
        #expect(json.json?["detail"]?.stringValue?.contains("text/x-swift") == true)
        #expect(try s.post("/v1/scenes/from-swift", Self.settings).status == 415)
        let path = try s.post("/v1/scenes/from-swift?path=", Self.settings, headers: Self.swift)
        #expect(path.status == 400)
        let notText = try s.send(
            "POST", "/v1/scenes/from-swift", headers: Self.swift, body: [0x73, 0x74, 0xFF, 0xFE])
        #expect(notText.status == 400)
        // Over the server's body limit (1 MiB): 413 before any parsing.
        let big = String(repeating: "// padding\n", count: 100_000)
        #expect(try s.post("/v1/scenes/from-swift", big, headers: Self.swift).status == 413)
    }

    @Test func aSceneIsWrittenAsSwiftUIThatReadsBackAsTheSamePresentations() throws {
        let s = try LiveServer(noRecord: true)
        let scene = """
            {"device":"iphone-16","presentations":[
              {"id":"filters","kind":"sheet","detents":["medium","large"],"sizing":"page","fittedAxes":["horizontal"],
               "contentSize":{"width":300,"height":200}},
              {"id":"help","kind":"popover","presentedFrom":"filters","anchor":{"x":10,"y":10},"arrowEdge":"bottom"}],
             "arrangement":{"style":"automatic"}}
            """
        let reply = try s.post("/v1/swiftui", scene)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/x-swift; charset=utf-8")
        let code = String(decoding: reply.body, as: UTF8.self)
        #expect(code.hasPrefix("import SwiftUI"))
        let back = try s.post("/v1/scenes/from-swift?path=Scene.swift", code, headers: Self.swift)
        #expect(back.status == 200)
        let read = try #require(back.json?["scenes"]?[0]?["scene"])
        let presentations = try #require(read["presentations"]?.arrayValue)
        #expect(presentations.map { $0["id"] } == ["filters", "help"])
        #expect(presentations[0]["detents"] == .array(["medium", "large"]))
        #expect(presentations[0]["fittedAxes"] == .array(["horizontal"]))
        #expect(presentations[1]["presentedFrom"] == "filters")
        #expect(presentations[1]["arrowEdge"] == "bottom")
        #expect(read["arrangement"]?["style"] == "automatic")
    }

    @Test func aSceneThatBreaksARuleIs422AndNotJSONIs400() throws {
        let s = try LiveServer(noRecord: true)
        let bad = try s.post("/v1/swiftui", #"{"device":"iphone-16","presentations":[{"id":"a","kind":"drawer"}]}"#)
        #expect(bad.status == 422)
        #expect(bad.json?["errors"]?[0]?["path"] == "/presentations/0/kind")
        #expect(try s.post("/v1/swiftui", "{").status == 400)
    }

    @Test func aSandboxedPageMayCallBoth() throws {
        let s = try LiveServer(noRecord: true, corsOrigins: ["null"])
        let origin = [("Origin", "null")]
        #expect(try s.post("/v1/swiftui", #"{"device":"iphone-16","presentations":[]}"#, headers: origin).status == 200)
        #expect(try s.post("/v1/scenes/from-swift", Self.settings, headers: origin + Self.swift).status == 200)
    }
}
