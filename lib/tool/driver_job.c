// SPDX-License-Identifier: MIT
/*
 * Report time over an MPI job directory, in the tool's child (uprof_tool.h 1.3): the
 * session callbacks with the job's facts, then each rank's MPI summary (mpi_rank) and each
 * rank's MPI functions (mpi_call), the numbers lib/job writes into the job's report.csv.
 * A job has no samples of its own (its ranks are sessions): the per-session callbacks are
 * not called here.
 */
#include "tool/internal.h"
#include "job/job.h"
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failed(struct tool_host *h, const char *what, int ret)
{
	snprintf(h->error, sizeof(h->error), "its %s callback failed (%d: %s)", what, ret,
		 strerror(ret < 0 ? -ret : ret));
	return -ECANCELED;
}

static void job_facts(const struct rpt_job *j, const char *dir, struct uprof_tool_session *s)
{
	struct rpt_job_summary js;

	rpt_job_summary(j, &js);
	*s = (struct uprof_tool_session){
		.size = sizeof(*s),
		.dir = dir,
		.config = "",
		.command = "",
		.target_path = js.app ? js.app : "",
		.host = "",
		.cpu_model = "",
		.kernel = "",
		.events = NULL,
		.samples = js.samples,
		.lost = js.lost,
		.nprocesses = js.nprocesses,
		.nthreads = js.nthreads,
		.cpu_time_s = js.cpu_s,
		/* every selected rank reported whole */
		.complete = !js.nmissing && !js.ndamaged,
	};
}

static int ranks(struct tool_host *h)
{
	const struct uprof_tool_desc *t = &h->desc;
	const struct rpt_job_rank *rs;
	int n = rpt_job_ranks(h->job, &rs), ret = 0;

	for (int i = 0; t->mpi_rank && i < n && !ret; i++) {
		struct rpt_job_mpi_rank_view v;

		if (rpt_job_mpi_rank_at(h->job, i, &v))
			continue; /* no MPI data: the RANK SUMMARY TABLE has no row for it */
		ret = t->mpi_rank(t->ctx, &(struct uprof_tool_mpi_rank){
						  .size = sizeof(struct uprof_tool_mpi_rank),
						  .rank = v.rank,
						  .pid = v.pid,
						  .host = v.host,
						  .app_s = v.app_s,
						  .mpi_s = v.mpi_s,
						  .wait_s = v.wait_s,
						  .init_s = v.init_s,
						  .finalize_s = v.finalize_s,
						  .calls = v.calls,
						  .bytes_sent = v.bytes_sent,
						  .end = v.end,
						  .why = v.why });
		if (ret)
			return failed(h, "mpi_rank", ret);
	}
	for (int i = 0; t->mpi_call && i < n && !ret; i++) {
		const struct ses_mpi_func *f;
		size_t nf = rpt_job_mpi_funcs_at(h->job, i, &f);

		for (size_t k = 0; k < nf && !ret; k++)
			ret = t->mpi_call(t->ctx,
					  &(struct uprof_tool_mpi_call){
						  .size = sizeof(struct uprof_tool_mpi_call),
						  .rank = rs[i].rank,
						  .function = f[k].name,
						  .calls = f[k].calls,
						  .time_s = (double)f[k].time_ns / 1e9,
						  .bytes_sent = f[k].bytes_sent,
						  .bytes_recv = f[k].bytes_recv });
		if (ret)
			return failed(h, "mpi_call", ret);
	}
	return 0;
}

int tool_driver_run_job(struct tool_host *h, const char *job_dir)
{
	const struct uprof_tool_desc *t = &h->desc;
	struct uprof_tool_session s;
	int ret;

	/* a tool that reads MPI data from a job without any is told, not given nothing */
	if ((t->mpi_rank || t->mpi_call) && !rpt_job_mpi_ranks_with_data(h->job)) {
		snprintf(h->error, sizeof(h->error),
			 "no rank of the job has MPI data for its mpi_%s callback (collect "
			 "with --trace mpi under the launcher)",
			 t->mpi_rank ? "rank" : "call");
		return -ECANCELED;
	}
	job_facts(h->job, job_dir, &s);
	if (t->session_begin && (ret = t->session_begin(t->ctx, &s)))
		return failed(h, "session_begin", ret);
	ret = ranks(h);
	if (ret)
		return ret;
	if (t->session_end && (ret = t->session_end(t->ctx, &s)))
		return failed(h, "session_end", ret);
	if (h->row_open) /* a last row left open ends with its line */
		fputc('\n', h->out);
	return 0;
}
