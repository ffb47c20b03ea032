#ifndef HINGE_CSQLITE_SHIM_H
#define HINGE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* Swift cannot import SQLITE_TRANSIENT (a cast of -1 to a function pointer) nor call C variadic
   functions such as sqlite3_config / sqlite3_db_config, so the Store goes through these shims. */

/** SQLITE_TRANSIENT: SQLite copies the bound bytes before the bind call returns. */
static inline sqlite3_destructor_type hinge_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

/** sqlite3_db_config for the (int, int*) options: DEFENSIVE, DQS_DML, DQS_DDL, ENABLE_FKEY, … */
static inline int hinge_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *current) {
    return sqlite3_db_config(db, op, value, current);
}

/** sqlite3_config for the options that take no argument (SQLITE_CONFIG_MULTITHREAD, …).
    Only legal before sqlite3_initialize or after sqlite3_shutdown. */
static inline int hinge_sqlite3_config_noarg(int op) {
    return sqlite3_config(op);
}

#endif
