import HTTPServer
import JSON
import LayoutEngine
import Store

/// `GET /v1/requests`'s query parameters → the store's `RecordQuery` (docs/api.md#request-log).
enum RecordQueryMapping {
    /// A query parameter with a malformed value (400: "Query parameter `parameter`: `detail`").
    struct InvalidParameter: Error, Equatable {
        var parameter: String
        var detail: String
    }

    /// The query parameters `GET /v1/requests` reads (its route declares them).
    static let parameters = [
        "device", "status", "code", "client", "constantSet", "since", "until", "limit", "cursor",
    ]

    /// `query(from:)`, a malformed value as the route's 400.
    static func query(_ queryItems: [QueryItem]) throws(RouteError) -> RecordQuery {
        do throws(InvalidParameter) { return try query(from: queryItems) } catch {
            throw RouteError.badQuery(error.parameter, error.detail)
        }
    }

    /// From the request's decoded query items (`parameters`); other names are ignored here (the router refuses
    /// names the route does not declare).
    static func query(from queryItems: [QueryItem]) throws(InvalidParameter) -> RecordQuery {
        var query = RecordQuery()
        for item in queryItems {
            let (name, value) = (item.name, item.value)
            switch name {
            case "device": query.device = value
            case "code": query.code = value
            case "cursor": query.cursor = value
            case "client":
                guard RecordingHeaders.isClientName(value) else {
                    throw InvalidParameter(
                        parameter: "client",
                        detail:
                            "expected a client name as Hinge-Client gives it (1 to \(RecordingHeaders.maxClientLength) "
                            + "characters among A–Z, a–z, 0–9, '.', '_' and '-'), got \"\(value.prefix(80))\"")
                }
                query.client = value
            case "constantSet":
                guard let ref = ConstantSetReference(value), ref.isDefault || ref.version != nil else {
                    throw InvalidParameter(
                        parameter: "constantSet",
                        detail: "expected a version as name@n, or \"default\", got \"\(value.prefix(80))\"")
                }
                query.constantSet = ref.description
            case "status":
                guard let s = Int(value), (100...599).contains(s) else {
                    throw InvalidParameter(
                        parameter: "status", detail: "expected an HTTP status 100…599, got \"\(value)\"")
                }
                query.status = s
            case "limit":
                guard let l = Int(value), (1...RecordQuery.maxLimit).contains(l) else {
                    throw InvalidParameter(
                        parameter: "limit", detail: "expected 1…\(RecordQuery.maxLimit), got \"\(value)\"")
                }
                query.limit = l
            case "since", "until":
                guard let t = Timestamp(iso8601: value) else {
                    throw InvalidParameter(
                        parameter: name,
                        detail: "expected an ISO 8601 timestamp such as 2025-01-31T09:05:07Z, got \"\(value)\"")
                }
                if name == "since" { query.since = t } else { query.until = t }
            default: break
            }
        }
        if let cursor = query.cursor, !RecordQuery.isCursor(cursor) {
            throw InvalidParameter(parameter: "cursor", detail: "not a cursor returned by this server")
        }
        return query
    }
}
