// SPDX-License-Identifier: MIT
/*
 * report.csv's OPENMP HOT FUNCTIONS and OPENMP LATE THREADS (openmp_state.h says what
 * the states and the late threads are; man/uprof-report.1 the columns). Times are timer
 * samples times the sampling period, as the OpenMP tables' CPU Time column.
 */
#include "report/openmp_state.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static double period_s(const struct rpt *r)
{
	return r->info.nevents ? (double)r->info.events[0].period / 1e9 : 1e-3;
}

/* Rows per (region, state) and per late thread: --openmp-top (0: all). */
static int top_of(const struct rpt *r, int n)
{
	return r->opts.openmp_top > 0 && r->opts.openmp_top < n ? r->opts.openmp_top : n;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Function and module cells of r->funcs[@func] (each preceded by a comma). */
static void func_cells(const struct rpt *r, int func, FILE *f)
{
	const struct rpt_func *fn = &r->funcs[func];
	const char *path = fn->module >= 0 && fn->module < r->world.nmodules
				   ? r->world.modules[fn->module].path
				   : NULL;
	const char *base = path ? strrchr(path, '/') : NULL;

	fputc(',', f);
	util_csv_quoted(f, fn->name ? fn->name : "unknown");
	fputc(',', f);
	util_csv_quoted(f, base ? base + 1 : path ? path : "unknown");
}

/* One region's (@name's) rows: per state with samples, its hottest functions. */
static int hot_rows(const struct rpt *r, const char *name, const struct rpt_omp_hot *h, FILE *f)
{
	for (int st = 0; st < RPT_OMP_NSTATES; st++) {
		struct rpt_sorted *v = NULL;
		uint64_t all = h->state_samples[st];
		int n;

		if (!all)
			continue;
		n = rpt_collect(&h->funcs, (uint64_t)st, &v);
		if (n < 0)
			return n;
		for (int k = 0; k < top_of(r, n); k++) {
			util_csv_quoted(f, name);
			fprintf(f, ",\"%s\",%.6f,%" PRIu64 ",%d", rpt_omp_state_name(st),
				(double)all * period_s(r), all, k + 1);
			func_cells(r, v[k].item, f);
			fprintf(f, ",%.6f,%" PRIu64 ",%.2f\n", (double)v[k].samples * period_s(r),
				v[k].samples, pct(v[k].samples, all));
		}
		free(v);
	}
	return 0;
}

static int cmp_late(const void *a, const void *b)
{
	const struct rpt_omp_late *x = a, *y = b;

	if (x->blamed_ns != y->blamed_ns)
		return x->blamed_ns > y->blamed_ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static const char *barrier_name(uint16_t kind)
{
	return kind == SES_OMPT_WAIT_BARRIER_EXPLICIT ? "explicit" : "implicit";
}

/* One late thread's rows: one per function it was in while the others waited (one with
 * empty function cells when it had no sample there). */
static int late_rows(const struct rpt *r, const char *name, const struct rpt_omp_hot *h,
		     const struct rpt_omp_late *l, FILE *f)
{
	struct rpt_sorted *v = NULL;
	int n = rpt_collect(&l->funcs, 0, &v);

	if (n < 0)
		return n;
	for (int k = 0; k < top_of(r, n ? n : 1); k++) {
		util_csv_quoted(f, name);
		fprintf(f, ",\"%s\",%" PRIu64 ",%u,%u,%" PRIu64 ",%.6f,%.6f,%.6f,",
			barrier_name(l->kind),
			h->episodes[l->kind == SES_OMPT_WAIT_BARRIER_EXPLICIT], l->slot, l->tid,
			l->times, (double)l->late_ns / 1e9 / (double)l->times,
			(double)l->late_ns / 1e9, (double)l->blamed_ns / 1e9);
		if (!n) {
			fprintf(f, ",,,,\n");
			break;
		}
		fprintf(f, "%d", k + 1);
		func_cells(r, v[k].item, f);
		fprintf(f, ",%.6f,%.2f\n", (double)v[k].samples * period_s(r),
			pct(v[k].samples, l->samples));
	}
	free(v);
	return 0;
}

static void write_late(const struct rpt *r, const struct rpt_omp_proc *p, const char *who, FILE *f)
{
	fprintf(f, "\nOPENMP LATE THREADS (%sPID-%d)\n", who, p->pid);
	if (p->scope != SES_OMPT_SCOPE_FULL) {
		fprintf(f, "Not told:,\"basic scope records no barrier arrivals: collect with "
			   "--openmp-scope full\"\n");
		return;
	}
	fprintf(f, "Region,Barrier,Barriers,Late ThreadNum,Late ThreadId,Times Last,Avg Late "
		   "By(seconds),Total Late(seconds),Team Wait Blamed(seconds),Rank,Function,"
		   "Module,CPU Time(seconds),Share(%%)\n");
	for (int i = 0; i < p->nsites; i++) {
		const struct rpt_omp_site *s = &p->sites[i];
		struct rpt_omp_hot *h = s->hot;

		if (!h || !h->nlate)
			continue;
		util_qsort(h->late, (size_t)h->nlate, sizeof(*h->late), cmp_late);
		for (int k = 0; k < h->nlate; k++)
			if (late_rows(r, s->name, h, &h->late[k], f))
				return; /* out of memory: the section stops short */
	}
}

void rpt_omp_write_hot(const struct rpt *r, const struct rpt_omp_proc *p, const char *who, FILE *f)
{
	if (!r->omp_samples)
		return;
	fprintf(f, "\nOPENMP HOT FUNCTIONS (%sPID-%d)\n", who, p->pid);
	fprintf(f, "Region,State,State CPU Time(seconds),State Samples,Rank,Function,Module,CPU "
		   "Time(seconds),Samples,Share(%%)\n");
	for (int i = 0; i < p->nsites; i++)
		if (p->sites[i].hot && hot_rows(r, p->sites[i].name, p->sites[i].hot, f))
			return;
	if (p->hot && hot_rows(r, "(outside regions)", p->hot, f))
		return;
	if (p->hot && p->hot->unpaired_waits) /* lost: said where its samples went */
		fprintf(f,
			"Wait Records Unpaired:,%" PRIu64 ",\"dropped: a sample in such a wait "
			"counts as the state around it\"\n",
			p->hot->unpaired_waits);
	write_late(r, p, who, f);
}
