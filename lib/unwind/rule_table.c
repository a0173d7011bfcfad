// SPDX-License-Identifier: MIT
/*
 * A table of CFI rows by a two-word key, read once each: the one store of the unwinder's
 * fast-path rows (by Dwfl build and pc, unwind.c) and of a job's shared leaf rows (by
 * module file and address in it, unwind_share.c).
 */
#include "unwind/internal.h"

#include <stdlib.h>
#include <string.h>

struct rpt_unwind_rule *rpt_unwind_rules_get(struct rpt_unwind_rules *t, uint64_t k1,
					     uint64_t k2, bool *fresh)
{
	uint64_t *slot = util_hash_slot(&t->index, k1, k2, 0);

	*fresh = false;
	if (!slot)
		return NULL;
	if (*slot)
		return &t->v[*slot - 1];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct rpt_unwind_rule *g = realloc(t->v, cap * sizeof(*g));

		if (!g)
			return NULL; /* the key stays unread: asked again, it is read then */
		t->v = g;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	*slot = ++t->n;
	*fresh = true;
	return &t->v[t->n - 1];
}

void rpt_unwind_rules_release(struct rpt_unwind_rules *t)
{
	util_hash_release(&t->index);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
