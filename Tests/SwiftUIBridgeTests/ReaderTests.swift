import JSON
import LayoutEngine
import SwiftUIBridge
import Testing

/// What the reader makes of particular code (docs/swiftui.md#read, #unresolved): each case a few lines of SwiftUI
/// and the scene, the places and the entries expected from them.
@Suite struct ReaderTests {
    private func only(_ report: SceneReport) throws -> ExtractedScene {
        try #require(report.scenes.count == 1, "\(report.scenes.map(\.id))")
        return report.scenes[0]
    }

    @Test("read: a file that names no presenting modifier is never parsed; one that names one only in a comment is")
    func byteScan() {
        let plain = SwiftSourceFile(
            path: "A.swift", bytes: source("struct A: View {", "    var body: some View { Text(\"a\") }", "}"))
        let comment = SwiftSourceFile(path: "B.swift", bytes: source("// no sheet here", "struct B {}"))
        let showsSheet = SwiftSourceFile(path: "C.swift", bytes: source("let showsSheet = true", "let sheetTitle = 1"))
        let report = SwiftUIReader.read([plain, comment, showsSheet], jobs: 2)
        #expect(report.files == 3 && report.parsedFiles == 1 && report.scenes.isEmpty)
        #expect(!SwiftUIReader.mayPresent(plain.bytes) && SwiftUIReader.mayPresent(comment.bytes))
        #expect(!SwiftUIReader.mayPresent(showsSheet.bytes))
    }

    @Test("read: columns count UTF-16 code units; a byte order mark is not counted; CR LF is one line break")
    func positions() throws {
        // "😀" is two UTF-16 code units, "é" one (two UTF-8 bytes).
        let text =
            [0xEF, 0xBB, 0xBF]
            + Array(
                [
                    "struct V: View {", "    @State var a = false", "    var body: some View {",
                    "        Text(\"é😀\").sheet(isPresented: $a) { Text(\"x\") }", "    }", "}",
                ].joined(separator: "\r\n").utf8)
        let s = try only(readOne(text))
        #expect(s.source == SourcePosition(path: "View.swift", line: 1, column: 8))
        #expect(s.position(of: "/presentations/0") == SourcePosition(path: "View.swift", line: 4, column: 21))
    }

    @Test("read: presentations nested in content are a chain; siblings are separate scenes; ids stay unique")
    func chains() throws {
        let report = readOne(
            source(
                "struct V: View {",
                "    @State var a = false", "    @State var b = false", "    @State var c = false",
                "    var body: some View {",
                "        Color.clear",
                "            .sheet(isPresented: $a) {",
                "                Text(\"a\").sheet(isPresented: $b) { Text(\"b\") }",
                "                    .popover(isPresented: $a) { Text(\"inner a\") }",
                "            }",
                "            .fullScreenCover(isPresented: $c) { Text(\"c\") }",
                "    }",
                "}"))
        #expect(report.scenes.map(\.id) == ["View.swift#V/0", "View.swift#V/1", "View.swift#V/2"])
        let ids = report.scenes.map { $0.scene.presentations.map { "\($0.id)<\($0.presentedFrom ?? "")" } }
        #expect(ids == [["a<", "b<a"], ["a<", "a-2<a"], ["c<"]])
        #expect(report.scenes[1].position(of: "/presentations/1/presentedFrom").line == 9)
    }

    @Test("read: configuration under a runtime condition, a ternary or a variable is unresolved and left out")
    func unresolved() throws {
        let s = try only(
            readOne(
                source(
                    "struct V: View {",
                    "    @State var a = false", "    @State var big = false",
                    "    @State var detents: Set<PresentationDetent> = [.medium]",
                    "    var body: some View {",
                    "        Color.clear.sheet(isPresented: $a) {",
                    "            if big {",
                    "                Text(\"x\").presentationDragIndicator(.visible)",
                    "            }",
                    "            Text(\"y\")",
                    "                .presentationDetents(detents)",
                    "                .presentationCornerRadius(big ? 20 : 10)",
                    "                .interactiveDismissDisabled(big)",
                    "        }",
                    "    }",
                    "}")))
        #expect(s.scene.presentations == [CodePresentation(id: "a", kind: .sheet)])
        #expect(
            s.unresolved.map { [$0.position.line, $0.position.column] } == [[8, 27], [11, 18], [12, 18], [13, 18]])
        #expect(s.unresolved[0].message.contains("applies only when `big` holds"))
        #expect(s.unresolved[1].message.contains("held in `detents`"))
    }

    @Test("read: `#available` for iOS up to 27 is the branch that runs, a later iOS the other")
    func availability() throws {
        let s = try only(
            readOne(
                source(
                    "struct V: View {", "    @State var a = false", "    var body: some View {",
                    "        Color.clear.sheet(isPresented: $a) {",
                    "            if #available(iOS 28, *) {",
                    "                Text(\"x\").presentationPlacement(.leading)",
                    "            } else if #available(iOS 27.1, *) {",
                    "                Text(\"x\").presentationPlacement(.trailing)",
                    "            } else {", "                Text(\"x\").presentationPlacement(.center)",
                    "            }",
                    "        }", "    }", "}")))
        #expect(s.scene.presentations.first?.placement == .trailing && s.unresolved.isEmpty)
    }

    @Test("read: a selection held in @State starts the selected detent; one outside the detents is unresolved")
    func selection() throws {
        let report = readOne(
            source(
                "struct V: View {", "    @State var a = false", "    @State var b = false",
                "    @State private var detent: PresentationDetent = .height(300)",
                "    @State private var other = PresentationDetent.large",
                "    var body: some View {",
                "        Color.clear",
                "            .sheet(isPresented: $a) {",
                "                Text(\"a\").presentationDetents([.medium, .height(300)], selection: $detent)",
                "            }",
                "            .sheet(isPresented: $b) {",
                "                Text(\"b\").presentationDetents([.medium], selection: $other)",
                "            }", "    }", "}"))
        #expect(report.scenes.map { $0.scene.presentations[0].selectedDetent } == [.height(300), nil])
        #expect(
            report.scenes[1].unresolved.map(\.message) == [
                "the selected detent's initial value is not one of the detents"
            ])
    }

    @Test("read: a custom modifier read elsewhere presents at its call; one not read is unresolved")
    func customModifiers() throws {
        let modifier = SwiftSourceFile(
            path: "EditorSheet.swift",
            bytes: source(
                "extension View {",
                "    func editorSheet(isPresented: Binding<Bool>) -> some View {",
                "        sheet(isPresented: isPresented) { Text(\"editor\").presentationDetents([.medium]) }",
                "    }", "}"))
        // This file names no presenting modifier: it is read because it calls one the other file declares.
        let view = SwiftSourceFile(
            path: "V.swift",
            bytes: source(
                "struct V: View {", "    @State private var editing = false", "    @State private var other = false",
                "    var body: some View {",
                "        Color.clear",
                "            .editorSheet(isPresented: $editing)",
                "            .settingsPanel(isPresented: $other)",
                "    }", "}"))
        let report = SwiftUIReader.read([modifier, view], jobs: 2)
        #expect(report.parsedFiles == 2)
        let s = try only(report)
        #expect(s.scene.presentations.map(\.id) == ["editing"] && s.scene.presentations[0].detents == [.medium])
        #expect(s.position(of: "/presentations/0/detents") == SourcePosition(path: "V.swift", line: 6, column: 14))
        #expect(s.unresolved.map { $0.position.line } == [7])
        #expect(s.unresolved[0].message.contains("`.settingsPanel(…)` may present through a custom modifier"))
    }

    @Test("read: toolbar items: placements, titles and symbols from buttons and labels; what is not read says so")
    func toolbar() throws {
        let s = try only(
            readOne(
                source(
                    "struct V: View {", "    @State var a = false", "    let title = \"Done\"", "    var name: String",
                    "    var body: some View {",
                    "        Color.clear.sheet(isPresented: $a) {",
                    "            NavigationStack { Text(\"x\") }",
                    "                .toolbar {",
                    "                    ToolbarItemGroup(placement: .primaryAction) {",
                    "                        Button(action: {}) { Label(\"Share\", systemImage: \"square.and.arrow.up\") }",
                    "                        Menu(\"More\", systemImage: \"ellipsis\") {}",
                    "                    }",
                    "                    ToolbarItem(placement: .topBarLeading) { Button(title) {} }",
                    "                    Button(name) {}",
                    "                    if a { Button(\"Hidden\") {} }",
                    "                }",
                    "        }", "    }", "}")))
        let toolbar = s.scene.presentations[0].toolbar
        #expect(
            toolbar == [
                ToolbarItem(title: "Share", systemImage: "square.and.arrow.up", placement: .primaryAction),
                ToolbarItem(title: "More", systemImage: "ellipsis", placement: .primaryAction),
                ToolbarItem(title: "Done", placement: .automatic),
                ToolbarItem(placement: .automatic),
            ])
        #expect(s.unresolved.map { $0.position.line } == [13, 14, 15])
        #expect(s.unresolved[0].message.contains("`.topBarLeading` has no counterpart"))
        #expect(s.unresolved[1].message.contains("title `name` is known only when it runs"))
        #expect(s.unresolved[2].message.contains("only when `a` holds"))
    }

    @Test("read: popover adaptation, attachment anchors, and members a kind does not have")
    func popovers() throws {
        let report = readOne(
            source(
                "struct V: View {", "    @State var a = false", "    @State var b = false",
                "    var body: some View {",
                "        Color.clear",
                "            .popover(isPresented: $a, attachmentAnchor: .point(UnitPoint(x: 0.25, y: 1)), arrowEdge: .bottom) {",
                "                Text(\"a\").presentationCompactAdaptation(.none).presentationDetents([.medium])",
                "            }",
                "            .popover(isPresented: $b, attachmentAnchor: .rect(.rect(CGRect(x: 4, y: 6, width: 10, height: 8)))) {",
                "                Text(\"b\").presentationCompactAdaptation(horizontal: .sheet, vertical: .popover)",
                "            }", "    }", "}"))
        let a = report.scenes[0].scene.presentations[0]
        #expect(
            a.attachmentAnchor == .point(x: 0.25, y: 1) && a.arrowEdge == .bottom && a.compactAdaptation == .popover)
        #expect(a.anchor(in: Rect(x: 100, y: 200, width: 40, height: 20)) == Rect(x: 110, y: 220, width: 0, height: 0))
        #expect(
            report.scenes[0].unresolved.map(\.message).contains {
                $0.contains("popover has no member for `.presentationDetents")
            })
        let b = report.scenes[1].scene.presentations[0]
        #expect(b.attachmentAnchor == .rect(Rect(x: 4, y: 6, width: 10, height: 8)) && b.compactAdaptation == nil)
        #expect(b.anchor(in: Rect(x: 100, y: 200, width: 40, height: 20)) == Rect(x: 104, y: 206, width: 10, height: 8))
        #expect(report.scenes[1].unresolved.map(\.message).contains { $0.contains("one per size class") })
    }

    @Test("present-by-item: `if let`, its shorthand, `guard let` and `!`; none when the optional is not read")
    func presentByItem() throws {
        func findings(_ content: String) -> [String] {
            readOne(
                source(
                    "struct V: View {", "    @State var a = false", "    @State var item: Item?",
                    "    var other: Int = 0",
                    "    var body: some View {", "        Color.clear.sheet(isPresented: $a) {", content, "        }",
                    "    }", "}")
            ).scenes.flatMap { $0.findings.map(\.code) }
        }
        #expect(findings("            if let x = item { Text(x.name) }") == ["present-by-item"])
        #expect(findings("            if let item { Text(item.name) }") == ["present-by-item"])
        #expect(findings("            Text(self.item!.name)") == ["present-by-item"])
        #expect(findings("            VStack { if let i = other.first { Text(i) } }") == [])
        #expect(findings("            Text(\"no item here\")") == [])
    }

    @Test("read: an arrangement inside a List is in a list container; a second one at the root is unresolved")
    func arrangementContainer() throws {
        let s = try only(
            readOne(
                source(
                    "struct V: View {", "    var body: some View {", "        List {",
                    "            ArrangementView { Text(\"a\") } secondary: { Text(\"b\").splitArrangementFixedLayoutSize(horizontal: true, vertical: false) }",
                    "            ArrangementView { Text(\"c\") } secondary: { Text(\"d\") }", "        }", "    }", "}")
            ))
        #expect(s.scene.arrangement?.container == .list)
        #expect(
            s.scene.arrangement?.secondary.fixedHorizontal == true
                && s.scene.arrangement?.secondary.fixedVertical == false)
        #expect(s.unresolved.map { $0.position.line } == [4, 5])
        #expect(
            s.scene.json(context: .standard).member("arrangement")?.member("secondary")?.member("contentSize") != nil)
    }

    @Test("scene JSON: an unknown kind or a wrong type is refused at its pointer")
    func jsonErrors() throws {
        #expect(throws: CodeSceneError.self) { try CodeScene(json: .array([])) }
        let kind = try JSONParser.parse(#"{"presentations": [{"id": "a", "kind": "sheeet"}]}"#)
        #expect(
            throws: CodeSceneError(pointer: "/presentations/0/kind", message: "\"sheeet\" is not a value the scene has")
        ) {
            try CodeScene(json: kind)
        }
        let detent = try JSONParser.parse(#"{"presentations": [{"id": "a", "kind": "sheet", "detents": [3]}]}"#)
        #expect(throws: CodeSceneError(pointer: "/presentations/0/detents/0", message: "not a detent")) {
            try CodeScene(json: detent)
        }
    }
}
