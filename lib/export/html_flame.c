// SPDX-License-Identifier: MIT
/*
 * The HTML report's flame graph data: the merged stacks as one tree (all -> process comm
 * -> outermost function -> ... -> leaf, processes of one comm sharing a root as in the
 * folded file and flamegraph.svg), written as
 *   "flame":{"total":N,"collected":true,"min":M,"pruned":P,"names":[...],
 *            "nodes":[[parent,name,count,kind],...]}
 * parents before their children, node 0 the root. The page lays it out, zooms, searches
 * and inverts it (report.js). A frame of fewer than @min samples (a 20,000th of them all:
 * under a pixel at 1400 px even zoomed in 14 times) is left out with everything above
 * it; its samples stay in its parent's count, and @pruned counts them.
 */
#include "export/html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SHARE 20000

struct fnode {
	uint32_t parent, name;
	uint64_t count;
	int kind; /* 0 function, 1 inlined, 2 marker, 3 kernel, 4 process, 5 all */
};

struct ftree {
	struct fnode *v;
	size_t n, cap;
	struct util_hash kids;	/* (parent, name) -> node + 1 */
	struct util_hash names; /* interned name pointer -> index + 1 */
	const char **namev;
	size_t nnames, namecap;
};

/* The index of name @s (interned: the pointer is the key), or -ENOMEM. */
static long name_of(struct ftree *t, const char *s)
{
	uint64_t *slot = util_hash_slot(&t->names, (uint64_t)(uintptr_t)s, 0, 0);

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (long)(*slot - 1);
	if (t->nnames == t->namecap) {
		size_t cap = t->namecap ? t->namecap * 2 : 256;
		const char **g = realloc(t->namev, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->namev = g;
		t->namecap = cap;
	}
	t->namev[t->nnames] = s;
	*slot = ++t->nnames;
	return (long)t->nnames - 1;
}

static long child(struct ftree *t, uint32_t parent, const char *name, int kind)
{
	long nm = name_of(t, name);
	uint64_t *slot;

	if (nm < 0)
		return nm;
	slot = util_hash_slot(&t->kids, parent, (uint64_t)nm, (uint64_t)kind);
	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (long)(*slot - 1);
	if (t->n == t->cap) {
		size_t cap = t->cap * 2;
		struct fnode *g = realloc(t->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->v = g;
		t->cap = cap;
	}
	t->v[t->n] = (struct fnode){ parent, (uint32_t)nm, 0, kind };
	*slot = ++t->n;
	return (long)t->n - 1;
}

static int fn_kind(const struct rpt_stack_fn *fn)
{
	return fn->kind == RPT_FN_INLINED  ? 1
	       : fn->kind == RPT_FN_MARK   ? 2
	       : fn->kind == RPT_FN_KERNEL ? 3
					   : 0;
}

/* Each process's first process of the same comm: the one whose comm pointer names the
 * root frame they share. NULL for lack of memory. */
static uint32_t *comm_roots(const struct rpt *r, int nprocs)
{
	uint32_t *first = malloc(sizeof(*first) * (size_t)(nprocs > 0 ? nprocs : 1));

	for (int p = 0; first && p < nprocs; p++) {
		const char *comm = rpt_export_comm(r, (uint32_t)p);

		first[p] = (uint32_t)p;
		for (int q = 0; q < p; q++)
			if (first[q] == (uint32_t)q &&
			    !strcmp(rpt_export_comm(r, (uint32_t)q), comm)) {
				first[p] = (uint32_t)q;
				break;
			}
	}
	return first;
}

static int build(const struct rpt *r, struct ftree *t, const uint32_t *roots)
{
	struct rpt_stacks_facts facts;
	long root;

	rpt_stacks_facts(r, &facts);
	t->cap = 1024;
	t->v = malloc(t->cap * sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	root = name_of(t, "all");
	if (root < 0)
		return -ENOMEM;
	t->v[0] = (struct fnode){ 0, (uint32_t)root, 0, 5 };
	t->n = 1;
	for (size_t i = 0; i < facts.nstacks; i++) {
		struct rpt_stack_view s;
		long node;

		rpt_stack_at(r, i, &s);
		if (!s.count)
			continue;
		t->v[0].count += s.count;
		/* comms are not interned: the first process of a comm names them all */
		node = child(t, 0, rpt_export_comm(r, roots[s.proc]), 4);
		for (uint32_t k = s.nfuncs; node >= 0; k--) {
			struct rpt_stack_fn fn;

			t->v[node].count += s.count;
			if (!k)
				break;
			rpt_stack_func(r, s.funcs[k - 1], &fn);
			node = child(t, (uint32_t)node, fn.name, fn_kind(&fn));
		}
		if (node < 0)
			return -ENOMEM;
	}
	return 0;
}

int rpt_html_flame(FILE *f, const struct rpt *r)
{
	struct rpt_stacks_facts facts;
	struct ftree t = { 0 };
	uint32_t *roots, *index = NULL;
	uint64_t min, pruned = 0;
	size_t kept = 0;
	int ret = -ENOMEM;

	rpt_stacks_facts(r, &facts);
	roots = comm_roots(r, facts.nprocs);
	if (!roots)
		goto out;
	ret = build(r, &t, roots);
	if (ret)
		goto out;
	ret = -ENOMEM;
	index = malloc(sizeof(*index) * t.n);
	if (!index)
		goto out;
	min = t.v[0].count / MIN_SHARE ? t.v[0].count / MIN_SHARE : 1;
	fprintf(f, "{\"total\":%" PRIu64 ",\"collected\":%s,\"min\":%" PRIu64 ",\"names\":[",
		t.v[0].count, facts.collected ? "true" : "false", min);
	for (size_t i = 0; i < t.nnames; i++) {
		fputs(i ? ",\"" : "\"", f);
		util_put_escaped(f, t.namev[i], UTIL_ESC_JSON_HTML);
		fputc('"', f);
	}
	fputs("],\"nodes\":[", f);
	/* a child never has more samples than its parent: a kept node's parent is kept */
	for (size_t i = 0; i < t.n; i++) {
		const struct fnode *n = &t.v[i];

		if (i && n->count < min) {
			if (index[n->parent] != UINT32_MAX)
				pruned += n->count; /* counted once, at the top of what goes */
			index[i] = UINT32_MAX;
			continue;
		}
		index[i] = (uint32_t)kept;
		fprintf(f, "%s[%u,%u,%" PRIu64 ",%d]", kept ? "," : "", i ? index[n->parent] : 0,
			n->name, n->count, n->kind);
		kept++;
	}
	fprintf(f, "],\"pruned\":%" PRIu64 "}", pruned);
	ret = 0;
out:
	free(roots);
	free(index);
	free(t.v);
	free(t.namev);
	util_hash_release(&t.kids);
	util_hash_release(&t.names);
	return ret;
}
