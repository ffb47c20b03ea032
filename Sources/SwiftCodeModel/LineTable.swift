/// Lines and columns of a Swift file, counted as `hinge lint` counts them (docs/lint.md#positions): lines end at LF,
/// CR LF or a lone CR and start at 1; a column counts UTF-16 code units from the start of the line, plus one (a
/// character outside the Basic Multilingual Plane counts two, a tab one); a byte order mark is not counted.
public struct LineTable: Sendable {
    /// The text after the byte order mark: what the parser reads and what offsets count in.
    public let text: [UInt8]
    private let lineStarts: [Int]

    /// `file` without its byte order mark, if it has one.
    public static func withoutByteOrderMark(_ file: [UInt8]) -> [UInt8] {
        if file.count >= 3, file[0] == 0xEF, file[1] == 0xBB, file[2] == 0xBF { return Array(file[3...]) }
        return file
    }

    /// `text` is already without its byte order mark.
    public init(text: [UInt8]) {
        self.text = text
        var starts = [0]
        var i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            if b == 0x0A {
                starts.append(i + 1)
            } else if b == 0x0D {
                if i + 1 < n, text[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    /// The line and column (both 1-based) of UTF-8 offset `offset`, clamped to the text.
    public func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, text.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var units = 0
        var i = lineStarts[low]
        while i < offset {
            let b = text[i]
            if b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
            i += 1
        }
        return (low + 1, units + 1)
    }
}
