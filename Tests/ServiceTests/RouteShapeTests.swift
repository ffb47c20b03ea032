import Foundation
import Testing

/// CONTRIBUTING.md#where-things-go: a route reads the request, calls the core and writes the answer. These checks
/// read the routes' sources: no route (a `router.add` statement) and no function of a `*Routes.swift` file is over
/// 30 lines, and the one error type a handler throws is `RouteError`.
@Suite struct RouteShapeTests {
    static let serviceSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Service")

    static func routeFiles() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: serviceSources.path)
            .filter { $0.hasSuffix("Routes.swift") }.sorted()
        return try names.map {
            ($0, try String(contentsOf: serviceSources.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The lines from the one starting at `offset` to where its bracket (the first `open` after it) closes.
    static func spanLines(_ text: [Character], from offset: Int, open: Character, close: Character) -> Int {
        var i = offset
        while i < text.count && text[i] != open { i += 1 }
        var depth = 0
        var lines = 1
        var inString = false
        while i < text.count {
            let c = text[i]
            if c == "\n" { lines += 1 }
            if c == "\"" && (i == 0 || text[i - 1] != "\\") { inString.toggle() }
            if !inString {
                if c == open { depth += 1 }
                if c == close {
                    depth -= 1
                    if depth == 0 { return lines }
                }
            }
            i += 1
        }
        return lines
    }

    @Test func noRouteNorRouteFunctionIsOver30Lines() throws {
        let files = try Self.routeFiles()
        #expect(files.count >= 6)
        var measured = 0
        for (name, source) in files {
            let text = Array(source)
            let joined = String(text)
            for (marker, open, close) in [("router.add(", Character("("), Character(")")), ("func ", "{", "}")] {
                var searchFrom = joined.startIndex
                while let r = joined.range(of: marker, range: searchFrom..<joined.endIndex) {
                    let offset = joined.distance(from: joined.startIndex, to: r.lowerBound)
                    let line = joined[..<r.lowerBound].filter { $0 == "\n" }.count + 1
                    let length = Self.spanLines(
                        text, from: offset + marker.count - (marker.hasSuffix("(") ? 1 : 0),
                        open: open, close: close)
                    #expect(length <= 30, "\(name):\(line): \(marker)… is \(length) lines")
                    measured += 1
                    searchFrom = r.upperBound
                }
            }
        }
        #expect(measured > 40)
    }

    @Test func handlersThrowOnlyRouteError() throws {
        for (name, source) in try Self.routeFiles() {
            for (n, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var rest = line[...]
                while let r = rest.range(of: "throws") {
                    let after = rest[r.upperBound...]
                    let typed = after.hasPrefix("(RouteError)")
                    // `try core(…)`'s autoclosure is the one place a core `Problem` is thrown, and it is caught there.
                    #expect(typed, "\(name):\(n + 1): `\(line.trimmingCharacters(in: .whitespaces))`")
                    rest = after
                }
            }
        }
    }
}
