import JSON
import LayoutEngine
import Store

extension ConstantSetImpact {
    /// The body of `POST …/impact` (docs/api.md#constant-set-impact): which records to read, and the page.
    public struct Options: Sendable, Equatable {
        public static let maxRecords = 100_000
        public static let maxPage = 500
        public static let members = [
            "since", "until", "device", "constantSet", "limit", "tolerance", "pageLimit", "after",
        ]
        public var since: Timestamp?
        public var until: Timestamp?
        public var device: String?
        /// Only records resolved with this version (`name@n`) or with the defaults (`default`).
        public var constantSet: String?
        /// Records read at most (newest first). Default 10 000.
        public var limit = 10_000
        /// Numbers that differ by at most this much count as unchanged (points). Default 0.
        public var tolerance = 0.0
        /// Changed records listed on this page, and the `next` of the previous page.
        public var pageLimit = 50
        public var after: Int64?

        public init() {}

        /// The body of `POST …/impact` (empty: every default).
        public static func decode(_ body: [UInt8]) -> Result<Options, Problem> {
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(Options()) }
            let value: JSONValue
            switch Problem.parse(body) {
            case .failure(let problem): return .failure(problem)
            case .success(let v): value = v
            }
            guard case .object(let root) = value else {
                return .failure(.invalid([JSONIssue(path: .root, message: "expected an object")], what: "request"))
            }
            var o = Options()
            var issues: [JSONIssue] = []
            for m in root.members { o.read(m, issues: &issues) }
            return issues.isEmpty ? .success(o) : .failure(.invalid(issues, what: "request"))
        }

        private mutating func read(_ m: JSONMember, issues: inout [JSONIssue]) {
            let at = JSONPointer([m.key])
            func int(_ range: ClosedRange<Int>) -> Int? {
                guard let d = m.value.doubleValue, d == d.rounded(), d >= Double(range.lowerBound),
                    d <= Double(range.upperBound)
                else {
                    issues.append(
                        JSONIssue(
                            path: at, message: "expected an integer from \(range.lowerBound) to \(range.upperBound)"))
                    return nil
                }
                return Int(d)
            }
            switch m.key {
            case "since", "until":
                guard let t = m.value.stringValue.flatMap({ Timestamp(iso8601: $0) }) else {
                    return issues.append(
                        JSONIssue(path: at, message: "expected an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"))
                }
                if m.key == "since" { since = t } else { until = t }
            case "device":
                guard let d = m.value.stringValue, DeviceProfile.isValidID(d) else {
                    return issues.append(JSONIssue(path: at, message: "expected a device id"))
                }
                device = d
            case "constantSet":
                guard let text = m.value.stringValue, let ref = ConstantSetReference(text),
                    ref.isDefault || ref.version != nil
                else {
                    return issues.append(
                        JSONIssue(path: at, message: "expected \"default\" or a version as name@n, e.g. \"acme@1\""))
                }
                constantSet = ref.description
            case "limit": limit = int(1...Options.maxRecords) ?? limit
            case "pageLimit": pageLimit = int(1...Options.maxPage) ?? pageLimit
            case "after":
                guard let text = m.value.stringValue, let id = RecordID(text) else {
                    return issues.append(JSONIssue(path: at, message: "expected the next of the previous page"))
                }
                after = id.rawValue
            case "tolerance":
                guard let t = m.value.doubleValue, t >= 0, t <= 1000 else {
                    return issues.append(JSONIssue(path: at, message: "expected a number from 0 to 1000"))
                }
                tolerance = t
            default:
                let guess = NameSuggestion.suggestion(for: m.key, among: Options.members)
                issues.append(
                    JSONIssue(
                        path: at,
                        message: "unknown member" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "") + " ("
                            + Options.members.joined(separator: ", ") + ")"))
            }
        }
    }
}
