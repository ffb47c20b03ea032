/// A scene file's text, for turning byte offsets and JSON pointers into lines and columns (docs/lint.md#positions).
///
/// What a position counts, chosen to match what SARIF viewers, GitHub and editors show:
/// - Lines end at LF, at CR LF (one break) and at a CR alone; the first line is 1.
/// - The column counts UTF-16 code units from the start of the line, plus one (SARIF's default `columnKind`,
///   `utf16CodeUnits`): a character outside the Basic Multilingual Plane (an emoji) counts two, any other one, and a
///   tab one (no tab stops).
/// - A UTF-8 byte order mark at the start is not part of the text: the first character after it is at column 1.
struct SourceText {
    /// The file's bytes after the byte order mark, if there was one: what the JSON parser reads.
    let bytes: [UInt8]
    let hadByteOrderMark: Bool
    /// The offset at which each line starts.
    private let lineStarts: [Int]

    init(file: [UInt8]) {
        if file.count >= 3, file[0] == 0xEF, file[1] == 0xBB, file[2] == 0xBF {
            bytes = Array(file[3...])
            hadByteOrderMark = true
        } else {
            bytes = file
            hadByteOrderMark = false
        }
        var starts = [0]
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A {
                starts.append(i + 1)
            } else if b == 0x0D {
                if i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    /// The line (1-based) and column (1-based, UTF-16 code units) of byte `offset` (clamped to the text).
    func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        // The last line start at or before `offset`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var units = 0
        var i = lineStarts[low]
        while i < offset {
            let b = bytes[i]
            // A lead byte starts a character: four-byte sequences are two UTF-16 code units (a surrogate pair).
            if b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
            i += 1
        }
        return (low + 1, units + 1)
    }

    /// Where the value at `pointer` starts, or — when the scene does not write it (a default, a member the matrix
    /// sets, a pointer into the resolution) — where its closest written parent does.
    func position(of pointer: String) -> SourcePosition {
        var scanner = JSONTextScanner(bytes: bytes)
        let start = scanner.locate(JSONTextScanner.tokens(of: pointer))
        return position(ofValueAt: start, scanner: &scanner)
    }

    /// The position of byte `offset`, one character wide (a parse error's).
    func position(at offset: Int) -> SourcePosition {
        let (line, column) = lineAndColumn(at: offset)
        return SourcePosition(line: line, column: column)
    }

    private func position(ofValueAt start: Int, scanner: inout JSONTextScanner) -> SourcePosition {
        let (line, column) = lineAndColumn(at: start)
        guard start < bytes.count, bytes[start] != UInt8(ascii: "{"), bytes[start] != UInt8(ascii: "[") else {
            return SourcePosition(line: line, column: column)
        }
        scanner.index = start
        scanner.skipValue()
        let (endLine, endColumn) = lineAndColumn(at: scanner.index)
        guard endLine == line, endColumn > column else { return SourcePosition(line: line, column: column) }
        return SourcePosition(line: line, column: column, endLine: endLine, endColumn: endColumn)
    }
}

/// Walks JSON text the parser has already accepted, to find where a pointer's value starts. It trusts the text's
/// grammar (a malformed byte only ends the walk early) and never builds a value.
struct JSONTextScanner {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The tokens of an RFC 6901 pointer (`""` is the root: no token).
    static func tokens(of pointer: String) -> [String] {
        guard pointer.hasPrefix("/") else { return [] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            token.contains("~") ? String(token.replacing("~1", with: "/").replacing("~0", with: "~")) : String(token)
        }
    }

    /// The offset of the value at `tokens`, or of the deepest one of its parents the text has.
    mutating func locate(_ tokens: [String]) -> Int {
        index = 0
        skipWhitespace()
        for token in tokens {
            let container = index
            guard index < bytes.count else { return container }
            let found: Bool
            switch bytes[index] {
            case UInt8(ascii: "{"): found = enterMember(token)
            case UInt8(ascii: "["): found = enterElement(token)
            default: found = false
            }
            if !found { return container }
        }
        return index
    }

    /// Moves to the value of member `key` of the object at `index`; false when it has none.
    private mutating func enterMember(_ key: String) -> Bool {
        let wanted = Array(key.utf8)
        index += 1
        skipWhitespace()
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let matches = readKey(equalTo: wanted)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            if matches { return true }
            skipValue()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
            skipWhitespace()
        }
        return false
    }

    /// Moves to element `token` (a decimal index) of the array at `index`; false when it has none.
    private mutating func enterElement(_ token: String) -> Bool {
        guard let wanted = Int(token), wanted >= 0, String(wanted) == token else { return false }
        index += 1
        skipWhitespace()
        var k = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            if k == wanted { return true }
            skipValue()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
            skipWhitespace()
            k += 1
        }
        return false
    }

    /// Reads the string at `index` (a key) and says whether its text is `wanted`; leaves `index` after it.
    private mutating func readKey(equalTo wanted: [UInt8]) -> Bool {
        let start = index + 1
        skipString()
        let end = index - 1
        guard end >= start else { return wanted.isEmpty }
        let raw = bytes[start..<end]
        if !raw.contains(UInt8(ascii: "\\")) { return raw.elementsEqual(wanted) }
        return JSONTextScanner.unescape(raw) == wanted
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Steps over the value at `index`.
    mutating func skipValue() {
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                default: break
                }
                index += 1
            }
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: index += 1
                }
            }
        }
    }

    /// Steps over the string whose opening quote is at `index`.
    private mutating func skipString() {
        index += 1
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\\") {
                index += 2
            } else {
                index += 1
                if b == UInt8(ascii: "\"") { return }
            }
        }
    }

    /// The UTF-8 text of a string's content with its escapes decoded (the parser has checked them).
    static func unescape(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var scalars = String.UnicodeScalarView()
        var i = raw.startIndex
        func flush() {
            out.append(contentsOf: String(scalars).utf8)
            scalars = String.UnicodeScalarView()
        }
        while i < raw.endIndex {
            let b = raw[i]
            guard b == UInt8(ascii: "\\"), i + 1 < raw.endIndex else {
                flush()
                out.append(b)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard let unit = hex4(raw, at: i) else { continue }
                i += 4
                if (0xD800..<0xDC00).contains(unit), i + 5 < raw.endIndex, raw[i] == UInt8(ascii: "\\"),
                    let low = hex4(raw, at: i + 2), (0xDC00..<0xE000).contains(low)
                {
                    i += 6
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    if let s = Unicode.Scalar(value) { scalars.append(s) }
                } else if let s = Unicode.Scalar(UInt32(unit)) {
                    scalars.append(s)
                }
            default: scalars.append(Unicode.Scalar(e))
            }
        }
        flush()
        return out
    }

    private static func hex4(_ raw: ArraySlice<UInt8>, at i: Int) -> UInt16? {
        guard i + 4 <= raw.endIndex else { return nil }
        var v: UInt16 = 0
        for b in raw[i..<(i + 4)] {
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
        }
        return v
    }
}
