#ifndef HINGE_CPOSTGRESQL_SHIM_H
#define HINGE_CPOSTGRESQL_SHIM_H
/* libpq, the PostgreSQL client library (Debian's libpq-dev; its pkg-config file adds the include path). */
#include <libpq-fe.h>
#endif
