/// A path pattern of the lint configuration (docs/lint.md#config), matched against a scene's path relative to the
/// project root with `/` between directories: `*` is any run of characters but `/`, `?` one such character, `**` a
/// whole segment standing for any number of directories (none included). A pattern without `/` is matched against
/// the file name alone, at any depth (`*.draft.json`); a leading `./` is ignored.
public struct LintGlob: Sendable, Equatable {
    public let pattern: String
    private let segments: [[Unicode.Scalar]]
    private let nameOnly: Bool

    public init(_ pattern: String) {
        self.pattern = pattern
        var p = Substring(pattern)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        nameOnly = !p.contains("/")
        segments = p.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
    }

    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        if nameOnly {
            guard let name = parts.last, let only = segments.first else { return false }
            return LintGlob.segment(only[...], matches: name[...])
        }
        return LintGlob.match(segments[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<[Unicode.Scalar]>, _ path: ArraySlice<[Unicode.Scalar]>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == Array("**".unicodeScalars) {
            let rest = pattern.dropFirst()
            var p = path
            while true {
                if match(rest, p) { return true }
                if p.isEmpty { return false }
                p = p.dropFirst()
            }
        }
        guard let name = path.first, segment(first[...], matches: name[...]) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// Wildcard matching of one segment (`*` and `?`), by backtracking to the last `*`.
    private static func segment(_ p: ArraySlice<Unicode.Scalar>, matches s: ArraySlice<Unicode.Scalar>) -> Bool {
        var i = p.startIndex
        var j = s.startIndex
        var star: Int? = nil
        var resume = s.startIndex
        while j < s.endIndex {
            if i < p.endIndex, p[i] == "?" || p[i] == s[j] {
                i += 1
                j += 1
            } else if i < p.endIndex, p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if let star {
                i = star + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.endIndex, p[i] == "*" { i += 1 }
        return i == p.endIndex
    }
}
