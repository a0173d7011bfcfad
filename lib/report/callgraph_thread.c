// SPDX-License-Identifier: MIT
/*
 * CALLGRAPH FOR THREAD (report --detail --group-by thread): the same rows as a process's
 * call graph, from the stacks of one thread only. Stacks are kept per thread already
 * (stacks.c), so this is one pass over them with tallies local to the call: total once
 * per stack however deep the recursion, self at the leaf, caller -> callee edges.
 */
#include "report/internal.h"
#include "report/stacks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct thread_cg {
	struct util_hash total, self; /* (0, func, 0) -> samples */
	struct util_hash edges;	      /* (caller, callee, 0) -> samples */
	struct util_hash seen;	      /* (kind, a, b) -> the stack that counted it last */
};

/* Once per stack: true the first time (@kind, @a, @b) is met in stack @stamp. */
static int first_in_stack(struct thread_cg *t, uint64_t kind, uint64_t a, uint64_t b,
			  uint64_t stamp)
{
	uint64_t *slot = util_hash_slot(&t->seen, kind << 32 | a, b, 0);

	if (!slot)
		return -ENOMEM;
	if (*slot == stamp)
		return 0;
	*slot = stamp;
	return 1;
}

static int tally(struct thread_cg *t, const struct rpt_stacks *st, const struct rpt_stack *s,
		 uint64_t stamp)
{
	const struct rpt_symstack *sym = &st->syms[s->sym];
	const uint32_t *v = &st->fids[sym->first];
	int ret = 0;

	if (!sym->n || !s->count)
		return 0;
	ret = util_hash_add(&t->self, 0, rpt_callgraph_self(st, sym), s->count);
	for (uint32_t i = 0; i < sym->n && !ret; i++) {
		ret = first_in_stack(t, 0, v[i], 0, stamp);
		if (ret > 0)
			ret = util_hash_add(&t->total, 0, v[i], s->count);
		if (!ret && i + 1 < sym->n) {
			ret = first_in_stack(t, 1, v[i + 1], v[i], stamp);
			if (ret > 0)
				ret = util_hash_add(&t->edges, v[i + 1], v[i], s->count);
		}
	}
	return ret < 0 ? ret : 0;
}

/* Callers or callees of @fn, largest first; a malloc'ed array in *@out. */
static int related(const struct thread_cg *t, uint32_t fn, bool callers, struct rpt_sorted **out)
{
	const struct util_hash *h = &t->edges;
	struct rpt_sorted *v = malloc(sizeof(*v) * (h->n ? h->n : 1));
	int n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		const struct util_hent *e = &h->e[i];

		if (e->used && (callers ? e->b : e->a) == fn)
			v[n++] = (struct rpt_sorted){ (int)(callers ? e->a : e->b), e->val };
	}
	for (int i = 1; i < n; i++) /* a few callers each: insertion sort */
		for (int j = i; j > 0 && v[j].samples > v[j - 1].samples; j--) {
			struct rpt_sorted x = v[j];

			v[j] = v[j - 1], v[j - 1] = x;
		}
	*out = v;
	return n;
}

static void release(struct thread_cg *t)
{
	util_hash_release(&t->total);
	util_hash_release(&t->self);
	util_hash_release(&t->edges);
	util_hash_release(&t->seen);
}

static int write_rows(const struct rpt *r, FILE *f, const struct thread_cg *t)
{
	const struct rpt_stacks *st = r->stacks;
	int lim = r->opts.cutoff > 0 ? r->opts.cutoff : 1 << 30;
	struct rpt_sorted *v, *rel;
	int n = rpt_collect(&t->total, 0, &v);

	if (n < 0)
		return n;
	for (int i = 0, shown = 0; i < n && shown < lim; i++) {
		uint32_t fn = (uint32_t)v[i].item;
		uint64_t *self = util_hash_find(&t->self, 0, fn, 0), zero = 0;

		if (st->funcs[fn].kind == RPT_CF_MARK)
			continue;
		shown++;
		rpt_callgraph_row(r, f, fn, "function", v[i].samples, self ? self : &zero);
		for (int pass = 0; pass < 2; pass++) {
			int k = related(t, fn, pass == 0, &rel);

			if (k < 0) {
				free(v);
				return k;
			}
			for (int j = 0; j < k && j < lim; j++)
				rpt_callgraph_row(r, f, (uint32_t)rel[j].item,
						  pass == 0 ? "caller" : "callee", rel[j].samples,
						  NULL);
			free(rel);
		}
	}
	free(v);
	return 0;
}

int rpt_callgraph_write_thread(const struct rpt *r, FILE *f, int thread)
{
	const struct rpt_stacks *st = r->stacks;
	struct thread_cg t;
	char name[96];
	int ret = 0;

	if (!st || !st->built || !st->collected)
		return 0;
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < st->nstacks && !ret; i++)
		if (st->stacks[i].thread == (uint32_t)thread)
			ret = tally(&t, st, &st->stacks[i], i + 1);
	if (!ret) {
		rpt_thread_name(r, thread, name, sizeof(name));
		fputs("\nCALLGRAPH FOR THREAD - ", f);
		util_put_escaped(f, name, UTIL_ESC_TEXT);
		fprintf(f, " (TID:%d)\n", r->world.threads[thread].tid);
		fprintf(f, "FUNCTION,RELATION,\"TOTAL CPU_TIME\" (seconds),\"SELF CPU_TIME\" "
			   "(seconds),DEEP SAMPLES,SELF SAMPLES,Module\n");
		ret = write_rows(r, f, &t);
	}
	release(&t);
	return ret;
}
