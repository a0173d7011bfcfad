// SPDX-License-Identifier: MIT
/* The failure and copy helpers of lib/metric's pcm file readers (internal.h). */
#include "metric/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int mtr_reader_fail(struct mtr_line_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = r->line ? snprintf(r->err, r->errlen, "line %d: ", r->line) : 0;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int mtr_reader_copy(struct mtr_line_reader *r, char *dst, size_t size, const char *src,
		    const char *what)
{
	size_t n = strlen(src);

	if (!n)
		return mtr_reader_fail(r, "an empty %s", what);
	if (n >= size)
		return mtr_reader_fail(r, "a %s longer than %zu bytes", what, size - 1);
	memcpy(dst, src, n + 1);
	return 0;
}
