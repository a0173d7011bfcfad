// SPDX-License-Identifier: MIT
/*
 * Timer samples labelled with their thread's OpenMP state (openmp_state.h says which and
 * how), and the late threads of each region's barriers. Three passes over one process's
 * records: pair each thread's BEGIN/END and WAIT_BEGIN/WAIT_END into nested intervals;
 * join each site's implicit tasks into region instances (their hulls); walk each thread's
 * samples against its intervals. The records are the tool's, read as untrusted: a pair
 * that does not match is dropped, never guessed (openmp.c counts them as unpaired).
 */
#include "report/openmp_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_NEST 64	 /* implicit tasks open on one thread (openmp.c's bound) */
#define MAX_WAITS 8	 /* waits open on one thread: a lock wait in a task in a barrier */
#define HULL_LOOKBACK 64 /* instances looked back over for one sample's enclosing one */

const char *rpt_omp_state_name(int state)
{
	static const char *const names[RPT_OMP_NSTATES] = {
		"work",	   "barrier wait", "lock wait", "other wait",
		"runtime", "overhead",	   "serial",	"idle",
	};

	return state >= 0 && state < RPT_OMP_NSTATES ? names[state] : "unknown";
}

/* ---- the samples, kept while they are read ---- */

int rpt_omp_samples_begin(struct rpt *r)
{
	struct stat sb;

	if (r->info.foreign || fstatat(r->dfd, SES_OMPT_DIR, &sb, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(sb.st_mode))
		return 0;
	r->omp_samples = calloc(1, sizeof(*r->omp_samples));
	return r->omp_samples ? 0 : -ENOMEM;
}

int rpt_omp_note_sample(struct rpt *r, uint32_t tid, uint32_t thread, int module, uint64_t addr,
			uint64_t time, uint64_t units)
{
	struct rpt_omp_samples *s = r->omp_samples;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		struct rpt_omp_sample *g = realloc(s->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		s->v = g;
		s->cap = cap;
	}
	s->v[s->n++] = (struct rpt_omp_sample){ time, addr, units, tid, thread, module };
	s->sorted = false;
	return 0;
}

void rpt_omp_samples_free(struct rpt *r)
{
	if (!r->omp_samples)
		return;
	free(r->omp_samples->v);
	free(r->omp_samples->runtime);
	util_hash_release(&r->omp_samples->funcs);
	free(r->omp_samples);
	r->omp_samples = NULL;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct rpt_omp_sample *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* The function of sample @s (cached by place); -errno. */
static int func_of(struct rpt *r, const struct rpt_omp_sample *s)
{
	struct rpt_omp_samples *ss = r->omp_samples;
	uint64_t *h = util_hash_slot(&ss->funcs, (uint64_t)(uint32_t)s->module, s->addr, 0);
	int func, proc, ret;

	if (!h)
		return -ENOMEM;
	if (*h)
		return (int)(*h - 1);
	ret = rpt_resolve(r, (int)s->thread, s->module, s->addr, &func, &proc);
	if (ret)
		return ret;
	*h = (uint64_t)func + 1;
	return func;
}

/* Is @module the OpenMP runtime's (or our tool's, called from it)? By its file name: the
 * runtimes a traced program can have loaded. */
static bool runtime_module(struct rpt *r, int module)
{
	static const char *const names[] = { "libomp.so", "libiomp5.so", "libgomp.so",
					     "libomptarget.so", "libAMDProfileController.so" };
	struct rpt_omp_samples *ss = r->omp_samples;
	const char *path, *base;

	if (module < 0 || module >= r->world.nmodules)
		return false;
	if (module >= ss->nruntime) {
		signed char *g = realloc(ss->runtime, (size_t)r->world.nmodules);

		if (!g)
			return false; /* no memory: work, as a sample in user code */
		memset(g + ss->nruntime, 0, (size_t)(r->world.nmodules - ss->nruntime));
		ss->runtime = g;
		ss->nruntime = r->world.nmodules;
	}
	if (!ss->runtime[module]) {
		path = r->world.modules[module].path;
		base = path ? strrchr(path, '/') : NULL;
		base = base ? base + 1 : path;
		ss->runtime[module] = -1;
		for (size_t i = 0; base && i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(base, names[i], strlen(names[i])))
				ss->runtime[module] = 1;
	}
	return ss->runtime[module] > 0;
}

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

struct open_task {
	size_t at; /* its place in tasks (filled when it ends) */
	struct ival iv;
};

struct pairing {
	struct ival task[MAX_NEST], wait[MAX_WAITS];
	int wait_depth[MAX_WAITS]; /* the task depth each wait opened at */
	int ntask, nwait;
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
	if (k < 0)
		return 0;
	iv = st->wait[k];
	st->nwait = k;
	iv.e = e->t >= iv.b ? e->t : iv.b;
	return push_ival(waits, &iv);
}

/* Pair the BEGIN/END and WAIT records of every thread: tasks and waits, each sorted by
 * (tid, begin) afterwards, a wait's .task the index of the task it is in. */
static int pair_records(const struct ses_ompt *o, struct ivals *tasks, struct ivals *waits)
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

		if (i && e->tid != ev[i - 1].tid)
			st.ntask = st.nwait = 0; /* what a thread left open ends with it */
		if (e->kind == SES_OMPT_BEGIN) {
			if (st.ntask < MAX_NEST && e->how == st.ntask)
				st.task[st.ntask++] = iv;
		} else if (e->kind == SES_OMPT_END) {
			ret = end_task(&st, e, tasks, waits);
		} else if (e->kind == SES_OMPT_WAIT_BEGIN) {
			if (st.nwait < MAX_WAITS) {
				st.wait_depth[st.nwait] = st.ntask;
				st.wait[st.nwait++] = iv;
			}
		} else if (e->kind == SES_OMPT_WAIT_END) {
			ret = end_wait(&st, e, waits);
		}
	}
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

struct model {
	struct ivals tasks, waits;
	struct hull *hulls;
	size_t nhulls;
	struct member *members;
	size_t nmembers;
};

static const struct ival *sort_tasks_by_site;

static int cmp_task_site(const void *a, const void *b)
{
	const struct ival *x = &sort_tasks_by_site[*(const size_t *)a];
	const struct ival *y = &sort_tasks_by_site[*(const size_t *)b];

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
static int build_hulls(struct model *m)
{
	size_t n = m->tasks.n, *ord = malloc(sizeof(*ord) * (n ? n : 1));
	int ret = -ENOMEM;

	m->hulls = malloc(sizeof(*m->hulls) * (n ? n : 1));
	m->members = malloc(sizeof(*m->members) * (n ? n : 1));
	if (!ord || !m->hulls || !m->members)
		goto out;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	sort_tasks_by_site = m->tasks.v;
	util_qsort(ord, n, sizeof(*ord), cmp_task_site);
	for (size_t i = 0; i < n; i++) {
		struct ival *t = &m->tasks.v[ord[i]];
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

/* ---- pass 3: the samples ---- */

static struct rpt_omp_hot *hot_of(struct rpt_omp_proc *p, uint32_t site)
{
	uint64_t *hs = site ? util_hash_find(&p->index, 1, site, 0) : NULL;
	struct rpt_omp_hot **h = hs ? &p->sites[*hs - 1].hot : &p->hot;

	if (!*h)
		*h = calloc(1, sizeof(**h));
	return *h;
}

static int tally(struct rpt_omp_proc *p, uint32_t site, int state, int func, uint64_t units)
{
	struct rpt_omp_hot *h = hot_of(p, site);

	if (!h || util_hash_add(&h->funcs, (uint64_t)state, (uint64_t)func, units))
		return -ENOMEM;
	h->state_samples[state] += units;
	return 0;
}

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
static uint32_t overhead_site(const struct model *m, uint32_t tid, uint64_t t)
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

/* Label the samples of one thread (@v, @n of them, sorted by time). */
static int label_thread(struct rpt *r, struct rpt_omp_proc *p, const struct model *m,
			const struct rpt_omp_sample *v, size_t n)
{
	uint32_t tid = v[0].tid;
	size_t t0 = first_of(m->tasks.v, m->tasks.n, tid),
	       w0 = first_of(m->waits.v, m->waits.n, tid);
	size_t t1 = t0, w1 = w0;
	struct cursor tc, wc;

	while (t1 < m->tasks.n && m->tasks.v[t1].tid == tid)
		t1++;
	while (w1 < m->waits.n && m->waits.v[w1].tid == tid)
		w1++;
	tc = (struct cursor){ .v = m->tasks.v + t0, .n = t1 - t0 };
	wc = (struct cursor){ .v = m->waits.v + w0, .n = w1 - w0 };
	for (size_t i = 0; i < n; i++) {
		const struct rpt_omp_sample *s = &v[i];
		const struct ival *task, *wait;
		uint32_t site = 0;
		int state, func = func_of(r, s);

		if (func < 0)
			return func;
		advance(&tc, s->time);
		advance(&wc, s->time);
		task = tc.depth ? &tc.v[tc.stack[tc.depth - 1]] : NULL;
		wait = wc.depth ? &wc.v[wc.stack[wc.depth - 1]] : NULL;
		if (wait) {
			state = state_of_wait(wait->how);
			site = task ? task->site : 0;
		} else if (task) {
			site = task->site;
			state = p->scope != SES_OMPT_SCOPE_FULL && runtime_module(r, s->module)
					? RPT_OMP_RUNTIME
					: RPT_OMP_WORK;
		} else if ((site = overhead_site(m, tid, s->time))) {
			state = RPT_OMP_OVERHEAD;
		} else {
			state = tid == (uint32_t)p->pid ? RPT_OMP_SERIAL : RPT_OMP_IDLE;
		}
		if (tally(p, site, state, func, s->units))
			return -ENOMEM;
	}
	return 0;
}

static int label_samples(struct rpt *r, struct rpt_omp_proc *p, const struct model *m)
{
	struct rpt_omp_samples *ss = r->omp_samples;
	size_t i = 0;

	if (!ss->sorted) {
		util_qsort(ss->v, ss->n, sizeof(*ss->v), cmp_sample);
		ss->sorted = true;
	}
	while (i < ss->n) {
		size_t j = i;
		const struct rpt_thread *t = &r->world.threads[ss->v[i].thread];

		while (j < ss->n && ss->v[j].tid == ss->v[i].tid)
			j++;
		if (t->pid == p->pid) {
			int ret = label_thread(r, p, m, ss->v + i, j - i);

			if (ret)
				return ret;
		}
		i = j;
	}
	return 0;
}

/* ---- late threads ---- */

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

static struct rpt_omp_late *late_for(struct rpt_omp_hot *h, uint16_t kind, uint32_t slot,
				     uint32_t tid)
{
	for (int i = 0; i < h->nlate; i++)
		if (h->late[i].kind == kind && h->late[i].slot == slot && h->late[i].tid == tid)
			return &h->late[i];
	if (h->nlate == h->caplate) {
		int cap = h->caplate ? h->caplate * 2 : 4;
		struct rpt_omp_late *g = realloc(h->late, sizeof(*g) * (size_t)cap);

		if (!g)
			return NULL;
		h->late = g;
		h->caplate = cap;
	}
	memset(&h->late[h->nlate], 0, sizeof(h->late[0]));
	h->late[h->nlate].kind = kind;
	h->late[h->nlate].slot = slot;
	h->late[h->nlate].tid = tid;
	return &h->late[h->nlate++];
}

/* The late thread's samples in [from, to]: what it did while the others waited. */
static int blame(struct rpt *r, struct rpt_omp_late *l, uint64_t from, uint64_t to)
{
	const struct rpt_omp_samples *ss = r->omp_samples;
	size_t lo = 0, hi = ss->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rpt_omp_sample *s = &ss->v[mid];

		if (s->tid < l->tid || (s->tid == l->tid && s->time < from))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ss->n && ss->v[lo].tid == l->tid && ss->v[lo].time <= to; lo++) {
		int func = func_of(r, &ss->v[lo]);

		if (func < 0)
			return func;
		if (util_hash_add(&l->funcs, 0, (uint64_t)func, ss->v[lo].units))
			return -ENOMEM;
		l->samples += ss->v[lo].units;
	}
	return 0;
}

/* One barrier episode (@n >= 2 arrivals, sorted by time): its last arrival is blamed. */
static int episode(struct rpt *r, struct rpt_omp_proc *p, const struct model *m,
		   const struct arrival *v, size_t n)
{
	const struct arrival *last = &v[n - 1];
	struct rpt_omp_hot *h = hot_of(p, m->hulls[last->hull].site);
	struct rpt_omp_late *l;
	uint64_t blamed = 0;

	if (!h)
		return -ENOMEM;
	h->episodes[last->kind == SES_OMPT_WAIT_BARRIER_EXPLICIT]++;
	for (size_t i = 0; i + 1 < n; i++)
		blamed += last->a - v[i].a;
	if (!(l = late_for(h, last->kind, last->slot, last->tid)))
		return -ENOMEM;
	l->times++;
	l->blamed_ns += blamed;
	l->late_ns += blamed / (n - 1);
	return blame(r, l, v[0].a, last->a);
}

/* Each member's k-th barrier wait in one instance is the k-th barrier of the team. */
static int late_threads(struct rpt *r, struct rpt_omp_proc *p, const struct model *m)
{
	struct arrival *v = malloc(sizeof(*v) * (m->waits.n ? m->waits.n : 1));
	struct util_hash next = { 0 };
	size_t n = 0;
	int ret = -ENOMEM;

	if (!v)
		goto out;
	for (size_t i = 0; i < m->waits.n; i++) { /* by (tid, begin): k grows per thread */
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
	ret = 0;
	for (size_t i = 0, j; !ret && i < n; i = j) {
		for (j = i; j < n && v[j].hull == v[i].hull && v[j].k == v[i].k; j++)
			;
		if (j - i >= 2)
			ret = episode(r, p, m, v + i, j - i);
	}
out:
	util_hash_release(&next);
	free(v);
	return ret;
}

/* Each wait's task: the innermost task of its thread holding its begin. */
static void waits_in_tasks(struct model *m)
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

int rpt_omp_state_label(struct rpt *r, struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	struct model m = { 0 };
	int ret;

	if (!r->omp_samples)
		return 0;
	ret = pair_records(o, &m.tasks, &m.waits);
	if (ret)
		goto out;
	util_qsort(m.tasks.v, m.tasks.n, sizeof(*m.tasks.v), cmp_ival);
	util_qsort(m.waits.v, m.waits.n, sizeof(*m.waits.v), cmp_ival);
	ret = build_hulls(&m);
	if (ret)
		goto out;
	waits_in_tasks(&m);
	ret = label_samples(r, p, &m);
	if (!ret && p->scope == SES_OMPT_SCOPE_FULL)
		ret = late_threads(r, p, &m);
out:
	free(m.tasks.v);
	free(m.waits.v);
	free(m.hulls);
	free(m.members);
	return ret;
}

/* ---- merging and freeing ---- */

static int merge_late(struct rpt_omp_hot *to, const struct rpt_omp_late *from)
{
	struct rpt_omp_late *l = late_for(to, from->kind, from->slot, from->tid);

	if (!l)
		return -ENOMEM;
	l->times += from->times;
	l->late_ns += from->late_ns;
	l->blamed_ns += from->blamed_ns;
	l->samples += from->samples;
	for (size_t i = 0; i < from->funcs.cap; i++)
		if (from->funcs.e[i].used &&
		    util_hash_add(&l->funcs, 0, from->funcs.e[i].b, from->funcs.e[i].val))
			return -ENOMEM;
	return 0;
}

int rpt_omp_hot_merge(struct rpt_omp_site *to, struct rpt_omp_site *from)
{
	struct rpt_omp_hot *a, *b = from->hot;

	if (!b)
		return 0;
	if (!to->hot) {
		to->hot = b;
		from->hot = NULL;
		return 0;
	}
	a = to->hot;
	for (int s = 0; s < RPT_OMP_NSTATES; s++)
		a->state_samples[s] += b->state_samples[s];
	a->episodes[0] += b->episodes[0];
	a->episodes[1] += b->episodes[1];
	for (size_t i = 0; i < b->funcs.cap; i++)
		if (b->funcs.e[i].used &&
		    util_hash_add(&a->funcs, b->funcs.e[i].a, b->funcs.e[i].b, b->funcs.e[i].val))
			return -ENOMEM;
	for (int i = 0; i < b->nlate; i++)
		if (merge_late(a, &b->late[i]))
			return -ENOMEM;
	rpt_omp_hot_free(b);
	from->hot = NULL;
	return 0;
}

void rpt_omp_hot_free(struct rpt_omp_hot *h)
{
	if (!h)
		return;
	util_hash_release(&h->funcs);
	for (int i = 0; i < h->nlate; i++)
		util_hash_release(&h->late[i].funcs);
	free(h->late);
	free(h);
}
