/// Why a request was refused: the status to answer with and a sentence for the problem detail.
/// After an error the connection is answered with `Connection: close` and closed; the parser never
/// looks at the bytes that follow.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: Int
    public var detail: String
    public init(_ status: Int, _ detail: String) {
        self.status = status
        self.detail = detail
    }
    public var description: String { "\(status) \(detail)" }
}

/// A strict, incremental HTTP/1.1 request parser (RFC 9112). Pure: bytes in, events out; no I/O,
/// no clock. Feed bytes with `append`, then call `next()` until it returns nil.
///
/// Accepted: HTTP/1.0 and HTTP/1.1; origin-form, absolute-form and `*` (OPTIONS) targets;
/// Content-Length or chunked bodies (chunk extensions and trailers ignored); leading empty lines
/// before a request line. Refused with the status given: see `HTTPParseError` values in the tests.
public struct HTTPParser: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxRequestLineBytes: Int
        public var maxHeaderBlockBytes: Int
        public var maxHeaderFields: Int
        public var maxBodyBytes: Int
        public init(
            maxRequestLineBytes: Int = 8 * 1024, maxHeaderBlockBytes: Int = 32 * 1024, maxHeaderFields: Int = 100,
            maxBodyBytes: Int = 1024 * 1024
        ) {
            self.maxRequestLineBytes = maxRequestLineBytes
            self.maxHeaderBlockBytes = maxHeaderBlockBytes
            self.maxHeaderFields = maxHeaderFields
            self.maxBodyBytes = maxBodyBytes
        }
    }

    public enum Event: Equatable, Sendable {
        /// A complete request, body included.
        case request(HTTPRequest)
        /// The head of a request with `Expect: 100-continue` whose body has not arrived yet and will be
        /// read: answer `100 Continue`. Emitted once per request, before its `.request`.
        case expectContinue
        /// A refused request; nothing after it is parsed.
        case error(HTTPParseError)
    }

    /// Where the parser stands, for the connection's timeouts.
    public enum Phase: Equatable, Sendable {
        /// Between requests, nothing buffered.
        case idle
        /// Some bytes of a request head have arrived.
        case head
        /// The head is complete, the body is being read.
        case body
        /// An error was returned; the parser is done.
        case failed
    }

    private enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case failed
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte of `buffer`.
    private var start = 0
    /// Where the next search for the end of the head resumes.
    private var scanFrom = 0
    private var state: State = .head
    private var pending: HTTPRequest? = nil
    private var body: [UInt8] = []
    private var continuePending = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
        buffer.reserveCapacity(4096)
    }

    /// Bytes received and not consumed yet.
    public var bufferedByteCount: Int { buffer.count - start }

    public var phase: Phase {
        switch state {
        case .head: return buffer.count > start ? .head : .idle
        case .failed: return .failed
        default: return .body
        }
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isFailed else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard !isFailed else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    private var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanFrom = 0
            start = 0
        } else if start > 16 * 1024 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scanFrom = max(0, scanFrom - start)
            start = 0
        }
    }

    private mutating func fail(_ status: Int, _ detail: String) -> Event {
        state = .failed
        pending = nil
        body = []
        buffer = []
        start = 0
        return .error(HTTPParseError(status, detail))
    }

    /// The next event the buffered bytes allow, or nil when more bytes are needed (or after an error).
    public mutating func next() -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head:
                switch parseHead() {
                case .needMore: return nil
                case .error(let e): return fail(e.status, e.detail)
                case .head(let request, let framing, let expectContinue):
                    pending = request
                    body = []
                    switch framing {
                    case .none:
                        return finishRequest()
                    case .length(let n):
                        if n > limits.maxBodyBytes {
                            return fail(
                                413, "The body of \(n) bytes is larger than the limit of \(limits.maxBodyBytes) bytes.")
                        }
                        body.reserveCapacity(n)
                        state = .fixedBody(remaining: n)
                        if expectContinue && bufferedByteCount < n {
                            return .expectContinue
                        }
                    case .chunked:
                        state = .chunkSize
                        if expectContinue && bufferedByteCount == 0 {
                            return .expectContinue
                        }
                    }
                }
            case .fixedBody(let remaining):
                let take = min(remaining, bufferedByteCount)
                if take > 0 {
                    body.append(contentsOf: buffer[start..<start + take])
                    start += take
                }
                if take == remaining { return finishRequest() }
                state = .fixedBody(remaining: remaining - take)
                return nil
            case .chunkSize:
                guard let lineEnd = findCRLF(from: start, limit: 1024) else {
                    if bufferedByteCount > 1024 { return fail(400, "A chunk-size line is too long.") }
                    if hasBareLineBreak(from: start, to: buffer.count) {
                        return fail(400, "A chunk-size line ends without CRLF.")
                    }
                    return nil
                }
                guard let size = parseChunkSize(start, lineEnd) else {
                    return fail(400, "A chunk-size line is malformed.")
                }
                start = lineEnd + 2
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    if size > limits.maxBodyBytes - body.count {
                        return fail(413, "The chunked body is larger than the limit of \(limits.maxBodyBytes) bytes.")
                    }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, bufferedByteCount)
                if take > 0 {
                    body.append(contentsOf: buffer[start..<start + take])
                    start += take
                }
                if take < remaining {
                    state = .chunkData(remaining: remaining - take)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                if bufferedByteCount < 2 {
                    if bufferedByteCount == 1 && buffer[start] != 13 {
                        return fail(400, "Chunk data is not followed by CRLF.")
                    }
                    return nil
                }
                guard buffer[start] == 13, buffer[start + 1] == 10 else {
                    return fail(400, "Chunk data is not followed by CRLF.")
                }
                start += 2
                state = .chunkSize
            case .trailers(let bytes):
                // Trailer fields are read and ignored (RFC 9112 §7.1.2 allows discarding them).
                guard let lineEnd = findCRLF(from: start, limit: limits.maxHeaderBlockBytes - bytes + 2) else {
                    if bytes + bufferedByteCount > limits.maxHeaderBlockBytes {
                        return fail(431, "The trailer section is larger than \(limits.maxHeaderBlockBytes) bytes.")
                    }
                    if hasBareLineBreak(from: start, to: buffer.count) {
                        return fail(400, "A trailer line ends without CRLF.")
                    }
                    return nil
                }
                if buffer[start..<lineEnd].contains(where: { $0 == 13 || $0 == 10 }) {
                    return fail(400, "A trailer line contains a bare CR or LF.")
                }
                let length = lineEnd - start
                start = lineEnd + 2
                if length == 0 { return finishRequest() }
                if bytes + length + 2 > limits.maxHeaderBlockBytes {
                    return fail(431, "The trailer section is larger than \(limits.maxHeaderBlockBytes) bytes.")
                }
                state = .trailers(bytes: bytes + length + 2)
            }
        }
    }

    private mutating func finishRequest() -> Event {
        // `pending` is set by the `.head` case before every state that leads here.
        guard var request = pending else { return fail(500, "The parser lost the request head.") }
        state = .head
        scanFrom = start
        pending = nil
        request.body = body
        body = []
        compact()
        return .request(request)
    }

    // MARK: - Scanning

    /// Index of the CR of the first CRLF at or after `from`, looking at most `limit` bytes ahead.
    private func findCRLF(from: Int, limit: Int) -> Int? {
        let end = min(buffer.count, from + limit + 2)
        guard end - from >= 2 else { return nil }
        return buffer.withUnsafeBufferPointer { p -> Int? in
            var i = from
            while i < end - 1 {
                if p[i] == 13 && p[i + 1] == 10 { return i }
                i += 1
            }
            return nil
        }
    }

    private func hasBareLineBreak(from: Int, to: Int) -> Bool {
        buffer.withUnsafeBufferPointer { p in
            var i = from
            while i < to {
                if p[i] == 10 && (i == from || p[i - 1] != 13) { return true }
                if p[i] == 13 && i + 1 < to && p[i + 1] != 10 { return true }
                i += 1
            }
            return false
        }
    }

    private func parseChunkSize(_ from: Int, _ to: Int) -> Int? {
        var i = from
        var value = 0
        var digits = 0
        while i < to, let h = hexValue(buffer[i]) {
            if digits >= 15 { return nil }  // > 2^60: far beyond any body limit
            value = value << 4 | Int(h)
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        // Optional whitespace then chunk extensions (ignored), which must not contain CTLs.
        while i < to {
            let c = buffer[i]
            if c == 9 || c == 32 || c == UInt8(ascii: ";") { break }
            return nil
        }
        while i < to {
            let c = buffer[i]
            if (c < 32 && c != 9) || c == 127 { return nil }
            i += 1
        }
        return value
    }

    // MARK: - Head

    fileprivate enum BodyFraming {
        case none
        case length(Int)
        case chunked
    }

    fileprivate enum HeadResult {
        case needMore
        case error(HTTPParseError)
        case head(HTTPRequest, BodyFraming, expectContinue: Bool)
    }

    private mutating func parseHead() -> HeadResult {
        // RFC 9112 §2.2: ignore empty lines before a request line.
        while buffer.count - start >= 2 && buffer[start] == 13 && buffer[start + 1] == 10 {
            start += 2
            scanFrom = max(scanFrom, start)
        }
        let available = buffer.count - start
        if available == 0 { return .needMore }
        if scanFrom < start { scanFrom = start }

        // Find the end of the head: CRLF CRLF.
        let terminator: Int? = buffer.withUnsafeBufferPointer { p -> Int? in
            var i = max(start, scanFrom - 3)
            let end = p.count
            while i + 3 < end {
                if p[i + 3] != 10 {
                    i += 1
                    continue
                }
                if p[i] == 13 && p[i + 1] == 10 && p[i + 2] == 13 { return i }
                i += 1
            }
            return nil
        }
        guard let headEnd = terminator else {
            scanFrom = buffer.count
            return checkIncompleteHead()
        }
        return parseCompleteHead(headEnd: headEnd)
    }

    /// Early refusals while the head is still incomplete: garbage in the method, an over-long
    /// request line or header block.
    private func checkIncompleteHead() -> HeadResult {
        let available = buffer.count - start
        return buffer.withUnsafeBufferPointer { p -> HeadResult in
            // A lone CR may be the start of an empty line before the request line.
            if available == 1 && p[start] == 13 { return .needMore }
            // Method: token characters up to the first space.
            var i = start
            while i < p.count && p[i] != 32 {
                if !isTokenChar(p[i]) {
                    return .error(HTTPParseError(400, "The request line is malformed."))
                }
                i += 1
            }
            var lineEnd: Int? = nil
            var j = start
            while j < p.count {
                if p[j] == 10 {
                    lineEnd = j
                    break
                }
                j += 1
            }
            guard let lf = lineEnd else {
                if available > limits.maxRequestLineBytes {
                    return .error(
                        HTTPParseError(414, "The request line is longer than \(limits.maxRequestLineBytes) bytes."))
                }
                return .needMore
            }
            if lf - start > limits.maxRequestLineBytes + 1 {
                return .error(
                    HTTPParseError(414, "The request line is longer than \(limits.maxRequestLineBytes) bytes."))
            }
            // The request line is complete: refuse at once what the complete head would refuse, rather than
            // wait for a blank line that an HTTP/0.9 or bare-LF client never sends (it would get a 408).
            if let refusal = EarlyHeadCheck.refusal(p, requestLineStart: start, lineFeed: lf) { return .error(refusal) }
            if p.count - lf - 1 > limits.maxHeaderBlockBytes {
                return .error(
                    HTTPParseError(431, "The header section is larger than \(limits.maxHeaderBlockBytes) bytes."))
            }
            return .needMore
        }
    }

    private mutating func parseCompleteHead(headEnd: Int) -> HeadResult {
        let headStart = start
        let result = buffer.withUnsafeBufferPointer { p in
            HeadParser(p: p, limits: limits).parse(from: headStart, to: headEnd + 2)
        }
        start = headEnd + 4
        scanFrom = start
        return result
    }
}

/// Checks on a head whose request line has arrived but whose end has not: the request line must end in
/// CRLF and carry an `HTTP/` version, and no later line may end in a bare LF.
enum EarlyHeadCheck {
    static func refusal(_ p: UnsafeBufferPointer<UInt8>, requestLineStart start: Int, lineFeed lf: Int) -> HTTPParseError? {
        guard lf > start, p[lf - 1] == 13 else { return HTTPParseError(400, "The request line must end with CRLF.") }
        // The version is what follows the last space: "HTTP/" for HTTP/1.x (the full check comes later).
        var lastSpace = lf - 1
        while lastSpace > start && p[lastSpace] != 32 { lastSpace -= 1 }
        let version = lastSpace + 1
        let hasVersion =
            lastSpace > start && lf - 1 - version >= 5 && p[version] == 72 && p[version + 1] == 84
            && p[version + 2] == 84 && p[version + 3] == 80 && p[version + 4] == 47
        guard hasVersion else {
            return HTTPParseError(400, "The request line has no HTTP version (HTTP/0.9 is not supported).")
        }
        var i = lf + 1
        while i < p.count {
            if p[i] == 10 && p[i - 1] != 13 { return HTTPParseError(400, "A header line ends with a bare LF.") }
            i += 1
        }
        return nil
    }
}

@inline(__always)
func isTokenChar(_ c: UInt8) -> Bool {
    // RFC 9110 tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    // / DIGIT / ALPHA
    switch c {
    case 48...57, 65...90, 97...122: return true
    case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
    default: return false
    }
}

/// Parses one complete head (request line + header lines, each ending in CRLF) out of a buffer.
private struct HeadParser {
    let p: UnsafeBufferPointer<UInt8>
    let limits: HTTPParser.Limits

    private func err(_ status: Int, _ detail: String) -> HTTPParser.HeadResult {
        .error(HTTPParseError(status, detail))
    }

    func parse(from: Int, to end: Int) -> HTTPParser.HeadResult {
        // Every line must end in CRLF: a CR or LF anywhere else is refused (RFC 9112 §2.2).
        var i = from
        // Request line.
        var lineEnd = i
        while p[lineEnd] != 13 && p[lineEnd] != 10 { lineEnd += 1 }
        if p[lineEnd] != 13 || p[lineEnd + 1] != 10 {
            return err(400, "The request line must end with CRLF.")
        }
        if lineEnd - from > limits.maxRequestLineBytes {
            return err(414, "The request line is longer than \(limits.maxRequestLineBytes) bytes.")
        }
        // method SP target SP version
        let methodStart = i
        while i < lineEnd && isTokenChar(p[i]) { i += 1 }
        if i == methodStart || i >= lineEnd || p[i] != 32 {
            return err(400, "The request line is malformed.")
        }
        let method = methodFromBytes(methodStart, i)
        i += 1
        let targetStart = i
        while i < lineEnd && p[i] > 32 && p[i] < 127 { i += 1 }
        if i == targetStart || i >= lineEnd || p[i] != 32 {
            if i == lineEnd && i > targetStart {
                // HTTP/0.9 style "GET /" without a version.
                return err(400, "The request line has no HTTP version (HTTP/0.9 is not supported).")
            }
            return err(400, "The request line is malformed.")
        }
        let targetEnd = i
        i += 1
        // version: "HTTP/" DIGIT "." DIGIT
        let versionLength = lineEnd - i
        guard versionLength == 8, p[i] == 72, p[i + 1] == 84, p[i + 2] == 84, p[i + 3] == 80, p[i + 4] == 47,
            p[i + 5] >= 48 && p[i + 5] <= 57, p[i + 6] == 46, p[i + 7] >= 48 && p[i + 7] <= 57
        else {
            return err(400, "The request line has a malformed HTTP version.")
        }
        let version = HTTPVersion(major: Int(p[i + 5] - 48), minor: Int(p[i + 7] - 48))
        guard version == .http1_1 || version == .http1_0 else {
            return err(505, "\(version) is not supported; use HTTP/1.1.")
        }

        // Target.
        guard let (path, query) = parseTarget(targetStart, targetEnd, method: method) else {
            return err(400, "The request target is malformed.")
        }

        // Header lines.
        var headers = HTTPHeaders(capacity: 8)
        var hostCount = 0
        var contentLengths: [Int] = []
        var contentLengthInvalid = false
        var transferEncodings: [String] = []
        var connectionClose = false
        var connectionKeepAlive = false
        var expect: String? = nil
        var fieldCount = 0
        let blockStart = lineEnd + 2
        if end - blockStart > limits.maxHeaderBlockBytes {
            return err(431, "The header section is larger than \(limits.maxHeaderBlockBytes) bytes.")
        }
        i = blockStart
        while i < end {
            // One field line.
            let lineStart = i
            if p[i] == 32 || p[i] == 9 {
                return err(400, "Obsolete line folding (a header line starting with whitespace) is not accepted.")
            }
            while i < end && isTokenChar(p[i]) { i += 1 }
            let nameEnd = i
            if i >= end || p[i] != UInt8(ascii: ":") {
                if i < end && (p[i] == 32 || p[i] == 9) {
                    var k = i
                    while k < end && (p[k] == 32 || p[k] == 9) { k += 1 }
                    if k < end && p[k] == UInt8(ascii: ":") {
                        return err(400, "Whitespace between a header field name and the colon is not accepted.")
                    }
                }
                if nameEnd == lineStart && p[i] == 58 {
                    return err(400, "A header field has an empty name.")
                }
                var k = i
                while k < end && p[k] != 13 && p[k] != 10 { k += 1 }
                if k < end && p[k] == 13 && k + 1 < end && p[k + 1] == 10 {
                    let hasColon = (lineStart..<k).contains { p[$0] == 58 }
                    if !hasColon { return err(400, "A header line has no colon.") }
                }
                return err(400, "A header field name is malformed.")
            }
            if nameEnd == lineStart { return err(400, "A header field has an empty name.") }
            i += 1
            // Value: skip OWS, then field-content until CRLF.
            while i < end && (p[i] == 32 || p[i] == 9) { i += 1 }
            let valueStart = i
            while i < end {
                let c = p[i]
                if c == 13 {
                    if i + 1 < end && p[i + 1] == 10 { break }
                    return err(400, "A header value contains a CR.")
                }
                if c == 10 { return err(400, "A header value contains a bare LF.") }
                if c == 0 { return err(400, "A header value contains a NUL byte.") }
                if (c < 32 && c != 9) || c == 127 { return err(400, "A header value contains a control character.") }
                i += 1
            }
            var valueEnd = i
            while valueEnd > valueStart && (p[valueEnd - 1] == 32 || p[valueEnd - 1] == 9) { valueEnd -= 1 }
            i += 2  // CRLF
            fieldCount += 1
            if fieldCount > limits.maxHeaderFields {
                return err(431, "More than \(limits.maxHeaderFields) header fields.")
            }
            let name = string(lineStart, nameEnd)
            let value = string(valueStart, valueEnd)
            headers.add(name, value)
            switch nameEnd - lineStart {
            case 4 where equalsLower(lineStart, "host"):
                hostCount += 1
            case 14 where equalsLower(lineStart, "content-length"):
                if let n = parseContentLength(valueStart, valueEnd) {
                    contentLengths.append(n)
                } else {
                    contentLengthInvalid = true
                }
            case 17 where equalsLower(lineStart, "transfer-encoding"):
                transferEncodings.append(value)
            case 10 where equalsLower(lineStart, "connection"):
                for token in value.split(separator: ",") {
                    let t = token.trimmingOWS().lowercased()
                    if t == "close" { connectionClose = true }
                    if t == "keep-alive" { connectionKeepAlive = true }
                }
            case 6 where equalsLower(lineStart, "expect"):
                expect = value
            default:
                break
            }
        }

        // Semantics (RFC 9112 §3.2, §6).
        if version == .http1_1 && hostCount == 0 { return err(400, "HTTP/1.1 requests need a Host header.") }
        if hostCount > 1 { return err(400, "More than one Host header.") }
        if contentLengthInvalid { return err(400, "The Content-Length header is not a valid length.") }
        var framing = HTTPParser.BodyFraming.none
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty {
                return err(400, "Content-Length and Transfer-Encoding may not be used together.")
            }
            if version == .http1_0 {
                return err(400, "Transfer-Encoding is not allowed in an HTTP/1.0 request.")
            }
            var codings: [String] = []
            for v in transferEncodings {
                for c in v.split(separator: ",", omittingEmptySubsequences: false) {
                    codings.append(c.trimmingOWS().lowercased())
                }
            }
            guard codings.last == "chunked" else {
                return err(400, "Transfer-Encoding must end with chunked.")
            }
            if codings.count > 1 {
                if codings.dropLast().contains("chunked") || codings.contains("") {
                    return err(400, "Transfer-Encoding is malformed.")
                }
                return err(501, "Transfer codings other than chunked are not supported.")
            }
            framing = .chunked
        } else if contentLengths.count > 1 {
            if contentLengths.allSatisfy({ $0 == contentLengths[0] }) {
                return err(400, "More than one Content-Length header.")
            }
            return err(400, "Conflicting Content-Length headers.")
        } else if let n = contentLengths.first, n > 0 {
            framing = .length(n)
        }
        var expectContinue = false
        if let expect {
            if expect.lowercased() == "100-continue" {
                expectContinue = version == .http1_1
            } else {
                return err(417, "Only the expectation 100-continue is supported.")
            }
        }
        let keepAlive = version == .http1_1 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        let request = HTTPRequest(
            method: method, path: path, query: query, version: version, headers: headers, body: [],
            keepAlive: keepAlive)
        return .head(request, framing, expectContinue: expectContinue)
    }

    private func string(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[a..<b]), as: UTF8.self)
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

    private func parseTarget(_ a: Int, _ b: Int, method: HTTPMethod) -> (String, String?)? {
        var s = a
        if p[a] == UInt8(ascii: "*") {
            return (b - a == 1 && method == .OPTIONS) ? ("*", nil) : nil
        }
        if p[a] != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority [path]
            guard let schemeEnd = (a..<b).first(where: { p[$0] == UInt8(ascii: ":") }),
                schemeEnd + 2 < b, p[schemeEnd + 1] == 47, p[schemeEnd + 2] == 47
            else { return nil }
            let scheme = string(a, schemeEnd).lowercased()
            guard scheme == "http" || scheme == "https" else { return nil }
            var k = schemeEnd + 3
            while k < b && p[k] != 47 && p[k] != 63 { k += 1 }
            if k == b { return ("/", nil) }
            if p[k] == 63 { return ("/", string(k + 1, b)) }
            s = k
        }
        var q = s
        while q < b && p[q] != 63 {
            if p[q] == 35 { return nil }  // no fragment in a request target
            q += 1
        }
        if q == b { return (string(s, b), nil) }
        for k in q..<b where p[k] == 35 {
            _ = k
            return nil
        }
        return (string(s, q), string(q + 1, b))
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
