// SPDX-License-Identifier: MIT
/*
 * --agg-interval <ms>: report.csv's SAMPLES PER INTERVAL section, uProf's timeline of the
 * run in time buckets: each kept sample (after pauses, -p and --time-filter) adds its
 * tally units to the bucket of its time since the profile start, per event. The rows
 * of a column sum to that event's total in the report, exactly: the same units the
 * tables count. A bucket size of 0 or less is the whole run (one row).
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

int rpt_intervals_note(struct rpt *r, int ev, uint64_t time, uint64_t units)
{
	int64_t since = (int64_t)time - r->info.start_mono_ns;
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
	r->intervals[b * n + (size_t)ev] += units;
	if (b + 1 > r->nused_intervals)
		r->nused_intervals = b + 1;
	return 0;
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
