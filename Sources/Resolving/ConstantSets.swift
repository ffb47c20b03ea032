import JSON
import LayoutEngine
import Store

/// The constant sets as the API offers them (docs/api.md#constant-sets): the sets, their immutable versions
/// (JSON or a design tokens document), new versions, retirement and the impact report. Each answers a domain
/// value or a `Problem`; no HTTP.
public struct ConstantSets: Sendable {
    let store: ConstantSetStore

    public init(_ store: ConstantSetStore) { self.store = store }

    /// Every set, with its latest version.
    public func list() -> JSONValue { ConstantSetJSON.list(store.list()) }

    /// One set and its versions; 404 when no set has `name`.
    public func set(_ name: String) throws(Problem) -> JSONValue {
        guard let set = store.set(name) else { throw Self.setNotFound(name) }
        return ConstantSetJSON.set(set)
    }

    /// The version `number` of the set `name` (a retired set's too: its history stays readable); 404 for a set
    /// or a version that is not there. A version is written as the API writes it: digits, no sign, no leading
    /// zero (`+1` and `01` are not 1).
    public func version(_ name: String, number text: String) throws(Problem) -> ConstantSetVersion {
        guard let set = store.set(name) else { throw Self.setNotFound(name) }
        guard text.utf8.count <= 9, text.utf8.first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let n = Int(text), let v = set.version(n)
        else {
            throw .notFound(
                "Constant set \"\(name)\" has no version \"\(text)\" (its latest is \(set.latest?.version ?? 0)).")
        }
        return v
    }

    /// Whether a version is asked for as its design tokens document: `format` (`json` or `dtcg`) when given,
    /// else whether `accept` names the tokens media type; 400 for another format.
    public static func wantsTokens(format: String?, accept: String?) throws(Problem) -> Bool {
        guard let format else { return accept?.contains(ConstantSetTokens.mediaType) ?? false }
        guard format == "dtcg" || format == "json" else {
            throw .badParameter("format must be json or dtcg, not \"\(format.prefix(40))\"")
        }
        return format == "dtcg"
    }

    /// A version's document: its JSON, or its design tokens document.
    public static func document(_ version: ConstantSetVersion, tokens: Bool) -> JSONValue {
        tokens ? ConstantSetTokens.document(version) : ConstantSetJSON.version(version)
    }

    /// Checks a set's name before its body is read: 400 for a name the API does not take.
    public static func checkName(_ name: String) throws(Problem) {
        if let problem = ConstantSetDrafts.nameProblem(name) { throw .badParameter("Constant set name: \(problem).") }
    }

    /// The draft a new version's body describes: a JSON body, or a design tokens document (`tokens`) based on
    /// the set's latest version; 400/422 for a body that breaks a rule.
    public func draft(_ name: String, body: [UInt8], tokens: Bool) throws(Problem) -> ConstantSetDraft {
        let parsed =
            tokens
            ? ConstantSetTokens.draft(tokens: body, name: name, catalog: store)
            : ConstantSetDrafts.draft(json: body, catalog: store)
        return try parsed.get()
    }

    /// Stores `draft` as the set's next version on the store's writer thread; `done` is called there.
    public func create(
        _ name: String, _ draft: ConstantSetDraft,
        _ done: @escaping @Sendable (Result<ConstantSetVersion, Problem>) -> Void
    ) {
        store.create(name: name, draft: draft) { result in
            done(
                result.mapError { error in
                    switch error {
                    case .retired:
                        return Problem(
                            .conflict,
                            detail: "Constant set \"\(name)\" was retired: it takes no new version; use another name.")
                    case .invalidQuery(_, let detail):
                        return Problem(.conflict, detail: "Constant set \"\(name)\": \(detail).")
                    case .notFound(let id):
                        return .invalid(
                            [JSONIssue(path: JSONPointer(["basedOn"]), message: "no stored version \(id)")],
                            what: "version")
                    default: return .store(error, .write, what: "the constant set")
                    }
                })
        }
    }

    /// Retires the set `name` on the store's writer thread; `done` is called there.
    public func retire(_ name: String, _ done: @escaping @Sendable (Result<Void, Problem>) -> Void) {
        store.retire(name: name) { result in
            done(
                result.mapError { error in
                    if case .notFound = error { return Self.setNotFound(name) }
                    return .store(error, .write, what: "the constant set")
                })
        }
    }

    /// The impact report of `version` over the request log (docs/api.md#constant-set-impact), its options read
    /// from `body`; nil when `stop` said to stop (checked every 256 records).
    public func impact(
        _ version: ConstantSetVersion, options body: [UInt8], log: RequestLog, devices: any DeviceCatalog,
        stop: () -> Bool
    ) throws(Problem) -> JSONValue? {
        let options = try ConstantSetImpact.Options.decode(body).get()
        do throws(StoreError) {
            let report = try ConstantSetImpact.run(
                version, options: options, log: log, devices: devices, sets: store, stop: stop)
            return report.map(ConstantSetImpact.json)
        } catch {
            throw .store(error, .read, what: "the request log")
        }
    }

    static func setNotFound(_ name: String) -> Problem {
        .notFound("No constant set is named \"\(name)\" (GET /v1/constant-sets lists them).")
    }
}
