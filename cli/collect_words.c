// SPDX-License-Identifier: MIT
/*
 * Command lines as shell words, for session.ini and the report: where each argument
 * begins and ends must survive the joining.
 */
#include "cli/collect.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Append @s to @dst (@size bytes, @used so far) as one shell word: as it is when it
 * needs no quoting, else in single quotes (a quote inside as '\''). The command line in
 * session.ini and the report must say where each argument begins and ends: "a b" and
 * a, b are different programs runs. Returns the new length (may exceed @size: cut). */
static size_t put_word(char *dst, size_t size, size_t used, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+=/.,:@%^";
	bool plain = *s && strspn(s, safe) == strlen(s);

	if (plain)
		return used + (size_t)snprintf(dst + used, size - used, "%s", s);
	if (used + 1 < size)
		dst[used] = '\'', dst[++used] = 0;
	for (; *s && used + 1 < size; s++) {
		if (*s == '\'')
			used += (size_t)snprintf(dst + used, size - used, "'\\''");
		else
			dst[used] = *s, dst[++used] = 0;
	}
	if (used + 1 < size)
		dst[used] = '\'', dst[++used] = 0;
	return used;
}

void collect_join_args(char *dst, size_t size, char **argv)
{
	size_t used = 0;

	dst[0] = 0;
	for (int i = 0; argv[i] && used + 1 < size; i++) {
		if (i)
			used += (size_t)snprintf(dst + used, size - used, " ");
		if (used + 1 < size)
			used = put_word(dst, size, used, argv[i]);
	}
}
