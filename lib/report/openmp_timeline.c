// SPDX-License-Identifier: MIT
/*
 * One process's OMPT records as each thread's OpenMP timeline (openmp_state.h): pure
 * functions of the records, no report state (tests/unit/test_omp_timeline.c). Three
 * steps: pair each thread's BEGIN/END and WAIT_BEGIN/WAIT_END into nested intervals; join
 * each site's implicit tasks into region instances (their hulls); then a thread's points
 * in time are labelled against its intervals, and each instance's barriers become
 * episodes. The records are the tool's, read as untrusted: a pair that does not match is
 * dropped, never guessed (openmp.c counts them as unpaired).
 */
#include "report/openmp_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 64	 /* implicit tasks open on one thread (openmp.c's bound) */
#define MAX_WAITS 8	 /* waits open on one thread: a lock wait in a task in a barrier */
#define HULL_LOOKBACK 64 /* instances looked back over for one point's enclosing one */

/* ---- pass 1: each thread's intervals ---- */

struct ival {
	uint64_t b, e;
	uint32_t tid, site, slot;
	uint16_t how; /* a task: its depth; a wait: its kind */
	int task;     /* a wait: the task it is in (index), -1 none; a task: its hull */
};

struct ivals {
	struct ival *v;
	size_t n, cap;
};

static int push_ival(struct ivals *a, const struct ival *iv)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		struct ival *g = realloc(a->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		a->v = g;
		a->cap = cap;
	}
	a->v[a->n++] = *iv;
	return 0;
}

struct ev {
	uint64_t t;
	uint32_t tid, site, slot, seq;
	uint16_t kind, how;
};

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* a thread's own order at one stamp */
}

struct pairing {
	struct ival task[MAX_NEST], wait[MAX_WAITS];
	int wait_depth[MAX_WAITS]; /* the task depth each wait opened at */
	int ntask, nwait;
	uint64_t unpaired; /* wait records without their pair, dropped */
};

/* A task's END: close the waits opened inside it at its end (the tool closes a wait still
 * open there without a record: a worker's last implicit barrier, ended only at shutdown),
 * then the task. */
static int end_task(struct pairing *st, const struct ev *e, struct ivals *tasks,
		    struct ivals *waits)
{
	struct ival iv;

	if (!st->ntask || st->task[st->ntask - 1].site != e->site ||
	    st->task[st->ntask - 1].how != e->how)
		return 0;
	while (st->nwait && st->wait_depth[st->nwait - 1] >= st->ntask) {
		iv = st->wait[--st->nwait];
		iv.e = e->t >= iv.b ? e->t : iv.b;
		if (push_ival(waits, &iv))
			return -ENOMEM;
	}
	iv = st->task[--st->ntask];
	iv.e = e->t >= iv.b ? e->t : iv.b;
	return push_ival(tasks, &iv);
}

/* A WAIT_END closes the innermost open wait of its kind (and any opened inside it). */
static int end_wait(struct pairing *st, const struct ev *e, struct ivals *waits)
{
	struct ival iv;
	int k = st->nwait - 1;

	while (k >= 0 && st->wait[k].how != e->how)
		k--;
	if (k < 0) {
		st->unpaired++;
		return 0;
	}
	st->unpaired += (uint64_t)(st->nwait - 1 - k); /* begun inside it, never ended */
	iv = st->wait[k];
	st->nwait = k;
	iv.e = e->t >= iv.b ? e->t : iv.b;
	return push_ival(waits, &iv);
}

/* Pair the BEGIN/END and WAIT records of every thread: tasks and waits, each sorted by
 * (tid, begin) afterwards, a wait's .task the index of the task it is in. */
static int pair_records(const struct ses_ompt *o, struct ivals *tasks, struct ivals *waits,
			uint64_t *unpaired)
{
	struct ev *ev = malloc(sizeof(*ev) * (o->nevents ? o->nevents : 1));
	struct pairing st = { .ntask = 0 };
	size_t n = 0;
	int ret = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < o->nevents; i++) {
		const struct ses_ompt_record *e = &o->events[i];

		ev[n++] = (struct ev){ e->value,    e->tid,  e->site, e->slot,
				       (uint32_t)i, e->kind, e->how };
	}
	util_qsort(ev, n, sizeof(*ev), cmp_ev);
	for (size_t i = 0; !ret && i < n; i++) {
		const struct ev *e = &ev[i];
		struct ival iv = { e->t, e->t, e->tid, e->site, e->slot, e->how, -1 };

		if (i && e->tid != ev[i - 1].tid) { /* what a thread left open ends with it */
			st.unpaired += (uint64_t)st.nwait;
			st.ntask = st.nwait = 0;
		}
		if (e->kind == SES_OMPT_BEGIN) {
			if (st.ntask < MAX_NEST && e->how == st.ntask)
				st.task[st.ntask++] = iv;
		} else if (e->kind == SES_OMPT_END) {
			ret = end_task(&st, e, tasks, waits);
		} else if (e->kind == SES_OMPT_WAIT_BEGIN) {
			if (st.nwait < MAX_WAITS) {
				st.wait_depth[st.nwait] = st.ntask;
				st.wait[st.nwait++] = iv;
			} else {
				st.unpaired++;
			}
		} else if (e->kind == SES_OMPT_WAIT_END) {
			ret = end_wait(&st, e, waits);
		}
	}
	*unpaired = st.unpaired + (uint64_t)st.nwait;
	free(ev);
	return ret;
}

static int cmp_ival(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	/* the enclosing one first: it ends later */
	return x->e > y->e ? -1 : x->e < y->e;
}

/* ---- pass 2: region instances ---- */

struct hull {
	uint64_t b, e;
	uint32_t site;
};

/* A thread's membership of one instance, for its overhead. */
struct member {
	uint64_t b, e;
	uint32_t tid, hull;
};

struct rpt_omp_timeline {
	struct ivals tasks, waits;
	struct hull *hulls;
	size_t nhulls;
	struct member *members;
	size_t nmembers;
	uint64_t unpaired_waits;
};

/* A task's place in the order of build_hulls: by site, then begin. */
struct task_key {
	uint64_t b;
	uint32_t site;
	size_t i;
};

static int cmp_task_key(const void *a, const void *b)
{
	const struct task_key *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->hull < y->hull ? -1 : x->hull > y->hull;
}

/* Each site's implicit tasks that overlap, joined: one instance (or instances of one
 * site running at once, nested, which stay one). tasks.v[i].task becomes its hull. */
static int build_hulls(struct rpt_omp_timeline *m)
{
	size_t n = m->tasks.n;
	struct task_key *ord = malloc(sizeof(*ord) * (n ? n : 1));
	int ret = -ENOMEM;

	m->hulls = malloc(sizeof(*m->hulls) * (n ? n : 1));
	m->members = malloc(sizeof(*m->members) * (n ? n : 1));
	if (!ord || !m->hulls || !m->members)
		goto out;
	for (size_t i = 0; i < n; i++)
		ord[i] = (struct task_key){ m->tasks.v[i].b, m->tasks.v[i].site, i };
	util_qsort(ord, n, sizeof(*ord), cmp_task_key);
	for (size_t i = 0; i < n; i++) {
		struct ival *t = &m->tasks.v[ord[i].i];
		struct hull *h = m->nhulls ? &m->hulls[m->nhulls - 1] : NULL;

		if (!h || h->site != t->site || t->b > h->e)
			m->hulls[m->nhulls++] = (struct hull){ t->b, t->e, t->site };
		else if (t->e > h->e)
			h->e = t->e;
		t->task = (int)(m->nhulls - 1);
	}
	/* one membership per (thread, instance) */
	for (size_t i = 0; i < n; i++) {
		const struct ival *t = &m->tasks.v[i];

		m->members[m->nmembers++] = (struct member){ 0, 0, t->tid, (uint32_t)t->task };
	}
	util_qsort(m->members, m->nmembers, sizeof(*m->members), cmp_member);
	{
		size_t k = 0;

		for (size_t i = 0; i < m->nmembers; i++) {
			struct member *x = &m->members[i];

			x->b = m->hulls[x->hull].b;
			x->e = m->hulls[x->hull].e;
			if (k && m->members[k - 1].tid == x->tid &&
			    m->members[k - 1].hull == x->hull)
				continue;
			m->members[k++] = *x;
		}
		m->nmembers = k;
	}
	util_qsort(m->members, m->nmembers, sizeof(*m->members), cmp_member);
	ret = 0;
out:
	free(ord);
	return ret;
}

/* ---- the points ---- */

/* An active-interval stack over one thread's nested intervals (sorted by begin, the
 * enclosing first): after advance(t), its top is the innermost interval holding t. */
struct cursor {
	const struct ival *v;
	size_t n, next;
	size_t stack[MAX_NEST + MAX_WAITS];
	int depth;
};

static void advance(struct cursor *c, uint64_t t)
{
	while (c->next < c->n && c->v[c->next].b <= t) {
		while (c->depth && c->v[c->stack[c->depth - 1]].e < c->v[c->next].b)
			c->depth--;
		if (c->depth < (int)(sizeof(c->stack) / sizeof(c->stack[0])))
			c->stack[c->depth++] = c->next;
		c->next++;
	}
	while (c->depth && c->v[c->stack[c->depth - 1]].e < t)
		c->depth--;
}

/* The first of @n intervals (sorted by tid) of @tid. */
static size_t first_of(const struct ival *v, size_t n, uint32_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The instance @tid is a member of that holds @t, as its site, or 0. */
static uint32_t overhead_site(const struct rpt_omp_timeline *m, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = m->nmembers;

	/* the last membership of @tid beginning at or before @t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct member *x = &m->members[mid];

		if (x->tid < tid || (x->tid == tid && x->b <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; lo > 0 && k < HULL_LOOKBACK; k++, lo--) {
		const struct member *x = &m->members[lo - 1];

		if (x->tid != tid)
			break;
		if (x->e >= t)
			return m->hulls[x->hull].site;
	}
	return 0;
}

static int state_of_wait(uint16_t how)
{
	if (how == SES_OMPT_WAIT_BARRIER_IMPLICIT || how == SES_OMPT_WAIT_BARRIER_EXPLICIT)
		return RPT_OMP_BARRIER;
	return how == SES_OMPT_WAIT_MUTEX ? RPT_OMP_LOCK : RPT_OMP_OTHER_WAIT;
}

/* ---- barrier episodes ---- */

struct arrival {
	uint64_t a;
	uint32_t hull, k, tid, slot;
	uint16_t kind;
};

static int cmp_arrival(const void *x_, const void *y_)
{
	const struct arrival *x = x_, *y = y_;

	if (x->hull != y->hull)
		return x->hull < y->hull ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->a < y->a ? -1 : x->a > y->a;
}

/* Each wait's task: the innermost task of its thread holding its begin. */
static void waits_in_tasks(struct rpt_omp_timeline *m)
{
	size_t ti = 0;

	for (size_t i = 0; i < m->waits.n;) {
		uint32_t tid = m->waits.v[i].tid;
		struct cursor c;

		ti = first_of(m->tasks.v, m->tasks.n, tid);
		c = (struct cursor){ .v = m->tasks.v + ti, .n = 0 };
		while (ti + c.n < m->tasks.n && m->tasks.v[ti + c.n].tid == tid)
			c.n++;
		for (; i < m->waits.n && m->waits.v[i].tid == tid; i++) {
			advance(&c, m->waits.v[i].b);
			m->waits.v[i].task = c.depth ? (int)(ti + c.stack[c.depth - 1]) : -1;
		}
	}
}

struct rpt_omp_timeline *rpt_omp_timeline_new(const struct ses_ompt *o)
{
	struct rpt_omp_timeline *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (pair_records(o, &m->tasks, &m->waits, &m->unpaired_waits))
		goto fail;
	util_qsort(m->tasks.v, m->tasks.n, sizeof(*m->tasks.v), cmp_ival);
	util_qsort(m->waits.v, m->waits.n, sizeof(*m->waits.v), cmp_ival);
	if (build_hulls(m))
		goto fail;
	waits_in_tasks(m);
	return m;
fail:
	rpt_omp_timeline_free(m);
	return NULL;
}

uint64_t rpt_omp_timeline_unpaired_waits(const struct rpt_omp_timeline *m)
{
	return m->unpaired_waits;
}

void rpt_omp_timeline_free(struct rpt_omp_timeline *m)
{
	if (!m)
		return;
	free(m->tasks.v);
	free(m->waits.v);
	free(m->hulls);
	free(m->members);
	free(m);
}

/* Label one thread's points (@v, @n of them, sorted by time). */
static void label_thread(const struct rpt_omp_timeline *m, int pid, uint16_t scope,
			 struct rpt_omp_point *v, size_t n)
{
	uint32_t tid = v[0].tid;
	size_t t0 = first_of(m->tasks.v, m->tasks.n, tid);
	size_t w0 = first_of(m->waits.v, m->waits.n, tid);
	size_t t1 = t0, w1 = w0;
	struct cursor tc, wc;

	while (t1 < m->tasks.n && m->tasks.v[t1].tid == tid)
		t1++;
	while (w1 < m->waits.n && m->waits.v[w1].tid == tid)
		w1++;
	tc = (struct cursor){ .v = m->tasks.v + t0, .n = t1 - t0 };
	wc = (struct cursor){ .v = m->waits.v + w0, .n = w1 - w0 };
	for (size_t i = 0; i < n; i++) {
		struct rpt_omp_point *s = &v[i];
		const struct ival *task, *wait;

		advance(&tc, s->time);
		advance(&wc, s->time);
		task = tc.depth ? &tc.v[tc.stack[tc.depth - 1]] : NULL;
		wait = wc.depth ? &wc.v[wc.stack[wc.depth - 1]] : NULL;
		s->site = task ? task->site : 0;
		if (wait)
			s->state = (uint8_t)state_of_wait(wait->how);
		else if (task)
			s->state = scope != SES_OMPT_SCOPE_FULL && s->in_runtime ? RPT_OMP_RUNTIME
										 : RPT_OMP_WORK;
		else if ((s->site = overhead_site(m, tid, s->time)))
			s->state = RPT_OMP_OVERHEAD;
		else
			s->state = tid == (uint32_t)pid ? RPT_OMP_SERIAL : RPT_OMP_IDLE;
	}
}

void rpt_omp_timeline_label(const struct rpt_omp_timeline *m, int pid, uint16_t scope,
			    struct rpt_omp_point *v, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].tid == v[i].tid; j++)
			;
		label_thread(m, pid, scope, v + i, j - i);
	}
}

/* One episode of @n >= 2 arrivals, sorted by time: the last one is blamed. */
static struct rpt_omp_episode episode(const struct rpt_omp_timeline *m, const struct arrival *v,
				      size_t n)
{
	const struct arrival *last = &v[n - 1];
	struct rpt_omp_episode e = { .site = m->hulls[last->hull].site,
				     .late_slot = last->slot,
				     .late_tid = last->tid,
				     .arrivals = (uint32_t)n,
				     .kind = last->kind,
				     .first = v[0].a,
				     .last = last->a };

	for (size_t i = 0; i + 1 < n; i++)
		e.blamed_ns += last->a - v[i].a;
	e.late_ns = e.blamed_ns / (n - 1);
	return e;
}

int rpt_omp_timeline_episodes(const struct rpt_omp_timeline *m, struct rpt_omp_episode **out,
			      size_t *nout)
{
	struct arrival *v = malloc(sizeof(*v) * (m->waits.n ? m->waits.n : 1));
	struct rpt_omp_episode *e = malloc(sizeof(*e) * (m->waits.n ? m->waits.n : 1));
	struct util_hash next = { 0 };
	size_t n = 0, ne = 0;
	int ret = -ENOMEM;

	if (!v || !e)
		goto out;
	/* by (tid, begin): a member's k-th barrier of an instance is the team's k-th */
	for (size_t i = 0; i < m->waits.n; i++) {
		const struct ival *w = &m->waits.v[i];
		const struct ival *t = w->task >= 0 ? &m->tasks.v[w->task] : NULL;
		uint64_t *k;

		if (!t || w->site != t->site || state_of_wait(w->how) != RPT_OMP_BARRIER)
			continue;
		if (!(k = util_hash_slot(&next, (uint64_t)t->task, w->tid, 0)))
			goto out;
		v[n++] = (struct arrival){ w->b,   (uint32_t)t->task, (uint32_t)(*k)++,
					   w->tid, w->slot,	      w->how };
	}
	util_qsort(v, n, sizeof(*v), cmp_arrival);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].hull == v[i].hull && v[j].k == v[i].k; j++)
			;
		if (j - i >= 2) /* one member alone at a barrier waited for no one */
			e[ne++] = episode(m, v + i, j - i);
	}
	*out = e;
	*nout = ne;
	e = NULL;
	ret = 0;
out:
	util_hash_release(&next);
	free(v);
	free(e);
	return ret;
}
