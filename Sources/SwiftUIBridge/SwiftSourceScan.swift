import SwiftCodeModel

/// Byte scans that decide which files are parsed at all: parsing costs about 13 ms per 200-line file, a scan a few
/// microseconds (docs/swiftui.md#speed).
enum SwiftSourceScan {
    /// The names a presenting file uses: the presenting modifiers and `ArrangementView`.
    static let presentingNames: [[UInt8]] = ["sheet", "fullScreenCover", "popover", "adaptivePanel", "ArrangementView"]
        .map { Array($0.utf8) }

    /// Whether `text` uses one of `names` as a whole identifier (in code, a comment or a string: a file that only
    /// mentions one is parsed for nothing, never skipped wrongly).
    static func mentions(_ names: [[UInt8]], in text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { t in names.contains { identifier($0, in: t) } }
    }

    /// Whether `text` declares one of `names`: `struct N`, `class N`, `enum N`, `extension N`, `func N`.
    static func declares(_ names: Set<String>, in text: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        let keywords = ["struct", "class", "enum", "extension", "func"].map { Array($0.utf8) }
        return text.withUnsafeBufferPointer { t in
            for keyword in keywords {
                var from = 0
                while let at = find(keyword, in: t, from: from) {
                    from = at + keyword.count
                    var i = from
                    guard i < t.count, t[i] == 0x20 || t[i] == 0x09 else { continue }
                    while i < t.count, t[i] == 0x20 || t[i] == 0x09 { i += 1 }
                    let start = i
                    while i < t.count, isIdentifier(t[i]) { i += 1 }
                    if i > start,
                        names.contains(String(decoding: UnsafeBufferPointer(rebasing: t[start..<i]), as: UTF8.self))
                    {
                        return true
                    }
                }
            }
            return false
        }
    }

    private static func isIdentifier(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
    }

    private static func identifier(_ name: [UInt8], in t: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 0
        while let at = find(name, in: t, from: from) {
            from = at + 1
            let before = at == 0 ? 0x20 : t[at - 1]
            let end = at + name.count
            let after = end < t.count ? t[end] : 0x20
            if !isIdentifier(before) && !isIdentifier(after) && before != 0x24 { return true }
        }
        return false
    }

    /// The first offset at or after `from` where `needle` starts.
    private static func find(_ needle: [UInt8], in t: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first, t.count >= needle.count else { return nil }
        var i = from
        let last = t.count - needle.count
        while i <= last {
            if t[i] == first {
                var k = 1
                while k < needle.count && t[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
