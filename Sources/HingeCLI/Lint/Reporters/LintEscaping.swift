/// How a value that comes from the linted files (a file name, a member, an id, a message that quotes them) is written
/// to each medium the lint writes to (docs/lint.md#escaping). One function per medium; every reporter and every
/// message on standard error goes through them, so no byte of a scene file or its name can start a line, send a
/// terminal sequence or a workflow command, or open a Markdown or HTML element.
enum LintEscaping {
    /// A terminal or a log: every control character (C0, DEL, C1: LF, CR, ESC, BEL, …) as `\u00XX`, so a value is
    /// one line and sends no sequence. Everything else is kept.
    static func terminal(_ s: String) -> String {
        guard mayHoldControls(s) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for c in s.unicodeScalars {
            if isControl(c) { out += unicodeEscape(c) } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// A line of a terminal or a log, `terminal`-escaped, that the GitHub runner cannot read as a workflow command: a
    /// line whose text starts with `::` (or `##[`, the runner's older form), after the blanks the runner trims, gets
    /// that first character as `\u003A` (`\u0023`).
    static func terminalLine(_ s: String) -> String {
        let escaped = terminal(s)
        // Most lines start with a letter or a digit: nothing to look at.
        guard let lead = escaped.utf8.first,
            lead == UInt8(ascii: ":") || lead == UInt8(ascii: "#") || lead == 0x20 || lead == 0x09 || lead >= 0x80
        else { return escaped }
        let trimmed = escaped.drop { $0.isWhitespace || $0 == "\u{FEFF}" || $0 == "\u{200B}" }
        let first: String
        if trimmed.hasPrefix("::") {
            first = "\\u003A"
        } else if trimmed.hasPrefix("##[") {
            first = "\\u0023"
        } else {
            return escaped
        }
        return String(escaped[..<trimmed.startIndex]) + first + String(trimmed.dropFirst())
    }

    /// Lines for standard error: each line of `message` as `terminalLine`. Values inside a message of several lines
    /// are escaped with `terminal` where the message is built, so a line break in `message` is the lint's own.
    static func terminalLines(_ message: String) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { terminalLine(String($0)) }.joined(
            separator: "\n")
    }

    /// A workflow command's message (GitHub's `escapeData`): `%` as `%25`, CR as `%0D`, LF as `%0A`; the other control
    /// characters as `\u00XX`, as for a terminal, since the log shows the line.
    static func workflowData(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if isControl(c) { out += unicodeEscape(c) } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// A workflow command's property value (GitHub's `escapeProperty`): as `workflowData`, and `:` as `%3A`, `,` as
    /// `%2C`.
    static func workflowProperty(_ s: String) -> String {
        workflowData(s).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }

    /// A cell of a Markdown table in the step summary, shown as plain text: control characters as `\u00XX` (shown
    /// with their backslash), `&`, `<`, `>` as entities, and every other ASCII punctuation Markdown gives a meaning
    /// to (`|`, backquote, `*`, `_`, `[`, `]`, `#`, `\`, …) backslash-escaped. No HTML, link, code span, emphasis
    /// or column break comes through.
    static func markdownCell(_ s: String) -> String {
        var out = ""
        for c in terminal(s).unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "#", "+", "-", ".", "!", "|", "~", "\"", "'", "=",
                ":", "$", "@", "^":
                out += "\\"
                out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Bytes that may not be UTF-8 (a file name), shown: valid UTF-8 as text (then `terminal`-escaped), any other
    /// byte as `\xNN`.
    static func bytes(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let length = sequenceLength(bytes, at: i)
            if length > 0, let s = String(validating: bytes[i..<i + length], as: UTF8.self) {
                out += s
                i += length
            } else {
                out += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        return terminal(out)
    }

    /// Whether `bytes` are valid UTF-8.
    static func isUTF8(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Whether `s` may hold a control character, judged on its UTF-8 bytes (a C1 control starts with 0xC2): the
    /// common case, none, costs one pass over the bytes.
    private static func mayHoldControls(_ s: String) -> Bool {
        let test: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
        return s.utf8.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? s.utf8.contains(where: test)
    }

    static func isControl(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x20 || (c.value >= 0x7F && c.value <= 0x9F)
    }

    private static func unicodeEscape(_ c: Unicode.Scalar) -> String { "\\u00" + hex(UInt8(c.value)) }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }

    /// The length of the UTF-8 sequence a lead byte announces, 0 for a byte that cannot lead one; the bytes are
    /// checked by the caller.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let b = bytes[i]
        let n: Int
        switch b {
        case 0..<0x80: n = 1
        case 0xC2...0xDF: n = 2
        case 0xE0...0xEF: n = 3
        case 0xF0...0xF4: n = 4
        default: return 0
        }
        return i + n <= bytes.count ? n : 0
    }
}
