import LayoutEngine

/// Locale-free numbers with at most 2 decimals ("12", "12.5", "-0.25"); non-finite and absurd values → 0.
enum SVGNumber {
    static func format(_ d: Double) -> String {
        guard d.isFinite, abs(d) < 1e12 else { return "0" }
        let hundredths = Int((abs(d) * 100).rounded())
        if hundredths == 0 { return "0" }
        let whole = hundredths / 100
        let frac = hundredths % 100
        var s = d < 0 ? "-" : ""
        s += String(whole)
        if frac != 0 {
            s += frac % 10 == 0 ? ".\(frac / 10)" : (frac < 10 ? ".0\(frac)" : ".\(frac)")
        }
        return s
    }
}

/// XML escaping, and the width and wrapping of text set in a sans-serif face.
enum SVGText {
    /// XML text and attribute escaping. Characters XML 1.0 cannot carry (most C0 controls, U+FFFE/U+FFFF)
    /// become U+FFFD so that any id or message gives a well-formed document — and so that the renderer's
    /// own placeholder (U+0001, see `SVGRenderer`) can never come from a client's text.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += " "
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    /// Advance of one character in ems, on the generous side of DejaVu Sans and Liberation Sans (the faces
    /// `sans-serif` usually maps to), so that text measured here fits where it is drawn.
    static func advance(_ c: Unicode.Scalar) -> Double {
        switch c {
        case " ", ".", ",", ":", ";", "!", "|", "'", "i", "j", "l", "·": return 0.34
        case "f", "t", "r", "I", "(", ")", "[", "]", "-", "/": return 0.42
        case "m", "w", "M", "W", "…", "—", "@", "%": return 0.95
        case "0"..."9": return 0.64
        case "A"..."Z": return 0.74
        case "a"..."z": return 0.62
        default: return c.value < 0x80 ? 0.66 : 0.9
        }
    }

    /// Estimated width of `s` at `size`; bold text is about 10 % wider.
    static func width(_ s: String, size: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for c in s.unicodeScalars { ems += advance(c) }
        return ems * size * (bold ? 1.1 : 1)
    }

    /// Greedy word wrap to lines at most `width` wide (a word wider than a line is broken between
    /// characters, rather after a hyphen). No character is dropped: the lines joined again give the words of
    /// `s`. Linear in the length of `s`: each character is measured once, whatever the length of a word.
    static func wrap(_ s: String, width: Double, size: Double, bold: Bool = false) -> [String] {
        let scale = size * (bold ? 1.1 : 1)
        let space = advance(" ") * scale
        var lines: [String] = []
        var line = ""
        var lineWidth = 0.0
        for word in s.split(separator: " ", omittingEmptySubsequences: true) {
            let scalars = Array(word.unicodeScalars)
            var ww = 0.0
            for c in scalars { ww += advance(c) * scale }
            if !line.isEmpty, lineWidth + space + ww <= width {
                line += " " + String(word)
                lineWidth += space + ww
                continue
            }
            if !line.isEmpty { lines.append(line) }
            var start = 0
            // Break the word into heads that fit, each measured once, until the rest fits a line.
            while ww > width, scalars.count - start > 1 {
                let end = breakIndex(scalars, from: start, width: width, scale: scale)
                lines.append(text(scalars[start..<end]))
                for c in scalars[start..<end] { ww -= advance(c) * scale }
                start = end
            }
            line = start == 0 ? String(word) : text(scalars[start...])
            lineWidth = ww
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The end of the longest head of `scalars[start...]` (at least one character, never all of it) that
    /// fits `width`; after a hyphen when that leaves at least half of the head.
    private static func breakIndex(_ scalars: [Unicode.Scalar], from start: Int, width: Double, scale: Double) -> Int {
        var used = 0.0
        var end = start
        var hyphen: Int?
        while end < scalars.count - 1 {
            let step = advance(scalars[end]) * scale
            if used + step > width, end > start { break }
            used += step
            if scalars[end] == "-" { hyphen = end }
            end += 1
        }
        if let h = hyphen, (h - start) * 2 >= end - start, h + 1 < end { return h + 1 }
        return end
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Text a client controls (ids, kind and style names as written, diagnostic messages naming unknown
    /// members) is drawn at most `limit` characters long, ellipsised beyond; the JSON answer keeps it whole
    /// (docs/svg.md#text-bounds). Linear in `limit`, whatever the length of `s`.
    static func bounded(_ s: String, limit: Int) -> String {
        var count = 0
        for i in s.indices {
            if count == limit { return String(s[..<i]) + "…" }
            count += 1
        }
        return s
    }

    /// Characters of a name (an id, a kind, a device, a toolbar item's title) drawn before the ellipsis: the
    /// longest text a valid scene holds (`SceneLimits.textLength`), so only what the engine refused or
    /// ignored (an unknown kind, a stored response of another version) is ever cut.
    static let maxNameCharacters = SceneLimits.textLength.upperBound
    /// Characters of a diagnostic message drawn before the ellipsis: a message naming an unknown member
    /// repeats the member's name, which only the body limit bounds.
    static let maxMessageCharacters = 480
}

/// FNV-1a, 64 bits: a short, stable fingerprint of a document (not a security measure).
enum Fingerprint {
    static func hex(_ s: String, digits: Int = 8) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        let full = String(repeating: "0", count: max(0, 16 - hex.count)) + hex
        return String(full.prefix(digits))
    }
}
