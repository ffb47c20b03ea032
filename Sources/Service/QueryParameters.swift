import HTTPServer
import JSON

/// The query parameters each route reads. Any other is refused with a 400 that names it, suggests the
/// accepted one it is probably a typo of, and lists the accepted ones: `?fromat=svg` must not quietly
/// answer JSON.
enum QueryParameters {
    /// By `METHOD pattern`; a route not listed accepts none.
    static let accepted: [String: [String]] = [
        "POST /v1/resolve": ["format", "width"],
        "POST /v1/resolve/matrix": ["pictures", "width"],
        "POST /v1/resolve/svg": ["width"],
        "GET /v1/devices": ["kind"],
        "GET /v1/requests": ["device", "status", "code", "client", "since", "until", "limit", "cursor"],
        "GET /v1/requests/{id}/svg": ["width"],
    ]

    /// The 400 for the first parameter of `query` that `accepted` does not hold; nil when all are accepted.
    static func refusal(_ query: String, accepted: [String], route: String) -> HTTPResponse? {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let raw = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let name = raw.contains("%") || raw.contains("+") ? percentDecode(String(raw)) : String(raw)
            if accepted.contains(name) { continue }
            let suggestion = NameSuggestion.suggestion(for: name, among: accepted)
            let takes = accepted.isEmpty ? "takes no query parameters" : "accepts \(accepted.joined(separator: ", "))"
            return Problem.response(
                status: .badRequest,
                detail: "Unknown query parameter \"\(name)\""
                    + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + ". \(route) \(takes).",
                extra: [
                    JSONMember("parameter", .string(name)),
                    JSONMember("accepted", .array(accepted.map { .string($0) })),
                ])
        }
        return nil
    }
}
