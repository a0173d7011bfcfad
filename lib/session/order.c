/* lib/session/order.c -- the one time order of a session's records (docs/DESIGN.md §6).
 *
 * Task records and pause calls are ordered by their time stamps, and two records with the
 * same stamp keep the order they were written in: the task matcher and the pause arbiter
 * must agree on which of two equal stamps came first, so both sort here. qsort alone is
 * not stable, hence the index as the second key.
 */
#include <errno.h>
#include <stdlib.h>

#include "session.h"
#include "util/util.h"

struct keyed {
	uint64_t key;
	size_t index;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int ses_time_order(const uint64_t *keys, size_t n, size_t *order)
{
	struct keyed *k;

	if (n == 0)
		return 0; /* keys and order may be NULL */
	k = malloc(n * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ keys[i], i };
	util_qsort(k, n, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < n; i++)
		order[i] = k[i].index;
	free(k);
	return 0;
}

uint64_t ses_time_key(int64_t t)
{
	/* flipping the sign bit maps int64 order onto uint64 order: INT64_MIN -> 0 */
	return (uint64_t)t ^ (UINT64_C(1) << 63);
}
