// SPDX-License-Identifier: MIT
/*
 * The job's one time line (docs/DESIGN.md §10). Each rank's times are its host's
 * CLOCK_MONOTONIC (the samples', the MPI data's), which counts from that host's boot: two
 * hosts' clocks say nothing about each other. job.ini gives each rank the clock offset of
 * its host when it joined (CLOCK_REALTIME − CLOCK_MONOTONIC), so a rank's monotonic time
 * plus its offset is wall-clock time, the same for every host whose clock is in step
 * (NTP). The job's time line is that, from the first rank's profile start; report.csv's
 * MPI RANK TIMELINE puts each rank's profile and MPI span on it.
 */
#include "job/internal.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const struct ses_job_rank *ini_rank(const struct ses_job *job, int rank)
{
	for (size_t i = 0; i < job->nranks; i++)
		if (job->ranks[i].rank == rank)
			return &job->ranks[i];
	return NULL;
}

bool rpt_job_rank_offset(const struct rpt_job *j, int rank, const struct ses_info *info,
			 int64_t *offset)
{
	const struct ses_job_rank *ini = ini_rank(&j->job, rank);

	/* job.ini's, which every rank writes; a job.ini without one (0): the session's own
	 * two clocks at its start, the same quantity a few ms apart */
	if (ini && ini->clock_offset_ns)
		*offset = ini->clock_offset_ns;
	else if (info->start_epoch_ns && info->start_mono_ns)
		*offset = info->start_epoch_ns - info->start_mono_ns;
	else
		return false; /* no clock to put it on the line with */
	return true;
}

void rpt_job_clock_note(struct rpt_job *j, struct rpt_job_rank *o, const struct ses_info *info)
{
	int64_t start;

	o->start_mono_ns = info->start_mono_ns;
	o->end_mono_ns = info->end_mono_ns;
	if (!rpt_job_rank_offset(j, o->rank, info, &o->clock_offset_ns))
		return; /* not on the line */
	o->on_timeline = true;
	start = o->start_mono_ns + o->clock_offset_ns;
	if (!j->timeline_set || start < j->timeline_origin_ns) {
		j->timeline_origin_ns = start;
		j->timeline_set = true;
	}
}

int64_t rpt_job_time_ns(const struct rpt_job *j, int i, int64_t mono_ns)
{
	const struct rpt_job_rank *o = &j->ranks[i];

	return o->on_timeline ? mono_ns + o->clock_offset_ns - j->timeline_origin_ns : 0;
}

/* ",<s>.<9 digits>" from whole ns, exact (a double rounds past ~2^53 ns), "," for none */
static void put_seconds(FILE *f, bool have, int64_t ns)
{
	int64_t mag = ns < 0 ? -ns : ns;

	if (!have) {
		fputc(',', f);
		return;
	}
	fprintf(f, ",%s%" PRId64 ".%09" PRId64, ns < 0 ? "-" : "", mag / 1000000000,
		mag % 1000000000);
}

void rpt_job_timeline_write(const struct rpt_job *j, FILE *f)
{
	if (!j->timeline_set)
		return;
	fprintf(f, "\nMPI RANK TIMELINE (seconds from the first rank's profile start; each "
		   "rank's CLOCK_MONOTONIC plus its host's clock offset)\n");
	fprintf(f, "RANK,HOST,CLOCK OFFSET(ns),PROFILE START,MPI_INIT RETURNED,MPI DATA "
		   "WRITTEN,PROFILE END\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct rpt_job_rank *o = &j->ranks[i];
		const struct rpt_job_mpi *m = &j->mpi[i];
		bool mpi = m->has && m->m.init_mono_ns > 0;

		if (!o->on_timeline)
			continue;
		fprintf(f, "%d,", o->rank);
		util_csv_quoted(f, o->host);
		fprintf(f, ",%" PRId64, o->clock_offset_ns);
		put_seconds(f, true, rpt_job_time_ns(j, i, o->start_mono_ns));
		put_seconds(f, mpi, rpt_job_time_ns(j, i, m->m.init_mono_ns));
		put_seconds(f, mpi && m->m.end_mono_ns > 0,
			    rpt_job_time_ns(j, i, m->m.end_mono_ns));
		put_seconds(f, o->end_mono_ns > 0, rpt_job_time_ns(j, i, o->end_mono_ns));
		fputc('\n', f);
	}
}
