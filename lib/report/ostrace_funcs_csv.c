// SPDX-License-Identifier: MIT
/*
 * report.csv's sections of collect --func (docs/DESIGN.md §12): FUNCTION COUNTS (each
 * probed function's calls, a function never called too), FUNCTION COUNTS BY THREAD and,
 * with --funccount-interval, FUNCTION COUNTS BY INTERVAL. The calls that could not be
 * counted (lost records, addresses of no probed function) are CPU TRACING REPORT's Notes.
 */
#include "report/ostrace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void func_cells(FILE *f, const struct ost_func *fn)
{
	util_csv_quoted(f, fn->name);
	fputc(',', f);
	util_csv_quoted(f, fn->module);
}

static int cmp_slice(const void *a, const void *b)
{
	const struct ost_func_slice *x = a, *y = b;

	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return x->func - y->func;
}

int rpt_os_write_funcs_csv(const struct rpt *r, FILE *f)
{
	const struct ost_formats *fm = r->os ? r->os->fm : NULL;
	const struct ost_func_count *fc;
	const struct ost_func_slice *sl;
	struct ost_func_slice *sorted;
	uint64_t *calls, width;
	size_t n;

	if (!fm || !r->os->m || !fm->nfuncs)
		return 0;
	calls = calloc((size_t)fm->nfuncs, sizeof(*calls));
	if (!calls)
		return -ENOMEM;
	n = ost_model_func_counts(r->os->m, &fc);
	for (size_t i = 0; i < n; i++)
		calls[fc[i].func] += fc[i].calls;
	fprintf(f, "\nFUNCTION COUNTS\n");
	fprintf(f, "Function,Module,Calls\n");
	for (int i = 0; i < fm->nfuncs; i++) {
		func_cells(f, &fm->funcs[i]);
		fprintf(f, ",%llu\n", (unsigned long long)calls[i]);
	}
	free(calls);
	fprintf(f, "\nFUNCTION COUNTS BY THREAD\nFunction,Module,PID,TID,Calls\n");
	for (size_t i = 0; i < n; i++) {
		func_cells(f, &fm->funcs[fc[i].func]);
		fprintf(f, ",%d,%d,%llu\n", fc[i].pid, fc[i].tid, (unsigned long long)fc[i].calls);
	}
	width = ost_model_func_slice_ns(r->os->m);
	if (!width)
		return 0;
	n = ost_model_func_slice_counts(r->os->m, &sl);
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, sl, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_slice);
	/* slices from the session's start; a slice without calls has no row */
	fprintf(f, "\nFUNCTION COUNTS BY INTERVAL\nFrom(seconds),To(seconds),Function,Module,Calls\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%.3f,%.3f,", (double)(sorted[i].slice * width) / 1e9,
			(double)((sorted[i].slice + 1) * width) / 1e9);
		func_cells(f, &fm->funcs[sorted[i].func]);
		fprintf(f, ",%llu\n", (unsigned long long)sorted[i].calls);
	}
	free(sorted);
	return 0;
}
