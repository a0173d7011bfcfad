// SPDX-License-Identifier: MIT
/*
 * The wall-clock view of a --trace os session (docs/DESIGN.md §12): where each thread's
 * time went, on the CPU or off it, in one profile. On-CPU time is the samples' (each
 * stack's samples times the CPU time a sample stands for, as report.csv's CPU_TIME);
 * off-CPU time is the OS trace's, switch-out to switch-in, charged to the user stack that
 * blocked with a frame "[off-cpu: KIND]" above its leaf (sleep, I/O, lock, other), so a
 * function's width is its on-CPU time plus the time it waited. Weights are nanoseconds:
 *   stacks-wall.folded   "comm;outermost;...;leaf[;[off-cpu: KIND]] NS", sorted
 *   flamegraph-wall.svg  the same as export_flamegraph.c draws it
 * A session without an OS trace has its on-CPU time alone (the title says so).
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The frame above an off-CPU stack's leaf, by wait kind (interned: one pointer each). */
static const char *const MARKS[][2] = {
	{ "sleep", "[off-cpu: sleep]" },
	{ "I/O", "[off-cpu: I/O]" },
	{ "lock", "[off-cpu: lock]" },
	{ "other", "[off-cpu: other]" },
};

static const char *off_mark(const char *wait)
{
	for (size_t i = 0; i < sizeof(MARKS) / sizeof(MARKS[0]); i++)
		if (!strcmp(wait, MARKS[i][0]))
			return MARKS[i][1];
	return MARKS[3][1];
}

typedef int (*wall_fn)(void *arg, const struct rpt_stack_view *s, const char *leaf, uint64_t ns);

/* Each stack of the view with its nanoseconds: the samples', then the OS trace's. */
static int wall_each(const struct rpt *r, wall_fn fn, void *arg)
{
	struct rpt_stacks_facts facts;
	uint64_t per = rpt_sample_ns(r);
	size_t noff = rpt_os_offcpu_count(r);
	int ret = 0;

	rpt_stacks_facts(r, &facts);
	for (size_t i = 0; per && i < facts.nstacks && !ret; i++) {
		struct rpt_stack_view s;

		rpt_stack_at(r, i, &s);
		ret = s.count ? fn(arg, &s, NULL, s.count * per) : 0;
	}
	for (size_t i = 0; i < noff && !ret; i++) {
		struct rpt_offcpu_view o;
		struct rpt_stack_view s = { 0 };

		rpt_os_offcpu_at(r, i, &o);
		if (o.sym != UINT32_MAX)
			rpt_stack_at(r, o.sym, &s);
		s.proc = o.proc; /* a stack's own, or the thread's process without one */
		ret = fn(arg, &s, off_mark(o.wait), o.ns);
	}
	return ret;
}

/* What the flame graph's title adds: which half of the view is missing, if one is. */
static const char *wall_note(const struct rpt *r)
{
	if (!rpt_sample_ns(r))
		return " (on-CPU time left out: the sampling event is not CPU_TIME)";
	if (!rpt_os_offcpu_count(r))
		return " (no off-CPU time: collected without --trace os)";
	return "";
}

/* ---- folded ---- */

struct line {
	char *text;
	uint64_t ns;
};

struct lines {
	const struct rpt *r;
	struct line *v;
	size_t n, cap;
};

static int add_line(void *arg, const struct rpt_stack_view *s, const char *leaf, uint64_t ns)
{
	struct lines *l = arg;
	struct util_sbuf b = { 0 };
	int ret;

	if (!ns)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct line *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	ret = rpt_sbuf_frame(&b, s->proc == UINT32_MAX ? "[unknown process]"
						       : rpt_export_comm(l->r, s->proc));
	for (uint32_t k = s->nfuncs; !ret && k-- > 0;) {
		struct rpt_stack_fn fn;

		rpt_stack_func(l->r, s->funcs[k], &fn);
		ret = util_sbuf_add(&b, ";", 1);
		if (!ret)
			ret = rpt_sbuf_frame(&b, fn.name);
	}
	if (!ret && leaf)
		ret = util_sbuf_add(&b, ";", 1) || util_sbuf_add(&b, leaf, strlen(leaf)) ? -ENOMEM
											 : 0;
	if (ret) {
		free(b.s);
		return ret;
	}
	l->v[l->n++] = (struct line){ b.s, ns };
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

int rpt_export_wall_folded(const struct rpt *r, FILE *f)
{
	struct lines l = { .r = r };
	int ret = wall_each(r, add_line, &l);

	if (!ret) {
		util_qsort(l.v, l.n, sizeof(*l.v), cmp_line);
		for (size_t i = 0; i < l.n; i++) {
			uint64_t ns = l.v[i].ns;

			while (i + 1 < l.n && !strcmp(l.v[i].text, l.v[i + 1].text))
				ns += l.v[++i].ns;
			fprintf(f, "%s %" PRIu64 "\n", l.v[i].text, ns);
		}
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].text);
	free(l.v);
	return ret;
}

/* ---- flame graph ---- */

static int add_frame(void *arg, const struct rpt_stack_view *s, const char *leaf, uint64_t ns)
{
	return rpt_flame_add(arg, s, leaf, ns);
}

static int feed_wall(const struct rpt *r, struct rpt_flame *t)
{
	return wall_each(r, add_frame, t);
}

int rpt_export_wall_flamegraph(const struct rpt *r, FILE *f)
{
	return rpt_flamegraph_write(r, f, feed_wall, wall_note(r));
}
