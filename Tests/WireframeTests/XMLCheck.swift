import Foundation

// MARK: - A tiny XML well-formedness checker

/// Checks what a renderer needs: one root, balanced and properly nested tags, attributes quoted and
/// unique, only the five predefined entities and numeric references, no raw `<` or `&` in text or
/// attribute values, no `--` in comments. Returns the first problem, or nil.
enum XMLCheck {
    static func problem(_ xml: String) -> String? {
        let s = Array(xml.unicodeScalars)
        var i = 0
        var stack: [String] = []
        var roots = 0
        func isNameChar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ":" || c == "."
        }
        func entity(at j: Int) -> Int? {  // index after a valid reference starting at s[j] == "&"
            var k = j + 1
            var name = ""
            while k < s.count, s[k] != ";", k - j < 12 {
                name.unicodeScalars.append(s[k])
                k += 1
            }
            guard k < s.count, s[k] == ";" else { return nil }
            if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return k + 1 }
            if name.hasPrefix("#x"), name.count > 2, name.dropFirst(2).allSatisfy(\.isHexDigit) { return k + 1 }
            if name.hasPrefix("#"), name.count > 1, name.dropFirst().allSatisfy(\.isNumber) { return k + 1 }
            return nil
        }
        func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" || s[i] == "\r" { i += 1 } }
        while i < s.count {
            let c = s[i]
            if c == "<" {
                if xml.unicodeScalars.count > i + 4, String(String.UnicodeScalarView(s[i..<(i + 4)])) == "<!--" {
                    var k = i + 4
                    while k + 2 < s.count, !(s[k] == "-" && s[k + 1] == "-") { k += 1 }
                    guard k + 2 < s.count, s[k + 2] == ">" else { return "bad comment at \(i)" }
                    i = k + 3
                    continue
                }
                if i + 1 < s.count, s[i + 1] == "?" {
                    guard i == 0 else { return "processing instruction not at start: \(i)" }
                    while i + 1 < s.count, !(s[i] == "?" && s[i + 1] == ">") { i += 1 }
                    i += 2
                    continue
                }
                let closing = i + 1 < s.count && s[i + 1] == "/"
                i += closing ? 2 : 1
                var name = ""
                while i < s.count, isNameChar(s[i]) {
                    name.unicodeScalars.append(s[i])
                    i += 1
                }
                if name.isEmpty { return "empty tag name at \(i)" }
                if closing {
                    skipSpace()
                    guard i < s.count, s[i] == ">" else { return "bad closing tag </\(name) at \(i)" }
                    guard stack.last == name else { return "</\(name)> closes <\(stack.last ?? "nothing")> at \(i)" }
                    stack.removeLast()
                    i += 1
                    continue
                }
                if stack.isEmpty {
                    roots += 1
                    if roots > 1 { return "second root element <\(name)>" }
                }
                var attributes: Set<String> = []
                while true {
                    skipSpace()
                    guard i < s.count else { return "unterminated tag <\(name)>" }
                    if s[i] == ">" {
                        stack.append(name)
                        i += 1
                        break
                    }
                    if s[i] == "/", i + 1 < s.count, s[i + 1] == ">" {
                        i += 2
                        break
                    }
                    var attr = ""
                    while i < s.count, isNameChar(s[i]) {
                        attr.unicodeScalars.append(s[i])
                        i += 1
                    }
                    if attr.isEmpty { return "bad attribute in <\(name)> at \(i)" }
                    if !attributes.insert(attr).inserted { return "duplicate attribute \(attr) in <\(name)>" }
                    guard i < s.count, s[i] == "=" else { return "attribute \(attr) without = in <\(name)>" }
                    i += 1
                    guard i < s.count, s[i] == "\"" || s[i] == "'" else {
                        return "unquoted attribute \(attr) in <\(name)>"
                    }
                    let q = s[i]
                    i += 1
                    while i < s.count, s[i] != q {
                        if s[i] == "<" { return "raw < in attribute \(attr)" }
                        if s[i] == "&" {
                            guard let next = entity(at: i) else { return "raw & in attribute \(attr)" }
                            i = next
                            continue
                        }
                        i += 1
                    }
                    guard i < s.count else { return "unterminated attribute \(attr)" }
                    i += 1
                }
            } else if c == "&" {
                guard let next = entity(at: i) else { return "raw & in text at \(i)" }
                i = next
            } else {
                if c == ">", i >= 2, s[i - 1] == "]", s[i - 2] == "]" { return "]]> in text at \(i)" }
                if stack.isEmpty, !(c == " " || c == "\n" || c == "\t" || c == "\r") {
                    return "text outside the root at \(i)"
                }
                if c.value < 0x20, c != "\n", c != "\t", c != "\r" { return "control character in text at \(i)" }
                i += 1
            }
        }
        if !stack.isEmpty { return "unclosed <\(stack.joined(separator: "><"))>" }
        if roots != 1 { return "no root element" }
        return nil
    }

    /// Attributes of every start tag named `tag` whose `class` list holds `cls` (values unescaped for
    /// `&amp;` etc.).
    static func elements(_ xml: String, tag: String, cls: String) -> [[String: String]] {
        xml.components(separatedBy: "<\(tag) ").dropFirst().compactMap { part in
            guard let attrs = attributes(part), let classes = attrs["class"],
                classes.split(separator: " ").contains(Substring(cls))
            else { return nil }
            return attrs
        }
    }

    /// The attributes at the start of `part` (what follows `<name `), up to the tag's end.
    static func attributes(_ part: String) -> [String: String]? {
        guard let end = part.firstIndex(of: ">") else { return nil }
        var attrs: [String: String] = [:]
        var rest = part[..<end]
        while let eq = rest.range(of: "=\"") {
            let key = rest[..<eq.lowerBound].trimmingCharacters(in: .whitespaces)
            let afterQuote = rest[eq.upperBound...]
            guard let close = afterQuote.firstIndex(of: "\"") else { break }
            attrs[key] = unescape(String(afterQuote[..<close]))
            rest = afterQuote[afterQuote.index(after: close)...]
        }
        return attrs
    }

    /// The per-document prefix: the root's class (`h` and 8 hex digits).
    static func prefix(_ svg: String) -> String? {
        guard let root = rootAttributes(svg), let p = root["class"], p.count == 9, p.hasPrefix("h"),
            p.dropFirst().allSatisfy(\.isHexDigit)
        else { return nil }
        return p
    }

    /// The document with its prefix taken off every class and id (`h1234abcd-placement` → `placement`),
    /// for tests that look for one kind of element.
    static func unscoped(_ svg: String) -> String {
        guard let p = prefix(svg) else { return svg }
        return svg.replacingOccurrences(of: p + "-", with: "")
    }

    /// Attributes of the root `<svg>` element.
    static func rootAttributes(_ svg: String) -> [String: String]? {
        svg.components(separatedBy: "<svg ").dropFirst().first.flatMap(attributes)
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
