// SPDX-License-Identifier: MIT
/*
 * pcm's cumulative table read back (uprof pcm compare): the "Metric,<component>,..."
 * header and one "<metric>,<value>,..." row per metric, as pcm -C and pcm profile's
 * report-cumulative.csv write it, after any metadata lines. Bytes from a file: every line,
 * cell and count is bounded, and what is wrong is said with its line.
 */
#include "metric/metric.h"
#include "metric/internal.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 65536 /* MTR_PCM_MAX_COMPS cells of a few dozen bytes */

/* An empty cell: NAN; else a finite number taking the whole cell. */
static int value(struct mtr_line_reader *r, const char *s, double *out)
{
	char *end;

	if (!*s) {
		*out = NAN;
		return 0;
	}
	*out = strtod(s, &end);
	if (*end || end == s || !isfinite(*out))
		return mtr_reader_fail(r, "the value '%.40s' is not a number", s);
	return 0;
}

static int header(struct mtr_line_reader *r, char **c, int n, struct mtr_pcm_table *t)
{
	if (n < 2)
		return mtr_reader_fail(r, "the 'Metric,' header names no component");
	if (n - 1 > MTR_PCM_MAX_COMPS)
		return mtr_reader_fail(r, "more than %d components", MTR_PCM_MAX_COMPS);
	t->ncomps = n - 1;
	for (int i = 1; i < n; i++)
		if (mtr_reader_copy(r, t->comp[i - 1], sizeof(t->comp[0]), c[i], "component name"))
			return -EINVAL;
	return 0;
}

static int row(struct mtr_line_reader *r, char **c, int n, struct mtr_pcm_table *t)
{
	if (n != t->ncomps + 1)
		return mtr_reader_fail(r, "%d cells where the header has %d", n, t->ncomps + 1);
	if (t->nmetrics == MTR_PCM_MAX_METRICS)
		return mtr_reader_fail(r, "more than %d metrics", MTR_PCM_MAX_METRICS);
	if (mtr_reader_copy(r, t->metric[t->nmetrics], sizeof(t->metric[0]), c[0], "metric name"))
		return -EINVAL;
	for (int i = 1; i < n; i++) {
		if (value(r, c[i], &t->val[t->nmetrics][i - 1]))
			return -EINVAL;
		if (c[i][0])
			t->seen[t->nmetrics] |= strchr(c[i], '.') ? MTR_PCM_SEEN_DEC
								  : MTR_PCM_SEEN_INT;
	}
	t->nmetrics++;
	return 0;
}

int mtr_pcm_table_parse(const char *buf, size_t len, struct mtr_pcm_table *t, char *err,
			size_t errlen)
{
	struct mtr_line_reader r = { err, errlen, 0 };
	char store[MAX_LINE + MTR_PCM_MAX_COMPS + 2], *c[MTR_PCM_MAX_COMPS + 2];
	bool in_table = false;
	size_t pos = 0;

	memset(t, 0, sizeof(*t));
	err[0] = 0;
	if (memchr(buf, 0, len))
		return mtr_reader_fail(&r, "a NUL byte: not a pcm CSV file");
	while (pos < len) {
		const char *p = buf + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;
		int cells;

		pos += n + (nl ? 1 : 0);
		r.line++;
		if (n && p[n - 1] == '\r')
			n--;
		if (!in_table && (n < 7 || memcmp(p, "Metric,", 7)))
			continue; /* metadata, a timeseries before it */
		if (in_table && !n)
			break; /* the table ends at a blank line */
		if (n > MAX_LINE)
			return mtr_reader_fail(&r, "a line over %d bytes", MAX_LINE);
		/* one cell more than a table can have, so the header says "more than N
		 * components" */
		cells = util_csv_split(p, n, store, c, MTR_PCM_MAX_COMPS + 2);
		if (cells < 0)
			return mtr_reader_fail(&r, "more than %d cells or an unclosed quote",
					       MTR_PCM_MAX_COMPS + 2);
		if (!in_table) {
			if (header(&r, c, cells, t))
				return -EINVAL;
			in_table = true;
		} else if (row(&r, c, cells, t)) {
			return -EINVAL;
		}
	}
	r.line = 0;
	if (!in_table)
		return mtr_reader_fail(
			&r, "no cumulative table (a 'Metric,<component>,...' line): write one "
			    "with 'uprof pcm -C' or 'uprof pcm profile'");
	if (!t->nmetrics)
		return mtr_reader_fail(&r, "the cumulative table has no metric row");
	return 0;
}

int mtr_pcm_table_find(const struct mtr_pcm_table *t, const char *metric, const char *comp,
		       double *out)
{
	for (int m = 0; m < t->nmetrics; m++) {
		if (strcmp(t->metric[m], metric))
			continue;
		for (int c = 0; c < t->ncomps; c++)
			if (!strcmp(t->comp[c], comp)) {
				*out = t->val[m][c];
				return 0;
			}
	}
	return -ENOENT;
}
