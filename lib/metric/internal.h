/* SPDX-License-Identifier: MIT */
/*
 * lib/metric's own helpers, shared by its readers of pcm's files (pcm_table.c: the
 * cumulative table; pcm_series.c: the timeseries and report-run.tsv): a failure said as
 * "line N: what" into the caller's buffer, and a cell copied into a field of fixed size.
 */
#ifndef UPROF_METRIC_INTERNAL_H
#define UPROF_METRIC_INTERNAL_H

#include <stddef.h>

struct mtr_line_reader {
	char *err;
	size_t errlen;
	int line; /* 1-based; 0: no line to name */
};

/* "line N: " and the message into r->err; returns -EINVAL. */
__attribute__((format(printf, 2, 3))) int mtr_reader_fail(struct mtr_line_reader *r,
							  const char *fmt, ...);
/* @src (NUL-terminated) into @dst of @size bytes: 0, or -EINVAL said as an empty @what or
 * a @what too long. */
int mtr_reader_copy(struct mtr_line_reader *r, char *dst, size_t size, const char *src,
		    const char *what);

#endif
