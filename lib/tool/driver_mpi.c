// SPDX-License-Identifier: MIT
/*
 * Report time, in the tool's child: the MPI callbacks of uprof_tool.h (1.3's mpi_rank and
 * mpi_call, 1.4's mpi_site and mpi_event) over a job, or over one rank's session as a job
 * of that rank alone (lib/job's rpt_job_rank_open): each rank's summary, then each rank's
 * MPI functions, then its call sites, the numbers lib/job writes into report.csv's MPI
 * TRACING REPORT (job_tool.c's and job_sites.c's views); then each --trace mpi=full rank's
 * recorded calls, streamed from its file (ses_mpiev_stream_find_at: nothing kept).
 */
#include "tool/internal.h"
#include "job/job.h"
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

_Static_assert((int)UPROF_TOOL_MPI_SEND == (int)SES_MPIEV_SEND &&
		       (int)UPROF_TOOL_MPI_RECV == (int)SES_MPIEV_RECV &&
		       (int)UPROF_TOOL_MPI_NONBLOCKING == (int)SES_MPIEV_NONBLOCKING &&
		       (int)UPROF_TOOL_MPI_STATUS == (int)SES_MPIEV_STATUS &&
		       (int)UPROF_TOOL_MPI_COLL == (int)SES_MPIEV_COLL &&
		       (int)UPROF_TOOL_MPI_COMPLETION == (int)SES_MPIEV_COMPLETION,
	       "the tool API's MPI event flags are the file's");

static int rank_rows(struct tool_host *h, const struct rpt_job *j, int n)
{
	const struct uprof_tool_desc *t = &h->desc;
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		struct rpt_job_mpi_rank_view v;

		if (rpt_job_mpi_rank_at(j, i, &v))
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
	}
	return ret ? tool_driver_failed(h, "mpi_rank", ret) : 0;
}

static int call_rows(struct tool_host *h, const struct rpt_job *j, const struct rpt_job_rank *rs,
		     int n)
{
	const struct uprof_tool_desc *t = &h->desc;
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		const struct ses_mpi_func *f;
		size_t nf = rpt_job_mpi_funcs_at(j, i, &f);

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
	}
	return ret ? tool_driver_failed(h, "mpi_call", ret) : 0;
}

static int site_rows(struct tool_host *h, const struct rpt_job *j, int n)
{
	const struct uprof_tool_desc *t = &h->desc;
	size_t ns = rpt_job_mpi_sites(j);
	int ret = 0;

	for (int i = 0; i < n && !ret; i++)
		for (size_t k = 0; k < ns && !ret; k++) {
			struct rpt_job_mpi_site_view v;

			if (rpt_job_mpi_site_at(j, k, i, &v))
				continue; /* the rank never called there */
			ret = t->mpi_site(t->ctx, &(struct uprof_tool_mpi_site){
							  .size = sizeof(struct uprof_tool_mpi_site),
							  .rank = v.rank,
							  .site = v.site,
							  .line = v.line,
							  .function = v.function,
							  .place = v.place,
							  .caller = v.caller,
							  .module = v.module,
							  .callers = v.callers,
							  .calls = v.calls,
							  .time_s = (double)v.time_ns / 1e9,
							  .messages = v.messages,
							  .bytes = v.bytes,
							  .min_bytes = v.min_bytes,
							  .max_bytes = v.max_bytes });
		}
	return ret ? tool_driver_failed(h, "mpi_site", ret) : 0;
}

struct event_sink {
	struct tool_host *h;
	int rank;
};

/* One event as it is read, straight to the tool. */
static int one_event(void *ctx, const struct ses_mpiev *e, uint64_t index,
		     const struct ses_mpiev_call *c)
{
	struct event_sink *s = ctx;
	const struct uprof_tool_desc *t = &s->h->desc;
	bool completion = c->flags & SES_MPIEV_COMPLETION;
	int ret = t->mpi_event(t->ctx, &(struct uprof_tool_mpi_event){
					       .size = sizeof(struct uprof_tool_mpi_event),
					       .rank = s->rank,
					       .index = index,
					       .function = c->func < e->nnames ? e->names[c->func] : "",
					       .begin_ns = c->begin_ns,
					       .end_ns = c->end_ns,
					       .tid = c->tid,
					       .flags = c->flags,
					       .dest = c->dest,
					       .send_tag = c->send_tag,
					       .source = c->source,
					       .recv_tag = c->recv_tag,
					       .sent = c->sent,
					       .recvd = c->recvd,
					       .comm = c->comm,
					       .posted = completion && c->done ? c->done - 1 : 0 });

	return ret ? tool_driver_failed(s->h, "mpi_event", ret) : 0;
}

/* Every rank's recorded calls; a rank without a file (not mpi=full) has none. */
static int event_rows(struct tool_host *h, const struct rpt_job *j, const struct rpt_job_rank *rs,
		      int n)
{
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		struct event_sink s = { h, rs[i].rank };
		struct ses_mpiev e;
		char err[320];
		int sfd = rpt_job_rank_dir(j, i);

		if (sfd < 0)
			continue; /* no session: nothing recorded */
		ret = ses_mpiev_stream_find_at(sfd, &e, one_event, &s, err, sizeof(err));
		close(sfd);
		ses_mpiev_release(&e);
		if (ret == -ECANCELED)
			return ret; /* the tool's failure, said */
		if (ret < 0) { /* the mapping counts in the tool's address space (sandbox.c) */
			snprintf(h->error, sizeof(h->error), "rank %d's MPI events: %s%s",
				 rs[i].rank, err,
				 ret == -ENOMEM ? " (the file is mapped whole: give --tool-memory "
						  "more MiB than its size)"
						: "");
			return -ECANCELED;
		}
		ret = 0;
	}
	return ret;
}

int tool_driver_mpi(struct tool_host *h, const struct rpt_job *j)
{
	const struct uprof_tool_desc *t = &h->desc;
	const struct rpt_job_rank *rs;
	int n = rpt_job_ranks(j, &rs), ret = 0;

	if (t->mpi_rank)
		ret = rank_rows(h, j, n);
	if (!ret && t->mpi_call)
		ret = call_rows(h, j, rs, n);
	if (!ret && t->mpi_site)
		ret = site_rows(h, j, n);
	if (!ret && t->mpi_event)
		ret = event_rows(h, j, rs, n);
	return ret;
}

bool tool_driver_wants_mpi(const struct tool_host *h)
{
	const struct uprof_tool_desc *t = &h->desc;

	return t->mpi_rank || t->mpi_call || t->mpi_site || t->mpi_event;
}

int tool_driver_no_mpi(struct tool_host *h, const char *where)
{
	const struct uprof_tool_desc *t = &h->desc;

	snprintf(h->error, sizeof(h->error),
		 "%s MPI data for its mpi_%s callback (collect with --trace mpi%s under "
		 "the launcher)",
		 where,
		 t->mpi_rank   ? "rank"
		 : t->mpi_call ? "call"
		 : t->mpi_site ? "site"
			       : "event",
		 !t->mpi_rank && !t->mpi_call && !t->mpi_site ? "=full" : "");
	return -ECANCELED;
}
