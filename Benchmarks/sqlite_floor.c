// What SQLite itself costs per request-log record on this machine, without Hinge around it: inserts records
// shaped like the typical scene's (a 652-byte request, a 3,644-byte response, 3 codes) in transactions of
// BATCH, WAL, synchronous=NORMAL, 16 KiB pages, SQLite's own auto-checkpoint in the same thread, and prints
// the process CPU time per record (checkpoints included). Variants:
//   v1       schema v1: requests + 3 secondary indexes + a request_codes row per code + request_bodies
//   v2       schema v2: requests + request_bodies (no secondary index, no code rows)
//   nobody   v2 without request_bodies: the metadata row alone
//   v3       schema v3: v2 with request_bodies.body_format (the bodies as the store frames them)
//   v5       schema v5: v3 with requests.id an INTEGER PRIMARY KEY without AUTOINCREMENT (no sqlite_sequence)
// The environment sets what is stored: FLOOR_REQUEST_BYTES and FLOOR_RESPONSE_BYTES (default 652 and 3644,
// the typical scene's bodies as received; the stored sizes of compressed bodies for the floor of a codec:
// the bytes are then pseudo-random, as compressed bytes are), FLOOR_PAGE_SIZE (default 16384), FLOOR_CACHE_KIB
// (the page cache; default SQLite's 2,000 KiB, Hinge's writer has 32,768: filling it costs page faults).
// Besides the CPU it prints the WAL bytes written per record (frames of page size + 24 bytes, counted by a
// WAL hook) and the database file's size per record after a final wal_checkpoint(TRUNCATE).
// FLOOR_HANDOFF=1 adds what a server with one writer thread cannot avoid: a second thread makes each record (its
// bodies copied into memory of its own, as an event loop does) and queues it under a mutex; the writer thread
// waits on a condition variable for a batch, inserts it as above, frees the records and signals them done. The
// producer runs up to one batch ahead. FLOOR_HANDOFF=2 keeps them in step instead, as clients that wait for
// their answer do: the next batch is made only once the last one is done, so the writer sleeps between commits.
// The CPU then printed is the writer thread's alone (CLOCK_THREAD_CPUTIME_ID), the producing thread's apart.
// Build and run (BENCHMARKS.md, "Request log"):
//   cc -O2 Benchmarks/sqlite_floor.c -lsqlite3 -o /tmp/sqlite_floor && /tmp/sqlite_floor v2 50 40000
//   FLOOR_REQUEST_BYTES=412 FLOOR_RESPONSE_BYTES=700 /tmp/sqlite_floor v3 13 40000
#include <pthread.h>
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

static long env_or(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? atol(v) : fallback;
}

// WAL frames appended: the hook sees the WAL's frame count after each commit (it restarts from 0 after a
// checkpoint that copied everything). The hook replaces auto-checkpoint, so it checkpoints as SQLite's
// default would (PASSIVE at 1000 frames).
static long long wal_frames = 0;
static int last_frames = 0;
static int count_frames(void *unused, sqlite3 *db, const char *name, int frames) {
    (void)unused;
    wal_frames += frames >= last_frames ? frames - last_frames : frames;
    last_frames = frames;
    if (frames >= 1000) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
    return SQLITE_OK;
}

static void step_or_die(sqlite3 *db, sqlite3_stmt *s) {
    if (sqlite3_step(s) != SQLITE_DONE) {
        fprintf(stderr, "step: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_reset(s);
}


// The hand-off: records made on one thread, inserted on another.
struct record {
    char *request, *response;
};
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct record *queue;  // capacity 2 × batch: the producer runs at most one batch ahead
    int count, capacity, done, batch, lockstep;
    double producer_seconds;
} handoff = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
static long handoff_request_bytes, handoff_response_bytes;
static const char *handoff_request, *handoff_response;
static int handoff_total;

static double thread_cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *produce(void *unused) {
    (void)unused;
    double start = thread_cpu_seconds();
    for (int i = 0; i < handoff_total; i++) {
        struct record r = {malloc(handoff_request_bytes), malloc(handoff_response_bytes)};
        memcpy(r.request, handoff_request, handoff_request_bytes);
        memcpy(r.response, handoff_response, handoff_response_bytes);
        pthread_mutex_lock(&handoff.lock);
        while (handoff.count == handoff.capacity || (handoff.lockstep && i - handoff.done >= handoff.batch))
            pthread_cond_wait(&handoff.changed, &handoff.lock);
        handoff.queue[handoff.count++] = r;
        pthread_cond_broadcast(&handoff.changed);
        pthread_mutex_unlock(&handoff.lock);
    }
    handoff.producer_seconds = thread_cpu_seconds() - start;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s v1|v2|v3|v5|nobody BATCH RECORDS [DB_PATH]\n", argv[0]);
        return 2;
    }
    const char *variant = argv[1];
    int v1 = strcmp(variant, "v1") == 0, v5 = strcmp(variant, "v5") == 0;
    int v3 = v5 || strcmp(variant, "v3") == 0, bodies = strcmp(variant, "nobody") != 0;
    int batch = atoi(argv[2]), n = atoi(argv[3]);
    const char *path = argc > 4 ? argv[4] : "/tmp/sqlite_floor.sqlite";
    char name[512];
    unlink(path);
    snprintf(name, sizeof name, "%s-wal", path);
    unlink(name);
    snprintf(name, sizeof name, "%s-shm", path);
    unlink(name);

    // Bodies of the typical scene's sizes (JSON-like text; SQLite does not look inside), or of other sizes
    // (pseudo-random bytes, like compressed ones).
    long request_bytes = env_or("FLOOR_REQUEST_BYTES", 652), response_bytes = env_or("FLOOR_RESPONSE_BYTES", 3644);
    long page_size = env_or("FLOOR_PAGE_SIZE", 16384);
    int as_received = request_bytes == 652 && response_bytes == 3644;
    char *request = malloc(request_bytes + 1), *response = malloc(response_bytes + 1);
    unsigned seed = 12345;
    for (long i = 0; i < request_bytes; i++) {
        seed = seed * 1103515245u + 12345u;
        request[i] = as_received ? "{\"id\": 12, \"kind\": \"sheet\"} "[i % 29] : (char)(seed >> 16);
    }
    for (long i = 0; i < response_bytes; i++) {
        seed = seed * 1103515245u + 12345u;
        response[i] = as_received ? "{\"frame\": {\"x\": 0, \"y\": 24}} "[i % 30] : (char)(seed >> 16);
    }

    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return 1;
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA page_size = %ld", page_size);
    exec_or_die(db, pragma);
    exec_or_die(db, "PRAGMA journal_mode = WAL");
    exec_or_die(db, "PRAGMA synchronous = NORMAL");
    long cache_kib = env_or("FLOOR_CACHE_KIB", 0);
    if (cache_kib > 0) {
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%ld", cache_kib);
        exec_or_die(db, pragma);
    }
    exec_or_die(db, "PRAGMA foreign_keys = ON");
    exec_or_die(db, v5 ? "CREATE TABLE requests (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, "
                         "duration_us INTEGER NOT NULL, device TEXT, status INTEGER NOT NULL, codes TEXT NOT NULL, "
                         "engine_version TEXT NOT NULL, path TEXT NOT NULL, request_size INTEGER NOT NULL, "
                         "response_size INTEGER NOT NULL, request_truncated INTEGER NOT NULL, "
                         "response_truncated INTEGER NOT NULL) STRICT"
                       : "CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL, "
                    "duration_us INTEGER NOT NULL, device TEXT, status INTEGER NOT NULL, codes TEXT NOT NULL, "
                    "engine_version TEXT NOT NULL, path TEXT NOT NULL, request_size INTEGER NOT NULL, "
                    "response_size INTEGER NOT NULL, request_truncated INTEGER NOT NULL, "
                    "response_truncated INTEGER NOT NULL) STRICT");
    exec_or_die(db, "CREATE TABLE request_bodies (request_id INTEGER PRIMARY KEY REFERENCES requests (id) ON DELETE "
                    "CASCADE, request BLOB NOT NULL, response BLOB NOT NULL) STRICT");
    if (v3) exec_or_die(db, "ALTER TABLE request_bodies ADD COLUMN body_format INTEGER NOT NULL DEFAULT 0");
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
    sqlite3_prepare_v3(db,
        v3 ? "INSERT INTO request_bodies (request_id, request, response, body_format) VALUES (?, ?, ?, 1)"
           : "INSERT INTO request_bodies (request_id, request, response) VALUES (?, ?, ?)",
        -1, SQLITE_PREPARE_PERSISTENT, &insert_bodies, NULL);
    sqlite3_wal_hook(db, count_frames, NULL);
    const char *codes[3] = {"chained-modal", "popover-adapted", "split-follows-fold"};

    long handoff_mode = env_or("FLOOR_HANDOFF", 0);
    int handing_off = handoff_mode != 0;
    pthread_t producer;
    struct record *taken = calloc((size_t)batch, sizeof *taken);
    if (handing_off) {
        handoff.capacity = 2 * batch;
        handoff.batch = batch;
        handoff.lockstep = handoff_mode == 2;
        handoff.queue = calloc((size_t)handoff.capacity, sizeof *handoff.queue);
        handoff_request = request;
        handoff_response = response;
        handoff_request_bytes = request_bytes;
        handoff_response_bytes = response_bytes;
        handoff_total = n;
        pthread_create(&producer, NULL, produce, NULL);
    }
    double start = handing_off ? thread_cpu_seconds() : cpu_seconds();
    for (int i = 0; i < n;) {
        int take = batch < n - i ? batch : n - i;
        if (handing_off) {
            // Wait for a whole batch, take it, and let the producer refill the queue.
            pthread_mutex_lock(&handoff.lock);
            while (handoff.count < take) pthread_cond_wait(&handoff.changed, &handoff.lock);
            memcpy(taken, handoff.queue, (size_t)take * sizeof *taken);
            handoff.count -= take;
            memmove(handoff.queue, handoff.queue + take, (size_t)handoff.count * sizeof *taken);
            pthread_cond_broadcast(&handoff.changed);
            pthread_mutex_unlock(&handoff.lock);
        }
        exec_or_die(db, "BEGIN IMMEDIATE");
        for (int b = 0; b < take; b++, i++) {
            sqlite3_bind_int64(insert_request, 1, 1764460800000LL + i);
            sqlite3_bind_int64(insert_request, 2, 12);
            sqlite3_bind_text(insert_request, 3, "iphone-duo", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_request, 4, 200);
            sqlite3_bind_text(insert_request, 5, "chained-modal\x1fpopover-adapted\x1fsplit-follows-fold", -1,
                SQLITE_STATIC);
            sqlite3_bind_text(insert_request, 6, "1.0.0", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert_request, 7, "/v1/resolve", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_request, 8, 652);
            sqlite3_bind_int64(insert_request, 9, 3644);
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
                sqlite3_bind_blob(insert_bodies, 2, handing_off ? taken[b].request : request, (int)request_bytes,
                    SQLITE_STATIC);
                sqlite3_bind_blob(insert_bodies, 3, handing_off ? taken[b].response : response, (int)response_bytes,
                    SQLITE_STATIC);
                step_or_die(db, insert_bodies);
            }
        }
        exec_or_die(db, "COMMIT");
        if (handing_off) {
            // Done: the records are freed, and their producer told (here, a counter under the lock).
            for (int b = 0; b < take; b++) {
                free(taken[b].request);
                free(taken[b].response);
            }
            pthread_mutex_lock(&handoff.lock);
            handoff.done += take;
            pthread_cond_broadcast(&handoff.changed);
            pthread_mutex_unlock(&handoff.lock);
        }
    }
    double seconds = (handing_off ? thread_cpu_seconds() : cpu_seconds()) - start;
    if (handing_off) pthread_join(producer, NULL);
    sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    sqlite3_stmt *size;
    sqlite3_prepare_v2(db, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size", -1, &size, NULL);
    sqlite3_step(size);
    double file_bytes = (double)sqlite3_column_int64(size, 0);
    sqlite3_finalize(size);
    printf("%s, bodies %ld + %ld B, %ld B pages, batches of %d, %d records: %.1f us of CPU per record (checkpoints "
           "included%s); WAL %.0f B written per record; file %.0f B per record\n",
        variant, bodies ? request_bytes : 0, bodies ? response_bytes : 0, page_size, batch, n, seconds / n * 1e6,
        handing_off ? ", writer thread alone" : "", (double)wal_frames * (page_size + 24) / n, file_bytes / n);
    if (handing_off) printf("producing thread: %.1f us of CPU per record\n", handoff.producer_seconds / n * 1e6);
    sqlite3_finalize(insert_request);
    if (insert_code) sqlite3_finalize(insert_code);
    sqlite3_finalize(insert_bodies);
    sqlite3_close(db);
    free(request);
    free(response);
    free(taken);
    free(handoff.queue);
    return 0;
}
