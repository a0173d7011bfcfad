// SPDX-License-Identifier: MIT
/*
 * Waits by type, per region and per thread (openmp.h's enum rpt_omp_wait): the OPENMP
 * WAITS table of report.csv. Two sources, one meaning:
 *  - --openmp-scope full: the WAIT_BEGIN/WAIT_END records, paired per thread in the order
 *    the thread wrote them. A barrier, taskwait, taskgroup or reduction wait belongs to
 *    the implicit task open on its thread (BEGIN/END records); one still open when that
 *    task ENDs ends there (as the tool closes it). A mutex wait's record names the lock
 *    site, whose kind says lock, critical or ordered; it counts in the region open on its
 *    thread when the wait began, and not at all outside every region (as the tool).
 *  - basic scope, or a full one whose ring dropped records (the pairs would miss waits):
 *    the tool's per-(site, thread) sums, SES_OMPT_F_WAIT_* and TASKWAIT/TASKGROUP, with
 *    what SYNC and LOCKWAIT hold beyond them as Other.
 * The file is untrusted: records that pair with nothing, or name a thread the sums do
 * not have, are counted (waits_unpaired), never guessed at.
 */
#include "openmp/openmp.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 64 /* implicit tasks followed per thread (the tool follows 8) */

/* A wait kind's column (SES_OMPT_WAIT_*, MUTEX aside); -1 for one this reader does not
 * know (a newer writer's) */
static int wait_column(uint16_t how)
{
	switch (how) {
	case SES_OMPT_WAIT_BARRIER_IMPLICIT:
		return RPT_OMP_W_IMPLICIT;
	case SES_OMPT_WAIT_BARRIER_WORKSHARE:
		return RPT_OMP_W_WORKSHARE;
	case SES_OMPT_WAIT_BARRIER_EXPLICIT:
		return RPT_OMP_W_EXPLICIT;
	case SES_OMPT_WAIT_BARRIER_IMPLEMENTATION:
		return RPT_OMP_W_IMPLEMENTATION;
	case SES_OMPT_WAIT_TASKWAIT:
		return RPT_OMP_W_TASKWAIT;
	case SES_OMPT_WAIT_TASKGROUP:
		return RPT_OMP_W_TASKGROUP;
	case SES_OMPT_WAIT_REDUCTION:
		return RPT_OMP_W_REDUCTION;
	case SES_OMPT_WAIT_OTHER:
		return RPT_OMP_W_OTHER;
	default:
		return -1;
	}
}

/* The column of a wait for the mutex at site @site (by its SITE kind). */
static int mutex_column(struct rpt_omp_proc *p, uint32_t site)
{
	uint64_t *h = util_hash_find(&p->index, 1, site, 0);

	switch (h ? p->sites[*h - 1].kind : 0) {
	case SES_OMPT_SITE_LOCK:
	case SES_OMPT_SITE_NEST_LOCK:
		return RPT_OMP_W_LOCK;
	case SES_OMPT_SITE_CRITICAL:
		return RPT_OMP_W_CRITICAL;
	case SES_OMPT_SITE_ORDERED:
		return RPT_OMP_W_ORDERED;
	default:
		return RPT_OMP_W_OTHER;
	}
}

/* Add @ns to (@site, @tid)'s column @col; a thread the sums do not have is counted. */
static void add(struct rpt_omp_proc *p, uint32_t site, uint32_t tid, int col, uint64_t ns)
{
	uint64_t *hs = util_hash_find(&p->index, 1, site, 0);
	uint64_t *ht = util_hash_find(&p->index, 3, site, tid);

	if (!hs || !ht || *ht > (uint64_t)p->sites[*hs - 1].nthreads) {
		p->waits_unpaired++;
		return;
	}
	p->sites[*hs - 1].threads[*ht - 1].waits[col] += ns;
}

struct open_wait {
	uint64_t begin;
	uint32_t site; /* the region's site (a mutex: the region it began in) */
	int col;       /* -1: none open */
};

struct task_frame {
	uint32_t site;
	uint16_t depth;
	struct open_wait wait;
};

/* One thread's state while its records are read. */
struct reader {
	struct rpt_omp_proc *p;
	uint32_t tid;
	int depth;
	struct task_frame stack[MAX_NEST];
	struct open_wait mutex;
};

static void close_wait(struct reader *t, struct open_wait *w, uint64_t end)
{
	if (w->col < 0)
		return;
	add(t->p, w->site, t->tid, w->col, end > w->begin ? end - w->begin : 0);
	w->col = -1;
}

/* Close what @t left open: a record cut short leaves no end to pair with. */
static void reader_end(struct reader *t)
{
	for (int d = 0; d < t->depth; d++)
		t->p->waits_unpaired += t->stack[d].wait.col >= 0;
	t->p->waits_unpaired += t->mutex.col >= 0;
	t->depth = 0;
	t->mutex.col = -1;
}

static void on_task(struct reader *t, const struct ses_ompt_record *e)
{
	if (e->kind == SES_OMPT_BEGIN) {
		if (t->depth < MAX_NEST)
			t->stack[t->depth++] = (struct task_frame){ e->site,
								    e->how,
								    { 0, e->site, -1 } };
		return;
	}
	if (t->depth > 0 && t->stack[t->depth - 1].site == e->site &&
	    t->stack[t->depth - 1].depth == e->how) {
		close_wait(t, &t->stack[t->depth - 1].wait, e->value);
		t->depth--;
	}
}

static void on_wait(struct reader *t, const struct ses_ompt_record *e)
{
	bool begin = e->kind == SES_OMPT_WAIT_BEGIN;
	struct task_frame *top = t->depth > 0 ? &t->stack[t->depth - 1] : NULL;
	struct open_wait *w;
	int col;

	if (e->how == SES_OMPT_WAIT_MUTEX) {
		w = &t->mutex;
		if (begin) {
			t->p->waits_unpaired += w->col >= 0;
			w->col = -1;
			if (top) /* outside every region the tool counts none */
				*w = (struct open_wait){ e->value, top->site,
							 mutex_column(t->p, e->site) };
		} else if (w->col >= 0) {
			close_wait(t, w, e->value);
		}
		return;
	}
	col = wait_column(e->how);
	if (!top || top->site != e->site || col < 0) {
		t->p->waits_unpaired++;
		return;
	}
	w = &top->wait;
	if (begin) {
		t->p->waits_unpaired += w->col >= 0;
		*w = (struct open_wait){ e->value, e->site, col };
	} else if (w->col == col) {
		close_wait(t, w, e->value);
	} else {
		t->p->waits_unpaired++;
	}
}

/* keys sorted by thread, each thread's records in the order it wrote them (a key's .value
 * is its record's place in the file) */
static int cmp_thread_order(const void *a, const void *b)
{
	const struct ses_ompt_record *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

static int from_records(struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	/* (tid, file place) keys, sorted; then the records read in that order */
	struct ses_ompt_record *keys = malloc(sizeof(*keys) * (o->nevents ? o->nevents : 1));
	struct reader *t = calloc(1, sizeof(*t));
	int ret = -ENOMEM;

	if (!keys || !t)
		goto out;
	for (size_t i = 0; i < o->nevents; i++)
		keys[i] = (struct ses_ompt_record){ .tid = o->events[i].tid, .value = i };
	util_qsort(keys, o->nevents, sizeof(*keys), cmp_thread_order);
	t->p = p;
	t->mutex.col = -1;
	for (size_t i = 0; i < o->nevents; i++) {
		const struct ses_ompt_record *e = &o->events[keys[i].value];

		if (!i || e->tid != t->tid) {
			reader_end(t);
			t->tid = e->tid;
		}
		if (e->kind == SES_OMPT_BEGIN || e->kind == SES_OMPT_END)
			on_task(t, e);
		else
			on_wait(t, e);
	}
	reader_end(t);
	ret = 0;
out:
	free(keys);
	free(t);
	return ret;
}

/* the sums' a - b, or 0 (a forged file's fields need not add up) */
static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void from_sums(struct rpt_omp_tstat *t)
{
	const uint64_t *f = t->f;
	uint64_t *w = t->waits;

	w[RPT_OMP_W_IMPLICIT] = f[SES_OMPT_F_WAIT_IMPLICIT];
	w[RPT_OMP_W_WORKSHARE] = f[SES_OMPT_F_WAIT_WORKSHARE];
	w[RPT_OMP_W_EXPLICIT] = f[SES_OMPT_F_WAIT_EXPLICIT];
	w[RPT_OMP_W_IMPLEMENTATION] = f[SES_OMPT_F_WAIT_IMPLEMENTATION];
	w[RPT_OMP_W_TASKWAIT] = f[SES_OMPT_F_TASKWAIT];
	w[RPT_OMP_W_TASKGROUP] = f[SES_OMPT_F_TASKGROUP];
	w[RPT_OMP_W_REDUCTION] = f[SES_OMPT_F_WAIT_REDUCTION];
	w[RPT_OMP_W_LOCK] = f[SES_OMPT_F_WAIT_LOCK];
	w[RPT_OMP_W_CRITICAL] = f[SES_OMPT_F_WAIT_CRITICAL];
	w[RPT_OMP_W_ORDERED] = f[SES_OMPT_F_WAIT_ORDERED];
	/* what the lumped sums hold beyond the types: all of it from a tool before them */
	w[RPT_OMP_W_OTHER] = less(f[SES_OMPT_F_SYNC],
				  w[RPT_OMP_W_IMPLICIT] + w[RPT_OMP_W_WORKSHARE] +
					  w[RPT_OMP_W_EXPLICIT] + w[RPT_OMP_W_IMPLEMENTATION] +
					  w[RPT_OMP_W_TASKWAIT] + w[RPT_OMP_W_TASKGROUP] +
					  w[RPT_OMP_W_REDUCTION]) +
			     less(f[SES_OMPT_F_LOCKWAIT],
				  w[RPT_OMP_W_LOCK] + w[RPT_OMP_W_CRITICAL] + w[RPT_OMP_W_ORDERED]);
}

int rpt_omp_waits_load(struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	p->waits_from_records = p->scope == SES_OMPT_SCOPE_FULL && !p->dropped;
	if (p->waits_from_records)
		return from_records(p, o);
	for (int i = 0; i < p->nsites; i++)
		for (int k = 0; k < p->sites[i].nthreads; k++)
			from_sums(&p->sites[i].threads[k]);
	return 0;
}

void rpt_omp_waits_add(struct rpt_omp_tstat *to, const struct rpt_omp_tstat *from)
{
	for (int c = 0; c < RPT_OMP_WAITS; c++)
		to->waits[c] += from->waits[c];
}

static void row(const char *name, const char *num, const char *tid, const uint64_t *w, FILE *f)
{
	uint64_t total = 0;

	fprintf(f, "\"%s\",%s,%s", name, num, tid);
	for (int c = 0; c < RPT_OMP_WAITS; c++) {
		fprintf(f, ",%.6f", (double)w[c] / 1e9);
		total += w[c];
	}
	fprintf(f, ",%.6f\n", (double)total / 1e9);
}

void rpt_omp_write_waits(const struct rpt_omp_proc *p, const char *who, FILE *f)
{
	fprintf(f, "\nOpenMP WAITS (%sPID-%d)\n", who, p->pid);
	fprintf(f, "Wait Times From,\"%s\"\n",
		p->waits_from_records ? "wait records (--openmp-scope full)"
		: p->scope == SES_OMPT_SCOPE_FULL
			? "the tool's sums per thread (the ring dropped records, so the wait "
			  "records are not whole)"
			: "the tool's sums per thread (--openmp-scope basic)");
	if (p->waits_unpaired)
		fprintf(f, "Unpaired Wait Records,%" PRIu64 "\n", p->waits_unpaired);
	fprintf(f, "Region,ThreadNum,ThreadId,Implicit Barrier(seconds),Worksharing "
		   "Barrier(seconds),Explicit Barrier(seconds),Runtime Barrier(seconds),"
		   "Taskwait(seconds),Taskgroup(seconds),Reduction(seconds),Lock(seconds),"
		   "Critical(seconds),Ordered(seconds),Other(seconds),Total(seconds)\n");
	for (int i = 0; i < p->nsites; i++) {
		const struct rpt_omp_site *s = &p->sites[i];
		uint64_t sum[RPT_OMP_WAITS] = { 0 };

		if (s->kind != SES_OMPT_SITE_PARALLEL)
			continue;
		for (int k = 0; k < s->nthreads; k++)
			for (int c = 0; c < RPT_OMP_WAITS; c++)
				sum[c] += s->threads[k].waits[c];
		row(s->name, "all", "", sum, f);
		for (int k = 0; k < s->nthreads; k++) {
			char num[16], tid[16];

			snprintf(num, sizeof(num), "%u", s->threads[k].team_index);
			snprintf(tid, sizeof(tid), "%u", s->threads[k].tid);
			row(s->name, num, tid, s->threads[k].waits, f);
		}
	}
}
