// SPDX-License-Identifier: MIT
/*
 * Timer samples labelled with their thread's OpenMP state (openmp_state.h says which and
 * how) and tallied per region, state and function; the late threads of each region's
 * barriers with the functions they were in. The timeline itself (which state a thread
 * is in when) is openmp_timeline.c's; this file keeps the samples and names their
 * functions.
 */
#include "report/openmp_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ---- the tallies ---- */

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

/* The samples of @p (r->omp_samples sorted), as points of its timeline; *@at: each one's
 * sample. 0 or -ENOMEM. */
static int points_of(struct rpt *r, const struct rpt_omp_proc *p, struct rpt_omp_point **pts,
		     size_t **at, size_t *n)
{
	struct rpt_omp_samples *ss = r->omp_samples;

	*n = 0;
	*pts = malloc(sizeof(**pts) * (ss->n ? ss->n : 1));
	*at = malloc(sizeof(**at) * (ss->n ? ss->n : 1));
	if (!*pts || !*at)
		return -ENOMEM;
	for (size_t i = 0; i < ss->n; i++) {
		const struct rpt_omp_sample *s = &ss->v[i];

		if (r->world.threads[s->thread].pid != p->pid)
			continue;
		(*pts)[*n] = (struct rpt_omp_point){ .time = s->time,
						     .tid = s->tid,
						     .in_runtime = runtime_module(r, s->module) };
		(*at)[(*n)++] = i;
	}
	return 0;
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

static int late_threads(struct rpt *r, struct rpt_omp_proc *p, const struct rpt_omp_timeline *tl)
{
	struct rpt_omp_episode *e = NULL;
	size_t n = 0;
	int ret = rpt_omp_timeline_episodes(tl, &e, &n);

	for (size_t i = 0; !ret && i < n; i++) {
		struct rpt_omp_hot *h = hot_of(p, e[i].site);
		struct rpt_omp_late *l = h ? late_for(h, e[i].kind, e[i].late_slot, e[i].late_tid)
					   : NULL;

		if (!l) {
			ret = -ENOMEM;
			break;
		}
		h->episodes[e[i].kind == SES_OMPT_WAIT_BARRIER_EXPLICIT]++;
		l->times++;
		l->late_ns += e[i].late_ns;
		l->blamed_ns += e[i].blamed_ns;
		ret = blame(r, l, e[i].first, e[i].last);
	}
	free(e);
	return ret;
}

int rpt_omp_state_label(struct rpt *r, struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	struct rpt_omp_samples *ss = r->omp_samples;
	struct rpt_omp_timeline *tl;
	struct rpt_omp_point *pts = NULL;
	size_t *at = NULL, n = 0;
	int ret = -ENOMEM;

	if (!ss)
		return 0;
	if (!ss->sorted) {
		util_qsort(ss->v, ss->n, sizeof(*ss->v), cmp_sample);
		ss->sorted = true;
	}
	if (!(tl = rpt_omp_timeline_new(o)) || points_of(r, p, &pts, &at, &n))
		goto out;
	rpt_omp_timeline_label(tl, p->pid, p->scope, pts, n);
	if (rpt_omp_timeline_unpaired_waits(tl)) {
		struct rpt_omp_hot *h = hot_of(p, 0);

		if (!h)
			goto out;
		h->unpaired_waits += rpt_omp_timeline_unpaired_waits(tl);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rpt_omp_sample *s = &ss->v[at[i]];
		int func = func_of(r, s);

		if (func < 0) {
			ret = func;
			goto out;
		}
		if (tally(p, pts[i].site, pts[i].state, func, s->units))
			goto out;
	}
	ret = p->scope == SES_OMPT_SCOPE_FULL ? late_threads(r, p, tl) : 0;
out:
	rpt_omp_timeline_free(tl);
	free(pts);
	free(at);
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
