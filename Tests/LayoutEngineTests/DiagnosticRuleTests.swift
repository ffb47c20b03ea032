import Foundation
import Testing

@testable import LayoutEngine

/// Each diagnostic code's rule (`DiagnosticCode.rule`) against the copies Swift cannot derive: the table of
/// docs/rules.md#diagnostics, `hinge lint`'s rule table in docs/lint.md, and the plugins' `RULE_ANCHORS`
/// (plugins/shared/drawing.js), for every code in `DiagnosticCode.allCases`.
@Suite("Diagnostic rules, declared once")
struct DiagnosticRuleTests {
    /// The rows of the markdown table in `section` that start with a code in backticks: the code, and the
    /// row's other cells.
    static func rows(_ section: Substring) -> [(code: String, cells: [String])] {
        section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"), cells[1].count > 2 else {
                return nil
            }
            return (String(cells[1].dropFirst().dropLast()), Array(cells[2..<(cells.count - 1)]))
        }
    }

    /// The anchors of the links in `cell`: what follows a `#` up to the `)` of each `[text](…#anchor)`.
    static func anchors(_ cell: String) -> [String] {
        cell.split(separator: "(").compactMap { part in
            guard let hash = part.firstIndex(of: "#"), let close = part.firstIndex(of: ")"), hash < close else {
                return nil
            }
            return String(part[part.index(after: hash)..<close])
        }
    }

    @Test("Every code's anchor is an anchor of docs/rules.md, and the code's row in its diagnostics table lists it")
    func rulesDocument() throws {
        let rules = try SceneMemberTests.document("docs/rules.md")
        let table = Self.rows(
            try SceneMemberTests.section(rules, from: "<a id=\"diagnostics\"></a>", to: "<a id=\"validation\"></a>"))
        #expect(table.map(\.code) == DiagnosticCode.allCases.map(\.rawValue))
        for code in DiagnosticCode.allCases {
            let rule = code.rule
            #expect(rules.contains("<a id=\"\(rule.anchor)\"></a>"), "\(code.rawValue): no anchor \(rule.anchor)")
            guard let row = table.first(where: { $0.code == code.rawValue }), row.cells.count == 2 else {
                Issue.record("\(code.rawValue) has no row of a severity and links")
                continue
            }
            #expect(Self.anchors(row.cells[1]).first == rule.anchor, "\(code.rawValue): \(row.cells[1])")
            #expect(row.cells[0].contains(rule.severity.rawValue), "\(code.rawValue): severity \(row.cells[0])")
        }
    }

    @Test("docs/lint.md lists every code as a rule with its severity and anchor")
    func lintDocument() throws {
        let lint = try SceneMemberTests.document("docs/lint.md")
        let table = Self.rows(try SceneMemberTests.section(lint, from: "<a id=\"rules\"></a>", to: "<a id="))
        let listed = Dictionary(table.map { ($0.code, $0.cells) }, uniquingKeysWith: { first, _ in first })
        for code in DiagnosticCode.allCases {
            let rule = code.rule
            guard let cells = listed[code.rawValue], cells.count == 2 else {
                Issue.record("docs/lint.md has no row for \(code.rawValue)")
                continue
            }
            #expect(cells[0].hasPrefix(rule.severity.rawValue), "\(code.rawValue): default \(cells[0])")
            #expect(Self.anchors(cells[1]) == [rule.anchor], "\(code.rawValue): \(cells[1])")
        }
    }

    /// `RULE_ANCHORS` of plugins/shared/drawing.js: its `"code": "anchor",` lines, in order.
    static func pluginAnchors() throws -> [(code: String, anchor: String)] {
        let source = try SceneMemberTests.document("plugins/shared/drawing.js")
        return try SceneMemberTests.section(source, from: "const RULE_ANCHORS = {", to: "};")
            .split(separator: "\n").compactMap { line in
                let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
                guard quoted.count == 5 else { return nil }
                return (String(quoted[1]), String(quoted[3]))
            }
    }

    @Test("plugins/shared/drawing.js links every code, and only those, to its rule's anchor")
    func pluginAnchors() throws {
        let entries = try Self.pluginAnchors()
        let table = Dictionary(entries.map { ($0.code, $0.anchor) }, uniquingKeysWith: { first, _ in first })
        #expect(table.count == entries.count, "a code is listed twice")
        let wrong = DiagnosticCode.allCases.filter { table[$0.rawValue] != $0.rule.anchor }.map(\.rawValue)
        #expect(wrong.isEmpty, "missing, or linked to another anchor than their rule's: \(wrong)")
        let extra = Set(table.keys).subtracting(DiagnosticCode.allCases.map(\.rawValue))
        #expect(extra.isEmpty, "not diagnostic codes: \(extra.sorted())")
    }
}
