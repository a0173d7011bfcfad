// SPDX-License-Identifier: MIT
/*
 * report --agg-interval over an MPI job: SAMPLES PER INTERVAL on the job's one time line
 * (job_timeline.c). Bucket b is [b, b + 1) steps after the first rank's profile start, in
 * wall-clock time (a rank's CLOCK_MONOTONIC plus its host's offset). Each rank is
 * reported with that origin on its own clock (rpt_options.agg_origin_ns), so its buckets
 * are the job's and no sample is split between two; its sort-event units per bucket are
 * its column, and the total column is the ranks' sum. A rank's column sums to its
 * samples in the job's tables, less those past the last bucket (counted, as a session's
 * are). A rank with no clock (neither job.ini nor its session recorded one) has no
 * column: its samples are counted as off the line.
 *
 * The origin must be known before the first rank is reported, so it is read first from
 * every selected rank's session.ini (a few hundred bytes each).
 */
#include "job/internal.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rpt_job_agg {
	int64_t origin_ns;  /* the time line's origin, wall clock */
	int64_t *rank_origin; /* [nranks]: bucket 0 on the rank's clock; 0: off the line */
	uint64_t *units;      /* [nbuckets][nranks] */
	size_t nbuckets, cap;
	uint64_t past, off_line; /* units past the last bucket; of ranks without a clock */
	bool weighted;		 /* the sort event counts events, not samples */
};

int rpt_job_intervals_begin(struct rpt_job *j)
{
	struct rpt_job_agg *a;
	struct ses_info *info;
	int64_t *wall_start;
	bool any = false;

	if (!j->opts.agg_interval)
		return 0;
	a = calloc(1, sizeof(*a));
	info = malloc(sizeof(*info));
	wall_start = calloc((size_t)(j->nranks ? j->nranks : 1), sizeof(*wall_start));
	if (a)
		a->rank_origin = calloc((size_t)(j->nranks ? j->nranks : 1), sizeof(int64_t));
	if (!a || !info || !wall_start || !a->rank_origin) {
		if (a)
			free(a->rank_origin);
		free(a), free(info), free(wall_start);
		return -ENOMEM;
	}
	j->agg = a;
	for (int i = 0; i < j->nranks; i++) {
		const char *session = rpt_job_session_of(&j->job, j->ranks[i].rank);
		int sfd = session ? util_at_dir(j->dfd, session) : -ENOENT;
		int64_t offset;

		/* a rank whose session cannot be read is reported missing by load_rank */
		if (sfd < 0)
			continue;
		if (!ses_info_read_at(sfd, info, NULL, 0) && info->start_mono_ns > 0 &&
		    rpt_job_rank_offset(j, j->ranks[i].rank, info, &offset)) {
			wall_start[i] = info->start_mono_ns + offset;
			a->rank_origin[i] = -offset; /* made the bucket origin below */
			if (!any || wall_start[i] < a->origin_ns)
				a->origin_ns = wall_start[i];
			any = true;
		}
		close(sfd);
	}
	for (int i = 0; i < j->nranks; i++)
		if (wall_start[i]) /* the origin on this rank's clock: origin - its offset */
			a->rank_origin[i] += a->origin_ns;
	free(info);
	free(wall_start);
	return 0;
}

void rpt_job_intervals_opts(const struct rpt_job *j, int i, struct rpt_options *opts)
{
	if (!j->agg)
		return;
	if (j->agg->rank_origin[i] > 0)
		opts->agg_origin_ns = j->agg->rank_origin[i];
	else
		opts->agg_interval = false; /* off the line: its samples are counted there */
}

static int grow(struct rpt_job_agg *a, size_t nbuckets, int nranks)
{
	size_t cap = a->cap ? a->cap : 64;
	uint64_t *p;

	if (nbuckets <= a->cap)
		return 0;
	while (cap < nbuckets)
		cap *= 2;
	p = realloc(a->units, cap * (size_t)nranks * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + a->cap * (size_t)nranks, 0, (cap - a->cap) * (size_t)nranks * sizeof(*p));
	a->units = p;
	a->cap = cap;
	return 0;
}

int rpt_job_intervals_add(struct rpt_job *j, int i, const struct rpt *r)
{
	struct rpt_job_agg *a = j->agg;
	struct rpt_agg_facts f;
	struct rpt_agg_cell c;
	struct rpt_summary s;

	if (!a)
		return 0;
	rpt_summary(r, &s);
	if (s.info->nevents)
		a->weighted = s.info->events[0].weighted;
	if (a->rank_origin[i] <= 0) {
		a->off_line += s.samples;
		return 0;
	}
	rpt_agg_facts(r, &f);
	a->past += f.past;
	if (grow(a, f.nbuckets, j->nranks))
		return -ENOMEM;
	if (f.nbuckets > a->nbuckets)
		a->nbuckets = f.nbuckets;
	for (size_t k = 0; k < f.ncells; k++) {
		rpt_agg_cell_at(r, k, &c);
		if (c.ev == 0 && c.bucket < f.nbuckets) /* the sort event's */
			a->units[(size_t)c.bucket * (size_t)j->nranks + (size_t)i] += c.units;
	}
	return 0;
}

void rpt_job_intervals_write(const struct rpt_job *j, FILE *f)
{
	const struct rpt_job_agg *a = j->agg;
	int64_t step = j->opts.agg_interval_ns;

	if (!a)
		return;
	if (step > 0)
		fprintf(f, "\n\"SAMPLES PER INTERVAL (Interval - %.3f ms; seconds from the first "
			   "rank's profile start)\"\n",
			(double)step / 1e6);
	else
		fprintf(f, "\n\"SAMPLES PER INTERVAL (Interval - the whole run; seconds from the "
			   "first rank's profile start)\"\n");
	fprintf(f, "INTERVAL START (seconds),INTERVAL END (seconds),\"%s (%s)\"", j->event,
		a->weighted ? "events" : "samples");
	for (int i = 0; i < j->nranks; i++)
		if (a->rank_origin[i] > 0)
			fprintf(f, ",RANK %d", j->ranks[i].rank);
	fputc('\n', f);
	for (size_t b = 0; b < a->nbuckets; b++) {
		const uint64_t *row = a->units + b * (size_t)j->nranks;
		uint64_t total = 0;

		for (int i = 0; i < j->nranks; i++)
			total += row[i];
		if (step > 0)
			fprintf(f, "%.3f,%.3f", (double)b * (double)step / 1e9,
				(double)(b + 1) * (double)step / 1e9);
		else /* one row: from the origin to the last rank's end */
			fprintf(f, "0.000,%.3f",
				j->end_epoch_ns > a->origin_ns
					? (double)(j->end_epoch_ns - a->origin_ns) / 1e9
					: 0.0);
		fprintf(f, ",%" PRIu64, total);
		for (int i = 0; i < j->nranks; i++)
			if (a->rank_origin[i] > 0)
				fprintf(f, ",%" PRIu64, row[i]);
		fputc('\n', f);
	}
	if (a->past)
		util_csv_kvf(f, "Samples Past The Last Interval", "%" PRIu64 " not in a row",
			     a->past);
	if (a->off_line)
		util_csv_kvf(f, "Samples Off The Time Line",
			     "%" PRIu64 " of ranks whose clock was not recorded: in no row",
			     a->off_line);
}

void rpt_job_intervals_free(struct rpt_job *j)
{
	if (!j->agg)
		return;
	free(j->agg->rank_origin);
	free(j->agg->units);
	free(j->agg);
	j->agg = NULL;
}
