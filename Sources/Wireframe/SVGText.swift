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
    /// characters). No character is dropped: the lines joined again give the words of `s`.
    static func wrap(_ s: String, width: Double, size: Double, bold: Bool = false) -> [String] {
        let space = Self.width(" ", size: size, bold: bold)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0.0
        for word in s.split(separator: " ", omittingEmptySubsequences: true) {
            var w = String(word)
            var ww = Self.width(w, size: size, bold: bold)
            if !line.isEmpty, lineWidth + space + ww <= width {
                line += " " + w
                lineWidth += space + ww
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while ww > width, w.count > 1 {
                let (head, tail) = split(w, width: width, size: size, bold: bold)
                lines.append(head)
                w = tail
                ww = Self.width(w, size: size, bold: bold)
            }
            line = w
            lineWidth = ww
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest head of `w` (at least one character) that fits `width`, and the rest.
    static func split(_ w: String, width: Double, size: Double, bold: Bool) -> (String, String) {
        var used = 0.0
        var end = w.startIndex
        for c in w {
            let a = c.unicodeScalars.first.map(advance) ?? 0
            let step = a * size * (bold ? 1.1 : 1)
            if used + step > width, end > w.startIndex { break }
            used += step
            end = w.index(after: end)
        }
        // Rather after a hyphen, when one leaves at least half of the line filled.
        if end < w.endIndex, let hyphen = w[..<end].lastIndex(of: "-"),
            w.distance(from: w.startIndex, to: hyphen) * 2 >= w.distance(from: w.startIndex, to: end)
        {
            end = w.index(after: hyphen)
        }
        return (String(w[..<end]), String(w[end...]))
    }
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
