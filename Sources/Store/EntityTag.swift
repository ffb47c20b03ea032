/// Entity tags of device profiles (RFC 9110 §8.8.3): a strong tag, the quoted 64-bit FNV-1a hash of the
/// profile's canonical JSON — the same content always has the same tag, across restarts and databases.
public enum EntityTag {
    /// `"` + 16 hex digits + `"`.
    public static func of(canonicalBytes bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// `If-Match` (RFC 9110 §13.1.1): true when the request may proceed. `*` matches any current
    /// representation; otherwise strong comparison, so a weak tag (`W/"…"`) never matches. With no current
    /// representation (`current == nil`) only… nothing matches.
    public static func ifMatch(_ header: String, current: String?) -> Bool {
        guard let current else { return false }
        let tags = parse(header)
        if tags.contains(where: { $0.tag == "*" }) { return true }
        return tags.contains { !$0.weak && $0.tag == current }
    }

    /// `If-None-Match` (RFC 9110 §13.1.2): true when the header matches the current representation, i.e. a
    /// GET answers 304 (a PUT 412). Weak comparison; `*` matches any current representation.
    public static func ifNoneMatch(_ header: String, current: String?) -> Bool {
        guard let current else { return false }
        return parse(header).contains { $0.tag == "*" || $0.tag == current }
    }

    /// The entity tags of a header list: `"a", W/"b"` → [("\"a\"", false), ("\"b\"", true)]; `*` → [("*", false)].
    static func parse(_ header: String) -> [(tag: String, weak: Bool)] {
        var out: [(String, Bool)] = []
        let b = Array(header.utf8)
        var i = 0
        while i < b.count {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x2C { i += 1 }
            guard i < b.count else { break }
            if b[i] == 0x2A {  // *
                out.append(("*", false))
                i += 1
                continue
            }
            var weak = false
            if b[i] == 0x57, i + 1 < b.count, b[i + 1] == 0x2F {  // W/
                weak = true
                i += 2
            }
            guard i < b.count, b[i] == 0x22 else {
                // Not an entity tag: skip to the next comma.
                while i < b.count, b[i] != 0x2C { i += 1 }
                continue
            }
            let start = i
            i += 1
            while i < b.count, b[i] != 0x22 { i += 1 }
            guard i < b.count else { break }
            i += 1
            out.append((String(decoding: b[start..<i], as: UTF8.self), weak))
        }
        return out
    }
}
