import Testing

@testable import HTTPServer

/// Feeds `bytes` to a fresh parser in the given pieces and collects every event.
func parseEvents(_ pieces: [[UInt8]], limits: HTTPParser.Limits = .init()) -> [HTTPParser.Event] {
    var parser = HTTPParser(limits: limits)
    var events: [HTTPParser.Event] = []
    for piece in pieces {
        parser.append(piece)
        while let e = parser.next() { events.append(e) }
    }
    return events
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Events with `.expectContinue` removed (whether it is emitted depends on how the bytes arrive).
func finalEvents(_ events: [HTTPParser.Event]) -> [HTTPParser.Event] {
    events.filter { $0 != .expectContinue }
}

struct ValidCase: Sendable, CustomTestStringConvertible {
    var name: String
    var raw: String
    var expected: [HTTPRequest]
    var testDescription: String { name }
}

func req(
    _ method: HTTPMethod, _ path: String, query: String? = nil, version: HTTPVersion = .http1_1,
    _ headers: [(String, String)], body: String = "", keepAlive: Bool = true
) -> HTTPRequest {
    HTTPRequest(
        method: method, path: path, query: query, version: version, headers: HTTPHeaders(headers), body: bytes(body),
        keepAlive: keepAlive)
}

let validCases: [ValidCase] = [
    ValidCase(
        name: "simple GET", raw: "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
        expected: [req(.GET, "/healthz", [("Host", "a")])]),
    ValidCase(
        name: "HTTP/1.0 without Host closes", raw: "GET / HTTP/1.0\r\n\r\n",
        expected: [req(.GET, "/", version: .http1_0, [], keepAlive: false)]),
    ValidCase(
        name: "HTTP/1.0 keep-alive", raw: "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
        expected: [req(.GET, "/", version: .http1_0, [("Connection", "Keep-Alive")], keepAlive: true)]),
    ValidCase(
        name: "Connection close", raw: "GET / HTTP/1.1\r\nHost: a\r\nConnection: foo, close\r\n\r\n",
        expected: [req(.GET, "/", [("Host", "a"), ("Connection", "foo, close")], keepAlive: false)]),
    ValidCase(
        name: "Content-Length body",
        raw: "POST /v1/resolve HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
        expected: [req(.POST, "/v1/resolve", [("Host", "a"), ("Content-Length", "5")], body: "hello")]),
    ValidCase(
        name: "Content-Length zero", raw: "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        expected: [req(.POST, "/x", [("Host", "a"), ("Content-Length", "0")])]),
    ValidCase(
        name: "chunked body with extension and trailers",
        raw: "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n",
        expected: [
            req(.POST, "/c", [("Host", "a"), ("Transfer-Encoding", "chunked")], body: "hello, world!!!")
        ]),
    ValidCase(
        name: "query and absolute-form",
        raw: "GET http://example.com/a/b?x=1&y=2 HTTP/1.1\r\nHost: example.com\r\n\r\n",
        expected: [req(.GET, "/a/b", query: "x=1&y=2", [("Host", "example.com")])]),
    // RFC 9112 §3.2.2: the target's authority is the host, whatever `Host` says.
    ValidCase(
        name: "absolute-form names the host",
        raw: "GET http://evil.example:81/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        expected: [req(.GET, "/healthz", [("Host", "evil.example:81")])]),
    ValidCase(
        name: "absolute-form without a path",
        raw: "GET HTTPS://h.example?q=1 HTTP/1.1\r\nHost: other\r\n\r\n",
        expected: [req(.GET, "/", query: "q=1", [("Host", "h.example")])]),
    ValidCase(
        name: "leading empty lines are ignored", raw: "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        expected: [req(.GET, "/", [("Host", "a")])]),
    ValidCase(
        name: "OPTIONS asterisk", raw: "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        expected: [req(.OPTIONS, "*", [("Host", "a")])]),
    ValidCase(
        name: "optional whitespace trimmed, obs-text kept",
        raw: "GET / HTTP/1.1\r\nHost:a\r\nX-A: \t v\u{e9} w \t\r\n\r\n",
        expected: [req(.GET, "/", [("Host", "a"), ("X-A", "v\u{e9} w")])]),
    ValidCase(
        name: "pipelined pair",
        raw: "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok",
        expected: [
            req(.GET, "/1", [("Host", "a")]), req(.POST, "/2", [("Host", "a"), ("Content-Length", "2")], body: "ok"),
        ]),
    ValidCase(
        name: "Expect 100-continue",
        raw: "PUT /d HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        expected: [
            req(.PUT, "/d", [("Host", "a"), ("Expect", "100-continue"), ("Content-Length", "3")], body: "abc")
        ]),
    ValidCase(
        name: "custom method token", raw: "PURGE /x HTTP/1.1\r\nHost: a\r\n\r\n",
        expected: [req(HTTPMethod("PURGE"), "/x", [("Host", "a")])]),
]

struct InvalidCase: Sendable, CustomTestStringConvertible {
    var name: String
    var raw: [UInt8]
    var status: Int
    var reason: HTTPParseError.Reason
    /// The reason given when the request line arrives before the end of the head (the early check, which
    /// sees less), if it differs.
    var earlyReason: HTTPParseError.Reason?
    var limits: HTTPParser.Limits = .init()
    var testDescription: String { name }
    init(
        _ name: String, _ raw: String, _ status: Int, _ reason: HTTPParseError.Reason,
        early earlyReason: HTTPParseError.Reason? = nil, limits: HTTPParser.Limits = .init()
    ) {
        self.name = name
        self.raw = bytes(raw)
        self.status = status
        self.reason = reason
        self.earlyReason = earlyReason
        self.limits = limits
    }
    init(_ name: String, bytes raw: [UInt8], _ status: Int, _ reason: HTTPParseError.Reason) {
        self.name = name
        self.raw = raw
        self.status = status
        self.reason = reason
    }
}

let head = "POST / HTTP/1.1\r\nHost: a\r\n"
let small = HTTPParser.Limits(maxRequestLineBytes: 64, maxHeaderBlockBytes: 128, maxHeaderFields: 4, maxBodyBytes: 16)

let invalidCases: [InvalidCase] = [
    InvalidCase(
        "Content-Length with Transfer-Encoding", head + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
        .contentLengthWithTransferEncoding),
    InvalidCase(
        "Transfer-Encoding with Content-Length", head + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400,
        .contentLengthWithTransferEncoding),
    InvalidCase(
        "Transfer-Encoding not chunked", head + "Transfer-Encoding: gzip\r\n\r\n", 400, .transferEncodingNotChunked),
    InvalidCase(
        "Transfer-Encoding not ending in chunked", head + "Transfer-Encoding: chunked, gzip\r\n\r\n", 400,
        .transferEncodingNotChunked),
    InvalidCase(
        "Transfer-Encoding chunked twice", head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
        400, .malformedTransferEncoding),
    InvalidCase(
        "Transfer-Encoding unsupported coding", head + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501,
        .unsupportedTransferCoding),
    InvalidCase(
        "Transfer-Encoding on HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
        .transferEncodingOnHTTP10),
    InvalidCase("Content-Length plus sign", head + "Content-Length: +4\r\n\r\nabcd", 400, .invalidContentLength),
    InvalidCase("Content-Length negative", head + "Content-Length: -1\r\n\r\n", 400, .invalidContentLength),
    InvalidCase("Content-Length hex", head + "Content-Length: 0x5\r\n\r\n", 400, .invalidContentLength),
    InvalidCase("Content-Length list", head + "Content-Length: 1, 2\r\n\r\n", 400, .invalidContentLength),
    InvalidCase("Content-Length same list", head + "Content-Length: 1, 1\r\n\r\n", 400, .invalidContentLength),
    InvalidCase("Content-Length empty", head + "Content-Length: \r\n\r\n", 400, .invalidContentLength),
    InvalidCase(
        "Content-Length two different headers", head + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n", 400,
        .conflictingContentLength),
    InvalidCase(
        "Content-Length two equal headers", head + "Content-Length: 1\r\nContent-Length: 1\r\n\r\nx", 400,
        .duplicateContentLength),
    InvalidCase(
        "Content-Length overflow", head + "Content-Length: 99999999999999999999999\r\n\r\n", 400, .invalidContentLength),
    InvalidCase(
        "Content-Length Int overflow", head + "Content-Length: 9223372036854775808\r\n\r\n", 400, .invalidContentLength),
    InvalidCase("missing Host on HTTP/1.1", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400, .missingHost),
    InvalidCase("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, .duplicateHost),
    InvalidCase("duplicate Host on HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400, .duplicateHost),
    InvalidCase("whitespace before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, .spaceBeforeColon),
    InvalidCase("tab before colon", "GET / HTTP/1.1\r\nHost: a\r\nX-A\t: b\r\n\r\n", 400, .spaceBeforeColon),
    InvalidCase("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n  c\r\n\r\n", 400, .obsFold),
    InvalidCase("obs-fold on first field", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400, .obsFold),
    InvalidCase("NUL in value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u{0}c\r\n\r\n", 400, .nulInValue),
    InvalidCase("CR in value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", 400, .bareCarriageReturn),
    InvalidCase("LF in value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\nc\r\n\r\n", 400, .bareLineFeed),
    InvalidCase(
        "control character in value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u{7}c\r\n\r\n", 400, .controlCharacterInValue
    ),
    InvalidCase("header line without colon", "GET / HTTP/1.1\r\nHost: a\r\nJustAName\r\n\r\n", 400, .missingColon),
    InvalidCase("header with empty name", "GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", 400, .emptyFieldName),
    InvalidCase("bare LF line endings", "GET / HTTP/1.1\nHost: a\n\n\r\n\r\n", 400, .bareLineFeed),
    InvalidCase("HTTP/2.0 version", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, .unsupportedVersion),
    InvalidCase("HTTP/1.2 version", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505, .unsupportedVersion),
    InvalidCase("HTTP/3.0 version", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505, .unsupportedVersion),
    InvalidCase("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, .unsupportedVersion),
    // Before the head ends, a version not starting with "HTTP/" looks like HTTP/0.9.
    InvalidCase("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n", 400, .malformedVersion, early: .http09),
    InvalidCase("HTTP/0.9 request", "GET /\r\n\r\n", 400, .http09),
    InvalidCase(
        "binary garbage", bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03], 400,
        .malformedRequestLine),
    InvalidCase("NUL bytes", bytes: [0, 0, 0, 0, 13, 10, 13, 10], 400, .malformedRequestLine),
    InvalidCase("double space in request line", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedRequestLine),
    InvalidCase("target not origin-form", "GET foo HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase("absolute-form without a host", "GET http:///a HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase(
        "absolute-form with userinfo", "GET http://u:p@a/x HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase("absolute-form with a fragment", "GET http://a#f HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase("fragment in target", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase("asterisk for GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400, .malformedTarget),
    InvalidCase(
        "unsupported expectation", "GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n", 417, .unsupportedExpectation),
    InvalidCase(
        "bad chunk size", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400, .malformedChunkSize),
    InvalidCase(
        "chunk data without CRLF", head + "Transfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", 400,
        .chunkWithoutCRLF),
    InvalidCase(
        "bare CR in a trailer", head + "Transfer-Encoding: chunked\r\n\r\n0\r\nT: v\r\u{f}\r\n\r\n", 400,
        .malformedTrailer),
    InvalidCase(
        "CR before CRLF in a trailer", head + "Transfer-Encoding: chunked\r\n\r\n0\r\nT: v\r\r\n\r\n", 400,
        .malformedTrailer),
    InvalidCase(
        "chunk size overflow", head + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", 400,
        .malformedChunkSize),
    InvalidCase("malformed field name", "GET / HTTP/1.1\r\nHost: a\r\nX(A: b\r\n\r\n", 400, .malformedFieldName),
    InvalidCase(
        "chunk-size line too long",
        head + "Transfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 1100) + "\r\nx\r\n0\r\n\r\n", 400,
        .chunkSizeLineTooLong),
    InvalidCase(
        "trailer section too large",
        head + "Transfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "v", count: 200) + "\r\n\r\n", 431,
        .trailerSectionTooLarge, limits: small),
    InvalidCase(
        "request line too long", "GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414,
        .requestLineTooLong,
        limits: small),
    InvalidCase(
        "request line too long, no end", "GET /" + String(repeating: "a", count: 100), 414, .requestLineTooLong,
        limits: small),
    InvalidCase(
        "header block too large",
        "GET / HTTP/1.1\r\nHost: a\r\nX-A: " + String(repeating: "b", count: 200) + "\r\n\r\n", 431,
        .headerBlockTooLarge, limits: small),
    InvalidCase(
        "header block too large, no end", "GET / HTTP/1.1\r\nHost: a\r\nX-A: " + String(repeating: "b", count: 200),
        431, .headerBlockTooLarge, limits: small),
    InvalidCase(
        "too many header fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431,
        .tooManyHeaderFields,
        limits: small),
    InvalidCase("body too large", head + "Content-Length: 17\r\n\r\n", 413, .bodyTooLarge, limits: small),
    InvalidCase(
        "chunked body too large",
        head + "Transfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n1\r\nx\r\n0\r\n\r\n", 413, .bodyTooLarge,
        limits: small),
]

@Suite struct ParserTests {
    @Test(arguments: validCases)
    func validRequest(_ c: ValidCase) {
        let raw = bytes(c.raw)
        let whole = finalEvents(parseEvents([raw]))
        #expect(whole == c.expected.map { .request($0) })
        // Split at every byte boundary: same requests.
        for cut in 1..<raw.count {
            let split = finalEvents(parseEvents([Array(raw[..<cut]), Array(raw[cut...])]))
            #expect(split == whole, "split at \(cut)")
        }
        // One byte at a time.
        #expect(finalEvents(parseEvents(raw.map { [$0] })) == whole)
    }

    @Test(arguments: invalidCases)
    func invalidRequest(_ c: InvalidCase) {
        let events = parseEvents([c.raw], limits: c.limits)
        guard case .error(let e)? = events.last else {
            Issue.record("expected an error, got \(events)")
            return
        }
        #expect(e.status.code == c.status, "\(e.detail)")
        #expect(e.reason == c.reason, "\(e.detail)")
        for cut in 1..<c.raw.count {
            let split = parseEvents([Array(c.raw[..<cut]), Array(c.raw[cut...])], limits: c.limits)
            guard case .error(let s)? = split.last else {
                Issue.record("split at \(cut): expected an error, got \(split)")
                continue
            }
            #expect(s.status.code == c.status, "split at \(cut)")
            #expect(s.reason == c.reason || s.reason == c.earlyReason, "split at \(cut): \(s.detail)")
        }
    }

    @Test func everyReasonHasACase() {
        let covered = Set(invalidCases.map(\.reason))
        #expect(covered == Set(HTTPParseError.Reason.allCases).subtracting([.internalError]))
    }

    @Test func bytesAfterARefusedRequestAreNeverParsed() {
        var parser = HTTPParser()
        parser.append(bytes("GET / HTTP/1.1\r\nHost : a\r\n\r\nGET /after HTTP/1.1\r\nHost: a\r\n\r\n"))
        guard case .error(let e)? = parser.next() else {
            Issue.record("expected an error")
            return
        }
        #expect(e.status == .badRequest)
        #expect(e.reason == .spaceBeforeColon)
        #expect(parser.next() == nil)
        parser.append(bytes("GET /more HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(parser.next() == nil)
        #expect(parser.phase == .failed)
    }

    @Test func expectContinueIsEmittedBeforeTheBodyArrives() {
        var parser = HTTPParser()
        parser.append(bytes("PUT /d HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"))
        #expect(parser.next() == .expectContinue)
        #expect(parser.next() == nil)
        #expect(parser.phase == .body)
        parser.append(bytes("abc"))
        guard case .request(let r)? = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(r.body == bytes("abc"))
        #expect(parser.phase == .idle)
    }

    @Test func oversizedBodyUnderExpectIsRefusedWithoutContinue() {
        let events = parseEvents(
            [bytes("PUT /d HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 17\r\n\r\n")], limits: small)
        #expect(events.count == 1)
        guard case .error(let e)? = events.first else {
            Issue.record("expected an error, got \(events)")
            return
        }
        #expect(e.reason == .bodyTooLarge)
        #expect(e.status == .contentTooLarge)
    }

    @Test func phasesFollowTheRequest() {
        var parser = HTTPParser()
        #expect(parser.phase == .idle)
        parser.append(bytes("POST / HTTP/1.1\r\nHo"))
        #expect(parser.next() == nil)
        #expect(parser.phase == .head)
        parser.append(bytes("st: a\r\nContent-Length: 2\r\n\r\nx"))
        #expect(parser.next() == nil)
        #expect(parser.phase == .body)
        parser.append(bytes("y"))
        #expect(parser.next() != nil)
        #expect(parser.phase == .idle)
    }

    @Test func headersAreCaseInsensitive() {
        let h: HTTPHeaders = ["Content-Type": "a", "X-Multi": "1", "x-multi": "2"]
        #expect(h["content-type"] == "a")
        #expect(h["CONTENT-TYPE"] == "a")
        #expect(h.values("X-MULTI") == ["1", "2"])
        #expect(h["missing"] == nil)
    }

    @Test func queryParametersAreDecoded() {
        let r = HTTPRequest(method: .GET, path: "/", query: "a=1&b=x%20y+z&c")
        #expect(r.queryParameter("a") == "1")
        #expect(r.queryParameter("b") == "x y z")
        #expect(r.queryParameter("c") == "")
        #expect(r.queryParameter("d") == nil)
    }
}

@Suite struct EarlyRefusalTests {
    @Test(arguments: [
        (
            "GET /healthz\r\n", HTTPParseError.Reason.http09,
            "The request line has no HTTP version (HTTP/0.9 is not supported)."
        ),
        ("GET /healthz HTTP/1.1\n", .bareLineFeed, "The request line must end with CRLF."),
        ("GET /healthz HTTP/1.1\r\nHost: a\n", .bareLineFeed, "A header line ends with a bare LF."),
    ])
    func aHeadThatCanNeverBeValidIsRefusedBeforeItEnds(
        _ raw: String, _ reason: HTTPParseError.Reason, _ detail: String
    ) {
        #expect(parseEvents([bytes(raw)]) == [.error(HTTPParseError(reason, detail))])
        #expect(reason.status == .badRequest)
    }

    @Test func aValidHeadInPiecesStillWaits() {
        #expect(parseEvents([bytes("GET /healthz HTTP/1.1\r\n"), bytes("Host: a\r\n")]).isEmpty)
        #expect(parseEvents([bytes("GET /healthz HT")]).isEmpty)
    }
}
