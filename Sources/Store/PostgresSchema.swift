/// The PostgreSQL schema, as an append-only list of migrations (docs/store.md#postgresql-schema). Several
/// replicas may start at once: the migrations run under a session advisory lock, each in its own transaction
/// with its row in `schema_migrations`, so every replica finds a whole version. Never edit a released
/// migration: add one.
enum PostgresSchema {
    struct Migration: Sendable {
        let version: Int
        let name: String
        /// The SQL, given the compression method of the bodies (`lz4` when the server has it, else `pglz`).
        let sql: @Sendable (_ compression: String) -> String
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "device profiles, request log",
            sql: { compression in
                """
                CREATE TABLE meta (
                    key text PRIMARY KEY,
                    value text NOT NULL
                );
                CREATE TABLE device_profiles (
                    id text PRIMARY KEY,
                    kind text NOT NULL,
                    built_in boolean NOT NULL,
                    body text NOT NULL,
                    etag text NOT NULL,
                    updated_at bigint NOT NULL
                );
                CREATE TABLE requests (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    received_at bigint NOT NULL,
                    duration_us bigint NOT NULL,
                    device text,
                    status integer NOT NULL,
                    codes text NOT NULL,
                    path text NOT NULL,
                    engine_version text NOT NULL,
                    replica_id text NOT NULL,
                    request_size integer NOT NULL,
                    response_size integer NOT NULL,
                    request_truncated boolean NOT NULL,
                    response_truncated boolean NOT NULL,
                    request bytea COMPRESSION \(compression) NOT NULL,
                    response bytea COMPRESSION \(compression) NOT NULL
                ) WITH (toast_tuple_target = 256);
                """
            }),
        // Where a request came from (the `Hinge-Client` header) and the posture of a foldable's scene. Nullable
        // columns without a default change only the catalog: no row is rewritten.
        Migration(
            version: 2, name: "client and posture of each record",
            sql: { _ in
                """
                ALTER TABLE requests ADD COLUMN client text, ADD COLUMN posture text;
                """
            }),
        // Constant sets (docs/store.md#constant-sets) and the version each record was resolved with.
        Migration(
            version: 3, name: "constant sets, the constant set of each record",
            sql: { _ in
                """
                CREATE TABLE constant_sets (
                    name text PRIMARY KEY,
                    created_at bigint NOT NULL,
                    retired_at bigint
                );
                CREATE TABLE constant_set_versions (
                    name text NOT NULL REFERENCES constant_sets (name),
                    version integer NOT NULL,
                    body text NOT NULL,
                    digest text NOT NULL,
                    created_at bigint NOT NULL,
                    PRIMARY KEY (name, version)
                );
                ALTER TABLE requests ADD COLUMN constant_set text;
                """
            }),
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Migrates the database under the advisory lock `lockKey` (session-level: held across the migrations'
    /// own transactions, released at the end or when the connection drops) and seeds the built-in devices.
    /// Throws `.schemaTooNew` for a schema a newer binary wrote; with `create` false, `.foreignDatabase` for a
    /// database without Hinge's tables (the CLI never creates them).
    static func migrate(_ db: PGConnection, lockKey: String, create: Bool, display: String) throws(StoreError)
        -> [String]
    {
        try db.exec("SELECT pg_advisory_lock(hashtext($1))", [.text(lockKey)])
        defer { _ = try? db.exec("SELECT pg_advisory_unlock(hashtext($1))", [.text(lockKey)]) }
        let exists = try db.exec("SELECT to_regclass('schema_migrations') IS NOT NULL").bool(0, 0)
        if !exists && !create {
            throw .foreignDatabase(path: display, detail: "no Hinge tables (schema_migrations is missing)")
        }
        try db.execScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let current = Int(try db.exec("SELECT coalesce(max(version), 0) FROM schema_migrations").int64(0, 0))
        if current > latestVersion {
            throw .schemaTooNew(path: display, found: current, supported: latestVersion)
        }
        var warnings: [String] = []
        var compression = "lz4"
        if current < latestVersion {
            // lz4 is a build option of the server (Debian's has it); without it, pglz.
            let lz4 = try db.exec(
                "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
            if lz4.rows == 0 || !lz4.bool(0, 0) {
                compression = "pglz"
                warnings.append("the PostgreSQL server has no lz4: request bodies are compressed with pglz")
            }
        }
        for m in migrations where m.version > current {
            try db.transaction { () throws(StoreError) in
                try db.execScript(m.sql(compression))
                try db.exec(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    [.int(Int64(m.version)), .text(m.name)]
                )
            }
        }
        return warnings + (try PostgresProfiles.seedBuiltIns(db))
    }
}
