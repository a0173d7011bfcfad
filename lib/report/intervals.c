// SPDX-License-Identifier: MIT
/*
 * --agg-interval <ms>: report.csv's SAMPLES PER INTERVAL section, uProf's timeline of the
 * run in time buckets: each kept sample (after pauses, -p and --time-filter) adds its
 * tally units to the bucket of its time since the profile start, per event. The rows
 * of a column sum to that event's total in the report, exactly: the same units the
 * tables count. A bucket size of 0 or less is the whole run (one row).
 * The same units go to the sample's thread's bucket too (rpt_agg_cell_at), which the
 * exports' timelines read: trace.json's counter tracks, report.html's Timeline.
 */
#include "report/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int nevents_of(const struct rpt *r)
{
	return r->info.nevents > 0 ? r->info.nevents : 1;
}

/* bucket 0's start: the profile start, or the caller's (a job's time line) */
static int64_t agg_origin(const struct rpt *r)
{
	return r->opts.agg_origin_ns ? r->opts.agg_origin_ns : r->info.start_mono_ns;
}

int rpt_intervals_note(struct rpt *r, int ev, uint32_t thread, uint64_t time, uint64_t units)
{
	uint64_t *cell;
	int64_t since = (int64_t)time - agg_origin(r);
	int64_t step = r->opts.agg_interval_ns;
	size_t b, n = (size_t)nevents_of(r);

	if (ev < 0 || ev >= (int)n)
		return 0;
	b = step > 0 && since > 0 ? (size_t)(since / step) : 0;
	if (b >= RPT_INTERVALS_MAX) { /* a run of more buckets than a CSV should hold */
		r->intervals_past += units;
		return 0;
	}
	if (b >= r->nintervals) {
		size_t cap = r->nintervals ? r->nintervals : 64;
		uint64_t *p;

		while (cap <= b)
			cap *= 2;
		if (cap > RPT_INTERVALS_MAX)
			cap = RPT_INTERVALS_MAX;
		p = realloc(r->intervals, cap * n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + r->nintervals * n, 0, (cap - r->nintervals) * n * sizeof(*p));
		r->intervals = p;
		r->nintervals = cap;
	}
	cell = util_hash_slot(&r->interval_cells, thread, b, (uint64_t)ev);
	if (!cell)
		return -ENOMEM;
	*cell += units;
	r->intervals[b * n + (size_t)ev] += units;
	if (b + 1 > r->nused_intervals)
		r->nused_intervals = b + 1;
	return 0;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rpt_agg_cell *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return (x->ev > y->ev) - (x->ev < y->ev);
}

int rpt_intervals_finish(struct rpt *r)
{
	const struct util_hash *h = &r->interval_cells;
	size_t n = 0;

	if (!h->n)
		return 0;
	r->agg_cells = malloc(h->n * sizeof(*r->agg_cells));
	if (!r->agg_cells)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		const struct util_hent *e = &h->e[i];
		const struct rpt_thread *t;

		if (!e->used || !e->val)
			continue;
		t = &r->world.threads[e->a];
		r->agg_cells[n++] = (struct rpt_agg_cell){ (uint32_t)t->pid, (uint32_t)t->tid,
							   (uint32_t)e->b, (uint32_t)e->c, e->val };
	}
	r->nagg_cells = n;
	util_qsort(r->agg_cells, n, sizeof(*r->agg_cells), cmp_cell);
	util_hash_release(&r->interval_cells); /* the cells hold it all now */
	return 0;
}

void rpt_intervals_release(struct rpt *r)
{
	free(r->intervals);
	free(r->agg_cells);
	util_hash_release(&r->interval_cells);
}

void rpt_agg_facts(const struct rpt *r, struct rpt_agg_facts *out)
{
	int64_t start = r->info.start_mono_ns, end = r->info.end_mono_ns;

	/* a session without its end (killed collect): just past the last sample */
	if (end <= start)
		end = (int64_t)r->last_sample_ns >= start ? (int64_t)r->last_sample_ns + 1 : 0;
	*out = (struct rpt_agg_facts){
		.on = r->opts.agg_interval,
		.step_ns = r->opts.agg_interval_ns > 0 ? r->opts.agg_interval_ns : 0,
		.start_ns = agg_origin(r),
		.end_ns = end,
		.nbuckets = r->nused_intervals,
		.ncells = r->nagg_cells,
		.nevents = nevents_of(r),
		.past = r->intervals_past,
	};
}

void rpt_agg_cell_at(const struct rpt *r, size_t i, struct rpt_agg_cell *out)
{
	*out = r->agg_cells[i];
}

void rpt_intervals_write(const struct rpt *r, FILE *f)
{
	int64_t step = r->opts.agg_interval_ns;
	int n = nevents_of(r);
	double run_s = r->info.end_mono_ns > r->info.start_mono_ns
			       ? (double)(r->info.end_mono_ns - r->info.start_mono_ns) / 1e9
			       : 0.0;

	if (step > 0)
		fprintf(f, "\n\"SAMPLES PER INTERVAL (Interval - %.3f ms)\"\n", (double)step / 1e6);
	else
		fprintf(f, "\n\"SAMPLES PER INTERVAL (Interval - the whole run)\"\n");
	fprintf(f, "INTERVAL START (seconds),INTERVAL END (seconds)");
	for (int i = 0; i < n; i++) {
		const struct ses_event *e = r->info.nevents ? &r->info.events[i] : NULL;

		fprintf(f, ",\"%s (%s)\"", e ? e->name : "CPU_TIME",
			e && e->weighted ? "events" : "samples");
	}
	fputc('\n', f);
	for (size_t b = 0; b < r->nused_intervals; b++) {
		double from = step > 0 ? (double)b * (double)step / 1e9 : 0.0;
		double to = step > 0 ? (double)(b + 1) * (double)step / 1e9 : run_s;

		fprintf(f, "%.3f,%.3f", from, to);
		for (int i = 0; i < n; i++)
			fprintf(f, ",%" PRIu64, r->intervals[b * (size_t)n + (size_t)i]);
		fputc('\n', f);
	}
	if (r->intervals_past)
		util_csv_kvf(f, "Samples Past The Last Interval",
			     "%" PRIu64 " not in a row (more than %d intervals: give a larger "
			     "--agg-interval)",
			     r->intervals_past, RPT_INTERVALS_MAX);
}
