import HTTPServer
import JSON

/// The query parameters a route reads, declared where it is registered (`ServiceRouter.add(_:_:query:…)`).
/// Any other is refused with a 400 that names it, suggests the accepted one it is probably a typo of, and lists
/// the accepted ones: `?fromat=svg` must not quietly answer JSON.
enum QueryParameters {
    /// The 400 for the first of `items` that `accepted` does not name; nil when all are accepted.
    static func refusal(_ items: [QueryItem], accepted: [String], route: String) -> RouteError? {
        for item in items {
            let name = item.name
            if accepted.contains(name) { continue }
            let suggestion = NameSuggestion.suggestion(for: name, among: accepted)
            let takes = accepted.isEmpty ? "takes no query parameters" : "accepts \(accepted.joined(separator: ", "))"
            return RouteError(
                status: .badRequest,
                detail: "Unknown query parameter \"\(name)\""
                    + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + ". \(route) \(takes).",
                members: [
                    JSONMember("parameter", .string(name)),
                    JSONMember("accepted", .array(accepted.map { .string($0) })),
                ]
            )
        }
        return nil
    }
}
