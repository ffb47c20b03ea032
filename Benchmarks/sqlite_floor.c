// What SQLite itself costs per request-log record on this machine, without Hinge around it: inserts records
// shaped like the typical scene's (a 652-byte request, a 3,644-byte response, 3 codes) in transactions of
// BATCH, WAL, synchronous=NORMAL, 16 KiB pages, SQLite's own auto-checkpoint in the same thread, and prints
// the process CPU time per record (checkpoints included). Variants:
//   v1       schema v1: requests + 3 secondary indexes + a request_codes row per code + request_bodies
//   v2       schema v2: requests + request_bodies (no secondary index, no code rows)
//   nobody   v2 without request_bodies: the metadata row alone
// Build and run (BENCHMARKS.md, "Request log"):
//   cc -O2 Benchmarks/sqlite_floor.c -lsqlite3 -o /tmp/sqlite_floor && /tmp/sqlite_floor v2 50 40000
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void exec_or_die(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, error);
        exit(1);
    }
}

static void step_or_die(sqlite3 *db, sqlite3_stmt *s) {
    if (sqlite3_step(s) != SQLITE_DONE) {
        fprintf(stderr, "step: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_reset(s);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s v1|v2|nobody BATCH RECORDS [DB_PATH]\n", argv[0]);
        return 2;
    }
    const char *variant = argv[1];
    int v1 = strcmp(variant, "v1") == 0, bodies = strcmp(variant, "nobody") != 0;
    int batch = atoi(argv[2]), n = atoi(argv[3]);
    const char *path = argc > 4 ? argv[4] : "/tmp/sqlite_floor.sqlite";
    char name[512];
    unlink(path);
    snprintf(name, sizeof name, "%s-wal", path);
    unlink(name);
    snprintf(name, sizeof name, "%s-shm", path);
    unlink(name);

    // Bodies of the typical scene's sizes (JSON-like text; SQLite does not look inside).
    static char request[652], response[3644];
    for (size_t i = 0; i < sizeof request; i++) request[i] = "{\"id\": 12, \"kind\": \"sheet\"} "[i % 29];
    for (size_t i = 0; i < sizeof response; i++) response[i] = "{\"frame\": {\"x\": 0, \"y\": 24}} "[i % 30];

    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return 1;
    exec_or_die(db, "PRAGMA page_size = 16384");
    exec_or_die(db, "PRAGMA journal_mode = WAL");
    exec_or_die(db, "PRAGMA synchronous = NORMAL");
    exec_or_die(db, "PRAGMA foreign_keys = ON");
    exec_or_die(db, "CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL, "
                    "duration_us INTEGER NOT NULL, device TEXT, status INTEGER NOT NULL, codes TEXT NOT NULL, "
                    "engine_version TEXT NOT NULL, path TEXT NOT NULL, request_size INTEGER NOT NULL, "
                    "response_size INTEGER NOT NULL, request_truncated INTEGER NOT NULL, "
                    "response_truncated INTEGER NOT NULL) STRICT");
    exec_or_die(db, "CREATE TABLE request_bodies (request_id INTEGER PRIMARY KEY REFERENCES requests (id) ON DELETE "
                    "CASCADE, request BLOB NOT NULL, response BLOB NOT NULL) STRICT");
    if (v1) {
        exec_or_die(db, "CREATE INDEX requests_by_device ON requests (device, id)");
        exec_or_die(db, "CREATE INDEX requests_by_status ON requests (status, id)");
        exec_or_die(db, "CREATE INDEX requests_by_received_at ON requests (received_at)");
        exec_or_die(db, "CREATE TABLE request_codes (request_id INTEGER NOT NULL REFERENCES requests (id) ON DELETE "
                        "CASCADE, code TEXT NOT NULL, PRIMARY KEY (request_id, code)) WITHOUT ROWID, STRICT");
        exec_or_die(db, "CREATE INDEX request_codes_by_code ON request_codes (code, request_id)");
    }
    sqlite3_stmt *insert_request, *insert_code = NULL, *insert_bodies;
    sqlite3_prepare_v3(db,
        "INSERT INTO requests (received_at, duration_us, device, status, codes, engine_version, path, request_size, "
        "response_size, request_truncated, response_truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        -1, SQLITE_PREPARE_PERSISTENT, &insert_request, NULL);
    if (v1) {
        sqlite3_prepare_v3(db, "INSERT INTO request_codes (request_id, code) VALUES (?, ?)", -1,
            SQLITE_PREPARE_PERSISTENT, &insert_code, NULL);
    }
    sqlite3_prepare_v3(db, "INSERT INTO request_bodies (request_id, request, response) VALUES (?, ?, ?)", -1,
        SQLITE_PREPARE_PERSISTENT, &insert_bodies, NULL);
    const char *codes[3] = {"chained-modal", "popover-adapted", "split-follows-fold"};

    double start = cpu_seconds();
    for (int i = 0; i < n;) {
        exec_or_die(db, "BEGIN IMMEDIATE");
        for (int b = 0; b < batch && i < n; b++, i++) {
            sqlite3_bind_int64(insert_request, 1, 1764460800000LL + i);
            sqlite3_bind_int64(insert_request, 2, 12);
            sqlite3_bind_text(insert_request, 3, "iphone-duo", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_request, 4, 200);
            sqlite3_bind_text(insert_request, 5, "chained-modal\x1fpopover-adapted\x1fsplit-follows-fold", -1,
                SQLITE_STATIC);
            sqlite3_bind_text(insert_request, 6, "1.0.0", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert_request, 7, "/v1/resolve", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_request, 8, sizeof request);
            sqlite3_bind_int64(insert_request, 9, sizeof response);
            sqlite3_bind_int64(insert_request, 10, 0);
            sqlite3_bind_int64(insert_request, 11, 0);
            step_or_die(db, insert_request);
            sqlite3_int64 id = sqlite3_last_insert_rowid(db);
            if (v1) {
                for (int k = 0; k < 3; k++) {
                    sqlite3_bind_int64(insert_code, 1, id);
                    sqlite3_bind_text(insert_code, 2, codes[k], -1, SQLITE_STATIC);
                    step_or_die(db, insert_code);
                }
            }
            if (bodies) {
                sqlite3_bind_int64(insert_bodies, 1, id);
                sqlite3_bind_blob(insert_bodies, 2, request, sizeof request, SQLITE_STATIC);
                sqlite3_bind_blob(insert_bodies, 3, response, sizeof response, SQLITE_STATIC);
                step_or_die(db, insert_bodies);
            }
        }
        exec_or_die(db, "COMMIT");
    }
    double seconds = cpu_seconds() - start;
    printf("%s, batches of %d, %d records: %.1f us of CPU per record (checkpoints included)\n", variant, batch, n,
        seconds / n * 1e6);
    sqlite3_close(db);
    return 0;
}
