/// Parses one complete head (request line + header lines, each ending in CRLF) out of a buffer. Every line
/// must end in CRLF: a CR or LF anywhere else is refused (RFC 9112 §2.2).
struct HeadParser {
    let p: UnsafeBufferPointer<UInt8>
    let limits: HTTPParser.Limits

    /// The request line's parts.
    private struct RequestLine {
        var method: HTTPMethod
        var path: String
        var query: String?
        var version: HTTPVersion
        /// The target's authority when it is in absolute-form (`GET http://host:port/path`), else nil.
        var authority: String?
        /// Index of the request line's CR.
        var end: Int
    }

    /// What the header fields say about framing and the connection, gathered while they are read.
    private struct FieldSummary {
        var headers = HTTPHeaders(capacity: 8)
        var hostCount = 0
        /// The first valid `Content-Length`, how many there were, and whether any differed from the first
        /// (kept inline: a request with a body allocates no list for them).
        var contentLength: Int? = nil
        var contentLengthCount = 0
        var contentLengthsDiffer = false
        var contentLengthInvalid = false
        var transferEncodings: [String] = []
        var connectionClose = false
        var connectionKeepAlive = false
        var expect: String? = nil
    }

    func parse(from: Int, to end: Int) -> HTTPParser.HeadResult {
        do throws(HTTPParseError) {
            let line = try requestLine(from: from)
            let blockStart = line.end + 2
            if end - blockStart > limits.maxHeaderBlockBytes {
                throw HTTPParseError(
                    .headerBlockTooLarge, "The header section is larger than \(limits.maxHeaderBlockBytes) bytes.")
            }
            let fields = try fieldLines(from: blockStart, to: end)
            let (framing, expectContinue) = try framing(fields, version: line.version)
            let keepAlive =
                line.version == .http1_1
                ? !fields.connectionClose : (fields.connectionKeepAlive && !fields.connectionClose)
            var headers = fields.headers
            // RFC 9112 §3.2.2: with an absolute-form target, the target's authority is the host, whatever
            // `Host` says; handlers (and the Host check) see it as `Host`.
            if let authority = line.authority { headers.set("Host", authority) }
            let request = HTTPRequest(
                method: line.method, path: line.path, query: line.query, version: line.version,
                headers: headers, body: [], keepAlive: keepAlive)
            return .head(request, framing, expectContinue: expectContinue)
        } catch {
            return .error(error)
        }
    }

    // MARK: Request line

    /// `method SP target SP version CRLF`.
    private func requestLine(from: Int) throws(HTTPParseError) -> RequestLine {
        var lineEnd = from
        while p[lineEnd] != 13 && p[lineEnd] != 10 { lineEnd += 1 }
        if p[lineEnd] != 13 || p[lineEnd + 1] != 10 {
            throw HTTPParseError(
                p[lineEnd] == 10 ? .bareLineFeed : .bareCarriageReturn, "The request line must end with CRLF.")
        }
        if lineEnd - from > limits.maxRequestLineBytes {
            throw HTTPParseError(
                .requestLineTooLong, "The request line is longer than \(limits.maxRequestLineBytes) bytes.")
        }
        var i = from
        while i < lineEnd && isTokenChar(p[i]) { i += 1 }
        if i == from || i >= lineEnd || p[i] != 32 {
            throw HTTPParseError(.malformedRequestLine, "The request line is malformed.")
        }
        let method = methodFromBytes(from, i)
        i += 1
        let targetStart = i
        while i < lineEnd && p[i] > 32 && p[i] < 127 { i += 1 }
        if i == targetStart || i >= lineEnd || p[i] != 32 {
            if i == lineEnd && i > targetStart {
                // HTTP/0.9 style "GET /" without a version.
                throw HTTPParseError(.http09, "The request line has no HTTP version (HTTP/0.9 is not supported).")
            }
            throw HTTPParseError(.malformedRequestLine, "The request line is malformed.")
        }
        let targetEnd = i
        let version = try self.version(from: i + 1, to: lineEnd)
        guard let (path, query, authority) = parseTarget(targetStart, targetEnd, method: method) else {
            throw HTTPParseError(.malformedTarget, "The request target is malformed.")
        }
        return RequestLine(
            method: method, path: path, query: query, version: version, authority: authority, end: lineEnd)
    }

    /// `"HTTP/" DIGIT "." DIGIT`, and only 1.0 or 1.1.
    private func version(from i: Int, to lineEnd: Int) throws(HTTPParseError) -> HTTPVersion {
        guard lineEnd - i == 8, p[i] == 72, p[i + 1] == 84, p[i + 2] == 84, p[i + 3] == 80, p[i + 4] == 47,
            p[i + 5] >= 48 && p[i + 5] <= 57, p[i + 6] == 46, p[i + 7] >= 48 && p[i + 7] <= 57
        else {
            throw HTTPParseError(.malformedVersion, "The request line has a malformed HTTP version.")
        }
        let version = HTTPVersion(major: Int(p[i + 5] - 48), minor: Int(p[i + 7] - 48))
        guard version == .http1_1 || version == .http1_0 else {
            throw HTTPParseError(.unsupportedVersion, "\(version) is not supported; use HTTP/1.1.")
        }
        return version
    }

    // MARK: Header fields

    private func fieldLines(from blockStart: Int, to end: Int) throws(HTTPParseError) -> FieldSummary {
        var summary = FieldSummary()
        var fieldCount = 0
        var i = blockStart
        while i < end {
            let lineStart = i
            if p[i] == 32 || p[i] == 9 {
                throw HTTPParseError(
                    .obsFold, "Obsolete line folding (a header line starting with whitespace) is not accepted.")
            }
            while i < end && isTokenChar(p[i]) { i += 1 }
            let nameEnd = i
            if i >= end || p[i] != UInt8(ascii: ":") { throw malformedName(lineStart, nameEnd, end) }
            if nameEnd == lineStart { throw HTTPParseError(.emptyFieldName, "A header field has an empty name.") }
            i += 1
            // Value: skip OWS, then field-content until CRLF.
            while i < end && (p[i] == 32 || p[i] == 9) { i += 1 }
            let valueStart = i
            i = try valueEnd(from: i, to: end)
            var valueEnd = i
            while valueEnd > valueStart && (p[valueEnd - 1] == 32 || p[valueEnd - 1] == 9) { valueEnd -= 1 }
            i += 2  // CRLF
            fieldCount += 1
            if fieldCount > limits.maxHeaderFields {
                throw HTTPParseError(.tooManyHeaderFields, "More than \(limits.maxHeaderFields) header fields.")
            }
            note(name: lineStart..<nameEnd, value: valueStart..<valueEnd, in: &summary)
        }
        return summary
    }

    /// Why a field line whose name is not followed by a colon is refused.
    private func malformedName(_ lineStart: Int, _ nameEnd: Int, _ end: Int) -> HTTPParseError {
        let i = nameEnd
        if i < end && (p[i] == 32 || p[i] == 9) {
            var k = i
            while k < end && (p[k] == 32 || p[k] == 9) { k += 1 }
            if k < end && p[k] == UInt8(ascii: ":") {
                return HTTPParseError(
                    .spaceBeforeColon, "Whitespace between a header field name and the colon is not accepted.")
            }
        }
        if nameEnd == lineStart && p[i] == 58 {
            return HTTPParseError(.emptyFieldName, "A header field has an empty name.")
        }
        var k = i
        while k < end && p[k] != 13 && p[k] != 10 { k += 1 }
        if k < end && p[k] == 13 && k + 1 < end && p[k + 1] == 10 {
            let hasColon = (lineStart..<k).contains { p[$0] == 58 }
            if !hasColon { return HTTPParseError(.missingColon, "A header line has no colon.") }
        }
        return HTTPParseError(.malformedFieldName, "A header field name is malformed.")
    }

    /// Index of the CR ending the value that starts at `i`; refuses CR, LF, NUL and controls inside it.
    private func valueEnd(from start: Int, to end: Int) throws(HTTPParseError) -> Int {
        var i = start
        while i < end {
            // Eight bytes at a time while none is a control byte or DEL, then straight to the first that may be.
            while i &+ 8 <= end, let base = p.baseAddress {
                let flagged = Self.controlMask(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if flagged != 0 {
                    i &+= flagged.trailingZeroBitCount &>> 3
                    break
                }
                i &+= 8
            }
            guard i < end else { break }
            let c = p[i]
            if c == 13 {
                if i + 1 < end && p[i + 1] == 10 { break }
                throw HTTPParseError(.bareCarriageReturn, "A header value contains a CR.")
            }
            if c == 10 { throw HTTPParseError(.bareLineFeed, "A header value contains a bare LF.") }
            if c == 0 { throw HTTPParseError(.nulInValue, "A header value contains a NUL byte.") }
            if (c < 32 && c != 9) || c == 127 {
                throw HTTPParseError(.controlCharacterInValue, "A header value contains a control character.")
            }
            i += 1
        }
        return i
    }

    /// Adds the field to the headers and notes what the framing and connection rules need from it.
    /// The high bit of each byte of `word` (first byte lowest) that is below 0x20 or is 0x7F, and possibly of
    /// bytes above such a byte (a borrow), never below the lowest one: its lowest set bit marks exactly the first
    /// byte that `valueEnd` must look at.
    @inline(__always)
    private static func controlMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let control = (word &- ones &* 0x20) & ~word
        let del = word ^ (ones &* 0x7F)
        return (control | ((del &- ones) & ~del)) & 0x8080_8080_8080_8080
    }

    private func note(name: Range<Int>, value: Range<Int>, in summary: inout FieldSummary) {
        let valueText = common(value) ?? string(value.lowerBound, value.upperBound)
        summary.headers.add(common(name) ?? string(name.lowerBound, name.upperBound), valueText)
        switch name.count {
        case 4 where equalsLower(name.lowerBound, "host"):
            summary.hostCount += 1
        case 14 where equalsLower(name.lowerBound, "content-length"):
            if let n = parseContentLength(value.lowerBound, value.upperBound) {
                if let first = summary.contentLength {
                    if n != first { summary.contentLengthsDiffer = true }
                } else {
                    summary.contentLength = n
                }
                summary.contentLengthCount += 1
            } else {
                summary.contentLengthInvalid = true
            }
        case 17 where equalsLower(name.lowerBound, "transfer-encoding"):
            summary.transferEncodings.append(valueText)
        case 10 where equalsLower(name.lowerBound, "connection"):
            for token in valueText.split(separator: ",") {
                let t = token.trimmingOWS().lowercased()
                if t == "close" { summary.connectionClose = true }
                if t == "keep-alive" { summary.connectionKeepAlive = true }
            }
        case 6 where equalsLower(name.lowerBound, "expect"):
            summary.expect = valueText
        default:
            break
        }
    }

    // MARK: Semantics (RFC 9112 §3.2, §6)

    /// How the body is framed, and whether the client waits for `100 Continue`.
    private func framing(_ f: FieldSummary, version: HTTPVersion) throws(HTTPParseError) -> (
        HTTPParser.BodyFraming, Bool
    ) {
        if version == .http1_1 && f.hostCount == 0 {
            throw HTTPParseError(.missingHost, "HTTP/1.1 requests need a Host header.")
        }
        if f.hostCount > 1 { throw HTTPParseError(.duplicateHost, "More than one Host header.") }
        if f.contentLengthInvalid {
            throw HTTPParseError(.invalidContentLength, "The Content-Length header is not a valid length.")
        }
        var framing = HTTPParser.BodyFraming.none
        if !f.transferEncodings.isEmpty {
            if f.contentLengthCount > 0 {
                throw HTTPParseError(
                    .contentLengthWithTransferEncoding, "Content-Length and Transfer-Encoding may not be used together."
                )
            }
            if version == .http1_0 {
                throw HTTPParseError(
                    .transferEncodingOnHTTP10, "Transfer-Encoding is not allowed in an HTTP/1.0 request.")
            }
            try checkTransferCodings(f.transferEncodings)
            framing = .chunked
        } else if f.contentLengthCount > 1 {
            if !f.contentLengthsDiffer {
                throw HTTPParseError(.duplicateContentLength, "More than one Content-Length header.")
            }
            throw HTTPParseError(.conflictingContentLength, "Conflicting Content-Length headers.")
        } else if let n = f.contentLength, n > 0 {
            framing = .length(n)
        }
        var expectContinue = false
        if let expect = f.expect {
            guard expect.lowercased() == "100-continue" else {
                throw HTTPParseError(.unsupportedExpectation, "Only the expectation 100-continue is supported.")
            }
            expectContinue = version == .http1_1
        }
        return (framing, expectContinue)
    }

    /// Only `chunked`, once, as the last (and only) coding.
    private func checkTransferCodings(_ values: [String]) throws(HTTPParseError) {
        var codings: [String] = []
        for v in values {
            for c in v.split(separator: ",", omittingEmptySubsequences: false) {
                codings.append(c.trimmingOWS().lowercased())
            }
        }
        guard codings.last == "chunked" else {
            throw HTTPParseError(.transferEncodingNotChunked, "Transfer-Encoding must end with chunked.")
        }
        if codings.count > 1 {
            if codings.dropLast().contains("chunked") || codings.contains("") {
                throw HTTPParseError(.malformedTransferEncoding, "Transfer-Encoding is malformed.")
            }
            throw HTTPParseError(.unsupportedTransferCoding, "Transfer codings other than chunked are not supported.")
        }
    }

    // MARK: Pieces

    private func string(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[a..<b]), as: UTF8.self)
    }

    /// Header names and values that most requests carry, spelt exactly so: the same `String` literal each time,
    /// without validating (or, past 15 bytes, allocating) a new one. Anything else, in any other case, is read
    /// as sent.
    private func common(_ range: Range<Int>) -> String? {
        let at = range.lowerBound
        switch range.count {
        case 4: return equalsExactly(at, "Host") ? "Host" : nil
        case 6: return equalsExactly(at, "Accept") ? "Accept" : nil
        case 10:
            if equalsExactly(at, "Connection") { return "Connection" }
            if equalsExactly(at, "keep-alive") { return "keep-alive" }
            return equalsExactly(at, "User-Agent") ? "User-Agent" : nil
        case 12: return equalsExactly(at, "Content-Type") ? "Content-Type" : nil
        case 14: return equalsExactly(at, "Content-Length") ? "Content-Length" : nil
        case 16: return equalsExactly(at, "application/json") ? "application/json" : nil
        default: return nil
        }
    }

    @inline(__always) private func equalsExactly(_ at: Int, _ text: StaticString) -> Bool {
        let t = text.utf8Start
        for k in 0..<text.utf8CodeUnitCount where p[at + k] != t[k] { return false }
        return true
    }

    private func equalsLower(_ at: Int, _ lower: StaticString) -> Bool {
        let n = lower.utf8CodeUnitCount
        let s = lower.utf8Start
        for k in 0..<n where asciiLower(p[at + k]) != s[k] { return false }
        return true
    }

    private func methodFromBytes(_ a: Int, _ b: Int) -> HTTPMethod {
        switch b - a {
        case 3:
            if p[a] == 71 && p[a + 1] == 69 && p[a + 2] == 84 { return .GET }
            if p[a] == 80 && p[a + 1] == 85 && p[a + 2] == 84 { return .PUT }
        case 4:
            if p[a] == 80 && p[a + 1] == 79 && p[a + 2] == 83 && p[a + 3] == 84 { return .POST }
            if p[a] == 72 && p[a + 1] == 69 && p[a + 2] == 65 && p[a + 3] == 68 { return .HEAD }
        default: break
        }
        return HTTPMethod(string(a, b))
    }

    /// Content-Length: 1*DIGIT, fitting in an Int. Signs, hex, lists and empty values are invalid.
    private func parseContentLength(_ a: Int, _ b: Int) -> Int? {
        guard b > a, b - a <= 18 else { return nil }
        var n = 0
        for k in a..<b {
            let c = p[k]
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
        }
        return n
    }

    private func parseTarget(_ a: Int, _ b: Int, method: HTTPMethod) -> (String, String?, String?)? {
        var s = a
        var authority: String? = nil
        if p[a] == UInt8(ascii: "*") {
            return (b - a == 1 && method == .OPTIONS) ? ("*", nil, nil) : nil
        }
        if p[a] != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority [path]
            guard let schemeEnd = (a..<b).first(where: { p[$0] == UInt8(ascii: ":") }),
                schemeEnd + 2 < b, p[schemeEnd + 1] == 47, p[schemeEnd + 2] == 47
            else { return nil }
            let scheme = string(a, schemeEnd).lowercased()
            guard scheme == "http" || scheme == "https" else { return nil }
            var k = schemeEnd + 3
            while k < b && p[k] != 47 && p[k] != 63 && p[k] != 35 {
                if p[k] == 64 { return nil }  // no userinfo (RFC 9110 §4.2.4)
                k += 1
            }
            guard k > schemeEnd + 3 else { return nil }  // an http URI has a host
            authority = string(schemeEnd + 3, k)
            s = k  // the path (empty in `http://host?q`: the root), query and fragment checks are origin-form's
        }
        var q = s
        while q < b && p[q] != 63 {
            if p[q] == 35 { return nil }  // no fragment in a request target
            q += 1
        }
        let path = q == s ? "/" : string(s, q)
        if q == b { return (path, nil, authority) }
        for k in q..<b where p[k] == 35 {
            _ = k
            return nil
        }
        return (path, string(q + 1, b), authority)
    }
}

extension Substring {
    func trimmingOWS() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
