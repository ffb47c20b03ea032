import JSON
import LayoutEngine

/// Device profiles in SQLite: the writes `SQLiteEngine` runs on the writer thread, the seeding of the
/// built-ins and the load at open. With one writer thread per database file, a precondition checked against
/// the snapshot (which only this writer changes) and the write that follows are atomic.
extension SQLiteEngine {
    func putProfile(_ stored: StoredProfile, precondition: WritePrecondition, current: StoredProfile?)
        -> Result<Bool, StoreError>
    {
        if !precondition.holds(current: current?.etag) {
            return .failure(.preconditionFailed(id: stored.profile.id, current: current?.etag))
        }
        do {
            let changed = try pool.write { (db) throws(StoreError) -> Int in
                try db.transaction { () throws(StoreError) -> Int in
                    try SQLiteProfiles.upsert(stored, into: db, now: Timestamp.now())
                    return db.changes
                }
            }
            // The upsert's WHERE clause keeps built-ins; the snapshot said custom, so this is belt and braces.
            guard changed == 1 else { return .failure(.builtInReadOnly(id: stored.profile.id)) }
        } catch {
            return .failure(error)
        }
        return .success(current == nil)
    }

    func deleteProfile(id: String, precondition: WritePrecondition, current: StoredProfile?) -> Result<
        Void, StoreError
    > {
        guard let current else { return .failure(.notFound(id: id)) }
        if !precondition.holds(current: current.etag) {
            return .failure(.preconditionFailed(id: id, current: current.etag))
        }
        do {
            try pool.write { (db) throws(StoreError) in
                try db.transaction { () throws(StoreError) in
                    try db.run("DELETE FROM device_profiles WHERE id = ? AND built_in = 0", .text(id))
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(())
    }
}

/// The SQL of the device profiles in SQLite.
enum SQLiteProfiles {
    /// Inserts or replaces `p`. An existing row is replaced only when its `built_in` equals the new one's:
    /// a custom PUT never overwrites a built-in, and seeding never overwrites a custom profile.
    static func upsert(_ s: StoredProfile, into db: Connection, now: Timestamp) throws(StoreError) {
        let body = String(decoding: DeviceProfileStore.canonicalJSON(s.profile), as: UTF8.self)
        try db.run(
            "INSERT INTO device_profiles (id, kind, built_in, body, etag, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, body = excluded.body, etag = excluded.etag, "
                + "updated_at = excluded.updated_at WHERE device_profiles.built_in = excluded.built_in",
            .text(s.profile.id), .text(s.profile.kind.rawValue), .int(s.profile.builtIn ? 1 : 0), .text(body),
            .text(s.etag.quoted), .int(now.millisecondsSinceEpoch))
    }

    /// Upserts the built-in catalog when the database holds an older catalog version (or none), and
    /// deletes built-ins the new catalog dropped. Custom profiles are never touched. A database seeded by
    /// a newer catalog is left as it is. Runs once at open, before the writer thread starts.
    static func seedBuiltIns(_ db: Connection, now: Timestamp) throws(StoreError) -> [String] {
        var warnings: [String] = []
        let stored = try db.scalarText(
            "SELECT value FROM meta WHERE key = ?", .text(DeviceProfileStore.catalogVersionKey)
        ).flatMap {
            Int($0)
        }
        if let stored, stored >= BuiltInDevices.catalogVersion { return warnings }
        try db.transaction { () throws(StoreError) in
            let catalogIDs = Set(BuiltInDevices.all.map(\.id))
            let existing = try db.withStatement("SELECT id FROM device_profiles WHERE built_in = 1") {
                (s) throws(StoreError) -> [String] in
                var ids: [String] = []
                while try s.step() { ids.append(s.text(0) ?? "") }
                return ids
            }
            for id in existing where !catalogIDs.contains(id) {
                try db.run("DELETE FROM device_profiles WHERE id = ? AND built_in = 1", .text(id))
            }
            for p in BuiltInDevices.all {
                try upsert(DeviceProfileStore.stored(p), into: db, now: now)
                if db.changes == 0 {
                    warnings.append("built-in device \"\(p.id)\" is shadowed by a custom profile with the same id")
                }
            }
            try db.run(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                .text(DeviceProfileStore.catalogVersionKey), .text(String(BuiltInDevices.catalogVersion)))
        }
        return warnings
    }

    /// Reads every stored profile. A row that no longer decodes (hand-edited, or validation tightened) is
    /// skipped with a warning rather than refusing to start; it stays in the database.
    static func loadAll(_ db: Connection) throws(StoreError) -> (profiles: [StoredProfile], warnings: [String]) {
        try db.withStatement("SELECT id, built_in, body, etag FROM device_profiles") {
            (s) throws(StoreError) -> ([StoredProfile], [String]) in
            var out: [StoredProfile] = []
            var warnings: [String] = []
            while try s.step() {
                let id = s.text(0) ?? ""
                let builtIn = s.bool(1)
                let body = s.text(2) ?? ""
                guard var p = DeviceProfileStore.decodeStored(id: id, json: body, warnings: &warnings) else {
                    continue
                }
                p.builtIn = builtIn
                out.append(
                    StoredProfile(
                        profile: p, etag: s.text(3).map(EntityTag.init(quoted:)) ?? DeviceProfileStore.stored(p).etag))
            }
            return (out, warnings)
        }
    }
}
