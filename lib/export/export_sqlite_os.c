// SPDX-License-Identifier: MIT
/*
 * report.db's OS-trace tables (a --trace os session, docs/DESIGN.md §12):
 * uprof_thread_states, each thread's row of report.csv's THREAD STATES, and
 * uprof_syscalls, each thread's row of SYSTEM CALLS BY THREAD, from lib/ostrace's model
 * (rpt_os_threads, rpt_os_calls). Times in ns, as every time of the database; thread_id
 * is threads.id, the key of the other uprof_* tables. The tables are there, empty, in a
 * session not traced, so that queries need not ask first.
 */
#include "export/sqlite_os.h"
#include "ostrace/ostrace.h"

#include <errno.h>
#include <sqlite3.h>

/* clang-format off */
static const char schema[] =
	"CREATE TABLE uprof_thread_states (id integer NOT NULL PRIMARY KEY, thread_id bigint,"
	" pid integer, tid integer, lifetime bigint, running bigint, runnable bigint,"
	" blocked bigint, sleep bigint, io bigint, lock bigint, other bigint,"
	" unaccounted bigint, switches bigint, preemptions bigint, wakeups bigint);"
	"CREATE TABLE uprof_syscalls (id integer NOT NULL PRIMARY KEY, thread_id bigint,"
	" pid integer, tid integer, name varchar(32), nr integer, calls bigint, errors bigint,"
	" total_time bigint, min_time bigint, max_time bigint, bytes bigint);";
/* clang-format on */

static int step(sqlite3_stmt *st, const int64_t *v, int n, const char *text, int text_at)
{
	int rc;

	for (int i = 0; i < n; i++)
		if (i + 1 == text_at)
			sqlite3_bind_text(st, i + 1, text, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_int64(st, i + 1, v[i]);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

int rpt_sqlite_os_tables(sqlite3 *db, const struct rpt *r, const struct util_hash *thread_id)
{
	const struct ost_thread *t;
	const struct ost_call_stat *c;
	size_t nt = rpt_os_threads(r, &t), nc = rpt_os_calls(r, &c);
	sqlite3_stmt *ts = NULL, *cs = NULL;
	char name[32];
	int ret = 0;

	if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "INSERT INTO uprof_thread_states VALUES "
			       "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &ts, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO uprof_syscalls VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &cs, NULL) != SQLITE_OK)
		ret = -EIO;
	for (size_t i = 0; !ret && i < nt; i++) {
		const uint64_t *th = util_hash_find(thread_id, (uint64_t)(uint32_t)t[i].tid, 1, 0);
		int64_t v[] = { (int64_t)i + 1,
				th ? (int64_t)*th : 0,
				t[i].pid,
				t[i].tid,
				(int64_t)(t[i].end - t[i].start),
				(int64_t)t[i].state_ns[OST_RUNNING],
				(int64_t)t[i].state_ns[OST_RUNNABLE],
				(int64_t)t[i].state_ns[OST_BLOCKED],
				(int64_t)t[i].blocked_ns[OST_WAIT_SLEEP],
				(int64_t)t[i].blocked_ns[OST_WAIT_IO],
				(int64_t)t[i].blocked_ns[OST_WAIT_LOCK],
				(int64_t)t[i].blocked_ns[OST_WAIT_OTHER],
				(int64_t)t[i].unaccounted_ns,
				(int64_t)t[i].switches,
				(int64_t)t[i].preemptions,
				(int64_t)t[i].wakeups };

		ret = step(ts, v, 16, NULL, 0);
	}
	for (size_t i = 0; !ret && i < nc; i++) {
		const uint64_t *th = util_hash_find(thread_id, (uint64_t)(uint32_t)c[i].tid, 1, 0);
		int64_t v[] = { (int64_t)i + 1, th ? (int64_t)*th : 0, c[i].pid, c[i].tid,
				0, /* the name, bound as text */
				c[i].nr, (int64_t)c[i].calls, (int64_t)c[i].errors,
				(int64_t)c[i].total_ns,
				/* no call: no minimum (report.csv's 0) */
				c[i].min_ns == UINT64_MAX ? 0 : (int64_t)c[i].min_ns,
				(int64_t)c[i].max_ns, (int64_t)c[i].bytes };

		ret = step(cs, v, 12, ost_syscall_name(c[i].nr, name, sizeof(name)), 5);
	}
	sqlite3_finalize(ts);
	sqlite3_finalize(cs);
	return ret;
}
