// SPDX-License-Identifier: MIT
/* A growing string (util.h): folded stacks and the flame graph build their lines in one. */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int util_sbuf_add(struct util_sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *g;

		while (cap < b->len + n + 1)
			cap *= 2;
		g = realloc(b->s, cap);
		if (!g)
			return -ENOMEM;
		b->s = g;
		b->cap = cap;
	}
	if (n) /* @s may be NULL when @n is 0; memcpy may not take it */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}
