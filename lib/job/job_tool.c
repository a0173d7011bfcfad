// SPDX-License-Identifier: MIT
/*
 * The job's MPI data as the tool API hands it out (lib/tool's job driver, uprof_tool.h
 * 1.3's mpi_rank and mpi_call): the same sums the RANK SUMMARY TABLE and report --detail's
 * per-rank function tables write (job_mpi.c), so that a tool's numbers are report.csv's.
 */
#include "job/internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

int rpt_job_mpi_rank_at(const struct rpt_job *j, int i, struct rpt_job_mpi_rank_view *v)
{
	const struct ses_mpi *m;

	memset(v, 0, sizeof(*v));
	if (i < 0 || i >= j->nranks || !j->mpi || !j->mpi[i].has)
		return -ENODATA;
	m = &j->mpi[i].m;
	v->rank = j->ranks[i].rank;
	v->pid = m->pid; /* the RANK SUMMARY TABLE's PID: the traced program's */
	v->host = j->ranks[i].host;
	v->end = j->ranks[i].end_label;
	v->why = j->mpi[i].why;
	v->app_s = sec(rpt_job_rank_app_ns(m));
	v->mpi_s = sec(rpt_job_rank_mpi_ns(m));
	v->wait_s = sec(rpt_job_rank_wait_ns(m));
	v->init_s = sec(rpt_job_rank_init_ns(m));
	v->finalize_s = sec(rpt_job_rank_finalize_ns(m));
	v->bytes_sent = rpt_job_rank_sent(m);
	for (size_t k = 0; k < m->nfuncs; k++)
		v->calls += m->funcs[k].calls;
	return 0;
}

size_t rpt_job_mpi_funcs_at(const struct rpt_job *j, int i, const struct ses_mpi_func **funcs)
{
	*funcs = NULL;
	if (i < 0 || i >= j->nranks || !j->mpi || !j->mpi[i].has)
		return 0;
	*funcs = j->mpi[i].m.funcs;
	return j->mpi[i].m.nfuncs;
}

int rpt_job_mpi_ranks_with_data(const struct rpt_job *j)
{
	int n = 0;

	for (int i = 0; j->mpi && i < j->nranks; i++)
		n += j->mpi[i].has;
	return n;
}

int rpt_job_rank_dir(const struct rpt_job *j, int i)
{
	const struct ses_job_rank *jr;
	int fd;

	if (i < 0 || i >= j->nranks)
		return -ENOENT;
	if (j->of_session) {
		fd = dup(j->session_dfd);
		return fd < 0 ? -errno : fd;
	}
	jr = rpt_job_ses_rank(&j->job, j->ranks[i].rank);
	if (!jr || j->ranks[i].state >= RPT_RANK_MISSING)
		return -ENOENT;
	return util_at_dir(j->dfd, jr->session);
}
