import LayoutEngine

/// Constant sets in PostgreSQL (schema 3). Replicas number versions in the database: the set's row is locked
/// (`SELECT … FOR UPDATE`) before the next number is read, so two replicas never give the same number, and
/// every change sends `NOTIFY` in its transaction, after which each replica's listener reads the sets again
/// (`PostgresEngine.reload`).
extension PostgresEngine {
    func loadConstantSets() throws(StoreError) -> [ConstantSet] {
        try withWriter { (db) throws(StoreError) -> [ConstantSet] in try PostgresConstantSets.loadAll(db) }
    }

    func insertConstantSetVersion(
        name: String, at now: Timestamp, build: (Int) -> ConstantSetVersion
    ) -> Result<ConstantSetVersion, StoreError> {
        do {
            return .success(
                try withWriter { (db) throws(StoreError) -> ConstantSetVersion in
                    try db.transaction { () throws(StoreError) -> ConstantSetVersion in
                        try db.exec(
                            "INSERT INTO constant_sets (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                            [.text(name), .int(now.millisecondsSinceEpoch)])
                        let row = try db.exec(
                            "SELECT retired_at IS NOT NULL FROM constant_sets WHERE name = $1 FOR UPDATE", [.text(name)]
                        )
                        if row.rows == 0 || row.bool(0, 0) { throw StoreError.retired(name: name) }
                        let last = try db.exec(
                            "SELECT coalesce(max(version), 0) FROM constant_set_versions WHERE name = $1", [.text(name)]
                        ).int64(0, 0)
                        let number = Int(last) + 1
                        guard number <= ConstantSetStore.maxVersions else {
                            throw StoreError.invalidQuery(
                                parameter: "version", detail: "at most \(ConstantSetStore.maxVersions) versions a set")
                        }
                        let v = build(number)
                        let body = v.canonicalBytes
                        try db.exec(
                            "INSERT INTO constant_set_versions (name, version, body, digest, created_at) "
                                + "VALUES ($1, $2, $3, $4, $5)",
                            [
                                .text(name), .int(Int64(number)), .text(String(decoding: body, as: UTF8.self)),
                                .text(EntityTag(canonicalBytes: body).quoted), .int(now.millisecondsSinceEpoch),
                            ])
                        try db.exec("SELECT pg_notify($1, $2)", [.text(channel), .text("constant-set:" + name)])
                        return v
                    }
                })
        } catch {
            return .failure(error)
        }
    }

    func retireConstantSet(name: String, at now: Timestamp) -> Result<Void, StoreError> {
        do {
            let changed = try withWriter { (db) throws(StoreError) -> Int in
                try db.transaction { () throws(StoreError) -> Int in
                    let n = try db.exec(
                        "UPDATE constant_sets SET retired_at = $1 WHERE name = $2 AND retired_at IS NULL",
                        [.int(now.millisecondsSinceEpoch), .text(name)]
                    ).affected
                    if n == 1 {
                        try db.exec("SELECT pg_notify($1, $2)", [.text(channel), .text("constant-set:" + name)])
                    }
                    return n
                }
            }
            return changed == 1 ? .success(()) : .failure(.notFound(id: name))
        } catch {
            return .failure(error)
        }
    }
}

enum PostgresConstantSets {
    static func loadAll(_ db: PGConnection) throws(StoreError) -> [ConstantSet] {
        var sets: [String: ConstantSet] = [:]
        let r = try db.exec("SELECT name, created_at, retired_at FROM constant_sets")
        for i in 0..<r.rows {
            let name = r.text(i, 0) ?? ""
            sets[name] = ConstantSet(
                name: name, createdAt: Timestamp(millisecondsSinceEpoch: r.int64(i, 1)),
                retiredAt: r.isNull(i, 2) ? nil : Timestamp(millisecondsSinceEpoch: r.int64(i, 2)), versions: [])
        }
        let v = try db.exec("SELECT name, body FROM constant_set_versions ORDER BY name, version")
        for i in 0..<v.rows {
            let name = v.text(i, 0) ?? ""
            guard let version = ConstantSetVersion.decode(stored: Array((v.text(i, 1) ?? "").utf8)),
                version.name == name
            else { continue }
            sets[name]?.versions.append(version)
        }
        return Array(sets.values)
    }
}
