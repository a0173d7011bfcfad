// SPDX-License-Identifier: MIT
/*
 * pcm's timeseries read back (uprof pcm hreport): the metadata lines, the three header
 * rows pcm_out.c writes (group titles at each group's first column, component labels at
 * each component's first column, the metric names under "Timestamp"; the Multiplex Scale
 * column last, every line ending in a comma) and a row per interval, to the first blank
 * line. And the run file beside it (report-run.tsv): what the CSV cannot say (the
 * program's command line, which group a metric is of, whether it is a count). Bytes from
 * a file another user may have written: every line, cell, name and count is bounded, and
 * what is wrong is said with its line.
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

#define MAX_LINE (1u << 20) /* a row of MTR_PCM_SERIES_MAX_COLS cells of 60 bytes */

/* The line at *@pos of [@buf, @buf+@len): its start and length (a CR before the newline
 * dropped); *@pos moves past it. false at the end. */
static bool next_line(const char *buf, size_t len, size_t *pos, const char **p, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*p = buf + *pos;
	nl = memchr(*p, '\n', len - *pos);
	*n = nl ? (size_t)(nl - *p) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	if (*n && (*p)[*n - 1] == '\r')
		(*n)--;
	return true;
}

/* A cell's value: NAN when empty, else a finite number taking the whole cell; *@seen gets
 * MTR_PCM_SEEN_INT or MTR_PCM_SEEN_DEC (pcm writes a count without decimals). */
static int value(struct mtr_line_reader *r, const char *s, double *out, unsigned char *seen)
{
	char *end;

	if (!*s) {
		*out = NAN;
		return 0;
	}
	*out = strtod(s, &end);
	if (*end || end == s || !isfinite(*out) || strpbrk(s, "eEnNxXpP"))
		return mtr_reader_fail(r, "the value '%.40s' is not a number", s);
	*seen |= strchr(s, '.') ? MTR_PCM_SEEN_DEC : MTR_PCM_SEEN_INT;
	return 0;
}

void mtr_pcm_series_free(struct mtr_pcm_series *s)
{
	free(s->titles);
	free(s->comps);
	free(s->metric);
	free(s->seen);
	free(s->stamps);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}

/* The three header rows' cells (@n each): groups, components and metric columns. */
static int header(struct mtr_line_reader *r, char **g, char **c, char **m, int n,
		  struct mtr_pcm_series *s)
{
	int ncols = n - 3;

	if (n < 4 || strcmp(m[0], "Timestamp") || g[0][0] || c[0][0])
		return mtr_reader_fail(r, "the header names no metric column");
	if (strcmp(m[n - 2], MTR_PCM_MUX_SCALE_NAME) || m[n - 1][0] || g[n - 1][0] || c[n - 1][0] ||
	    g[n - 2][0])
		return mtr_reader_fail(r, "the header does not end in the '" MTR_PCM_MUX_SCALE_NAME
					  "' column: not a uprof pcm timeseries");
	if (!g[1][0] || !c[1][0])
		return mtr_reader_fail(r, "the first metric column names no group or component");
	s->titles = calloc((size_t)ncols, sizeof(*s->titles));
	s->comps = calloc((size_t)ncols, sizeof(*s->comps));
	s->metric = calloc((size_t)ncols, sizeof(*s->metric));
	s->seen = calloc((size_t)ncols + 1, sizeof(*s->seen));
	if (!s->titles || !s->comps || !s->metric || !s->seen)
		return -ENOMEM;
	s->ncols = ncols;
	for (int i = 1; i <= ncols; i++) {
		struct mtr_pcm_series_comp *cur;

		if (g[i][0] && !c[i][0])
			return mtr_reader_fail(r, "column %d starts group '%.40s' but no component",
					       i + 1, g[i]);
		if (g[i][0] && mtr_reader_copy(r, s->titles[s->ngroups++], sizeof(s->titles[0]),
					       g[i], "group title"))
			return -EINVAL;
		if (c[i][0]) {
			cur = &s->comps[s->ncomps++];
			if (mtr_reader_copy(r, cur->label, sizeof(cur->label), c[i],
					    "component label"))
				return -EINVAL;
			cur->group = s->ngroups - 1;
			cur->first_col = i - 1;
		}
		cur = &s->comps[s->ncomps - 1];
		cur->ncols++;
		if (mtr_reader_copy(r, s->metric[i - 1], sizeof(s->metric[0]), m[i], "metric name"))
			return -EINVAL;
	}
	/* every component of a group has the group's metrics, in its order */
	for (int k = 0, first = 0; k < s->ncomps; k++) {
		const struct mtr_pcm_series_comp *a, *b = &s->comps[k];

		if (k == 0 || b->group != s->comps[k - 1].group)
			first = k;
		a = &s->comps[first];
		if (a->ncols != b->ncols)
			return mtr_reader_fail(
				r,
				"component '%.40s' has %d metrics where its group's first "
				"has %d",
				b->label, b->ncols, a->ncols);
		for (int i = 0; i < b->ncols; i++)
			if (strcmp(s->metric[a->first_col + i], s->metric[b->first_col + i]))
				return mtr_reader_fail(
					r,
					"component '%.40s' names metric '%.40s' where its "
					"group's first names '%.40s'",
					b->label, s->metric[b->first_col + i],
					s->metric[a->first_col + i]);
	}
	return 0;
}

/* One interval's row: @n cells as the header's, kept when there is room. */
static int row(struct mtr_line_reader *r, char **c, int n, struct mtr_pcm_series *s,
	       size_t max_rows)
{
	size_t w = (size_t)s->ncols + 1;
	double scratch;

	if (n != s->ncols + 3)
		return mtr_reader_fail(
			r, "%d cells where the header has %d (a truncated or damaged row)", n,
			s->ncols + 3);
	if (c[n - 1][0])
		return mtr_reader_fail(r, "a cell after the '" MTR_PCM_MUX_SCALE_NAME "' column");
	if (!c[0][0] || strlen(c[0]) >= sizeof(s->stamps[0]))
		return mtr_reader_fail(r, "the Timestamp '%.40s' is empty or longer than %zu bytes",
				       c[0], sizeof(s->stamps[0]) - 1);
	if ((size_t)s->rows < max_rows && s->rows == s->cap) {
		size_t cap = s->cap ? (size_t)s->cap * 2 : 64;
		double *v;
		char(*t)[16];

		cap = cap > max_rows ? max_rows : cap;
		v = realloc(s->vals, cap * w * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->vals = v;
		t = realloc(s->stamps, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		s->stamps = t;
		s->cap = (int)cap;
	}
	for (int i = 1; i <= s->ncols + 1; i++) {
		double *out = s->rows < s->cap ? &s->vals[(size_t)s->rows * w + (size_t)i - 1]
					       : &scratch;

		if (value(r, c[i], out, &s->seen[i - 1]))
			return -EINVAL;
	}
	if (s->rows < s->cap)
		memcpy(s->stamps[s->rows++], c[0], strlen(c[0]) + 1);
	if (s->rows_total == MTR_PCM_SERIES_MAX_ROWS)
		return mtr_reader_fail(r, "more than %d rows", MTR_PCM_SERIES_MAX_ROWS);
	s->rows_total++;
	return 0;
}

int mtr_pcm_series_parse(const char *buf, size_t len, size_t max_values, struct mtr_pcm_series *s,
			 char *err, size_t errlen)
{
	struct mtr_line_reader r = { err, errlen, 0 };
	const char *lp[3] = { NULL, NULL, NULL }, *p;
	size_t ln[3] = { 0, 0, 0 }, lpos[3] = { 0, 0, 0 }, pos = 0, n, max_rows;
	char *store = NULL, **cells = NULL, **c3[3];
	int ncells[3], ret = 0;

	memset(s, 0, sizeof(*s));
	err[0] = 0;
	if (memchr(buf, 0, len))
		return mtr_reader_fail(&r, "a NUL byte: not a pcm CSV file");
	/* the header: the line starting "Timestamp," and the two before it, which start with
	 * a comma; everything before them is the metadata */
	for (;;) {
		size_t at = pos;

		if (!next_line(buf, len, &pos, &p, &n)) {
			r.line = 0;
			return -ENODATA;
		}
		r.line++;
		lp[0] = lp[1], ln[0] = ln[1], lpos[0] = lpos[1];
		lp[1] = lp[2], ln[1] = ln[2], lpos[1] = lpos[2];
		lp[2] = p, ln[2] = n, lpos[2] = at;
		if (n >= 10 && !memcmp(p, "Timestamp,", 10))
			break;
	}
	if (!lp[0] || !ln[0] || lp[0][0] != ',' || !ln[1] || lp[1][0] != ',')
		return mtr_reader_fail(
			&r, "the 'Timestamp,' row is not the third of a three-row header");
	s->meta_len = lpos[0];
	for (int k = 0; k < 3; k++)
		if (ln[k] > MAX_LINE)
			return mtr_reader_fail(&r, "a header line over %u bytes", MAX_LINE);
	store = malloc(3 * (MAX_LINE + MTR_PCM_SERIES_MAX_COLS + 4));
	cells = malloc(3 * (MTR_PCM_SERIES_MAX_COLS + 4) * sizeof(*cells));
	if (!store || !cells) {
		ret = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < 3; k++) {
		c3[k] = cells + (size_t)k * (MTR_PCM_SERIES_MAX_COLS + 4);
		ncells[k] = util_csv_split(
			lp[k], ln[k], store + (size_t)k * (MAX_LINE + MTR_PCM_SERIES_MAX_COLS + 4),
			c3[k], MTR_PCM_SERIES_MAX_COLS + 4);
		if (ncells[k] < 0) {
			ret = mtr_reader_fail(
				&r, "header row %d: more than %d columns or an unclosed quote",
				k + 1, MTR_PCM_SERIES_MAX_COLS);
			goto out;
		}
	}
	if (ncells[0] != ncells[2] || ncells[1] != ncells[2]) {
		ret = mtr_reader_fail(&r, "the three header rows have %d, %d and %d cells",
				      ncells[0], ncells[1], ncells[2]);
		goto out;
	}
	if (ncells[2] > MTR_PCM_SERIES_MAX_COLS + 3) {
		ret = mtr_reader_fail(&r, "more than %d metric columns", MTR_PCM_SERIES_MAX_COLS);
		goto out;
	}
	ret = header(&r, c3[0], c3[1], c3[2], ncells[2], s);
	max_rows = max_values / ((size_t)s->ncols + 1);
	while (!ret && next_line(buf, len, &pos, &p, &n)) {
		int k;

		r.line++;
		if (!n)
			break; /* the rows end at a blank line (a cumulative table may follow) */
		if (n > MAX_LINE) {
			ret = mtr_reader_fail(&r, "a line over %u bytes", MAX_LINE);
			break;
		}
		k = util_csv_split(p, n, store, cells, MTR_PCM_SERIES_MAX_COLS + 4);
		ret = k < 0 ? mtr_reader_fail(
				      &r, "more cells than the header has, or an unclosed quote")
			    : row(&r, cells, k, s, max_rows);
	}
out:
	free(store);
	free(cells);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		mtr_pcm_series_free(s);
	return ret;
}

int mtr_pcm_meta_uint(const char *meta, size_t len, const char *key, unsigned *out)
{
	size_t klen = strlen(key), pos = 0, n;
	const char *p;

	while (next_line(meta, len, &pos, &p, &n)) {
		char num[16], *end;
		unsigned long v;

		if (n <= klen + 1 || memcmp(p, key, klen) || p[klen] != ',' ||
		    n - klen - 1 >= sizeof(num))
			continue;
		memcpy(num, p + klen + 1, n - klen - 1);
		num[n - klen - 1] = 0;
		v = strtoul(num, &end, 10);
		if (*end || end == num || num[0] == '-' || v > 0xffffffffUL)
			return -EINVAL;
		*out = (unsigned)v;
		return 0;
	}
	return -ENOENT;
}

/* ---- report-run.tsv ---- */

/* A field of the run file, its \t \n \r \\ escapes undone in place; false on a bad one. */
static bool unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		switch (*++s) {
		case 't':
			*o++ = '\t';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case '\\':
			*o++ = '\\';
			break;
		default:
			return false;
		}
	}
	*o = 0;
	return true;
}

void mtr_pcm_run_free(struct mtr_pcm_run *run)
{
	free(run->store);
	free(run->argv);
	free(run->metric);
	memset(run, 0, sizeof(*run));
}

/* "program" and its fields: the command line. */
static int run_program(struct mtr_line_reader *r, char *f, struct mtr_pcm_run *run)
{
	if (run->argv)
		return mtr_reader_fail(r, "a second 'program' line");
	if (!f)
		return mtr_reader_fail(r, "a 'program' line names no program");
	run->argv = calloc(MTR_PCM_RUN_MAX_ARGS + 1, sizeof(*run->argv));
	if (!run->argv)
		return -ENOMEM;
	while (f) {
		char *tab = strchr(f, '\t');

		if (tab)
			*tab = 0;
		if (run->nargs == MTR_PCM_RUN_MAX_ARGS)
			return mtr_reader_fail(r, "more than %d program arguments",
					       MTR_PCM_RUN_MAX_ARGS);
		if (!unescape(f))
			return mtr_reader_fail(r, "a bad \\ escape in a program argument");
		run->argv[run->nargs++] = f;
		f = tab ? tab + 1 : NULL;
	}
	if (!run->argv[0][0])
		return mtr_reader_fail(r, "an empty program name");
	return 0;
}

/* "metric", <group>, count|derived, <name> */
static int run_metric(struct mtr_line_reader *r, char *f, struct mtr_pcm_run *run)
{
	char *kind = f ? strchr(f, '\t') : NULL, *name = kind ? strchr(kind + 1, '\t') : NULL;
	struct mtr_pcm_run_metric *m;

	if (!name || strchr(name + 1, '\t'))
		return mtr_reader_fail(
			r, "a 'metric' line is 'metric<TAB>group<TAB>count|derived<TAB>name'");
	*kind++ = 0;
	*name++ = 0;
	if (run->nmetrics == MTR_PCM_RUN_MAX_METRICS)
		return mtr_reader_fail(r, "more than %d metrics", MTR_PCM_RUN_MAX_METRICS);
	if (!run->metric && !(run->metric = calloc(MTR_PCM_RUN_MAX_METRICS, sizeof(*run->metric))))
		return -ENOMEM;
	m = &run->metric[run->nmetrics];
	if (!unescape(f) || !unescape(name))
		return mtr_reader_fail(r, "a bad \\ escape in a metric line");
	if (!strcmp(kind, "count"))
		m->count = true;
	else if (strcmp(kind, "derived"))
		return mtr_reader_fail(r, "'%.20s' is neither count nor derived", kind);
	if (mtr_reader_copy(r, m->group, sizeof(m->group), f, "group name") ||
	    mtr_reader_copy(r, m->name, sizeof(m->name), name, "metric name"))
		return -EINVAL;
	run->nmetrics++;
	return 0;
}

int mtr_pcm_run_parse(const char *buf, size_t len, struct mtr_pcm_run *run, char *err,
		      size_t errlen)
{
	struct mtr_line_reader r = { err, errlen, 0 };
	size_t pos = 0, n;
	const char *p;
	char *s;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	err[0] = 0;
	if (memchr(buf, 0, len))
		return mtr_reader_fail(&r, "a NUL byte: not a uprof pcm run file");
	if (len > MTR_PCM_RUN_MAX_BYTES)
		return mtr_reader_fail(&r, "over %u bytes", MTR_PCM_RUN_MAX_BYTES);
	run->store = s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	while (!ret && next_line(buf, len, &pos, &p, &n)) {
		char *f;

		r.line++;
		memcpy(s, p, n);
		s[n] = 0;
		f = strchr(s, '\t');
		if (f)
			*f++ = 0;
		if (r.line == 1) {
			if (strcmp(s, MTR_PCM_RUN_MAGIC) || !f || strcmp(f, "1"))
				ret = mtr_reader_fail(&r, "not '" MTR_PCM_RUN_MAGIC
							  "<TAB>1': not a uprof pcm "
							  "run file of this version");
		} else if (!strcmp(s, "program")) {
			ret = run_program(&r, f, run);
		} else if (!strcmp(s, "metric")) {
			ret = run_metric(&r, f, run);
		} else if (n) {
			ret = mtr_reader_fail(&r, "'%.20s' is no line of a run file", s);
		}
		s += n + 1;
	}
	if (!ret && !r.line)
		ret = mtr_reader_fail(&r, "an empty run file");
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		mtr_pcm_run_free(run);
	return ret;
}
