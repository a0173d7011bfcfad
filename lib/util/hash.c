// SPDX-License-Identifier: MIT
/* A small open-addressing hash table (util.h): the report's container for tallies. */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL;

	h ^= b + 0xbf58476d1ce4e5b9ULL + (h << 6) + (h >> 2);
	h ^= c + 0x94d049bb133111ebULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	return h * 0xd6e8feb86659fd93ULL;
}

static struct util_hent *probe(struct util_hent *e, size_t cap, uint64_t a, uint64_t b, uint64_t c)
{
	size_t i = mix(a, b, c) & (cap - 1);

	while (e[i].used && (e[i].a != a || e[i].b != b || e[i].c != c))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

static int grow(struct util_hash *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	struct util_hent *e = calloc(cap, sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++)
		if (h->e[i].used)
			*probe(e, cap, h->e[i].a, h->e[i].b, h->e[i].c) = h->e[i];
	free(h->e);
	h->e = e;
	h->cap = cap;
	return 0;
}

uint64_t *util_hash_slot(struct util_hash *h, uint64_t a, uint64_t b, uint64_t c)
{
	struct util_hent *e;

	if ((h->n + 1) * 4 > h->cap * 3 && grow(h))
		return NULL;
	e = probe(h->e, h->cap, a, b, c);
	if (!e->used) {
		*e = (struct util_hent){ a, b, c, 0, true };
		h->n++;
	}
	return &e->val;
}

uint64_t *util_hash_find(const struct util_hash *h, uint64_t a, uint64_t b, uint64_t c)
{
	struct util_hent *e;

	if (!h->cap)
		return NULL;
	e = probe(h->e, h->cap, a, b, c);
	return e->used ? &e->val : NULL;
}

int util_hash_add(struct util_hash *h, uint64_t a, uint64_t b, uint64_t n)
{
	uint64_t *slot = util_hash_slot(h, a, b, 0);

	if (!slot)
		return -ENOMEM;
	*slot += n;
	return 0;
}

void util_hash_release(struct util_hash *h)
{
	free(h->e);
	h->e = NULL;
	h->cap = h->n = 0;
}
