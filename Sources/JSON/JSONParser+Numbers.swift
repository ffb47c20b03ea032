// Numbers of the JSON text (RFC 8259 §6): validated, and converted to Double with correct rounding.
extension ByteParser {
    mutating func parseNumber() throws(Failure) -> Double {
        var scanner = NumberScanner(base: base, end: end, i: i)
        defer { i = scanner.i }
        return try scanner.scan()
    }
}

/// One number of the text at `i` (the parser's and `JSONStreamReader`'s): validated, converted, and `i` left
/// after it (or at the byte that is wrong).
struct NumberScanner {
    typealias Failure = ByteParser.Failure
    let base: UnsafePointer<UInt8>
    let end: Int
    var i: Int

    /// Exact powers of ten: `m * 10^e` or `m / 10^e` with m ≤ 2^53 and e ≤ 22 is one correctly rounded
    /// operation (Clinger's fast path), so most real-world numbers never reach the slow path.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    func unexpected(expected: String) -> Failure {
        ByteParser.unexpected(base: base, end: end, at: i, expected: expected)
    }

    @inline(__always)
    mutating func scan() throws(Failure) -> Double {
        let start = i
        var negative = false
        if base[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var overflow = false
        var exponent = 0

        guard i < end else { throw Failure(reason: .unexpectedEnd(expected: "a digit"), offset: i) }
        let first = base[i]
        if first == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(base[i]) {
                throw Failure(reason: .invalidNumber("leading zeros are not allowed"), offset: start)
            }
        } else if isDigit(first) {
            while i < end, isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, overflow: &overflow)
                i += 1
            }
        } else {
            throw unexpected(expected: "a digit")
        }

        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end else {
                throw Failure(reason: .unexpectedEnd(expected: "a digit after the decimal point"), offset: i)
            }
            guard isDigit(base[i]) else { throw unexpected(expected: "a digit after the decimal point") }
            while i < end, isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, overflow: &overflow)
                exponent -= 1
                i += 1
            }
        }

        if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            var exponentNegative = false
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end else {
                throw Failure(reason: .unexpectedEnd(expected: "a digit in the exponent"), offset: i)
            }
            guard isDigit(base[i]) else { throw unexpected(expected: "a digit in the exponent") }
            var e = 0
            while i < end, isDigit(base[i]) {
                if e < 1_000_000 { e = e * 10 + Int(base[i] &- UInt8(ascii: "0")) }  // saturate; slow path decides
                i += 1
            }
            exponent += exponentNegative ? -e : e
        }

        if !overflow && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var d = Double(mantissa)
            if exponent < 0 {
                d /= Self.exactPowersOfTen[-exponent]
            } else if exponent > 0 {
                d *= Self.exactPowersOfTen[exponent]
            }
            return negative ? -d : d
        }
        return try slowNumber(from: start)
    }

    /// Correctly rounded conversion of the validated text (`Double(_:)` is strtod in the C locale).
    func slowNumber(from start: Int) throws(Failure) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            let shown = text.utf8.count > 40 ? String(text.prefix(37)) + "..." : text
            throw Failure(reason: .numberOutOfRange(shown), offset: start)
        }
        return d
    }

    @inline(__always)
    func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    func accumulate(_ c: UInt8, into mantissa: inout UInt64, overflow: inout Bool) {
        if mantissa < 1_000_000_000_000_000_000 {
            mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
        } else {
            overflow = true
        }
    }
}
