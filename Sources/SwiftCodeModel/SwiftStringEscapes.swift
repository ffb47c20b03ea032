/// Swift string literal escapes, both ways: the reader turns a literal's source into its value, the writer a value
/// into a literal that reads back as the same value.
public enum SwiftStringEscapes {
    /// The value of a single-line literal's content (between the quotes); nil for an escape Swift does not have.
    public static func unescape(_ content: String) -> String? {
        var out = ""
        var scalars = content.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            guard c == "\\" else {
                out.unicodeScalars.append(c)
                continue
            }
            guard let e = scalars.next() else { return nil }
            switch e {
            case "\\": out += "\\"
            case "\"": out += "\""
            case "'": out += "'"
            case "n": out += "\n"
            case "r": out += "\r"
            case "t": out += "\t"
            case "0": out += "\0"
            case "u":
                guard scalars.next() == "{" else { return nil }
                var hex = ""
                while let h = scalars.next(), h != "}" { hex.unicodeScalars.append(h) }
                guard hex.count <= 8, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { return nil }
                out.unicodeScalars.append(scalar)
            default: return nil
            }
        }
        return out
    }

    /// `value` as a Swift string literal, quotes included: printable characters as they are, the rest escaped.
    public static func literal(_ value: String) -> String {
        var out = "\""
        for s in value.unicodeScalars {
            switch s {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                // Control characters, the line and paragraph separators and the byte order mark would break a line
                // or hide in an editor: written as \u{…}.
                if s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value) || s.value == 0x2028
                    || s.value == 0x2029 || s.value == 0xFEFF
                {
                    out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }
}
