// SPDX-License-Identifier: MIT
/* The string map of report (strmap.h). */
#include "report/strmap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

uint64_t rpt_fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static struct rpt_strmap_ent *slot(const struct rpt_strmap *m, const char *key, uint64_t h)
{
	size_t i = h & (m->cap - 1);

	while (m->e[i].key && (m->e[i].hash != h || strcmp(m->e[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return &m->e[i];
}

void *rpt_strmap_get(const struct rpt_strmap *m, const char *key)
{
	struct rpt_strmap_ent *e;

	if (!m->cap)
		return NULL;
	e = slot(m, key, rpt_fnv(key));
	return e->key ? e->val : NULL;
}

/* Room for one more at a load under 1/2. 0 or -ENOMEM. */
static int reserve(struct rpt_strmap *m)
{
	struct rpt_strmap grown;

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
static struct rpt_strmap_ent *upsert(struct rpt_strmap *m, const char *key, void *val,
				     bool *added)
{
	uint64_t h = rpt_fnv(key);
	struct rpt_strmap_ent *e;

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

int rpt_strmap_put(struct rpt_strmap *m, const char *key, void *val)
{
	bool added;
	struct rpt_strmap_ent *e = upsert(m, key, val, &added);

	if (!e)
		return -ENOMEM;
	return added ? 0 : -EEXIST;
}

const char *rpt_strmap_intern(struct rpt_strmap *m, const char *key)
{
	bool added;
	struct rpt_strmap_ent *e = upsert(m, key, NULL, &added);

	return e ? e->key : NULL;
}

void rpt_strmap_release(struct rpt_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->e[i].key);
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}
