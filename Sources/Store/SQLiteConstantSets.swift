import LayoutEngine

/// Constant sets in SQLite (schema 7): `constant_sets` (one row per set, `retired_at` once retired) and
/// `constant_set_versions` (one immutable row per version: its canonical JSON and digest). One writer thread per
/// file: the version number read and the insert that follows are atomic.
extension SQLiteEngine {
    func loadConstantSets() throws(StoreError) -> [ConstantSet] {
        try pool.write { (db) throws(StoreError) -> [ConstantSet] in try SQLiteConstantSets.loadAll(db) }
    }

    func insertConstantSetVersion(
        name: String, at now: Timestamp, build: (Int) -> ConstantSetVersion
    ) -> Result<ConstantSetVersion, StoreError> {
        do {
            return .success(
                try pool.write { (db) throws(StoreError) -> ConstantSetVersion in
                    try db.transaction { () throws(StoreError) -> ConstantSetVersion in
                        try db.run(
                            "INSERT INTO constant_sets (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                            .text(name), .int(now.millisecondsSinceEpoch))
                        if try db.scalarInt(
                            "SELECT count(*) FROM constant_sets WHERE name = ? AND retired_at IS NOT NULL", .text(name))
                            != 0
                        {
                            throw StoreError.retired(name: name)
                        }
                        let last = try db.scalarInt(
                            "SELECT coalesce(max(version), 0) FROM constant_set_versions WHERE name = ?", .text(name))
                        let number = Int(last ?? 0) + 1
                        guard number <= ConstantSetStore.maxVersions else {
                            throw StoreError.invalidQuery(
                                parameter: "version", detail: "at most \(ConstantSetStore.maxVersions) versions a set")
                        }
                        let v = build(number)
                        let body = v.canonicalBytes
                        try db.run(
                            "INSERT INTO constant_set_versions (name, version, body, digest, created_at) "
                                + "VALUES (?, ?, ?, ?, ?)",
                            .text(name), .int(Int64(number)), .text(String(decoding: body, as: UTF8.self)),
                            .text(EntityTag(canonicalBytes: body).quoted), .int(now.millisecondsSinceEpoch))
                        return v
                    }
                })
        } catch {
            return .failure(error)
        }
    }

    func retireConstantSet(name: String, at now: Timestamp) -> Result<Void, StoreError> {
        do {
            let changed = try pool.write { (db) throws(StoreError) -> Int in
                try db.transaction { () throws(StoreError) -> Int in
                    try db.run(
                        "UPDATE constant_sets SET retired_at = ? WHERE name = ? AND retired_at IS NULL",
                        .int(now.millisecondsSinceEpoch), .text(name))
                    return db.changes
                }
            }
            return changed == 1 ? .success(()) : .failure(.notFound(id: name))
        } catch {
            return .failure(error)
        }
    }
}

enum SQLiteConstantSets {
    static func loadAll(_ db: Connection) throws(StoreError) -> [ConstantSet] {
        var sets: [String: ConstantSet] = [:]
        try db.withStatement("SELECT name, created_at, retired_at FROM constant_sets") { (s) throws(StoreError) in
            while try s.step() {
                let name = s.text(0) ?? ""
                sets[name] = ConstantSet(
                    name: name, createdAt: Timestamp(millisecondsSinceEpoch: s.int64(1)),
                    retiredAt: s.isNull(2) ? nil : Timestamp(millisecondsSinceEpoch: s.int64(2)), versions: [])
            }
        }
        try db.withStatement("SELECT name, body FROM constant_set_versions ORDER BY name, version") {
            (s) throws(StoreError) in
            while try s.step() {
                let name = s.text(0) ?? ""
                guard let v = ConstantSetVersion.decode(stored: Array((s.text(1) ?? "").utf8)), v.name == name else {
                    continue
                }
                sets[name]?.versions.append(v)
            }
        }
        return Array(sets.values)
    }
}
