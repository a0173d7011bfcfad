/* SPDX-License-Identifier: MIT */
/* report.db's OS-trace tables (export_sqlite_os.c), called by export_sqlite.c. */
#ifndef UPROF_EXPORT_SQLITE_OS_H
#define UPROF_EXPORT_SQLITE_OS_H

#include "report/report.h"
#include "util/util.h"

#include <sqlite3.h>

/* Create uprof_thread_states and uprof_syscalls in @db (inside the caller's transaction)
 * and fill them from @r's OS trace (none: empty); @thread_id maps a tid to threads.id.
 * 0, -ENOMEM or -EIO. */
int rpt_sqlite_os_tables(sqlite3 *db, const struct rpt *r, const struct util_hash *thread_id);

#endif
