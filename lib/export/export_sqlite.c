// SPDX-License-Identifier: MIT
/*
 * A SQLite database of the report (report.db), in the schema of perf's
 * export-to-sqlite.py where the concepts match, so that perf's exported-sql-viewer.py and
 * queries written for perf's databases work on it: selected_events, machines, threads,
 * comms, comm_threads, dsos, symbols, samples, call_paths and their views (samples_view
 * ...). As in perf's, row 0 of every table stands for "unknown" (samples too: a row of
 * zeros), ids are perf's kind of keys, times are the samples' clock in ns. uprof's own
 * tables, named uprof_*, carry what perf has no table for (task instances, pauses,
 * report.csv's functions), keyed by the same ids. man/uprof-sqlite.5 documents both.
 *
 * The database is built in memory, bulk inserts in one transaction, and then written out
 * whole (sqlite3_serialize) to the FILE the report opened beneath its directory fd: no
 * path of the session is ever handed to SQLite.
 */
#include "export/internal.h"
#include "export/sqlite_schema.h"
#include "export/sqlite_os.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The deepest stack written as call_paths; deeper ones keep their leaf-most frames. */
#define SQL_STACK_MAX 512

enum stmt {
	S_EVENT,
	S_THREAD,
	S_COMM,
	S_COMM_THREAD,
	S_DSO,
	S_SYMBOL,
	S_SAMPLE,
	S_CALL_PATH,
	S_TASK,
	S_PAUSE,
	S_PROCESS,
	S_OMP,
	S_COUNT
};

static const char *const insert_sql[S_COUNT] = {
	[S_EVENT] = "INSERT INTO selected_events VALUES (?,?)",
	[S_THREAD] = "INSERT INTO threads VALUES (?,?,?,?,?)",
	[S_COMM] = "INSERT INTO comms VALUES (?,?,?,?,?)",
	[S_COMM_THREAD] = "INSERT INTO comm_threads VALUES (?,?,?)",
	[S_DSO] = "INSERT INTO dsos VALUES (?,?,?,?,?)",
	[S_SYMBOL] = "INSERT INTO symbols VALUES (?,?,?,?,?,?)",
	[S_SAMPLE] = "INSERT INTO samples VALUES "
		     "(?,?,1,?,?,?,?,?,?,?,?,0,0,0,0,?,0,0,0,0,0,?,0,0,0)",
	[S_CALL_PATH] = "INSERT INTO call_paths VALUES (?,?,?,?)",
	[S_TASK] = "INSERT INTO uprof_task_instances VALUES (?,?,?,?,?,?,?)",
	[S_PAUSE] = "INSERT INTO uprof_pauses VALUES (?,?,?)",
	[S_PROCESS] = "INSERT INTO uprof_processes VALUES (?,?,?,?,?)",
	[S_OMP] = "INSERT INTO uprof_openmp_slices VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct sql {
	struct rpt *r;
	sqlite3 *db;
	sqlite3_stmt *st[S_COUNT];
	struct util_hash thread_id; /* tid -> threads.id */
	struct util_hash proc_main; /* pid -> threads.id of its main thread */
	struct util_hash comm_id;   /* tid -> comms.id */
	struct util_hash symbol_id; /* (dso, name pointer) -> symbols.id */
	struct util_hash path_id;   /* (parent, symbol) -> call_paths.id */
	struct util_hash dso_of;    /* module path pointer -> dsos.id */
	int64_t nthreads, ncomms, nsymbols, npaths, nsamples, ntasks, npauses;
	int64_t *dso_id; /* walk module id -> dsos.id */
	int nmodules;
	struct rpt_walk_frame frames[SQL_STACK_MAX];
	int ret;
};

/* Bind values (int64, text or null, as @types says: 'i', 't', 'n'), step, reset. */
static int row(struct sql *q, enum stmt s, const char *types, ...)
{
	sqlite3_stmt *st = q->st[s];
	va_list ap;
	int rc = SQLITE_OK;

	va_start(ap, types);
	for (int i = 0; types[i] && rc == SQLITE_OK; i++) {
		if (types[i] == 'i')
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
		else if (types[i] == 't')
			rc = sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1,
					       SQLITE_TRANSIENT);
		else if (types[i] == 'n')
			rc = sqlite3_bind_null(st, i + 1);
		else
			rc = SQLITE_MISUSE; /* a type letter this function does not know */
	}
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : (rc == SQLITE_NOMEM ? -ENOMEM : -EIO);
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static int on_process(void *ctx, const struct rpt_walk_process *p)
{
	struct sql *q = ctx;

	return row(q, S_PROCESS, "iitti", (int64_t)p->pid, (int64_t)p->pid, p->comm, p->program,
		   (int64_t)p->samples);
}

/* A thread's row in threads, its comm and the comm_threads link. perf's process_id is
 * the threads.id of the process's main thread (pid == tid), made first if need be. */
static int64_t thread_row(struct sql *q, int pid, int tid, const char *name)
{
	uint64_t *slot = util_hash_slot(&q->thread_id, (uint64_t)(uint32_t)tid, 1, 0);
	uint64_t *main_slot;
	int64_t id, main_id;

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (int64_t)*slot;
	id = ++q->nthreads;
	*slot = (uint64_t)id;
	main_slot = util_hash_slot(&q->proc_main, (uint64_t)(uint32_t)pid, 0, 0);
	if (!main_slot)
		return -ENOMEM;
	if (pid == tid)
		*main_slot = (uint64_t)id;
	main_id = *main_slot ? (int64_t)*main_slot : id;
	if (row(q, S_THREAD, "iiiii", id, (int64_t)1, main_id, (int64_t)pid, (int64_t)tid) ||
	    row(q, S_COMM, "itiii", ++q->ncomms, name, id, (int64_t)0, (int64_t)0) ||
	    row(q, S_COMM_THREAD, "iii", q->ncomms, q->ncomms, id))
		return -EIO;
	slot = util_hash_slot(&q->comm_id, (uint64_t)(uint32_t)tid, 0, 0);
	if (!slot)
		return -ENOMEM;
	*slot = (uint64_t)q->ncomms;
	return id;
}

/* The thread's comm as the kernel had it (perf's comms.comm), else @name. */
static const char *comm_of(struct sql *q, int tid, const char *name)
{
	struct rpt_thread_view v;

	return rpt_thread_of(q->r, (uint32_t)tid, &v) && v.comm && *v.comm ? v.comm : name;
}

static int on_thread(void *ctx, const struct rpt_walk_thread *t)
{
	struct sql *q = ctx;
	int64_t id;

	/* the main thread first, so that process_id is known to the others */
	if (t->pid != t->tid && !util_hash_find(&q->proc_main, (uint64_t)(uint32_t)t->pid, 0, 0)) {
		id = thread_row(q, t->pid, t->pid, comm_of(q, t->pid, t->name));
		if (id < 0)
			return (int)id;
	}
	id = thread_row(q, t->pid, t->tid, comm_of(q, t->tid, t->name));
	return id < 0 ? (int)id : 0;
}

static int on_module(void *ctx, const struct rpt_walk_module *m)
{
	struct sql *q = ctx;
	char build_id[41] = "";
	int64_t id = m->id + 1; /* dsos 0 is "unknown" */

	if (m->id >= q->nmodules) {
		int64_t *g = realloc(q->dso_id, (size_t)(m->id + 1) * sizeof(*g));

		if (!g)
			return -ENOMEM;
		memset(g + q->nmodules, 0, (size_t)(m->id + 1 - q->nmodules) * sizeof(*g));
		q->dso_id = g;
		q->nmodules = m->id + 1;
	}
	if (rpt_module_is_unknown(q->r, m->id)) {
		q->dso_id[m->id] = 0; /* perf's dso 0: addresses outside every mapping */
		return 0;
	}
	q->dso_id[m->id] = id;
	rpt_module_build_id(q->r, m->id, build_id, sizeof(build_id));
	return row(q, S_DSO, "iittt", id, (int64_t)1, basename_of(m->path), m->path, build_id);
}

/* symbols.id of function @name in dsos.id @dso; 0 (unknown) for no name or an address
 * no symbol covers. A stack's markers ("[unwind failed]", @mark) are symbols of dso 0. */
static int64_t symbol_row(struct sql *q, int64_t dso, const char *name, bool mark)
{
	uint64_t *slot;

	if ((!dso && !mark) || !name || !*name || rpt_symtab_unresolved(name))
		return 0;
	slot = util_hash_slot(&q->symbol_id, (uint64_t)dso, (uint64_t)(uintptr_t)name, 0);
	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (int64_t)*slot;
	*slot = (uint64_t)++q->nsymbols;
	if (row(q, S_SYMBOL, "iiiiit", q->nsymbols, dso, (int64_t)0, (int64_t)0, (int64_t)1, name))
		return -EIO;
	return q->nsymbols;
}

static int64_t dso_of_path(struct sql *q, const char *path)
{
	uint64_t *slot = util_hash_find(&q->dso_of, (uint64_t)(uintptr_t)path, 0, 0);

	return slot ? (int64_t)*slot : 0;
}

/* call_paths.id of the sample's stack, root first as perf writes them; 0: no stack. */
static int64_t call_path(struct sql *q, size_t index)
{
	int n = rpt_walk_frames(q->r, index, q->frames, SQL_STACK_MAX);
	int64_t parent = 1; /* perf's root: call path 1, no symbol, below every stack */

	if (n < 0)
		return n;
	for (int i = n; i-- > 0;) {
		const struct rpt_walk_frame *fr = &q->frames[i];
		int64_t sym = symbol_row(q, dso_of_path(q, fr->module), fr->name,
					 fr->kind == RPT_FN_MARK);
		uint64_t *slot;

		if (sym < 0)
			return sym;
		slot = util_hash_slot(&q->path_id, (uint64_t)parent, (uint64_t)sym, 0);
		if (!slot)
			return -ENOMEM;
		if (!*slot) {
			*slot = (uint64_t)++q->npaths;
			if (row(q, S_CALL_PATH, "iiii", q->npaths, parent, sym, (int64_t)0))
				return -EIO;
		}
		parent = (int64_t)*slot;
	}
	return parent;
}

static int on_sample(void *ctx, const struct rpt_walk_sample *s)
{
	struct sql *q = ctx;
	uint64_t *th = util_hash_find(&q->thread_id, (uint64_t)(uint32_t)s->tid, 1, 0);
	uint64_t *cm = util_hash_find(&q->comm_id, (uint64_t)(uint32_t)s->tid, 0, 0);
	int64_t dso = s->module >= 0 && s->module < q->nmodules ? q->dso_id[s->module] : 0;
	int64_t sym = symbol_row(q, dso, s->function, false);
	int64_t path = rpt_stacks_collected(q->r) ? call_path(q, s->index) : 0;

	if (sym < 0)
		return (int)sym;
	if (path < 0)
		return (int)path;
	return row(q, S_SAMPLE, "iiiiiiiiiiii", ++q->nsamples, (int64_t)s->event + 1,
		   th ? (int64_t)*th : 0, cm ? (int64_t)*cm : 0, dso, sym,
		   (int64_t)(sym ? s->offset : 0), (int64_t)s->ip, (int64_t)s->time,
		   (int64_t)s->cpu, (int64_t)rpt_event_period(q->r, s->event, s->units), path);
}

static int on_task(void *ctx, const struct rpt_walk_task *t)
{
	struct sql *q = ctx;
	uint64_t *th = util_hash_find(&q->thread_id, (uint64_t)(uint32_t)t->tid, 1, 0);

	return row(q, S_TASK, "iittiii", ++q->ntasks, th ? (int64_t)*th : 0, t->domain, t->name,
		   (int64_t)t->begin, (int64_t)t->end, (int64_t)t->samples);
}

static int on_pause(void *ctx, int64_t from, int64_t to)
{
	struct sql *q = ctx;

	return row(q, S_PAUSE, "iii", ++q->npauses, from, to);
}

/* The OpenMP slices: the threads', then the devices' (report.h's order). */
static int omp_slices(struct sql *q)
{
	struct rpt_omp_trace_facts f;
	int ret = 0;

	rpt_omp_trace_facts(q->r, &f);
	for (size_t i = 0; f.kept && i < f.nthread + f.ndevice && !ret; i++) {
		struct rpt_omp_slice_view v;
		uint64_t *th;

		if (i < f.nthread)
			rpt_omp_thread_slice_at(q->r, i, &v);
		else
			rpt_omp_device_slice_at(q->r, i - f.nthread, &v);
		th = util_hash_find(&q->thread_id, (uint64_t)v.tid, 1, 0);
		ret = row(q, S_OMP, "iiiiiiiiiiiitt", (int64_t)i + 1, (int64_t)v.kind,
			  th ? (int64_t)*th : 0, (int64_t)v.pid, (int64_t)v.tid, (int64_t)v.device,
			  (int64_t)v.depth, (int64_t)v.member, (int64_t)v.begin, (int64_t)v.end,
			  (int64_t)v.count, (int64_t)v.bytes, v.site ? v.site : "",
			  v.what ? v.what : "");
	}
	return ret;
}

static int exec(sqlite3 *db, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : (rc == SQLITE_NOMEM ? -ENOMEM : -EIO);
}

/* The events: selected_events 1.. as the report names them (perf: evsel ids from 1). */
static int events(struct sql *q)
{
	int ret = 0;

	for (int e = 0; e < rpt_event_count(q->r) && !ret; e++)
		ret = row(q, S_EVENT, "it", (int64_t)e + 1, rpt_event_name(q->r, e));
	return ret;
}

/* dsos by path pointer, for the stacks' frames (rpt_walk_stack names modules by path) */
static int index_dsos(struct sql *q)
{
	for (int m = 0; m < q->nmodules; m++) {
		uint64_t *slot;

		if (!q->dso_id[m])
			continue;
		slot = util_hash_slot(&q->dso_of, (uint64_t)(uintptr_t)rpt_module_path(q->r, m), 0,
				      0);
		if (!slot)
			return -ENOMEM;
		*slot = (uint64_t)q->dso_id[m];
	}
	return 0;
}

static int build(struct sql *q)
{
	struct rpt_walker world = { .ctx = q,
				    .process = on_process,
				    .thread = on_thread,
				    .module = on_module };
	struct rpt_walker rest = { .ctx = q,
				   .sample = on_sample,
				   .task = on_task,
				   .pause = on_pause };
	int ret = exec(q->db, "PRAGMA journal_mode = OFF; BEGIN TRANSACTION;");

	if (!ret)
		ret = exec(q->db, rpt_sqlite_schema);
	for (int s = 0; s < S_COUNT && !ret; s++)
		if (sqlite3_prepare_v2(q->db, insert_sql[s], -1, &q->st[s], NULL) != SQLITE_OK)
			ret = -EIO;
	if (!ret)
		ret = events(q);
	if (!ret)
		ret = row(q, S_CALL_PATH, "iiii", (int64_t)1, (int64_t)0, (int64_t)0, (int64_t)0);
	if (!ret)
		ret = rpt_walk(q->r, &world);
	if (!ret)
		ret = index_dsos(q);
	if (!ret)
		ret = rpt_walk(q->r, &rest);
	if (!ret)
		ret = omp_slices(q);
	if (!ret) /* export_sqlite_os.c */
		ret = rpt_sqlite_os_tables(q->db, q->r, &q->thread_id);
	if (!ret)
		ret = exec(q->db, rpt_sqlite_indexes);
	if (!ret)
		ret = exec(q->db, "COMMIT;");
	return ret;
}

int rpt_export_sqlite(struct rpt *r, FILE *f)
{
	struct sql q = { .r = r, .npaths = 1 }; /* call path 1: the root */
	sqlite3_int64 size = 0;
	unsigned char *image = NULL;
	int ret;

	if (sqlite3_open_v2(":memory:", &q.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(q.db);
		return -ENOMEM;
	}
	ret = build(&q);
	for (int s = 0; s < S_COUNT; s++)
		sqlite3_finalize(q.st[s]);
	if (!ret) {
		image = sqlite3_serialize(q.db, "main", &size, 0);
		if (!image)
			ret = -ENOMEM;
		else if (fwrite(image, 1, (size_t)size, f) != (size_t)size)
			ret = -EIO;
		sqlite3_free(image);
	}
	sqlite3_close(q.db);
	util_hash_release(&q.thread_id);
	util_hash_release(&q.proc_main);
	util_hash_release(&q.comm_id);
	util_hash_release(&q.symbol_id);
	util_hash_release(&q.path_id);
	util_hash_release(&q.dso_of);
	free(q.dso_id);
	return ret;
}
