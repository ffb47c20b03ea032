import JSON
import LayoutEngine

/// One version of a constant set (docs/api.md#constant-sets): every constant's value (not only those the
/// version changed), where each value comes from, what it is based on, and the digest of its canonical JSON.
/// Immutable once stored.
public struct ConstantSetVersion: Sendable, Equatable {
    public let name: String
    public let version: Int
    /// `name@n`, as a scene names this version and as the request log stores it (kept: every pinned resolve
    /// answers it).
    public let reference: String
    /// `default` or `name@n`.
    public var basedOn: String
    public var note: String?
    public var constants: Constants
    /// Where each value comes from, by index of `Constants.definitions`: `default`, or the source (or note)
    /// given by the version that set it.
    public var sources: [String]
    public var createdAt: Timestamp

    public init(
        name: String, version: Int, basedOn: String, note: String?, constants: Constants, sources: [String],
        createdAt: Timestamp
    ) {
        self.name = name
        self.version = version
        self.reference = "\(name)@\(version)"
        self.basedOn = basedOn
        self.note = note
        self.constants = constants
        self.sources = sources
        self.createdAt = createdAt
    }

    /// The canonical JSON (members sorted, the writer's number format): what the database stores and the
    /// digest covers.
    public var json: JSONValue {
        var constants = JSONObject()
        var sources = JSONObject()
        for (i, d) in Constants.definitions.enumerated() {
            constants.members.append(JSONMember(d.key, .number(self.constants[keyPath: d.keyPath])))
            sources.members.append(JSONMember(d.key, .string(i < self.sources.count ? self.sources[i] : "default")))
        }
        constants.members.sort { $0.key < $1.key }
        sources.members.sort { $0.key < $1.key }
        return .object([
            "basedOn": .string(basedOn), "constants": .object(constants), "createdAt": .string(createdAt.iso8601),
            "name": .string(name), "note": note.map { .string($0) } ?? .null, "sources": .object(sources),
            "version": .number(Double(version)),
        ])
    }

    public var canonicalBytes: [UInt8] { JSONWriter.encode(json) }

    /// The strong entity tag of `canonicalBytes`: the version's `ETag`.
    public var digest: EntityTag { EntityTag(canonicalBytes: canonicalBytes) }

    /// A version as the database stores it (`json`); nil when it does not read back (written by another
    /// release). A constant the stored JSON lacks (one added since) takes its default.
    public static func decode(stored bytes: [UInt8]) -> ConstantSetVersion? {
        guard let value = try? JSONParser.parse(bytes), let name = value["name"]?.stringValue,
            let version = value["version"]?.doubleValue, version >= 1, version <= 999_999_999,
            let basedOn = value["basedOn"]?.stringValue,
            let created = value["createdAt"]?.stringValue.flatMap({ Timestamp(iso8601: $0) })
        else { return nil }
        var constants = Constants()
        var sources = [String](repeating: "default", count: Constants.definitions.count)
        for (i, d) in Constants.definitions.enumerated() {
            if let v = value["constants"]?[d.key]?.doubleValue, d.range.contains(v) {
                constants[keyPath: d.keyPath] = v
            }
            if let s = value["sources"]?[d.key]?.stringValue { sources[i] = s }
        }
        return ConstantSetVersion(
            name: name, version: Int(version), basedOn: basedOn, note: value["note"]?.stringValue,
            constants: constants, sources: sources, createdAt: created)
    }
}

/// A constant set: its versions, oldest first, and when it was retired (`DELETE`), if it was.
public struct ConstantSet: Sendable, Equatable {
    public var name: String
    public var createdAt: Timestamp
    public var retiredAt: Timestamp?
    public var versions: [ConstantSetVersion]

    public init(name: String, createdAt: Timestamp, retiredAt: Timestamp?, versions: [ConstantSetVersion]) {
        self.name = name
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.versions = versions
    }

    public var latest: ConstantSetVersion? { versions.last }

    /// Version `n`, if stored.
    public func version(_ n: Int) -> ConstantSetVersion? {
        guard n >= 1, n <= versions.count, versions[n - 1].version == n else {
            return versions.first { $0.version == n }
        }
        return versions[n - 1]
    }

    /// Both reads of one set, as one: the versions of either (they never differ where both have one: versions
    /// are immutable), retired when either says so.
    func merged(with other: ConstantSet) -> ConstantSet {
        var byNumber: [Int: ConstantSetVersion] = [:]
        for v in versions + other.versions { byNumber[v.version] = v }
        return ConstantSet(
            name: name, createdAt: min(createdAt, other.createdAt), retiredAt: retiredAt ?? other.retiredAt,
            versions: byNumber.values.sorted { $0.version < $1.version })
    }
}

/// What a scene's `constantSet` names.
public enum ConstantSetLookup: Sendable, Equatable {
    case found(ConstantSetVersion)
    case unknownSet
    /// The set exists but has no such version (its latest is `latest`).
    case unknownVersion(latest: Int)
    /// The set was retired: new requests may not name it.
    case retired
}

/// Where the core finds the versions scenes name (`ConstantSetStore`; tests use their own).
public protocol ConstantSetCatalog: Sendable {
    /// The version `reference` names (not `default`). `includeRetired`: a retired set's versions too (replay
    /// and impact read history; new requests do not).
    func lookup(_ reference: ConstantSetReference, includeRetired: Bool) -> ConstantSetLookup

    /// What a resolve needs of the version `reference` names, when there is one it may use: the quick path of
    /// every pinned request (`lookup` says why there is none).
    func pin(_ reference: ConstantSetReference, includeRetired: Bool) -> ConstantSetPin?
}

extension ConstantSetCatalog {
    public func pin(_ reference: ConstantSetReference, includeRetired: Bool) -> ConstantSetPin? {
        guard case .found(let v) = lookup(reference, includeRetired: includeRetired) else { return nil }
        return ConstantSetPin(v, retired: false)
    }
}

/// A version's values and name, shared (a reference: handing it to a resolve copies no table).
public final class ConstantSetPin: Sendable {
    public let constants: Constants
    /// `name@n`.
    public let reference: String
    /// Whether its set was retired.
    public let retired: Bool

    public init(_ version: ConstantSetVersion, retired: Bool) {
        constants = version.constants
        reference = version.reference
        self.retired = retired
    }
}

/// What a new version is made of (`POST /v1/constant-sets/{name}/versions`, checked by the core).
public struct ConstantSetDraft: Sendable, Equatable {
    /// nil: the built-in defaults.
    public var basedOn: ConstantSetReference?
    /// The constants this version sets: index in `Constants.definitions` and value.
    public var overrides: [(index: Int, value: Double)]
    public var note: String?
    /// Sources of overridden constants, by index.
    public var sources: [Int: String]

    public init(
        basedOn: ConstantSetReference?, overrides: [(index: Int, value: Double)], note: String?,
        sources: [Int: String]
    ) {
        self.basedOn = basedOn
        self.overrides = overrides
        self.note = note
        self.sources = sources
    }

    public static func == (a: ConstantSetDraft, b: ConstantSetDraft) -> Bool {
        a.basedOn == b.basedOn && a.note == b.note && a.sources == b.sources
            && a.overrides.map(\.index) == b.overrides.map(\.index)
            && a.overrides.map(\.value) == b.overrides.map(\.value)
    }

    /// Version `number` of `name` made from this draft over `base` (nil: the defaults).
    public func version(name: String, number: Int, base: ConstantSetVersion?, at now: Timestamp) -> ConstantSetVersion {
        var constants = base?.constants ?? Constants()
        var sources = base?.sources ?? [String](repeating: "default", count: Constants.definitions.count)
        if sources.count < Constants.definitions.count {
            sources += [String](repeating: "default", count: Constants.definitions.count - sources.count)
        }
        for o in overrides {
            constants[keyPath: Constants.definitions[o.index].keyPath] = o.value
            sources[o.index] = self.sources[o.index] ?? note ?? "\(name)@\(number)"
        }
        return ConstantSetVersion(
            name: name, version: number, basedOn: basedOn?.description ?? ConstantSetReference.defaultName,
            note: note, constants: constants, sources: sources, createdAt: now)
    }
}
