/// Why a request was refused: what was wrong (`reason`, which decides the status) and a sentence for the
/// problem detail. After an error the connection is answered with `Connection: close` and closed; the parser
/// never looks at the bytes that follow.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the parser refused, one case per rule of RFC 9112 it enforces.
    public enum Reason: String, Sendable, CaseIterable {
        // Request line.
        case requestLineTooLong
        case malformedRequestLine
        /// A request line without an `HTTP/` version (HTTP/0.9).
        case http09
        case malformedVersion
        /// A well-formed version other than HTTP/1.0 and HTTP/1.1 (including the HTTP/2 preface).
        case unsupportedVersion
        /// Not origin-, absolute- or `*`-form, or with a fragment.
        case malformedTarget
        // Line endings.
        /// A line of the head ending in LF without CR, or an LF inside a value.
        case bareLineFeed
        /// A CR not followed by LF inside a value, or a request line ending in CR without LF.
        case bareCarriageReturn
        // Header fields.
        case headerBlockTooLarge
        case tooManyHeaderFields
        /// A field line starting with whitespace (obsolete line folding).
        case obsFold
        /// Whitespace between a field name and its colon.
        case spaceBeforeColon
        case emptyFieldName
        case missingColon
        case malformedFieldName
        case nulInValue
        case controlCharacterInValue
        // Semantics of the head.
        case missingHost
        case duplicateHost
        /// A `Content-Length` that is not 1*DIGIT fitting in an Int.
        case invalidContentLength
        /// Two `Content-Length` fields with the same value.
        case duplicateContentLength
        case conflictingContentLength
        case contentLengthWithTransferEncoding
        case transferEncodingOnHTTP10
        /// A `Transfer-Encoding` whose last coding is not `chunked`.
        case transferEncodingNotChunked
        /// `chunked` twice, or an empty coding.
        case malformedTransferEncoding
        /// A coding other than `chunked` before it.
        case unsupportedTransferCoding
        case unsupportedExpectation
        // Body.
        case bodyTooLarge
        case chunkSizeLineTooLong
        case malformedChunkSize
        /// A chunk-size line or chunk data not ended by CRLF.
        case chunkWithoutCRLF
        case trailerSectionTooLarge
        /// A trailer line with a bare CR or LF.
        case malformedTrailer
        /// An internal inconsistency of the parser (never expected).
        case internalError

        /// The status the refusal is answered with.
        public var status: HTTPStatus {
            switch self {
            case .requestLineTooLong: return .uriTooLong
            case .unsupportedVersion: return .httpVersionNotSupported
            case .headerBlockTooLarge, .tooManyHeaderFields, .trailerSectionTooLarge:
                return .requestHeaderFieldsTooLarge
            case .unsupportedTransferCoding: return .notImplemented
            case .unsupportedExpectation: return .expectationFailed
            case .bodyTooLarge: return .contentTooLarge
            case .internalError: return .internalServerError
            default: return .badRequest
            }
        }
    }

    public var reason: Reason
    public var detail: String
    /// The status of the response that refuses the request (follows from `reason`).
    public var status: HTTPStatus { reason.status }

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(status) \(detail)" }
}
