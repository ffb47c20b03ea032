import Store

/// `If-Match` and `If-None-Match` (RFC 9110 §13.1.1, §13.1.2) against the store's entity tags.
enum ConditionalRequest {
    /// The precondition of a write carrying `ifMatch` (the raw `If-Match` header, nil when absent): `*` matches
    /// any current representation; otherwise strong comparison, so a weak tag (`W/"…"`) never matches, and a
    /// header without a strong tag matches nothing.
    /// `If-None-Match: *` without `If-Match` (which RFC 9110 evaluates first) asks to create only: `.absent`.
    static func writePrecondition(ifMatch: String?, ifNoneMatch: String? = nil) -> WritePrecondition {
        guard let ifMatch else {
            if let ifNoneMatch, entityTags(ifNoneMatch).contains(where: { $0.tag == "*" }) { return .absent }
            return .unconditional
        }
        let tags = entityTags(ifMatch)
        if tags.contains(where: { $0.tag == "*" }) { return .anyCurrent }
        return .matching(tags.filter { !$0.weak }.map { EntityTag(quoted: $0.tag) })
    }

    /// True when `ifNoneMatch` (the raw `If-None-Match` header) matches the current representation, i.e. a
    /// GET answers 304. Weak comparison; `*` matches any current representation.
    static func ifNoneMatch(_ ifNoneMatch: String, current: EntityTag) -> Bool {
        entityTags(ifNoneMatch).contains { $0.tag == "*" || $0.tag == current.quoted }
    }

    /// The entity tags of a header list: `"a", W/"b"` → [("\"a\"", false), ("\"b\"", true)]; `*` → [("*", false)].
    static func entityTags(_ header: String) -> [(tag: String, weak: Bool)] {
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
