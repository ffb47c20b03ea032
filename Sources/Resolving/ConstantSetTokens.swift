import JSON
import LayoutEngine
import Store

/// A constant set version as a W3C design tokens document (Design Tokens Format Module 2025.10,
/// `application/design-tokens+json`; docs/api.md#design-tokens): one group per prefix of the keys (`sheet`,
/// `popover`, …), one token per constant (`sheet.topGap` is the token `topGap` of the group `sheet`), a
/// `dimension` in `px` (Hinge's points) or a `number` (fractions), the constant's meaning as `$description`
/// and Hinge's extras (the value's source; the version's name, number, base, note and digest) under
/// `$extensions["dev.hinge"]`.
public enum ConstantSetTokens {
    public static let mediaType = "application/design-tokens+json"
    public static let extensionKey = "dev.hinge"

    /// The token type of constant `key`: fractions are numbers, everything else a length.
    static func type(of key: String) -> String {
        key == "sheet.mediumFraction" || key == "arrangement.defaultRatio" ? "number" : "dimension"
    }

    public static func document(_ v: ConstantSetVersion) -> JSONValue {
        var root = JSONObject()
        var hinge: JSONObject = [
            "name": .string(v.name), "version": .number(Double(v.version)), "basedOn": .string(v.basedOn),
            "digest": .string(v.digest.quoted), "createdAt": .string(v.createdAt.iso8601),
        ]
        if let note = v.note { hinge.members.append(JSONMember("note", .string(note))) }
        root.members.append(JSONMember("$description", .string("Hinge constant set \(v.reference)")))
        root.members.append(JSONMember("$extensions", .object(JSONObject([JSONMember(extensionKey, .object(hinge))]))))
        for (i, d) in Constants.definitions.enumerated() {
            let parts = d.key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let number = v.constants[keyPath: d.keyPath]
            let type = type(of: d.key)
            let value: JSONValue =
                type == "number" ? .number(number) : .object(["value": .number(number), "unit": "px"])
            let token: JSONValue = .object([
                "$type": .string(type), "$value": value, "$description": .string(d.meaning),
                "$extensions": .object(
                    JSONObject([
                        JSONMember(
                            extensionKey, .object(["source": .string(i < v.sources.count ? v.sources[i] : "default")]))
                    ])),
            ])
            if case .object(var group) = root[parts[0]] ?? .object(JSONObject()) {
                group.members.append(JSONMember(parts[1], token))
                if let at = root.members.firstIndex(where: { $0.key == parts[0] }) {
                    root.members[at].value = .object(group)
                } else {
                    root.members.append(JSONMember(parts[0], .object(group)))
                }
            }
        }
        return .object(root)
    }

    /// A design tokens document as the next version of set `name`: every token one of Hinge's constants
    /// (did-you-mean for the others), its `$type` (given or inherited from its group) the constant's, a
    /// `dimension` in `px`, a value in the constant's range; `$extensions["dev.hinge"].source` its source, and the
    /// root's `$extensions["dev.hinge"]` `note`. References (`{group.token}`) are refused.
    ///
    /// An export edited and imported again is a change of the set as it stands: the version is based on the
    /// set's latest version (for a new set: the exported version, else the document's `basedOn`, else the
    /// defaults), it sets only the values that differ from its base or whose source was edited, and a changed
    /// value whose source is the one exported takes the new note as its source.
    public static func draft(tokens body: [UInt8], name: String, catalog: any ConstantSetCatalog) -> Result<
        ConstantSetDraft, Problem
    > {
        let value: JSONValue
        switch Problem.parse(body) {
        case .failure(let problem): return .failure(problem)
        case .success(let v): value = v
        }
        guard case .object(let root) = value else {
            return .failure(
                .invalid(
                    [JSONIssue(path: .root, message: "expected a design tokens document (an object)")],
                    what: "design tokens document"))
        }
        var issues: [JSONIssue] = []
        var draft = ConstantSetDraft(basedOn: nil, overrides: [], note: nil, sources: [:])
        var base: ConstantSetVersion?
        if case .found(let latest) = catalog.lookup(ConstantSetReference(name: name), includeRetired: true) {
            base = latest
        }
        if case .object(let ext)? = root["$extensions"]?[extensionKey] {
            let at = JSONPointer(["$extensions", extensionKey])
            if let note = ext["note"] {
                draft.note = ConstantSetDrafts.text(note, at: at.appending("note"), issues: &issues)
            }
            if base == nil, let exported = ext["name"]?.stringValue, let n = ext["version"]?.doubleValue,
                n >= 1, n <= 999_999_999, n == n.rounded(),
                case .found(let v) = catalog.lookup(
                    ConstantSetReference(name: exported, version: Int(n)), includeRetired: true)
            {
                base = v
            }
            if let b = ext["basedOn"],
                let ref = ConstantSetDrafts.basedOn(b, at: at.appending("basedOn"), catalog: catalog, issues: &issues),
                base == nil, case .found(let v) = catalog.lookup(ref, includeRetired: true)
            {
                base = v
            }
        }
        draft.basedOn = base.map { ConstantSetReference(name: $0.name, version: $0.version) }
        var tokens = Walk(draft: draft, issues: issues)
        tokens.group(root, path: [], at: .root, inheritedType: nil)
        if tokens.draft.overrides.isEmpty && tokens.issues.isEmpty {
            tokens.issues.append(JSONIssue(path: .root, message: "the document holds no token"))
        }
        guard tokens.issues.isEmpty else { return .failure(.invalid(tokens.issues, what: "design tokens document")) }
        return .success(changes(tokens.draft, over: base))
    }

    /// The draft's values that differ from `base` (nil: the defaults), or whose source was edited; a source only
    /// where it is not the one the base gives the constant (an unedited export carries the old sources).
    static func changes(_ draft: ConstantSetDraft, over base: ConstantSetVersion?) -> ConstantSetDraft {
        let values = base?.constants ?? Constants()
        func oldSource(_ i: Int) -> String {
            base.map { i < $0.sources.count ? $0.sources[i] : "default" } ?? "default"
        }
        var out = draft
        out.sources = [:]
        out.overrides = draft.overrides.filter { o in
            let edited = draft.sources[o.index].flatMap { $0 == oldSource(o.index) ? nil : $0 }
            if let edited { out.sources[o.index] = edited }
            return values[keyPath: Constants.definitions[o.index].keyPath] != o.value || edited != nil
        }
        return out
    }

    /// The walk over groups and tokens.
    struct Walk {
        var draft: ConstantSetDraft
        var issues: [JSONIssue]

        mutating func group(_ o: JSONObject, path: [String], at: JSONPointer, inheritedType: String?) {
            var type = inheritedType
            if let t = o["$type"] {
                type = t.stringValue
                if type == nil { issues.append(JSONIssue(path: at.appending("$type"), message: "expected a string")) }
            }
            for member in o.members where !member.key.hasPrefix("$") {
                let p = at.appending(member.key)
                guard case .object(let child) = member.value else {
                    issues.append(JSONIssue(path: p, message: "expected a group or a token (an object)"))
                    continue
                }
                if let v = child["$value"] {
                    token(child, value: v, key: (path + [member.key]).joined(separator: "."), at: p, type: type)
                } else if path.count < 4 {
                    group(child, path: path + [member.key], at: p, inheritedType: type)
                } else {
                    issues.append(JSONIssue(path: p, message: "groups nest at most 4 deep here"))
                }
            }
        }

        mutating func token(_ o: JSONObject, value: JSONValue, key: String, at: JSONPointer, type inherited: String?) {
            guard let i = ConstantSetDrafts.definition(key, at: at, issues: &issues) else { return }
            let expected = ConstantSetTokens.type(of: key)
            let type = o["$type"]?.stringValue ?? inherited
            if let type, type != expected {
                issues.append(
                    JSONIssue(
                        path: at.appending(o["$type"] == nil ? "$value" : "$type"),
                        message: "\(key) is a \(expected) token, not \(type)"))
                return
            }
            let vAt = at.appending("$value")
            if let s = value.stringValue, s.hasPrefix("{") {
                issues.append(JSONIssue(path: vAt, message: "references are not supported: give the value"))
                return
            }
            var number = value
            if expected == "dimension" {
                guard case .object(let d) = value, let n = d["value"], let unit = d["unit"]?.stringValue else {
                    issues.append(
                        JSONIssue(path: vAt, message: "expected a dimension: {\"value\": number, \"unit\": \"px\"}"))
                    return
                }
                guard unit == "px" else {
                    issues.append(
                        JSONIssue(
                            path: vAt.appending("unit"),
                            message: "Hinge's lengths are points: \"px\" (a rem has no fixed size here)"))
                    return
                }
                number = n
            }
            guard
                let v = ConstantSetDrafts.number(
                    number, of: i, at: expected == "dimension" ? vAt.appending("value") : vAt,
                    issues: &issues)
            else { return }
            if draft.overrides.contains(where: { $0.index == i }) {
                issues.append(JSONIssue(path: at, message: "\(key) is given twice"))
                return
            }
            draft.overrides.append((i, v))
            if let s = o["$extensions"]?[ConstantSetTokens.extensionKey]?["source"] {
                draft.sources[i] = ConstantSetDrafts.text(
                    s, at: at.appending("$extensions").appending(ConstantSetTokens.extensionKey).appending("source"),
                    issues: &issues)
            }
        }
    }
}
