import JSON
import LayoutEngine
import Store

/// The bodies of `POST /v1/constant-sets/{name}/versions` (docs/api.md#constant-sets): Hinge's own JSON or a
/// W3C design tokens document (`ConstantSetTokens`), checked as a scene's `constants` are, every violation with
/// its JSON pointer.
public enum ConstantSetDrafts {
    /// The longest `note` and `sources` text, in bytes.
    public static let maxNoteBytes = 1000

    /// `name` as a set's name: the device-id rules, and not `default`.
    public static func nameProblem(_ name: String) -> String? {
        // In any case: `DEFAULT` and `Default` would read as the built-in values to a person.
        if name.lowercased() == ConstantSetReference.defaultName {
            return "\"\(name)\" names the built-in values, not a stored set"
        }
        if !DeviceProfile.isValidID(name) {
            return "a set's name is 1 to 128 letters, digits, '-', '_' and '.' (not dots only)"
        }
        return nil
    }

    /// `{"basedOn", "constants", "note", "sources"}`.
    public static func draft(json body: [UInt8], catalog: any ConstantSetCatalog) -> Result<
        ConstantSetDraft, Problem
    > {
        let value: JSONValue
        switch Problem.parse(body) {
        case .failure(let problem): return .failure(problem)
        case .success(let v): value = v
        }
        var issues: [JSONIssue] = []
        guard case .object(let root) = value else {
            return .failure(
                .invalid([JSONIssue(path: .root, message: "expected an object with constants")], what: "version"))
        }
        var draft = ConstantSetDraft(basedOn: nil, overrides: [], note: nil, sources: [:])
        for member in root.members {
            let at = JSONPointer([member.key])
            switch member.key {
            case "basedOn": draft.basedOn = basedOn(member.value, at: at, catalog: catalog, issues: &issues)
            case "note": draft.note = text(member.value, at: at, issues: &issues)
            case "constants": draft.overrides = constants(member.value, at: at, issues: &issues)
            case "sources": continue
            default:
                let guess = NameSuggestion.suggestion(
                    for: member.key, among: ["basedOn", "constants", "note", "sources"])
                issues.append(
                    JSONIssue(
                        path: at,
                        message: "unknown member" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "")))
            }
        }
        if let s = root["sources"] { draft.sources = sources(s, overrides: draft.overrides, issues: &issues) }
        if !issues.isEmpty && isTokensDocument(root) {
            // Its groups are not unknown members of this body: the body has the wrong type.
            issues = [
                JSONIssue(
                    path: .root,
                    message: "this is a design tokens document: send it with Content-Type: "
                        + "\(ConstantSetTokens.mediaType) (hinge constant-sets import: --format dtcg)")
            ]
        }
        return issues.isEmpty ? .success(draft) : .failure(.invalid(issues, what: "version"))
    }

    /// Whether `root` reads as a design tokens document: none of this body's members, and `$`-members at the
    /// root or a group holding a token (`{"sheet": {"topGap": {"$value": …}}}`).
    static func isTokensDocument(_ root: JSONObject) -> Bool {
        let own: Set<String> = ["basedOn", "constants", "note", "sources"]
        if root.members.contains(where: { own.contains($0.key) }) { return false }
        return root.members.contains { m in
            if m.key.hasPrefix("$") { return true }
            guard case .object(let group) = m.value else { return false }
            return group.members.contains { $0.value["$value"] != nil }
        }
    }

    /// `basedOn`: `default` or `name@n` of a stored version (a retired set's too: its versions stay).
    static func basedOn(
        _ value: JSONValue, at: JSONPointer, catalog: any ConstantSetCatalog, issues: inout [JSONIssue]
    ) -> ConstantSetReference? {
        guard let text = value.stringValue, let ref = ConstantSetReference(text),
            ref.isDefault || ref.version != nil
        else {
            issues.append(JSONIssue(path: at, message: "expected \"default\" or a stored version as name@n"))
            return nil
        }
        if ref.isDefault { return nil }
        guard case .found = catalog.lookup(ref, includeRetired: true) else {
            issues.append(JSONIssue(path: at, message: "no stored version \(ref) (GET /v1/constant-sets lists them)"))
            return nil
        }
        return ref
    }

    static func text(_ value: JSONValue, at: JSONPointer, issues: inout [JSONIssue]) -> String? {
        guard let s = value.stringValue, s.utf8.count <= maxNoteBytes else {
            issues.append(JSONIssue(path: at, message: "expected a string of at most \(maxNoteBytes) bytes"))
            return nil
        }
        return s
    }

    /// The index in `Constants.definitions` of `key`, or an issue naming the closest key.
    static func definition(_ key: String, at: JSONPointer, issues: inout [JSONIssue]) -> Int? {
        if let i = Constants.definitions.firstIndex(where: { $0.key == key }) { return i }
        // Past the listed ones (docs/api.md#problem-invalid) an issue is only counted: no suggestion is looked for.
        if issues.count >= JSONIssue.listLimit {
            issues.append(JSONIssue(path: at, message: "unknown constant"))
            return nil
        }
        let guess = NameSuggestion.suggestion(for: key, among: Constants.definitions.lazy.map(\.key))
        issues.append(
            JSONIssue(
                path: at,
                message: "unknown constant \"\(key)\"" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "")
                    + "; GET /v1/constants lists the valid keys"))
        return nil
    }

    /// A value of constant `i`: a number in its range.
    static func number(_ value: JSONValue, of i: Int, at: JSONPointer, issues: inout [JSONIssue]) -> Double? {
        let range = Constants.definitions[i].range
        guard let v = value.doubleValue else {
            issues.append(JSONIssue(path: at, message: "expected a number"))
            return nil
        }
        guard range.contains(v) else {
            issues.append(
                JSONIssue(path: at, message: "must be between \(fmt(range.lowerBound)) and \(fmt(range.upperBound))"))
            return nil
        }
        return v
    }

    static func constants(_ value: JSONValue, at: JSONPointer, issues: inout [JSONIssue]) -> [(
        index: Int, value: Double
    )] {
        guard case .object(let o) = value else {
            issues.append(JSONIssue(path: at, message: "expected an object of constants"))
            return []
        }
        var out: [(index: Int, value: Double)] = []
        for member in o.members {
            let p = at.appending(member.key)
            guard let i = definition(member.key, at: p, issues: &issues),
                let v = number(member.value, of: i, at: p, issues: &issues)
            else { continue }
            out.append((i, v))
        }
        return out
    }

    static func sources(
        _ value: JSONValue, overrides: [(index: Int, value: Double)], issues: inout [JSONIssue]
    ) -> [Int: String] {
        let at = JSONPointer(["sources"])
        guard case .object(let o) = value else {
            issues.append(JSONIssue(path: at, message: "expected an object of sources"))
            return [:]
        }
        var out: [Int: String] = [:]
        for member in o.members {
            let p = at.appending(member.key)
            guard let i = definition(member.key, at: p, issues: &issues),
                let s = text(member.value, at: p, issues: &issues)
            else { continue }
            guard overrides.contains(where: { $0.index == i }) else {
                issues.append(JSONIssue(path: p, message: "a source for a constant this version does not set"))
                continue
            }
            out[i] = s
        }
        return out
    }

    /// A number as the problem messages write it: an integer without ".0".
    public static func fmt(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
