/* SPDX-License-Identifier: MIT */
/*
 * lib/report/strmap.c: the one string-keyed map of report: modules by path (symtab.c,
 * inline.c), interned names (rpt_strpool over it). Open addressing on FNV-1a, keys
 * copied and owned by the map.
 */
#ifndef UPROF_REPORT_STRMAP_H
#define UPROF_REPORT_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct rpt_strmap_ent {
	uint64_t hash;
	char *key; /* NULL: empty slot */
	void *val;
};

/* Zero-initialised is empty. */
struct rpt_strmap {
	struct rpt_strmap_ent *e;
	size_t cap, n; /* cap is a power of two */
};

/* FNV-1a of a string. */
uint64_t rpt_fnv(const char *s);

/* The value of @key, or NULL when absent. */
void *rpt_strmap_get(const struct rpt_strmap *m, const char *key);
/* Map @key (copied) to @val (borrowed: the caller owns what it points to). 0, -EEXIST
 * when @key is mapped already (nothing changes), -ENOMEM. */
int rpt_strmap_put(struct rpt_strmap *m, const char *key, void *val);
/* The map's own copy of @key, made (with a NULL value) if absent: equal strings get one
 * pointer, valid until the map is released. NULL on out-of-memory. */
const char *rpt_strmap_intern(struct rpt_strmap *m, const char *key);
/* Every value, in no particular order (to free them). */
#define rpt_strmap_for_each(m, ent) \
	for (struct rpt_strmap_ent *ent = (m)->e; ent && ent < (m)->e + (m)->cap; ent++) \
		if (ent->key)
/* Free the keys and the table; the values are the caller's. Safe twice. */
void rpt_strmap_release(struct rpt_strmap *m);

#endif
