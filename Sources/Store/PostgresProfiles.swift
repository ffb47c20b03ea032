import JSON
import LayoutEngine

/// Device profiles in PostgreSQL. Several replicas write the same table, so the precondition of a write is
/// decided by the database, in the statement that writes: `UPDATE … WHERE id = $1 AND etag = ANY($n)` for
/// `If-Match`, `INSERT … ON CONFLICT DO NOTHING` to create only. Two replicas can never both accept a write
/// for the same ETag: the row lock makes the second UPDATE see the first one's new tag. Every change sends
/// `NOTIFY` on the engine's channel in the same transaction; each replica's listener then reloads the
/// profiles (`PostgresListener`).
extension PostgresEngine {
    func putProfile(_ stored: StoredProfile, precondition: WritePrecondition, current: StoredProfile?)
        -> Result<Bool, StoreError>
    {
        let p = stored.profile
        let body = String(decoding: DeviceProfileStore.canonicalJSON(p), as: UTF8.self)
        let now = Timestamp.now().millisecondsSinceEpoch
        let row: [PGValue] = [.text(p.id), .text(p.kind.rawValue), .text(body), .text(stored.etag.quoted), .int(now)]
        let insert =
            "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) "
            + "VALUES ($1, $2, false, $3, $4, $5) ON CONFLICT (id) DO NOTHING"
        let update =
            "UPDATE device_profiles SET kind = $2, body = $3, etag = $4, updated_at = $5 WHERE id = $1 AND NOT built_in"
        do {
            return .success(
                try withWriter { (db) throws(StoreError) -> Bool in
                    try db.transaction { () throws(StoreError) -> Bool in
                        let created: Bool
                        switch precondition {
                        case .unconditional:
                            if try db.exec(insert, row).affected == 1 {
                                created = true
                            } else if try db.exec(update, row).affected == 1 {
                                created = false
                            } else {
                                throw try PostgresEngine.refusal(db, id: p.id)
                            }
                        case .absent:
                            guard try db.exec(insert, row).affected == 1 else {
                                throw try PostgresEngine.refusal(db, id: p.id)
                            }
                            created = true
                        case .anyCurrent:
                            guard try db.exec(update, row).affected == 1 else {
                                throw try PostgresEngine.refusal(db, id: p.id)
                            }
                            created = false
                        case .matching(let tags):
                            guard
                                try db.exec(
                                    update + " AND etag = ANY($6::text[])",
                                    row + [.text(PostgresEngine.textArray(tags))]
                                )
                                .affected == 1
                            else { throw try PostgresEngine.refusal(db, id: p.id) }
                            created = false
                        }
                        try notify(db, id: p.id)
                        return created
                    }
                })
        } catch {
            return .failure(error)
        }
    }

    func deleteProfile(id: String, precondition: WritePrecondition, current: StoredProfile?) -> Result<
        Void, StoreError
    > {
        let delete = "DELETE FROM device_profiles WHERE id = $1 AND NOT built_in"
        do {
            try withWriter { (db) throws(StoreError) in
                try db.transaction { () throws(StoreError) in
                    let deleted: Int
                    switch precondition {
                    case .unconditional, .anyCurrent: deleted = try db.exec(delete, [.text(id)]).affected
                    case .absent: deleted = 0
                    case .matching(let tags):
                        deleted = try db.exec(
                            delete + " AND etag = ANY($2::text[])", [.text(id), .text(PostgresEngine.textArray(tags))]
                        ).affected
                    }
                    guard deleted == 1 else {
                        let refusal = try PostgresEngine.refusal(db, id: id)
                        if case .preconditionFailed(_, nil) = refusal { throw StoreError.notFound(id: id) }
                        throw refusal
                    }
                    try notify(db, id: id)
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(())
    }

    /// Why a conditional write touched no row, read in the same transaction: a built-in, or the current tag
    /// (nil when there is no profile).
    static func refusal(_ db: PGConnection, id: String) throws(StoreError) -> StoreError {
        let r = try db.exec("SELECT built_in, etag FROM device_profiles WHERE id = $1", [.text(id)])
        guard r.rows > 0 else { return .preconditionFailed(id: id, current: nil) }
        if r.bool(0, 0) { return .builtInReadOnly(id: id) }
        return .preconditionFailed(id: id, current: r.text(0, 1).map(EntityTag.init(quoted:)))
    }

    /// A `text[]` literal of the tags, each element quoted and escaped (the value travels as a parameter).
    static func textArray(_ tags: [EntityTag]) -> String {
        var out = "{"
        for (i, tag) in tags.enumerated() {
            if i > 0 { out += "," }
            out += "\""
            for ch in tag.quoted {
                if ch == "\"" || ch == "\\" { out += "\\" }
                out.append(ch)
            }
            out += "\""
        }
        return out + "}"
    }

    /// `NOTIFY` on the engine's channel, inside the writing transaction: delivered at commit, to every
    /// replica's listener (this one's included).
    private func notify(_ db: PGConnection, id: String) throws(StoreError) {
        try db.exec("SELECT pg_notify($1, $2)", [.text(channel), .text(id)])
    }
}

/// The seeding and loading of profiles in PostgreSQL.
enum PostgresProfiles {
    /// Upserts the built-in catalog when the database holds an older catalog version (or none) and deletes
    /// built-ins the catalog dropped, as SQLite's seeding does; custom profiles are never touched. Runs under
    /// the migration lock.
    static func seedBuiltIns(_ db: PGConnection) throws(StoreError) -> [String] {
        let stored = try db.exec("SELECT value FROM meta WHERE key = $1", [.text(DeviceProfileStore.catalogVersionKey)])
        if stored.rows > 0, let v = stored.text(0, 0).flatMap({ Int($0) }), v >= BuiltInDevices.catalogVersion {
            return []
        }
        var warnings: [String] = []
        let now = Timestamp.now().millisecondsSinceEpoch
        try db.transaction { () throws(StoreError) in
            let catalogIDs = Set(BuiltInDevices.all.map(\.id))
            let existing = try db.exec("SELECT id FROM device_profiles WHERE built_in")
            for i in 0..<existing.rows {
                guard let id = existing.text(i, 0), !catalogIDs.contains(id) else { continue }
                try db.exec("DELETE FROM device_profiles WHERE id = $1 AND built_in", [.text(id)])
            }
            for p in BuiltInDevices.all {
                let s = DeviceProfileStore.stored(p)
                let body = String(decoding: DeviceProfileStore.canonicalJSON(p), as: UTF8.self)
                let r = try db.exec(
                    "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) "
                        + "VALUES ($1, $2, true, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, "
                        + "body = excluded.body, etag = excluded.etag, updated_at = excluded.updated_at "
                        + "WHERE device_profiles.built_in",
                    [.text(p.id), .text(p.kind.rawValue), .text(body), .text(s.etag.quoted), .int(now)])
                if r.affected == 0 {
                    warnings.append("built-in device \"\(p.id)\" is shadowed by a custom profile with the same id")
                }
            }
            try db.exec(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(DeviceProfileStore.catalogVersionKey), .text(String(BuiltInDevices.catalogVersion))])
        }
        return warnings
    }

    /// Every stored profile; a row that no longer decodes is skipped with a warning (as in SQLite).
    static func loadAll(_ db: PGConnection) throws(StoreError) -> (profiles: [StoredProfile], warnings: [String]) {
        let r = try db.exec("SELECT id, built_in, body, etag FROM device_profiles")
        var out: [StoredProfile] = []
        var warnings: [String] = []
        for i in 0..<r.rows {
            let id = r.text(i, 0) ?? ""
            let body = r.text(i, 2) ?? ""
            guard var p = DeviceProfileStore.decodeStored(id: id, json: body, warnings: &warnings) else { continue }
            p.builtIn = r.bool(i, 1)
            out.append(
                StoredProfile(
                    profile: p, etag: r.text(i, 3).map(EntityTag.init(quoted:)) ?? DeviceProfileStore.stored(p).etag))
        }
        return (out, warnings)
    }
}
