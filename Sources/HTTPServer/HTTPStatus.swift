/// A response status: its three-digit code, and the reason phrase written on the status line.
///
/// The statuses the server and its routes answer with are named constants (`.ok`, `.notFound`…); a code
/// read from elsewhere (a stored record's status) becomes one with `HTTPStatus(code)`.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int

    public init(_ code: Int) { self.code = code }

    /// The code as decimal text (`"404"`): what a problem document's `status` member and a log line show.
    public var description: String { String(code) }

    /// The RFC 9110 reason phrase (`Not Found`), or `Status NNN` for a code without one here.
    public var reasonPhrase: String { Self.reasonPhrase(code) }

    public static let `continue` = HTTPStatus(100)
    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let accepted = HTTPStatus(202)
    public static let noContent = HTTPStatus(204)
    public static let movedPermanently = HTTPStatus(301)
    public static let found = HTTPStatus(302)
    public static let notModified = HTTPStatus(304)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let notAcceptable = HTTPStatus(406)
    public static let requestTimeout = HTTPStatus(408)
    public static let conflict = HTTPStatus(409)
    public static let lengthRequired = HTTPStatus(411)
    public static let preconditionFailed = HTTPStatus(412)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let unsupportedMediaType = HTTPStatus(415)
    public static let expectationFailed = HTTPStatus(417)
    public static let misdirectedRequest = HTTPStatus(421)
    public static let unprocessableContent = HTTPStatus(422)
    public static let preconditionRequired = HTTPStatus(428)
    public static let tooManyRequests = HTTPStatus(429)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let badGateway = HTTPStatus(502)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let gatewayTimeout = HTTPStatus(504)
    public static let httpVersionNotSupported = HTTPStatus(505)

    /// The reason phrase of `code` (the status line is written from the code, without building a status).
    public static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 428: return "Precondition Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(code)"
        }
    }
}
