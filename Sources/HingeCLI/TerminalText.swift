/// Text from stored data (a profile's name, a recorded path, a JSON pointer naming a client's member) as the
/// CLI prints it in tables and messages: control characters (C0, DEL, C1) become visible escapes (`\x1b`),
/// so that a name holding `ESC [2J` or an OSC title sequence cannot drive the terminal that shows it.
public enum TerminalText {
    public static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for c in s.unicodeScalars {
            if isControl(c) {
                let hex = String(c.value, radix: 16)
                out += c.value < 0x100 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{\(hex)}"
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// C0 controls, DEL and C1 controls; and the bidirectional overrides and isolates, which reorder what
    /// follows them on screen.
    static func isControl(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
