/// A strict, incremental HTTP/1.1 request parser (RFC 9112). Pure: bytes in, events out; no I/O,
/// no clock. Feed bytes with `append`, then call `next()` until it returns nil.
///
/// Accepted: HTTP/1.0 and HTTP/1.1; origin-form, absolute-form and `*` (OPTIONS) targets;
/// Content-Length or chunked bodies (chunk extensions and trailers ignored); leading empty lines
/// before a request line. Refused with a reason and its status: `HTTPParseError.Reason`.
public struct HTTPParser: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxRequestLineBytes: Int
        public var maxHeaderBlockBytes: Int
        public var maxHeaderFields: Int
        public var maxBodyBytes: Int
        public init(
            maxRequestLineBytes: Int = 8 * 1024, maxHeaderBlockBytes: Int = 32 * 1024, maxHeaderFields: Int = 100,
            maxBodyBytes: Int = Configuration.defaultMaxBodyBytes
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

    private mutating func fail(_ reason: HTTPParseError.Reason, _ detail: String) -> Event {
        fail(HTTPParseError(reason, detail))
    }

    private mutating func fail(_ error: HTTPParseError) -> Event {
        state = .failed
        pending = nil
        body = []
        buffer = []
        start = 0
        return .error(error)
    }

    /// What one step of `next` did: moved to another state (go on), needs more bytes, or has an event.
    private enum Step {
        case proceed
        case needMore
        case emit(Event)
    }

    /// The next event the buffered bytes allow, or nil when more bytes are needed (or after an error).
    public mutating func next() -> Event? {
        while true {
            let step: Step
            switch state {
            case .failed: return nil
            case .head: step = readHead()
            case .fixedBody(let remaining): step = readFixedBody(remaining: remaining)
            case .chunkSize: step = readChunkSize()
            case .chunkData(let remaining): step = readChunkData(remaining: remaining)
            case .chunkDataEnd: step = readChunkDataEnd()
            case .trailers(let bytes): step = readTrailer(sectionBytes: bytes)
            }
            switch step {
            case .proceed: continue
            case .needMore: return nil
            case .emit(let event): return event
            }
        }
    }

    private mutating func readHead() -> Step {
        switch parseHead() {
        case .needMore: return .needMore
        case .error(let e): return .emit(fail(e))
        case .head(let request, let framing, let expectContinue):
            pending = request
            body = []
            switch framing {
            case .none:
                return .emit(finishRequest())
            case .length(let n):
                if n > limits.maxBodyBytes {
                    return .emit(
                        fail(
                            .bodyTooLarge,
                            "The body of \(n) bytes is larger than the limit of \(limits.maxBodyBytes) bytes."))
                }
                body.reserveCapacity(n)
                state = .fixedBody(remaining: n)
                if expectContinue && bufferedByteCount < n { return .emit(.expectContinue) }
            case .chunked:
                state = .chunkSize
                if expectContinue && bufferedByteCount == 0 { return .emit(.expectContinue) }
            }
            return .proceed
        }
    }

    private mutating func readFixedBody(remaining: Int) -> Step {
        let take = min(remaining, bufferedByteCount)
        if take > 0 {
            body.append(contentsOf: buffer[start..<start + take])
            start += take
        }
        if take == remaining { return .emit(finishRequest()) }
        state = .fixedBody(remaining: remaining - take)
        return .needMore
    }

    private mutating func readChunkSize() -> Step {
        guard let lineEnd = findCRLF(from: start, limit: 1024) else {
            if bufferedByteCount > 1024 { return .emit(fail(.chunkSizeLineTooLong, "A chunk-size line is too long.")) }
            if hasBareLineBreak(from: start, to: buffer.count) {
                return .emit(fail(.chunkWithoutCRLF, "A chunk-size line ends without CRLF."))
            }
            return .needMore
        }
        guard let size = parseChunkSize(start, lineEnd) else {
            return .emit(fail(.malformedChunkSize, "A chunk-size line is malformed."))
        }
        start = lineEnd + 2
        if size == 0 {
            state = .trailers(bytes: 0)
        } else {
            if size > limits.maxBodyBytes - body.count {
                return .emit(
                    fail(.bodyTooLarge, "The chunked body is larger than the limit of \(limits.maxBodyBytes) bytes."))
            }
            state = .chunkData(remaining: size)
        }
        return .proceed
    }

    private mutating func readChunkData(remaining: Int) -> Step {
        let take = min(remaining, bufferedByteCount)
        if take > 0 {
            body.append(contentsOf: buffer[start..<start + take])
            start += take
        }
        if take < remaining {
            state = .chunkData(remaining: remaining - take)
            return .needMore
        }
        state = .chunkDataEnd
        return .proceed
    }

    private mutating func readChunkDataEnd() -> Step {
        if bufferedByteCount < 2 {
            if bufferedByteCount == 1 && buffer[start] != 13 {
                return .emit(fail(.chunkWithoutCRLF, "Chunk data is not followed by CRLF."))
            }
            return .needMore
        }
        guard buffer[start] == 13, buffer[start + 1] == 10 else {
            return .emit(fail(.chunkWithoutCRLF, "Chunk data is not followed by CRLF."))
        }
        start += 2
        state = .chunkSize
        return .proceed
    }

    /// One trailer line; trailer fields are read and ignored (RFC 9112 §7.1.2 allows discarding them).
    private mutating func readTrailer(sectionBytes bytes: Int) -> Step {
        guard let lineEnd = findCRLF(from: start, limit: limits.maxHeaderBlockBytes - bytes + 2) else {
            if bytes + bufferedByteCount > limits.maxHeaderBlockBytes {
                return .emit(trailerSectionTooLarge())
            }
            if hasBareLineBreak(from: start, to: buffer.count) {
                return .emit(fail(.malformedTrailer, "A trailer line ends without CRLF."))
            }
            return .needMore
        }
        if buffer[start..<lineEnd].contains(where: { $0 == 13 || $0 == 10 }) {
            return .emit(fail(.malformedTrailer, "A trailer line contains a bare CR or LF."))
        }
        let length = lineEnd - start
        start = lineEnd + 2
        if length == 0 { return .emit(finishRequest()) }
        if bytes + length + 2 > limits.maxHeaderBlockBytes { return .emit(trailerSectionTooLarge()) }
        state = .trailers(bytes: bytes + length + 2)
        return .proceed
    }

    private mutating func trailerSectionTooLarge() -> Event {
        fail(.trailerSectionTooLarge, "The trailer section is larger than \(limits.maxHeaderBlockBytes) bytes.")
    }

    private mutating func finishRequest() -> Event {
        // `pending` is set by the `.head` case before every state that leads here.
        // Moved out (`take`), not copied and then released: every header string would be retained and released.
        guard var request = pending.take() else { return fail(.internalError, "The parser lost the request head.") }
        state = .head
        scanFrom = start
        swap(&request.body, &body)
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

    enum BodyFraming {
        case none
        case length(Int)
        case chunked
    }

    enum HeadResult {
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

        // Find the end of the head: CRLF CRLF. A terminator starting at i, i + 1, i + 2 or i + 3 contains the byte
        // at i + 3, so when that byte is neither CR nor LF the next candidate is i + 4.
        let terminator: Int? = buffer.withUnsafeBufferPointer { p -> Int? in
            var i = max(start, scanFrom - 3)
            let end = p.count
            while i + 3 < end {
                let last = p[i + 3]
                if last != 10 {
                    i += last == 13 ? 1 : 4
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
                    return .error(HTTPParseError(.malformedRequestLine, "The request line is malformed."))
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
                        HTTPParseError(
                            .requestLineTooLong, "The request line is longer than \(limits.maxRequestLineBytes) bytes.")
                    )
                }
                return .needMore
            }
            if lf - start > limits.maxRequestLineBytes + 1 {
                return .error(
                    HTTPParseError(
                        .requestLineTooLong, "The request line is longer than \(limits.maxRequestLineBytes) bytes."))
            }
            // The request line is complete: refuse at once what the complete head would refuse, rather than
            // wait for a blank line that an HTTP/0.9 or bare-LF client never sends (it would get a 408).
            if let refusal = EarlyHeadCheck.refusal(p, requestLineStart: start, lineFeed: lf) { return .error(refusal) }
            if p.count - lf - 1 > limits.maxHeaderBlockBytes {
                return .error(
                    HTTPParseError(
                        .headerBlockTooLarge, "The header section is larger than \(limits.maxHeaderBlockBytes) bytes."))
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
    static func refusal(_ p: UnsafeBufferPointer<UInt8>, requestLineStart start: Int, lineFeed lf: Int)
        -> HTTPParseError?
    {
        guard lf > start, p[lf - 1] == 13 else {
            return HTTPParseError(.bareLineFeed, "The request line must end with CRLF.")
        }
        // The version is what follows the last space: "HTTP/" for HTTP/1.x (the full check comes later).
        var lastSpace = lf - 1
        while lastSpace > start && p[lastSpace] != 32 { lastSpace -= 1 }
        let version = lastSpace + 1
        let hasVersion =
            lastSpace > start && lf - 1 - version >= 5 && p[version] == 72 && p[version + 1] == 84
            && p[version + 2] == 84 && p[version + 3] == 80 && p[version + 4] == 47
        guard hasVersion else {
            return HTTPParseError(.http09, "The request line has no HTTP version (HTTP/0.9 is not supported).")
        }
        var i = lf + 1
        while i < p.count {
            if p[i] == 10 && p[i - 1] != 13 {
                return HTTPParseError(.bareLineFeed, "A header line ends with a bare LF.")
            }
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
