// SPDX-License-Identifier: MIT
/*
 * Report time over an MPI job directory, in the tool's child (uprof_tool.h 1.3): the
 * session callbacks with the job's facts, and between them the MPI callbacks
 * (driver_mpi.c). A job has no samples of its own (its ranks are sessions): the
 * per-session callbacks are not called here.
 */
#include "tool/internal.h"
#include "job/job.h"

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

static int job_body(struct tool_host *h, void *arg)
{
	(void)arg;
	return tool_driver_mpi(h, h->job);
}

int tool_driver_run_job(struct tool_host *h, const char *job_dir)
{
	struct uprof_tool_session s;

	/* a tool that reads MPI data from a job without any is told, not given nothing */
	if (tool_driver_wants_mpi(h) && !rpt_job_mpi_ranks_with_data(h->job))
		return tool_driver_no_mpi(h, "no rank of the job has");
	job_facts(h->job, job_dir, &s);
	return tool_driver_session(h, &s, job_body, NULL);
}
