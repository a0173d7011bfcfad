// SPDX-License-Identifier: MIT
/*
 * trace.json of an MPI job (report -i JOBDIR --export perfetto), and the MPI timeline of
 * its report.html (--export html): each selected rank's
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

/* Every selected rank's events, loaded (load()): what a job's trace and page draw. */
struct job_events {
	struct rpt_mpi_rank *ranks;
	struct ses_mpiev *ev;
	char (*why)[384];
	int n;
};

static void release(struct job_events *e)
{
	for (int i = 0; e->ev && i < e->n; i++)
		ses_mpiev_release(&e->ev[i]);
	free(e->ranks);
	free(e->ev);
	free(e->why);
}

/* 0 or -ENOMEM (nothing to release then). */
static int load_all(const struct rpt_job *j, struct job_events *e)
{
	int ret = 0;

	e->n = j->nranks;
	e->ranks = calloc((size_t)j->nranks + 1, sizeof(*e->ranks));
	e->ev = calloc((size_t)j->nranks + 1, sizeof(*e->ev));
	e->why = calloc((size_t)j->nranks + 1, sizeof(*e->why));
	if (!e->ranks || !e->ev || !e->why)
		ret = -ENOMEM;
	for (int i = 0; i < j->nranks && !ret; i++)
		ret = load(j, i, &e->ev[i], &e->ranks[i], e->why[i], sizeof(e->why[i]));
	if (ret)
		release(e);
	return ret;
}

int rpt_job_export_perfetto(const struct rpt_job *j, FILE *f, struct rpt_mpi_trace_facts *facts)
{
	struct job_events e;
	int ret = load_all(j, &e);

	if (ret)
		return ret;
	ret = rpt_export_mpi_job(f, e.ranks, (size_t)e.n, j->dir, facts);
	release(&e);
	return ret;
}

int rpt_job_export_html(const struct rpt_job *j, FILE *f, const char *title, const char *csv,
			size_t len)
{
	struct job_events e;
	int ret = load_all(j, &e);

	if (ret)
		return ret;
	ret = rpt_export_html_job(f, title, csv, len, e.ranks, (size_t)e.n);
	release(&e);
	return ret;
}
