// SPDX-License-Identifier: MIT
/*
 * OpenMP slices for a trace (report.h): each process's .ompt records paired into
 * intervals while the file is loaded (openmp.c calls in), for lib/export's trace.json.
 *
 * Pairing follows each thread's records in file order, which is the order its thread
 * emitted them (one ring per process, drained in order): a BEGIN opens an implicit task
 * at its nesting depth, the END of that depth and site closes it; a WAIT_END closes the
 * innermost open wait of its kind and site; the target records of one op follow each
 * other on their thread, as openmp_target.c pairs them. What does not pair is counted,
 * never guessed. The tool stamps a worker's late ends at the instance's end (ompt.c), so
 * a thread's waits lie inside its implicit tasks by construction.
 *
 * Bounded: at most RPT_OMP_SLICES_MAX slices per report, the earliest, so the trace is
 * whole up to a time (left_from) and says so.
 */
#include "report/internal.h"
#include "openmp/openmp.h"
#include "report/omp_trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NEST 64	 /* implicit tasks open per thread (the tool follows 8) */
#define WAITS 16 /* waits open per thread: a lock wait inside a task run in a barrier */

static struct rpt_omp_slice *add(struct rpt_omp_slices *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct rpt_omp_slice *g = realloc(s->v, sizeof(*g) * cap);

		if (!g)
			return NULL;
		s->v = g;
		s->cap = cap;
	}
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	return &s->v[s->n++];
}

static int cmp_rec(const void *a, const void *b)
{
	const struct ses_ompt_record *const *x = a, *const *y = b;

	if ((*x)->tid != (*y)->tid)
		return (*x)->tid < (*y)->tid ? -1 : 1;
	return *x < *y ? -1 : *x > *y; /* file order within a thread */
}

/* Pointers to @n records of @v, by (tid, file order). NULL without memory. */
static const struct ses_ompt_record **by_thread(const struct ses_ompt_record *v, size_t n)
{
	const struct ses_ompt_record **p = malloc(sizeof(*p) * (n ? n : 1));

	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++)
		p[i] = &v[i];
	util_qsort(p, n, sizeof(*p), cmp_rec);
	return p;
}

struct host_state {
	struct ses_ompt_record task[NEST], wait[WAITS];
	int ntask, nwait;
};

static struct rpt_omp_slice *wait_slice(struct rpt_omp_trace *t, const struct ses_ompt_record *b,
					uint64_t end, int32_t proc)
{
	struct rpt_omp_slice *s = add(&t->thr);

	if (s)
		*s = (struct rpt_omp_slice){ .begin = b->value,
					     .end = end > b->value ? end : b->value,
					     .tid = b->tid,
					     .site = b->site,
					     .proc = proc,
					     .kind = RPT_OMP_SLICE_WAIT,
					     .how = b->how };
	return s;
}

/* A worker's last barrier wait of a region has no end of its own (libomp says it only
 * when the thread wakes for the next region): the tool ends it with the implicit task
 * (ompt.c's close_frame counts it so), and so does the trace. 0 or -ENOMEM. */
static int close_waits(struct rpt_omp_trace *t, struct host_state *h,
		       const struct ses_ompt_record *e, int32_t proc)
{
	while (h->nwait && h->wait[h->nwait - 1].how != SES_OMPT_WAIT_MUTEX &&
	       h->wait[h->nwait - 1].site == e->site) {
		if (!wait_slice(t, &h->wait[--h->nwait], e->value, proc))
			return -ENOMEM;
	}
	return 0;
}

/* One BEGIN/END/WAIT record of a thread. 0 or -ENOMEM. */
static int host_record(struct rpt_omp_trace *t, struct host_state *h,
		       const struct ses_ompt_record *e, int32_t proc)
{
	struct rpt_omp_slice *s;
	int k;

	switch (e->kind) {
	case SES_OMPT_BEGIN:
		if (h->ntask < NEST && e->how == h->ntask)
			h->task[h->ntask++] = *e;
		else
			t->unpaired++;
		return 0;
	case SES_OMPT_WAIT_BEGIN:
		if (h->nwait < WAITS)
			h->wait[h->nwait++] = *e;
		else
			t->unpaired++;
		return 0;
	case SES_OMPT_END:
		if (!h->ntask || h->task[h->ntask - 1].how != e->how ||
		    h->task[h->ntask - 1].site != e->site) {
			t->unpaired++;
			return 0;
		}
		if (close_waits(t, h, e, proc))
			return -ENOMEM;
		if (!(s = add(&t->thr)))
			return -ENOMEM;
		h->ntask--;
		*s = (struct rpt_omp_slice){ .begin = h->task[h->ntask].value,
					     .tid = e->tid,
					     .site = e->site,
					     .proc = proc,
					     .kind = RPT_OMP_SLICE_REGION,
					     .depth = e->how,
					     .member = h->task[h->ntask].slot };
		break;
	case SES_OMPT_WAIT_END:
		for (k = h->nwait - 1; k >= 0; k--)
			if (h->wait[k].how == e->how && h->wait[k].site == e->site)
				break;
		if (k < 0) {
			t->unpaired++;
			return 0;
		}
		if (!wait_slice(t, &h->wait[k], e->value, proc))
			return -ENOMEM;
		t->unpaired += (uint64_t)(h->nwait - 1 - k); /* waits inside it never ended */
		h->nwait = k;
		return 0;
	default:
		return 0;
	}
	s->end = e->value > s->begin ? e->value : s->begin;
	return 0;
}

/* Region and wait slices of one process. 0 or -ENOMEM. */
static int take_host(struct rpt_omp_trace *t, const struct ses_ompt *o, int32_t proc)
{
	const struct ses_ompt_record **ev = by_thread(o->events, o->nevents);
	struct host_state h = { .ntask = 0 };
	int ret = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < o->nevents && !ret; i++) {
		if (i && ev[i]->tid != ev[i - 1]->tid) {
			t->unpaired += (uint64_t)(h.ntask + h.nwait);
			h.ntask = h.nwait = 0;
		}
		ret = host_record(t, &h, ev[i], proc);
	}
	t->unpaired += (uint64_t)(h.ntask + h.nwait);
	free(ev);
	return ret;
}

/* The device a data op moves to or works on (openmp_target.c's rule). */
static int32_t data_device(uint16_t op, uint32_t devs)
{
	int32_t src = (int32_t)(devs & 0xffff) - 1, dest = (int32_t)(devs >> 16) - 1;

	return op == SES_OMPT_DATA_FROM || op == SES_OMPT_DATA_DELETE ||
			       op == SES_OMPT_DATA_DISASSOCIATE
		       ? src
		       : dest;
}

struct target_state {
	size_t at[3]; /* the open target, data op and submit: their slices in t->dev */
	bool is_open[3];
	int32_t device; /* the open target's */
};

/* The open slice @k of @g begun at record @e, closed by a later record of its thread. */
static int open_op(struct rpt_omp_trace *t, struct target_state *g, int k,
		   const struct ses_ompt_record *e, int32_t proc, uint16_t kind, int32_t device)
{
	struct rpt_omp_slice *s = add(&t->dev);

	if (!s)
		return -ENOMEM;
	t->unpaired += g->is_open[k]; /* the one open before never ended: dropped */
	if (g->is_open[k])
		t->dev.v[g->at[k]].kind = 0; /* dropped when the process is done */
	*s = (struct rpt_omp_slice){ .begin = e->value,
				     .end = 0,
				     .tid = e->tid,
				     .site = e->site,
				     .proc = proc,
				     .device = device,
				     .kind = kind,
				     .how = e->how,
				     .count = kind == RPT_OMP_SLICE_SUBMIT ? e->slot : 0 };
	g->at[k] = t->dev.n - 1;
	g->is_open[k] = true;
	return 0;
}

static void close_op(struct rpt_omp_trace *t, struct target_state *g, int k,
		     const struct ses_ompt_record *e, bool match)
{
	struct rpt_omp_slice *s = g->is_open[k] ? &t->dev.v[g->at[k]] : NULL;

	if (!s || !match || s->site != e->site) {
		t->unpaired++;
		if (s)
			s->kind = 0;
	} else {
		s->end = e->value > s->begin ? e->value : s->begin;
	}
	g->is_open[k] = false;
}

/* One host target record of a thread (file order). 0 or -ENOMEM. */
static int target_record(struct rpt_omp_trace *t, struct target_state *g,
			 const struct ses_ompt_record *e, int32_t proc)
{
	struct rpt_omp_slice *s;

	switch (e->kind) {
	case SES_OMPT_TARGET_BEGIN:
		g->device = (int32_t)e->slot;
		return open_op(t, g, 0, e, proc, RPT_OMP_SLICE_TARGET, g->device);
	case SES_OMPT_TARGET_END:
		close_op(t, g, 0, e, true);
		return 0;
	case SES_OMPT_DATA_BEGIN:
		return open_op(t, g, 1, e, proc, RPT_OMP_SLICE_DATA, data_device(e->how, e->slot));
	case SES_OMPT_DATA_BYTES:
		s = g->is_open[1] ? &t->dev.v[g->at[1]] : NULL;
		if (s && s->how == e->how)
			s->bytes = e->value;
		return 0;
	case SES_OMPT_DATA_END:
		s = g->is_open[1] ? &t->dev.v[g->at[1]] : NULL;
		close_op(t, g, 1, e, s && s->how == e->how);
		return 0;
	case SES_OMPT_SUBMIT_BEGIN:
		return open_op(t, g, 2, e, proc, RPT_OMP_SLICE_SUBMIT,
			       g->is_open[0] ? g->device : 0);
	case SES_OMPT_SUBMIT_END:
		close_op(t, g, 2, e, true);
		return 0;
	default:
		return 0;
	}
}

/* A device trace record: BEGIN opens it, its BYTES and END complete the open one of that
 * device, type and op (among the last few, as openmp_target.c does). */
static int device_record(struct rpt_omp_trace *t, const struct ses_ompt_record *e, int32_t proc)
{
	struct rpt_omp_slice *s;

	if (e->kind == SES_OMPT_DEV_BEGIN) {
		if (!(s = add(&t->dev)))
			return -ENOMEM;
		*s = (struct rpt_omp_slice){ .begin = e->value,
					     .site = 0,
					     .proc = proc,
					     .device = (int32_t)e->site,
					     .kind = RPT_OMP_SLICE_DEVICE,
					     .how = e->how,
					     .member = e->slot };
		return 0;
	}
	for (size_t i = t->dev.n, n = 0; i-- > t->dev0 && n < 64; n++) {
		s = &t->dev.v[i];
		if (s->kind != RPT_OMP_SLICE_DEVICE || s->device != (int32_t)e->site ||
		    s->how != e->how || s->member != e->slot || s->end)
			continue;
		if (e->kind == SES_OMPT_DEV_BYTES && e->how == SES_OMPT_DEVREC_KERNEL)
			s->count = e->value; /* the teams granted */
		else if (e->kind == SES_OMPT_DEV_BYTES)
			s->bytes = e->value;
		else
			s->end = e->value > s->begin ? e->value : s->begin;
		return 0;
	}
	return 0; /* its begin was lost */
}

/* Target, data, submit and device slices of one process. 0 or -ENOMEM. */
static int take_targets(struct rpt_omp_trace *t, const struct ses_ompt *o, int32_t proc)
{
	const struct ses_ompt_record **ev = by_thread(o->targets, o->ntargets);
	struct target_state g = { .device = 0 };
	int ret = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < o->ntargets && !ret; i++) {
		const struct ses_ompt_record *e = ev[i];

		if (i && e->tid != ev[i - 1]->tid) {
			for (int k = 0; k < 3; k++)
				if (g.is_open[k]) {
					t->unpaired++;
					t->dev.v[g.at[k]].kind = 0;
				}
			memset(&g, 0, sizeof(g));
		}
		if (e->kind >= SES_OMPT_DEV_BEGIN && e->kind <= SES_OMPT_DEV_BYTES)
			ret = device_record(t, e, proc);
		else
			ret = target_record(t, &g, e, proc);
	}
	for (int k = 0; k < 3; k++)
		if (g.is_open[k]) {
			t->unpaired++;
			t->dev.v[g.at[k]].kind = 0;
		}
	free(ev);
	return ret;
}

int rpt_omp_trace_pair(struct rpt_omp_trace *t, const struct ses_ompt *o, int32_t proc)
{
	int ret;

	t->full += o->scope == SES_OMPT_SCOPE_FULL;
	t->basic += o->scope != SES_OMPT_SCOPE_FULL;
	t->thr0 = t->thr.n;
	t->dev0 = t->dev.n;
	ret = take_host(t, o, proc);
	if (!ret)
		ret = take_targets(t, o, proc);
	return ret;
}

int rpt_omp_trace_take(struct rpt *r, const struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	if (!r->opts.omp_slices && (!r->opts.exports || r->opts.no_timeline))
		return 0;
	if (!r->omp_trace && !(r->omp_trace = calloc(1, sizeof(*r->omp_trace))))
		return -ENOMEM;
	return rpt_omp_trace_pair(r->omp_trace, o, (int32_t)(p - r->omp->procs));
}

int rpt_omp_trace_merged(struct rpt *r, int pid, uint32_t from, uint32_t into)
{
	uint64_t *h;

	if (!r->omp_trace)
		return 0;
	h = util_hash_slot(&r->omp_trace->alias, (uint64_t)(uint32_t)pid, from, 0);
	if (!h)
		return -ENOMEM;
	*h = (uint64_t)into + 1;
	return 0;
}

/* The index + 1 of the site the file's site @id became in @p (0: none). */
static uint32_t site_index(const struct rpt_omp_trace *t, const struct rpt_omp_proc *p,
			   const struct util_hash *ids, uint32_t id)
{
	uint64_t *h;

	/* merged into another, which may itself have been merged on */
	for (int hops = 0; hops < 64; hops++) {
		h = util_hash_find(&t->alias, (uint64_t)(uint32_t)p->pid, id, 0);
		if (!h)
			break;
		id = (uint32_t)(*h - 1);
	}
	h = id ? util_hash_find(ids, id, 0, 0) : NULL;
	return h ? (uint32_t)*h : 0;
}

static int cmp_begin(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Drop the new slices that did not pair (kind 0), and those past the cap: the earliest
 * are kept. 0 or -ENOMEM. */
static int bound(struct rpt_omp_trace *t, const struct rpt *r, int pid, size_t cap)
{
	struct rpt_omp_slices *lists[2] = { &t->thr, &t->dev };
	size_t first[2] = { t->thr0, t->dev0 }, kept = t->thr0 + t->dev0, nnew = 0;
	size_t room = kept < cap ? cap - kept : 0;
	uint64_t limit = UINT64_MAX, *begins = NULL;

	for (int l = 0; l < 2; l++) { /* the unpaired ones (kind 0) go first */
		size_t n = first[l];

		for (size_t i = first[l]; i < lists[l]->n; i++) {
			struct rpt_omp_slice *s = &lists[l]->v[i];

			/* a device record without a time (the runtime gave none) is no slice */
			if (s->kind == RPT_OMP_SLICE_DEVICE && (!s->begin || !s->end)) {
				t->unpaired += s->begin && !s->end;
				continue;
			}
			/* -p and --time-filter, as task instances are (clipped: nesting holds) */
			if (s->kind && (!r || rpt_filter_clip(r, pid, &s->begin, &s->end)))
				lists[l]->v[n++] = *s;
		}
		lists[l]->n = n;
		nnew += n - first[l];
	}
	if (nnew > room) {
		size_t n = 0;

		if (!(begins = malloc(sizeof(*begins) * nnew)))
			return -ENOMEM;
		for (int l = 0; l < 2; l++)
			for (size_t i = first[l]; i < lists[l]->n; i++)
				begins[n++] = lists[l]->v[i].begin;
		util_qsort(begins, n, sizeof(*begins), cmp_begin);
		limit = begins[room]; /* the first left out: it and every later one go */
		free(begins);
	}
	for (int l = 0; l < 2; l++) {
		size_t n = first[l];

		for (size_t i = first[l]; i < lists[l]->n; i++) {
			const struct rpt_omp_slice *s = &lists[l]->v[i];

			if (s->begin >= limit) {
				if (!t->left_out++ || s->begin < t->left_from)
					t->left_from = s->begin;
				continue;
			}
			lists[l]->v[n++] = *s;
		}
		lists[l]->n = n;
	}
	return 0;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct rpt_omp_slice *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* the enclosing one first */
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1; /* a region before a wait of its length */
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static int cmp_device(const void *a, const void *b)
{
	const struct rpt_omp_slice *x = a, *y = b;

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

int rpt_omp_trace_settle(struct rpt_omp_trace *t, const struct rpt *r, int pid, size_t cap)
{
	if (bound(t, r, pid, cap))
		return -ENOMEM;
	util_qsort(t->thr.v, t->thr.n, sizeof(*t->thr.v), cmp_thread);
	util_qsort(t->dev.v, t->dev.n, sizeof(*t->dev.v), cmp_device);
	t->thr0 = t->thr.n;
	t->dev0 = t->dev.n;
	return 0;
}

int rpt_omp_trace_name(struct rpt *r, const struct rpt_omp_proc *p)
{
	struct rpt_omp_trace *t = r->omp_trace;
	struct util_hash ids = { 0 };
	struct rpt_omp_slices *lists[2];
	size_t first[2];
	int ret = -ENOMEM;

	if (!t || (!r->opts.omp_slices && (!r->opts.exports || r->opts.no_timeline)))
		return 0;
	lists[0] = &t->thr;
	lists[1] = &t->dev;
	first[0] = t->thr0;
	first[1] = t->dev0;
	for (int i = 0; i < p->nsites; i++) {
		uint64_t *h = util_hash_slot(&ids, p->sites[i].id, 0, 0);

		if (!h)
			goto out;
		*h = (uint64_t)i + 1;
		t->tasks += p->sites[i].f[SES_OMPT_F_TASKS];
	}
	for (int l = 0; l < 2; l++)
		for (size_t i = first[l]; i < lists[l]->n; i++)
			lists[l]->v[i].site = site_index(t, p, &ids, lists[l]->v[i].site);
	ret = rpt_omp_trace_settle(t, r, p->pid, RPT_OMP_SLICES_MAX);
out:
	util_hash_release(&ids);
	return ret;
}

void rpt_omp_trace_free(struct rpt_omp_trace *t)
{
	if (!t)
		return;
	free(t->thr.v);
	free(t->dev.v);
	util_hash_release(&t->alias);
	free(t);
}

void rpt_omp_trace_facts(const struct rpt *r, struct rpt_omp_trace_facts *out)
{
	const struct rpt_omp_trace *t = r->omp_trace;

	memset(out, 0, sizeof(*out));
	if (!t)
		return;
	*out = (struct rpt_omp_trace_facts){ .kept = true,
					     .nthread = t->thr.n,
					     .ndevice = t->dev.n,
					     .left_out = t->left_out,
					     .left_from = t->left_from,
					     .unpaired = t->unpaired,
					     .full = t->full,
					     .basic = t->basic,
					     .tasks = t->tasks };
}

static const char *wait_name(uint16_t how, const struct rpt_omp_site *site)
{
	static const char *const waits[] = { "wait",	 "implicit barrier", "explicit barrier",
					     "taskwait", "taskgroup",	     "wait (other)" };
	/* by the site's kind (SES_OMPT_SITE_*) */
	static const char *const mutexes[] = { "lock wait",	 "lock wait",	  "lock wait",
					       "nest lock wait", "critical wait", "ordered wait",
					       "atomic wait" };

	if (how == SES_OMPT_WAIT_MUTEX)
		return site && site->kind < 7 ? mutexes[site->kind] : mutexes[0];
	return how < 6 ? waits[how] : waits[0];
}

static const char *what(const struct rpt_omp_slice *s, const struct rpt_omp_site *site)
{
	static const char *const targets[] = { "target", "target", "target enter data",
					       "target exit data", "target update" };
	static const char *const targets_nowait[] = { "target nowait", "target nowait",
						      "target enter data nowait",
						      "target exit data nowait",
						      "target update nowait" };
	static const char *const ops[] = { "data op", "alloc",	   "to device",	  "from device",
					   "delete",  "associate", "disassociate" };
	static const char *const devrecs[] = { "device record", "device: target", "device: data op",
					       "device: kernel", "device: other" };
	uint16_t k = s->how & ~SES_OMPT_TGT_NOWAIT;

	switch (s->kind) {
	case RPT_OMP_SLICE_REGION:
		return "implicit task";
	case RPT_OMP_SLICE_WAIT:
		return wait_name(s->how, site);
	case RPT_OMP_SLICE_TARGET:
		if (k > 4)
			k = 0;
		return s->how & SES_OMPT_TGT_NOWAIT ? targets_nowait[k] : targets[k];
	case RPT_OMP_SLICE_DATA:
		return s->how < 7 ? ops[s->how] : ops[0];
	case RPT_OMP_SLICE_SUBMIT:
		return "kernel submit";
	default:
		return s->how < 5 ? devrecs[s->how] : devrecs[0];
	}
}

static void view(const struct rpt *r, const struct rpt_omp_slice *s, struct rpt_omp_slice_view *out)
{
	const struct rpt_omp_proc *p = &r->omp->procs[s->proc];
	const struct rpt_omp_site *site = s->site ? &p->sites[s->site - 1] : NULL;

	*out = (struct rpt_omp_slice_view){ .begin = s->begin,
					    .end = s->end,
					    .pid = p->pid,
					    .tid = s->tid,
					    .device = s->device,
					    .kind = (enum rpt_omp_slice_kind)s->kind,
					    .how = s->how,
					    .depth = s->depth,
					    .member = s->member,
					    .count = s->count,
					    .bytes = s->bytes,
					    .site = site ? site->name : "",
					    .what = what(s, site) };
}

void rpt_omp_thread_slice_at(const struct rpt *r, size_t i, struct rpt_omp_slice_view *out)
{
	view(r, &r->omp_trace->thr.v[i], out);
}

void rpt_omp_device_slice_at(const struct rpt *r, size_t i, struct rpt_omp_slice_view *out)
{
	view(r, &r->omp_trace->dev.v[i], out);
}
