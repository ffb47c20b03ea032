/// Why and where a document is not JSON, with a message meant for the person who wrote it:
/// `unexpected character '}' at line 3, column 5: expected a value`.
///
/// - `offset` is the 0-based byte offset of the offending byte (or of the end of the input).
/// - `line` and `column` are 1-based. Lines are separated by LF (a CR before it is just whitespace);
///   the column counts Unicode scalars from the start of the line, so it matches what an editor shows
///   for text without combining characters. Both are computed only when an error is thrown.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// `found` describes the character (`'}'`, `U+0001`); `expected` says what the grammar allows there.
        case unexpectedCharacter(found: String, expected: String)
        case unexpectedEnd(expected: String)
        /// A number that breaks the RFC 8259 grammar in a way worth naming (leading zeros).
        case invalidNumber(String)
        /// A well-formed number whose magnitude does not fit a finite Double (`1e400`); the literal, truncated.
        case numberOutOfRange(String)
        /// A backslash followed by something other than `" \ / b f n r t u`, or `\u` without 4 hex digits.
        case invalidEscape(String)
        /// `\uD800` without a low surrogate after it, or `\uDC00` without a high surrogate before it.
        case unpairedSurrogate(UInt16)
        /// A malformed UTF-8 sequence, reported at (and with) its first byte (RFC 3629: no stray continuation
        /// bytes, truncated sequences, overlong forms, encoded surrogates, or anything above U+10FFFF).
        case invalidUTF8(UInt8)
        /// U+0000…U+001F inside a string must be escaped.
        case controlCharacterInString(UInt8)
        case duplicateKey(String)
        case depthLimitExceeded(limit: Int)
        case sizeLimitExceeded(limit: Int, size: Int)
        /// RFC 8259 §8.1: a UTF-8 byte order mark is not part of JSON text; we do not skip it silently.
        case byteOrderMark
    }

    public let reason: Reason
    public let offset: Int
    public let line: Int
    public let column: Int

    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The human message, e.g. `unexpected character '}' at line 3, column 5: expected a value`.
    public var message: String {
        let at = "at line \(line), column \(column)"
        switch reason {
        case .unexpectedCharacter(let found, let expected):
            return "unexpected character \(found) \(at): expected \(expected)"
        case .unexpectedEnd(let expected):
            return "unexpected end of input \(at): expected \(expected)"
        case .invalidNumber(let detail):
            return "invalid number \(at): \(detail)"
        case .numberOutOfRange(let text):
            return "number out of range \(at): \(text) does not fit in a 64-bit floating-point number"
        case .invalidEscape(let text):
            return "invalid escape \(text) \(at): expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .unpairedSurrogate(let unit):
            return "unpaired UTF-16 surrogate \\u\(hex4(unit)) \(at): "
                + "a high surrogate \\uD800-\\uDBFF must be followed by a low surrogate \\uDC00-\\uDFFF"
        case .invalidUTF8(let byte):
            return "invalid UTF-8 sequence starting with byte 0x\(hex2(byte)) \(at)"
        case .controlCharacterInString(let byte):
            return "unescaped control character U+\(hex4(UInt16(byte))) in a string \(at): "
                + "escape it as \(controlEscape(byte))"
        case .duplicateKey(let key):
            return "duplicate key \"\(key)\" \(at)"
        case .depthLimitExceeded(let limit):
            return "nesting too deep \(at): at most \(limit) levels of arrays and objects are allowed"
        case .sizeLimitExceeded(let limit, let size):
            return "document too large: \(size) bytes, at most \(limit) are allowed"
        case .byteOrderMark:
            return "byte order mark \(at): JSON text must not start with U+FEFF"
        }
    }

    public var description: String { message }
}

private let hexDigits: [Character] = Array("0123456789ABCDEF")

func hex2(_ b: UInt8) -> String {
    String([hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]])
}

func hex4(_ u: UInt16) -> String {
    hex2(UInt8(u >> 8)) + hex2(UInt8(u & 0xFF))
}

private func controlEscape(_ b: UInt8) -> String {
    switch b {
    case 0x08: return "\\b"
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0C: return "\\f"
    case 0x0D: return "\\r"
    default: return "\\u\(hex4(UInt16(b)))"
    }
}
