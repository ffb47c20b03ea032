import JSON
import LayoutEngine
import Store

/// The JSON of `/v1/constant-sets` (docs/api.md#constant-sets), shared by the routes and `hinge constant-sets`.
public enum ConstantSetJSON {
    /// `GET /v1/constant-sets`: each set's name, latest version, creation and latest note.
    public static func list(_ sets: [ConstantSet]) -> JSONValue {
        .object([
            "constantSets": .array(
                sets.map { s in
                    .object([
                        "name": .string(s.name), "latestVersion": .number(Double(s.latest?.version ?? 0)),
                        "created": .string(s.createdAt.iso8601), "note": s.latest?.note.map { .string($0) } ?? .null,
                    ])
                })
        ])
    }

    /// `GET /v1/constant-sets/{name}`: the set with a summary of each version.
    public static func set(_ s: ConstantSet) -> JSONValue {
        .object([
            "name": .string(s.name), "created": .string(s.createdAt.iso8601),
            "retired": s.retiredAt.map { .string($0.iso8601) } ?? .null,
            "versions": .array(
                s.versions.map { v in
                    .object([
                        "version": .number(Double(v.version)), "reference": .string(v.reference),
                        "basedOn": .string(v.basedOn), "note": v.note.map { .string($0) } ?? .null,
                        "created": .string(v.createdAt.iso8601), "digest": .string(v.digest.quoted),
                    ])
                }),
        ])
    }

    /// `GET /v1/constant-sets/{name}/versions/{n}`: every constant's value and source.
    public static func version(_ v: ConstantSetVersion) -> JSONValue {
        var constants = JSONObject()
        for (i, d) in Constants.definitions.enumerated() {
            constants.members.append(
                JSONMember(
                    d.key,
                    .object([
                        "value": .number(v.constants[keyPath: d.keyPath]),
                        "source": .string(i < v.sources.count ? v.sources[i] : "default"),
                    ])))
        }
        return .object([
            "name": .string(v.name), "version": .number(Double(v.version)), "reference": .string(v.reference),
            "basedOn": .string(v.basedOn), "note": v.note.map { .string($0) } ?? .null,
            "created": .string(v.createdAt.iso8601), "digest": .string(v.digest.quoted),
            "constants": .object(constants),
        ])
    }
}
