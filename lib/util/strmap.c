// SPDX-License-Identifier: MIT
/* The string-keyed map (util.h): modules by path, interned names. */
#include "util/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

uint64_t util_fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static struct util_strmap_ent *slot(const struct util_strmap *m, const char *key, uint64_t h)
{
	size_t i = h & (m->cap - 1);

	while (m->e[i].key && (m->e[i].hash != h || strcmp(m->e[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return &m->e[i];
}

void *util_strmap_get(const struct util_strmap *m, const char *key)
{
	struct util_strmap_ent *e;

	if (!m->cap)
		return NULL;
	e = slot(m, key, util_fnv(key));
	return e->key ? e->val : NULL;
}

/* Room for one more at a load under 1/2. 0 or -ENOMEM. */
static int reserve(struct util_strmap *m)
{
	struct util_strmap grown;

	if ((m->n + 1) * 2 <= m->cap)
		return 0;
	grown.cap = m->cap ? m->cap * 2 : 64;
	grown.n = m->n;
	grown.e = calloc(grown.cap, sizeof(*grown.e));
	if (!grown.e)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].key)
			*slot(&grown, m->e[i].key, m->e[i].hash) = m->e[i];
	free(m->e);
	*m = grown;
	return 0;
}

/* The entry of @key, added with @val if absent (*@added then true). NULL on OOM. */
static struct util_strmap_ent *upsert(struct util_strmap *m, const char *key, void *val,
				      bool *added)
{
	uint64_t h = util_fnv(key);
	struct util_strmap_ent *e;

	*added = false;
	if (m->cap) {
		e = slot(m, key, h);
		if (e->key)
			return e;
	}
	if (reserve(m))
		return NULL;
	e = slot(m, key, h);
	e->key = strdup(key);
	if (!e->key)
		return NULL;
	e->hash = h;
	e->val = val;
	m->n++;
	*added = true;
	return e;
}

int util_strmap_put(struct util_strmap *m, const char *key, void *val)
{
	bool added;
	struct util_strmap_ent *e = upsert(m, key, val, &added);

	if (!e)
		return -ENOMEM;
	return added ? 0 : -EEXIST;
}

const char *util_strmap_intern(struct util_strmap *m, const char *key)
{
	bool added;
	struct util_strmap_ent *e = upsert(m, key, NULL, &added);

	return e ? e->key : NULL;
}

void util_strmap_release(struct util_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->e[i].key);
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}
