// SPDX-License-Identifier: MIT
/*
 * trace.json of an MPI job (report -i JOBDIR --export perfetto): each selected rank's
 * `--trace mpi=full` events (mpi/<pid>.mpiev, read beneath its session's fd) handed to
 * lib/export's MPI trace. Ranks merge on one time line by wall clock: every rank of a
 * host takes the clock offset of that host's first rank in job.ini (they share one
 * CLOCK_MONOTONIC, so their order is the kernel's, not two clock reads' jitter); hosts
 * take their own (docs/DESIGN.md §10).
 */
#include "export/export.h"
#include "job/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct ses_job_rank *rpt_job_ses_rank(const struct ses_job *job, int rank)
{
	for (size_t i = 0; i < job->nranks; i++)
		if (job->ranks[i].rank == rank)
			return &job->ranks[i];
	return NULL;
}

/* The clock offset of @host's first rank in job.ini. */
static int64_t host_offset(const struct ses_job *job, const char *host, int64_t own)
{
	for (size_t i = 0; i < job->nranks; i++)
		if (!strcmp(job->ranks[i].host, host))
			return job->ranks[i].clock_offset_ns;
	return own;
}

/* Rank @i's events into @ev and @out; why there are none into @why. -ENOMEM only. */
static int load(const struct rpt_job *j, int i, struct ses_mpiev *ev, struct rpt_mpi_rank *out,
		char *why, size_t whylen)
{
	const struct ses_job_rank *jr = rpt_job_ses_rank(&j->job, j->ranks[i].rank);
	char err[320];
	int sfd, ret;

	out->rank = j->ranks[i].rank;
	out->pid = j->ranks[i].pid;
	out->host = j->ranks[i].host;
	out->why = why;
	if (!jr || j->ranks[i].state >= RPT_RANK_MISSING) {
		snprintf(why, whylen, "no session: %s", j->ranks[i].why);
		return 0;
	}
	out->offset_ns = host_offset(&j->job, jr->host, jr->clock_offset_ns);
	sfd = util_at_dir(j->dfd, jr->session);
	if (sfd < 0) {
		snprintf(why, whylen, "%s: %s", jr->session, strerror(-sfd));
		return 0;
	}
	ret = ses_mpiev_find_at(sfd, ev, err, sizeof(err));
	close(sfd);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		snprintf(why, whylen, "%s", err);
	else if (!ret)
		snprintf(why, whylen,
			 "no %s/<pid>%s: not collected with --trace mpi=full, or the "
			 "rank never flushed its data",
			 SES_MPI_DIR, SES_MPIEV_SUFFIX);
	else if (ev->damage[0])
		snprintf(why, whylen, "damaged at offset %llu (%s): what comes before is shown",
			 (unsigned long long)ev->damaged_at, ev->damage);
	if (ret > 0)
		out->ev = ev;
	return 0;
}

int rpt_job_export_perfetto(const struct rpt_job *j, FILE *f, struct rpt_mpi_trace_facts *facts)
{
	struct rpt_mpi_rank *ranks = calloc((size_t)j->nranks + 1, sizeof(*ranks));
	struct ses_mpiev *ev = calloc((size_t)j->nranks + 1, sizeof(*ev));
	char(*why)[384] = calloc((size_t)j->nranks + 1, sizeof(*why));
	int ret = -ENOMEM;

	if (!ranks || !ev || !why)
		goto out;
	ret = 0;
	for (int i = 0; i < j->nranks && !ret; i++)
		ret = load(j, i, &ev[i], &ranks[i], why[i], sizeof(why[i]));
	if (!ret)
		ret = rpt_export_mpi_job(f, ranks, (size_t)j->nranks, j->dir, facts);
out:
	for (int i = 0; ev && i < j->nranks; i++)
		ses_mpiev_release(&ev[i]);
	free(ranks);
	free(ev);
	free(why);
	return ret;
}
