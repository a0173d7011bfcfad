// SPDX-License-Identifier: MIT
/*
 * A process seen through a partial window (openmp.h): collect stopped reading (-d, a
 * signal) while the process lived on, so the tool's summary, the VALUE records it sends
 * when the process ends, never came. What did come are the region records: each thread's
 * implicit tasks (BEGIN/END) and, with --openmp-scope full, its waits. From those the
 * figures of the instances the window saw whole are rebuilt, as the VALUE records the tool
 * would have sent for them; an instance open at an edge of the window is counted as cut
 * there, never as one of the region's instances.
 *
 * A session with pauses (--start-paused, the pause/resume API) is windowed the same way,
 * summary or not: the summary covers the whole run, so the figures are rebuilt from the
 * instances that lie whole between pauses; one a pause or resume cut is counted as cut
 * at that edge, one wholly inside a pause is outside the windows (not counted at all).
 *
 * What the records cannot say is left out, not guessed: a worker's joined time is its own
 * span (no fork/join overhead), a region's idle time (the threads outside its team) is
 * not known, and without full scope nothing is sync. A thread's life is its first record
 * to its last, so the overview's idle is its time between regions in the window.
 */
#include "openmp/openmp.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 64  /* depths followed per thread (the tool follows 8) */
#define MAX_TIDS 256 /* threads rebuilt (the tool keeps 256) */
/* (site, thread) figures rebuilt: the tool's 127 sites x 256 threads, and each thread's
 * own; past that a file is forged, and its records are counted, not kept */
#define MAX_ACCS (128 * MAX_TIDS)

struct acc {
	uint32_t site, tid;
	uint64_t f[SES_OMPT_F_MAX];
};

struct rebuild {
	const struct rpt_omp_pauses *pz; /* NULL: no pause */
	struct util_hash index;		 /* (1, site, tid) -> acc + 1; (2, site) -> largest team */
	struct acc *accs;
	size_t n, cap;
	uint32_t tids[MAX_TIDS];
	int ntids;
};

static int cmp_event(const void *a, const void *b)
{
	const struct ses_ompt_record *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* at one stamp, what ends before what begins: a worker's late end is clamped to its
	 * instance's end, which the next begin can only follow */
	return (x->kind == SES_OMPT_BEGIN || x->kind == SES_OMPT_WAIT_BEGIN) -
	       (y->kind == SES_OMPT_BEGIN || y->kind == SES_OMPT_WAIT_BEGIN);
}

/* The figures of (@site, @tid), made on first sight; NULL past MAX_TIDS or MAX_ACCS, or
 * out of memory (*@full says which). */
static struct acc *acc_for(struct rebuild *rb, uint32_t site, uint32_t tid, bool *full)
{
	uint64_t *h = util_hash_slot(&rb->index, 1, site, tid);
	int k = 0;

	*full = false;
	if (!h)
		return NULL;
	if (*h)
		return &rb->accs[*h - 1];
	while (k < rb->ntids && rb->tids[k] != tid)
		k++;
	if (rb->n >= MAX_ACCS || (k == rb->ntids && k == MAX_TIDS)) {
		*full = true;
		return NULL;
	}
	if (k == rb->ntids)
		rb->tids[rb->ntids++] = tid;
	if (rb->n == rb->cap) {
		size_t cap = rb->cap ? rb->cap * 2 : 16;
		struct acc *g = realloc(rb->accs, sizeof(*g) * cap);

		if (!g)
			return NULL;
		rb->accs = g;
		rb->cap = cap;
	}
	memset(&rb->accs[rb->n], 0, sizeof(rb->accs[0]));
	rb->accs[rb->n].site = site;
	rb->accs[rb->n].tid = tid;
	*h = ++rb->n;
	return &rb->accs[rb->n - 1];
}

/* The slot a thread's VALUE records carry: its place among the threads, from 1. */
static uint32_t slot_of(const struct rebuild *rb, uint32_t tid)
{
	for (int k = 0; k < rb->ntids; k++)
		if (rb->tids[k] == tid)
			return (uint32_t)k + 1;
	return 0;
}

/* Does a pause meet [@from, @to]? */
static bool paused_within(const struct rebuild *rb, uint64_t from, uint64_t to)
{
	return rb->pz && rb->pz->paused_within(rb->pz->ctx, from, to);
}

static bool paused_at(const struct rebuild *rb, uint64_t t)
{
	return rb->pz && rb->pz->paused_at(rb->pz->ctx, t);
}

/* One implicit task, @b to @end: counted when a window saw it whole; else, when a pause
 * cut it, an instance cut at that window's start or end (team member 0's). */
static int add_task(struct rpt_omp_proc *p, struct rebuild *rb, const struct ses_ompt_record *b,
		    uint64_t end)
{
	uint64_t d = end - b->value, *team;
	bool full;
	struct acc *a, *t;

	if (paused_within(rb, b->value, end)) {
		bool pb = paused_at(rb, b->value), pe = paused_at(rb, end);

		if (pb && !pe)
			p->cut_start += b->slot == 0;
		else if (!pb)
			p->cut_end += b->slot == 0;
		return 0; /* both in a pause: outside the windows (or around one, not told) */
	}
	a = acc_for(rb, b->site, b->tid, &full);
	if (!a)
		return full ? (p->ignored++, 0) : -ENOMEM;
	a->f[SES_OMPT_F_ITASKS]++;
	a->f[SES_OMPT_F_SPAN] += d;
	a->f[SES_OMPT_F_JOINED] += d; /* its own span: the fork and join are not seen */
	a->f[SES_OMPT_F_TEAM_INDEX] = b->slot;
	if (a->f[SES_OMPT_F_NEST_LEVEL] < (uint64_t)b->how + 1)
		a->f[SES_OMPT_F_NEST_LEVEL] = (uint64_t)b->how + 1;
	if (b->slot == 0) { /* the encountering thread: one instance */
		a->f[SES_OMPT_F_REGIONS]++;
		a->f[SES_OMPT_F_ELAPSED] += d;
	}
	if (!(team = util_hash_slot(&rb->index, 2, b->site, 0)))
		return -ENOMEM;
	if (*team < (uint64_t)b->slot + 1)
		*team = (uint64_t)b->slot + 1;
	if (b->how == 0) {
		if (!(t = acc_for(rb, 0, b->tid, &full)))
			return full ? (p->ignored++, 0) : -ENOMEM;
		t->f[SES_OMPT_F_THREAD_IN] += d;
	}
	return 0;
}

/* One wait the window saw whole (full scope): on its region's site, or a lock's. */
static int add_wait(struct rpt_omp_proc *p, struct rebuild *rb, const struct ses_ompt_record *b,
		    uint64_t end)
{
	uint64_t w = end - b->value;
	bool full;
	struct acc *a;

	if (paused_within(rb, b->value, end))
		return 0;
	if (!(a = acc_for(rb, b->site, b->tid, &full)))
		return full ? (p->ignored++, 0) : -ENOMEM;
	if (b->how == SES_OMPT_WAIT_MUTEX) {
		a->f[SES_OMPT_F_ACQUIRES]++;
		a->f[SES_OMPT_F_ACQ_WAIT] += w;
		return 0;
	}
	a->f[SES_OMPT_F_SYNC] += w;
	if (b->how == SES_OMPT_WAIT_BARRIER_IMPLICIT || b->how == SES_OMPT_WAIT_BARRIER_EXPLICIT)
		a->f[SES_OMPT_F_BARRIER] += w;
	else if (b->how == SES_OMPT_WAIT_TASKWAIT)
		a->f[SES_OMPT_F_TASKWAIT] += w;
	else if (b->how == SES_OMPT_WAIT_TASKGROUP)
		a->f[SES_OMPT_F_TASKGROUP] += w;
	return 0;
}

/* The records of one thread, @ev[0..@n), in time order. */
static int one_thread(struct rpt_omp_proc *p, struct rebuild *rb, const struct ses_ompt_record *ev,
		      size_t n)
{
	const struct ses_ompt_record *stack[MAX_NEST], *wait = NULL;
	int depth = 0, ret = 0;
	bool begun = false; /* a BEGIN came: an END without its BEGIN is no longer a cut */
	bool full;
	struct acc *t;

	for (size_t i = 0; i < n && !ret; i++) {
		const struct ses_ompt_record *e = &ev[i];

		switch (e->kind) {
		case SES_OMPT_BEGIN:
			begun = true;
			if (depth < MAX_NEST && e->how == depth)
				stack[depth++] = e;
			else
				p->window_unpaired++;
			break;
		case SES_OMPT_END:
			if (depth > 0 && stack[depth - 1]->how == e->how &&
			    stack[depth - 1]->site == e->site &&
			    e->value >= stack[depth - 1]->value)
				ret = add_task(p, rb, stack[--depth], e->value);
			else if (!begun) /* began before the window (or outside, paused) */
				p->cut_start += e->slot == 0 && !paused_at(rb, e->value);
			else
				p->window_unpaired++;
			break;
		case SES_OMPT_WAIT_BEGIN:
			wait = e;
			break;
		case SES_OMPT_WAIT_END:
			if (wait && wait->how == e->how && wait->site == e->site &&
			    e->value >= wait->value)
				ret = add_wait(p, rb, wait, e->value);
			wait = NULL;
			break;
		}
	}
	while (depth > 0) { /* still open when the window ended (unless begun in a pause) */
		const struct ses_ompt_record *b = stack[--depth];

		p->cut_end += b->slot == 0 && !paused_at(rb, b->value);
	}
	if (!ret && n && (t = acc_for(rb, 0, ev[0].tid, &full))) {
		uint64_t life = ev[n - 1].value - ev[0].value;

		t->f[SES_OMPT_F_THREAD_LIFE] = life > t->f[SES_OMPT_F_THREAD_IN]
						       ? life
						       : t->f[SES_OMPT_F_THREAD_IN];
		t->f[SES_OMPT_F_THREAD_TYPE] = (int)ev[0].tid == p->pid ? 1 : 2; /* ompt_thread_t */
	} else if (!ret && n && !full) {
		ret = -ENOMEM;
	}
	return ret;
}

/* The figures as VALUE records, into *@vals; the process's own (lost counts, callbacks)
 * as @o has them. */
static int emit(struct rebuild *rb, const struct ses_ompt *o, struct ses_ompt_record **vals,
		size_t *nvals)
{
	size_t n = 0;

	*vals = malloc(sizeof(**vals) * (rb->n * SES_OMPT_F_MAX + o->nvalues + 1));
	if (!*vals)
		return -ENOMEM;
	for (size_t i = 0; i < o->nvalues; i++)
		if (!o->values[i].site && !o->values[i].slot)
			(*vals)[n++] = o->values[i];
	for (size_t i = 0; i < rb->n; i++) {
		struct acc *a = &rb->accs[i];
		uint64_t *team = util_hash_find(&rb->index, 2, a->site, 0);
		uint32_t slot = slot_of(rb, a->tid);

		if (team)
			a->f[SES_OMPT_F_TEAM_SUM] = a->f[SES_OMPT_F_REGIONS] * *team;
		for (int f = 1; f < SES_OMPT_F_MAX; f++)
			if (a->f[f])
				(*vals)[n++] = (struct ses_ompt_record){
					a->f[f], a->tid, SES_OMPT_VALUE, (uint16_t)f, a->site, slot
				};
	}
	*nvals = n;
	return 0;
}

static bool summary_came(const struct ses_ompt *o)
{
	for (size_t i = 0; i < o->nvalues; i++)
		if (o->values[i].how == SES_OMPT_F_SCOPE && !o->values[i].site &&
		    !o->values[i].slot)
			return true;
	return false;
}

int rpt_omp_window_rebuild(struct rpt_omp_proc *p, const struct ses_ompt *o,
			   const struct rpt_omp_pauses *pauses, struct ses_ompt_record **vals,
			   size_t *nvals)
{
	struct rebuild rb = { .pz = pauses };
	struct ses_ompt_record *ev = NULL;
	size_t n = 0;
	int ret = 0;

	*vals = NULL;
	*nvals = 0;
	if ((summary_came(o) && !pauses) || !o->nevents)
		return 0;
	p->rebuilt = true;
	p->paused = pauses != NULL;
	ev = malloc(sizeof(*ev) * o->nevents);
	if (!ev)
		return -ENOMEM;
	memcpy(ev, o->events, sizeof(*ev) * o->nevents);
	n = o->nevents;
	util_qsort(ev, n, sizeof(*ev), cmp_event);
	for (size_t i = 0, j; !ret && i < n; i = j) {
		for (j = i + 1; j < n && ev[j].tid == ev[i].tid;)
			j++;
		ret = one_thread(p, &rb, ev + i, j - i);
	}
	if (!ret)
		ret = emit(&rb, o, vals, nvals);
	free(ev);
	free(rb.accs);
	util_hash_release(&rb.index);
	return ret;
}

void rpt_omp_write_window(const struct rpt_omp_proc *p, FILE *f)
{
	uint64_t by_exit = 0;

	for (int i = 0; i < p->nsites; i++)
		if (p->sites[i].kind == SES_OMPT_SITE_PARALLEL)
			by_exit += p->sites[i].f[SES_OMPT_F_CUT_EXIT];
	if (p->rebuilt) {
		fprintf(f,
			"Window,\"%s: its region figures are rebuilt from the region records of the "
			"instances %s saw whole (no fork/join overhead, no idle time per region%s)\"\n",
			p->paused ? "the session was paused" : "the process outlived the window",
			p->paused ? "the windows between pauses" : "the window",
			p->scope == SES_OMPT_SCOPE_FULL ? ""
							: "; waits only with --openmp-scope full");
		fprintf(f,
			"Window Cut,\"%" PRIu64
			" region instances cut at the window's start, %" PRIu64
			" region instances cut at the window's end (not counted)\"\n",
			p->cut_start, p->cut_end);
	}
	if (by_exit)
		fprintf(f,
			"Cut By Exit,\"%" PRIu64 " region instances cut by exit() (counted, their "
			"time up to the exit)\"\n",
			by_exit);
}
