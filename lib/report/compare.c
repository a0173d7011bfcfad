// SPDX-License-Identifier: MIT
/*
 * Two sessions side by side (uprof compare): each function, module and program with the
 * baseline's value, the other's, the change and the ratio, largest change first.
 *
 * Processes are compared by program (the executable as invoked, its processes summed):
 * pids differ from run to run, programs do not. The matching is a pure function over
 * rows (rpt_compare_rows), so that its arithmetic is tested on rows made up for it.
 */
#include "report/internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nz(const char *s)
{
	return s ? s : "";
}

static int cmp_in(const void *x, const void *y)
{
	const struct rpt_cmp_in *a = *(const struct rpt_cmp_in *const *)x;
	const struct rpt_cmp_in *b = *(const struct rpt_cmp_in *const *)y;
	int c = strcmp(nz(a->name), nz(b->name));

	return c ? c : strcmp(nz(a->module), nz(b->module));
}

/* @in sorted by key, through pointers (the inputs are borrowed and stay as they are) */
static const struct rpt_cmp_in **sorted(const struct rpt_cmp_in *in, size_t n)
{
	const struct rpt_cmp_in **p = malloc(sizeof(*p) * (n ? n : 1));

	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++)
		p[i] = &in[i];
	util_qsort(p, n, sizeof(*p), cmp_in);
	return p;
}

static int append(struct rpt_cmp_row **rows, size_t *n, size_t *cap, enum rpt_cmp_kind kind,
		  const struct rpt_cmp_in *key, double a, double b)
{
	struct rpt_cmp_row *row;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct rpt_cmp_row *t = realloc(*rows, sizeof(*t) * c);

		if (!t)
			return -ENOMEM;
		*rows = t;
		*cap = c;
	}
	row = &(*rows)[(*n)++];
	row->kind = kind;
	row->name = key->name;
	row->module = key->module;
	row->a = a;
	row->b = b;
	row->delta = b - a;
	row->ratio = a > 0 ? b / a : INFINITY;
	return 0;
}

/* the value of the run of equal keys starting at *@i in @p (@n), *@i moved past it */
static double take_run(const struct rpt_cmp_in **p, size_t n, size_t *i)
{
	double v = p[*i]->value;
	size_t j = *i + 1;

	while (j < n && !cmp_in(&p[*i], &p[j]))
		v += p[j++]->value;
	*i = j;
	return v;
}

int rpt_compare_rows(enum rpt_cmp_kind kind, const struct rpt_cmp_in *a, size_t na,
		     const struct rpt_cmp_in *b, size_t nb, struct rpt_cmp_row **rows, size_t *n,
		     size_t *cap)
{
	const struct rpt_cmp_in **pa = sorted(a, na), **pb = sorted(b, nb);
	size_t i = 0, j = 0;
	int ret = -ENOMEM;

	if (!pa || !pb)
		goto out;
	ret = 0;
	while (!ret && (i < na || j < nb)) {
		int c = i == na ? 1 : j == nb ? -1 : cmp_in(&pa[i], &pb[j]);
		const struct rpt_cmp_in *key = c <= 0 ? pa[i] : pb[j];
		double va = c <= 0 ? take_run(pa, na, &i) : 0;
		double vb = c >= 0 ? take_run(pb, nb, &j) : 0;

		ret = append(rows, n, cap, kind, key, va, vb);
	}
out:
	free(pa);
	free(pb);
	return ret;
}

static int cmp_row(const void *x, const void *y)
{
	const struct rpt_cmp_row *a = x, *b = y;
	double da = fabs(a->delta), db = fabs(b->delta);
	int c;

	if (da != db)
		return da > db ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind - b->kind;
	c = strcmp(nz(a->name), nz(b->name));
	return c ? c : strcmp(nz(a->module), nz(b->module));
}

void rpt_compare_sort(struct rpt_cmp_row *rows, size_t n)
{
	util_qsort(rows, n, sizeof(*rows), cmp_row);
}

static bool timer_first(const struct rpt *r)
{
	return !r->info.nevents || ses_event_is_timer(&r->info.events[0]);
}

/* what one tally unit of @r stands for: CPU_TIME seconds, or the sort event's events */
static double unit(const struct rpt *r)
{
	return timer_first(r) ? rpt_sample_s(r) : (double)ses_event_unit(&r->info.events[0]);
}

/* the rows of @r of @kind with samples, into a new array (*@n of them); NULL: no memory */
static struct rpt_cmp_in *inputs(const struct rpt *r, enum rpt_cmp_kind kind, size_t *n)
{
	const struct rpt_world *w = &r->world;
	int all = kind == RPT_CMP_FUNCTION ? r->nfuncs
		  : kind == RPT_CMP_MODULE ? w->nmodules
					   : r->nprograms;
	struct rpt_cmp_in *in = malloc(sizeof(*in) * (all ? all : 1));
	double u = unit(r);

	*n = 0;
	for (int i = 0; in && i < all; i++) {
		uint64_t s = kind == RPT_CMP_FUNCTION ? r->funcs[i].samples
			     : kind == RPT_CMP_MODULE ? w->modules[i].samples
						      : r->programs[i].samples;

		if (!s)
			continue;
		in[*n] = (struct rpt_cmp_in){
			.name = kind == RPT_CMP_FUNCTION ? r->funcs[i].name
				: kind == RPT_CMP_MODULE ? w->modules[i].path
							 : r->programs[i].name,
			.module = kind == RPT_CMP_FUNCTION ? w->modules[r->funcs[i].module].path
							   : NULL,
			.value = (double)s * u,
		};
		(*n)++;
	}
	return in;
}

static void note(struct rpt_compare *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct rpt_compare *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nnotes < RPT_CMP_NOTES) {
		va_start(ap, fmt);
		vsnprintf(c->notes[c->nnotes], sizeof(c->notes[0]), fmt, ap);
		va_end(ap);
	}
	c->nnotes++;
}

static void hex(char *buf, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", b[i]);
	buf[2 * n] = 0;
}

/* the differences that make the two sessions' figures not compare one to one */
static void differences(const struct rpt *a, const struct rpt *b, struct rpt_compare *c)
{
	const char *ea = a->info.nevents ? a->info.events[0].name : "CPU_TIME";
	const char *eb = b->info.nevents ? b->info.events[0].name : "CPU_TIME";
	uint64_t pa = a->info.nevents ? a->info.events[0].period : 0;
	uint64_t pb = b->info.nevents ? b->info.events[0].period : 0;

	if (strcmp(ea, eb))
		note(c,
		     "the sessions sampled different events: %s in the baseline, %s in the "
		     "other; their values are compared as they are",
		     ea, eb);
	else if (pa != pb)
		note(c,
		     "the sessions sampled %s at different intervals: %llu in the baseline, "
		     "%llu in the other%s",
		     ea, (unsigned long long)pa, (unsigned long long)pb,
		     timer_first(a) ? " (ns); CPU_TIME is comparable, sample counts are not"
				    : "; event counts are comparable, sample counts are not");
	for (int i = 0; i < a->world.nmodules; i++) {
		const struct rpt_module *ma = &a->world.modules[i];

		if (!ma->samples || !ma->id.build_id_len)
			continue;
		for (int j = 0; j < b->world.nmodules; j++) {
			const struct rpt_module *mb = &b->world.modules[j];
			char ha[41], hb[41];

			if (!mb->samples || !mb->id.build_id_len || strcmp(ma->path, mb->path))
				continue;
			if (ma->id.build_id_len == mb->id.build_id_len &&
			    !memcmp(ma->id.build_id, mb->id.build_id, ma->id.build_id_len))
				break;
			hex(ha, ma->id.build_id, ma->id.build_id_len);
			hex(hb, mb->id.build_id, mb->id.build_id_len);
			note(c,
			     "%s is another build in the other session (build id %s, baseline "
			     "%s): its functions may have moved or changed",
			     ma->path, hb, ha);
			break;
		}
	}
}

int rpt_compare(const struct rpt *a, const struct rpt *b, struct rpt_compare *out)
{
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (timer_first(a))
		snprintf(out->unit, sizeof(out->unit), "\"CPU_TIME\" (seconds)");
	else
		snprintf(out->unit, sizeof(out->unit), "\"%s\" (events)", a->info.events[0].name);
	for (int k = RPT_CMP_FUNCTION; !ret && k <= RPT_CMP_PROGRAM; k++) {
		size_t na, nb;
		struct rpt_cmp_in *ia = inputs(a, k, &na), *ib = inputs(b, k, &nb);

		ret = ia && ib ? rpt_compare_rows(k, ia, na, ib, nb, &out->rows, &out->nrows, &cap)
			       : -ENOMEM;
		free(ia);
		free(ib);
	}
	if (ret) {
		rpt_compare_release(out);
		return ret;
	}
	rpt_compare_sort(out->rows, out->nrows);
	differences(a, b, out);
	return 0;
}

void rpt_compare_release(struct rpt_compare *c)
{
	if (!c)
		return;
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

static const char *const KIND[] = { "FUNCTION", "MODULE", "PROGRAM" };

int rpt_compare_write_csv(const struct rpt_compare *c, const char *dir_a, const char *dir_b,
			  FILE *f)
{
	fprintf(f, "COMPARISON\nBaseline:,");
	util_csv_quoted(f, dir_a);
	fprintf(f, "\nWith:,");
	util_csv_quoted(f, dir_b);
	fprintf(f, "\nValues:,%s", c->unit);
	fputc('\n', f);
	for (int i = 0; i < c->nnotes && i < RPT_CMP_NOTES; i++) {
		fprintf(f, "Note:,");
		util_csv_quoted(f, c->notes[i]);
		fputc('\n', f);
	}
	fprintf(f, "\nKIND,NAME,MODULE,BASELINE,WITH,DELTA,RATIO\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct rpt_cmp_row *r = &c->rows[i];

		fprintf(f, "%s,", KIND[r->kind]);
		util_csv_quoted(f, r->name);
		fputc(',', f);
		util_csv_quoted(f, r->module);
		fprintf(f, ",%.6f,%.6f,%+.6f,", r->a, r->b, r->delta);
		/* only in the other session: no ratio to give */
		if (isinf(r->ratio))
			fprintf(f, "new\n");
		else
			fprintf(f, "%.3f\n", r->ratio);
	}
	return ferror(f) ? -EIO : 0;
}
