import CSQLite

/// The schema, as an append-only list of migrations. Each runs in its own `BEGIN IMMEDIATE` transaction
/// together with its row in `schema_migrations`, so a crash leaves the database at a whole version.
/// Never edit a released migration: add one.
enum Schema {
    /// `PRAGMA application_id` of a Hinge database ("HNGE"), so that a foreign SQLite file is recognised.
    static let applicationID: Int64 = 0x484E_4745

    struct Migration {
        let version: Int
        let name: String
        let sql: String
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "device profiles, request log",
            sql: """
                PRAGMA application_id = 1213089605;
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) STRICT;
                CREATE TABLE device_profiles (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    built_in INTEGER NOT NULL,
                    body TEXT NOT NULL,          -- the profile as canonical JSON (sorted keys)
                    etag TEXT NOT NULL,          -- quoted strong entity tag of body
                    updated_at INTEGER NOT NULL  -- ms since the Unix epoch
                ) STRICT;
                CREATE TABLE requests (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: ids are never reused after a clear
                    received_at INTEGER NOT NULL,          -- ms since the Unix epoch, UTC
                    duration_us INTEGER NOT NULL,
                    device TEXT,
                    status INTEGER NOT NULL,
                    codes TEXT NOT NULL,                   -- diagnostic codes in reported order, U+001F-separated
                    engine_version TEXT NOT NULL,
                    path TEXT NOT NULL,
                    request_size INTEGER NOT NULL,         -- sizes before truncation
                    response_size INTEGER NOT NULL,
                    request_truncated INTEGER NOT NULL,
                    response_truncated INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX requests_by_device ON requests (device, id);
                CREATE INDEX requests_by_status ON requests (status, id);
                CREATE INDEX requests_by_received_at ON requests (received_at);
                -- One row per distinct code: "records with code X" is an index range, not a LIKE scan.
                CREATE TABLE request_codes (
                    request_id INTEGER NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
                    code TEXT NOT NULL,
                    PRIMARY KEY (request_id, code)
                ) WITHOUT ROWID, STRICT;
                CREATE INDEX request_codes_by_code ON request_codes (code, request_id);
                -- Bodies apart, so that listing and pruning never page through them.
                CREATE TABLE request_bodies (
                    request_id INTEGER PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
                    request BLOB NOT NULL,
                    response BLOB NOT NULL
                ) STRICT;
                """),
        // The log is written on every request and read by a person, so writes are kept cheap: per-code rows and
        // secondary indexes would be most of the writer's CPU per record (a C replica of one record: 35.4 µs
        // with them, 16.0 µs without). Filters scan `requests` newest first by rowid (`SQLiteRecords.listSQL`).
        // `requests` and `request_bodies` keep their rows: `requests.codes` already holds the codes.
        Migration(
            version: 2, name: "request log without per-code rows and secondary indexes",
            sql: """
                DROP INDEX request_codes_by_code;
                DROP TABLE request_codes;
                DROP INDEX requests_by_device;
                DROP INDEX requests_by_status;
                DROP INDEX requests_by_received_at;
                """),
        // Which server recorded each record (`--replica-id`); records of older versions have ''.
        Migration(
            version: 3, name: "replica id of each record",
            sql: """
                ALTER TABLE requests ADD COLUMN replica_id TEXT NOT NULL DEFAULT '';
                """),
        // Bodies compressed (`BodyCodec`): a record's two blobs are `BodyCodec` frames when `body_format` is 1;
        // the records already stored keep their bodies as received (0). Adding a column with a constant default
        // rewrites no row.
        Migration(
            version: 4, name: "request bodies as codec frames",
            sql: """
                ALTER TABLE request_bodies ADD COLUMN body_format INTEGER NOT NULL DEFAULT 0;
                """),
        // `requests` without `AUTOINCREMENT`: every insert statement of an `AUTOINCREMENT` table reads and
        // rewrites its row in `sqlite_sequence`, and every commit writes that table's page to the WAL: 2–4 µs
        // of CPU per record of SQLite alone (`sqlite_floor` with and without, batches of 10, 2026-12-01). A
        // rowid table gives a new row the largest
        // id + 1, so ids still increase with commit order; they could only be reused after the newest records
        // were deleted, so the transactions that delete records first write the largest id ever given to
        // `meta` (`request_ids_used`), and the first insert after a deletion or an open takes its id above it
        // (`SQLiteRecords.nextIDSQL`). This migration carries `sqlite_sequence`'s counter over to that row.
        // The table is rebuilt (the metadata rows only, ~100 B each; bodies stay where they are) with foreign
        // keys off (`migrate`), so that dropping the old table does not cascade to `request_bodies`, whose
        // `REFERENCES requests` names the new table once it is renamed.
        Migration(
            version: 5, name: "request ids without AUTOINCREMENT",
            sql: """
                INSERT INTO meta (key, value) VALUES ('request_ids_used', CAST(max(
                    coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'requests'), 0),
                    coalesce((SELECT max(id) FROM requests), 0)) AS TEXT))
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value;
                CREATE TABLE requests_v5 (
                    id INTEGER PRIMARY KEY,                -- largest + 1, above meta.request_ids_used
                    received_at INTEGER NOT NULL,          -- ms since the Unix epoch, UTC
                    duration_us INTEGER NOT NULL,
                    device TEXT,
                    status INTEGER NOT NULL,
                    codes TEXT NOT NULL,                   -- diagnostic codes in reported order, U+001F-separated
                    engine_version TEXT NOT NULL,
                    path TEXT NOT NULL,
                    request_size INTEGER NOT NULL,         -- sizes before truncation
                    response_size INTEGER NOT NULL,
                    request_truncated INTEGER NOT NULL,
                    response_truncated INTEGER NOT NULL,
                    replica_id TEXT NOT NULL DEFAULT ''
                ) STRICT;
                INSERT INTO requests_v5 (id, received_at, duration_us, device, status, codes, engine_version, path,
                    request_size, response_size, request_truncated, response_truncated, replica_id)
                    SELECT id, received_at, duration_us, device, status, codes, engine_version, path,
                    request_size, response_size, request_truncated, response_truncated, replica_id
                    FROM requests ORDER BY id;
                DROP TABLE requests;
                ALTER TABLE requests_v5 RENAME TO requests;
                DELETE FROM sqlite_sequence WHERE name = 'requests';
                """),
        // Where a request came from (the `Hinge-Client` header) and the posture of a foldable's scene, for the
        // log's filters and titles. Nullable columns without a default: adding them rewrites no row, and a
        // record without them stores two NULLs (one header byte each). No index, as for every filter of the
        // log (docs/store.md: filters are scans, on purpose).
        Migration(
            version: 6, name: "client and posture of each record",
            sql: """
                ALTER TABLE requests ADD COLUMN client TEXT;
                ALTER TABLE requests ADD COLUMN posture TEXT;
                """),
        // Constant sets (docs/store.md#constant-sets): a set's row, and one immutable row per version (its
        // canonical JSON and digest); and the version each record was resolved with (`name@n`, NULL for the
        // defaults), a nullable column without a default like those of migration 6.
        Migration(
            version: 7, name: "constant sets, the constant set of each record",
            sql: """
                CREATE TABLE constant_sets (
                    name TEXT PRIMARY KEY NOT NULL,
                    created_at INTEGER NOT NULL,  -- ms since the Unix epoch
                    retired_at INTEGER            -- NULL while the set takes requests
                ) STRICT;
                CREATE TABLE constant_set_versions (
                    name TEXT NOT NULL REFERENCES constant_sets (name),
                    version INTEGER NOT NULL,
                    body TEXT NOT NULL,           -- the version as canonical JSON (ConstantSetVersion.json)
                    digest TEXT NOT NULL,         -- quoted strong entity tag of body
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (name, version)
                ) STRICT;
                ALTER TABLE requests ADD COLUMN constant_set TEXT;
                """),
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Checks that the file is a Hinge database this binary may open, before anything writes to it.
    /// A garbage file, a foreign SQLite database or a newer schema throws and leaves the file untouched.
    static func validate(_ db: Connection, displayPath: String) throws(StoreError) -> Int {
        let userTables: Int64
        let hasMigrations: Bool
        let appID: Int64
        do {
            // The first read of the header: garbage fails here with SQLITE_NOTADB.
            appID = try db.scalarInt("PRAGMA application_id") ?? 0
            userTables =
                try db.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite~_%' ESCAPE '~'")
                ?? 0
            hasMigrations =
                (try db.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") ?? 0) > 0
        } catch {
            if case .sqlite(let f) = error, f.primaryCode == SQLITE_NOTADB || f.primaryCode == SQLITE_CORRUPT {
                throw .notADatabase(path: displayPath, detail: f.message)
            }
            throw error
        }
        if appID != 0 && appID != applicationID {
            throw .foreignDatabase(path: displayPath, detail: "application_id is \(appID)")
        }
        guard hasMigrations else {
            if userTables > 0 {
                throw .foreignDatabase(path: displayPath, detail: "\(userTables) tables but no schema_migrations")
            }
            return 0
        }
        let current = Int(try db.scalarInt("SELECT max(version) FROM schema_migrations") ?? 0)
        if current > latestVersion {
            throw .schemaTooNew(path: displayPath, found: current, supported: latestVersion)
        }
        return current
    }

    /// Applies the migrations newer than `current` up to `target`, each in its own transaction (`target`
    /// below the latest only for tests that build an older database).
    static func migrate(_ db: Connection, from current: Int, to target: Int = latestVersion, now: Timestamp)
        throws(StoreError)
    {
        // Foreign keys off while migrating (a no-op inside a transaction, hence here): migration 5 drops and
        // rebuilds `requests`, and a DROP with foreign keys on deletes every child row first (ON DELETE
        // CASCADE). Restored afterwards, and checked: no migration may leave an orphan.
        let foreignKeys = try db.scalarInt("PRAGMA foreign_keys") ?? 0
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { if foreignKeys != 0 { try? db.execute("PRAGMA foreign_keys = ON") } }
        for m in migrations where m.version > current && m.version <= target {
            try db.transaction { () throws(StoreError) in
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        applied_at TEXT NOT NULL
                    ) STRICT
                    """)
                try db.execute(m.sql)
                if let orphan = try db.scalarText(
                    "SELECT \"table\" || ' ' || rowid FROM pragma_foreign_key_check LIMIT 1")
                {
                    throw .corruptRow(
                        table: "schema_migrations", id: String(m.version), detail: "foreign key check: \(orphan)")
                }
                try db.run(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    .int(Int64(m.version)), .text(m.name), .text(now.iso8601))
            }
        }
    }
}
