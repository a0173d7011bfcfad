// SPDX-License-Identifier: MIT
/*
 * One rank's MPI tables in its own report (`uprof report -i JOB/rank-3`): its session's
 * mpi/<pid>.mpi, reported as the job report reports a job of that rank alone (job_mpi.c's
 * tables, job_mpi_apart.c's summary), so that a rank's figures read the same in both.
 */
#include "job/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Load the session's MPI data into the one-rank job @j. The rank is the file's own: a
 * first load learns it (a session says no rank of its own), a second names what is
 * partial against it. */
static int load(struct rpt_job *j, int session_dfd)
{
	int ret = rpt_job_mpi_load(j, 0, session_dfd), rank;

	if (ret || !j->mpi[0].has)
		return ret;
	rank = j->mpi[0].m.rank;
	rpt_job_mpi_release(j);
	j->mpi = calloc(1, sizeof(*j->mpi));
	if (!j->mpi)
		return -ENOMEM;
	j->ntraced = 0;
	j->ranks[0].rank = rank;
	return rpt_job_mpi_load(j, 0, session_dfd);
}

int rpt_job_session_mpi(int session_dfd, FILE *f, struct rpt_job_mpi_summary *s, char *why,
			size_t whylen)
{
	struct rpt_job_rank rank = { .rank = -1 };
	struct rpt_job j;
	int ret;

	memset(&j, 0, sizeof(j));
	j.ranks = &rank;
	j.nranks = 1;
	j.mpi = calloc(1, sizeof(*j.mpi));
	if (!j.mpi)
		return -ENOMEM;
	ret = load(&j, session_dfd);
	if (!ret && f)
		ret = rpt_job_mpi_write(&j, f);
	if (!ret && s)
		rpt_job_mpi_summary(&j, s);
	if (why && whylen)
		snprintf(why, whylen, "%s", j.mpi ? j.mpi[0].why : "");
	rpt_job_mpi_release(&j);
	return ret;
}

int rpt_job_rank_open(struct rpt_job **out, int session_dfd, struct rpt *r)
{
	struct rpt_job *j = calloc(1, sizeof(*j));
	struct rpt_summary sum;
	int ret = -ENOMEM;

	*out = NULL;
	if (!j)
		return -ENOMEM;
	j->of_session = true;
	j->session_dfd = session_dfd;
	j->dfd = -1;
	j->nranks = 1;
	j->ranks = calloc(1, sizeof(*j->ranks));
	j->mpi = calloc(1, sizeof(*j->mpi));
	if (!j->ranks || !j->mpi)
		goto out;
	j->ranks[0].rank = -1;
	rpt_summary(r, &sum);
	snprintf(j->ranks[0].host, sizeof(j->ranks[0].host), "%s", sum.info->host);
	ret = load(j, session_dfd);
	if (!ret && j->mpi[0].has) {
		j->ranks[0].pid = j->mpi[0].m.pid;
		/* while @r is open: its mappings name the call sites, as the job's do */
		ret = rpt_job_sites_add(j, 0, r);
	}
out:
	if (ret)
		rpt_job_free(j);
	else
		*out = j;
	return ret;
}
