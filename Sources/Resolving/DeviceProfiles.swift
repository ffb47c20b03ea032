import JSON
import LayoutEngine
import Store

/// The device profiles as the API offers them (docs/api.md#devices): list, read, replace, delete. Each answers
/// a domain value or a `Problem`; it knows no HTTP (conditional headers arrive as a `WritePrecondition`).
public struct DeviceProfiles: Sendable {
    let store: DeviceProfileStore

    public init(_ store: DeviceProfileStore) { self.store = store }

    /// The profiles (of one `kind`, when given) as the copy of `shard` holds them; 400 for an unknown kind.
    public func list(kind text: String?, shard: Int) throws(Problem) -> JSONValue {
        var kind: DeviceProfile.Kind?
        if let text {
            guard let parsed = DeviceProfile.Kind(rawValue: text) else {
                let allowed = DeviceProfile.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw .badParameter("kind must be one of \(allowed), not \"\(text)\"")
            }
            kind = parsed
        }
        return .object(["items": .array(store.reader(shard: shard).list(kind: kind).map { $0.profile.json })])
    }

    /// One stored profile; 404 when no profile has `id`.
    public func read(id: String, shard: Int) throws(Problem) -> StoredProfile {
        guard let stored = store.reader(shard: shard).stored(id: id) else { throw Self.notFound(id) }
        return stored
    }

    /// The profile a `PUT` body describes under `id`, checked: 403 for a built-in id, 400 for a body that is not
    /// JSON, 422 for one that breaks a rule or names another id.
    public func checked(id: String, body: [UInt8], shard: Int) throws(Problem) -> DeviceProfile {
        // A built-in is read-only whatever the body says (checked again, atomically, by the writer).
        if store.reader(shard: shard).stored(id: id)?.profile.builtIn == true { throw Self.builtIn(id) }
        var value: JSONValue
        do throws(JSONParseError) { value = try JSONParser.parse(body) } catch { throw .notJSON(error) }
        // The id in the path names the profile; a body may repeat it but not contradict it.
        if case .object(var o) = value {
            if let bodyID = o["id"], bodyID != .string(id) {
                let issue = JSONIssue(path: JSONPointer(["id"]), message: "must equal the id in the path (\"\(id)\")")
                throw .invalid([issue], what: "device profile")
            }
            o["id"] = .string(id)
            value = .object(o)
        }
        let mapper = JSONMapper()
        guard let profile = DeviceProfile.decode(value, mapper: mapper) else {
            throw .invalid(mapper.errors, what: "device profile", unknownFields: mapper.unknownFields)
        }
        return profile
    }

    /// Writes `profile` on the store's writer thread; `done` is called there with the stored profile (and
    /// whether it was created) or the problem.
    public func put(
        _ profile: DeviceProfile, precondition: WritePrecondition,
        _ done: @escaping @Sendable (Result<PutResult, Problem>) -> Void
    ) {
        let id = profile.id
        let creating = precondition == .absent
        store.put(profile, precondition: precondition) { result in
            done(result.mapError { Self.problem($0, id: id, creating: creating) })
        }
    }

    /// Deletes the profile `id` on the store's writer thread; `done` as for `put`.
    public func delete(
        id: String, precondition: WritePrecondition, _ done: @escaping @Sendable (Result<Void, Problem>) -> Void
    ) {
        store.delete(id: id, precondition: precondition) { result in
            done(result.mapError { Self.problem($0, id: id, creating: false) })
        }
    }

    static func notFound(_ id: String) -> Problem {
        .notFound("No device profile has the id \"\(id)\" (GET /v1/devices lists them).")
    }

    static func builtIn(_ id: String) -> Problem {
        Problem(.forbidden, detail: "\"\(id)\" is a built-in profile and read-only: PUT a profile with another id.")
    }

    /// A store error of a write, as the client reads it (docs/store.md).
    static func problem(_ error: StoreError, id: String, creating: Bool) -> Problem {
        switch error {
        case .builtInReadOnly: return builtIn(id)
        case .notFound: return notFound(id)
        case .preconditionFailed(_, let current):
            if let current, creating {
                return Problem(
                    .preconditionFailed,
                    detail: "If-None-Match: * asks to create, but the profile exists (\(current.quoted)): "
                        + "GET it and replace it with If-Match.")
            }
            return Problem(
                .preconditionFailed,
                detail: "If-Match does not match the profile's current ETag"
                    + (current.map { " (\($0.quoted))" } ?? " (the profile does not exist)")
                    + ": GET it again and retry.")
        default: return .store(error, .write, what: "the device profile")
        }
    }
}
