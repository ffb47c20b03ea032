#ifndef HINGE_CSQLITE_SHIM_H
#define HINGE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
