// SPDX-License-Identifier: MIT
/*
 * A tool of API 1.3 (tests/e2e/tool_mpi.sh): the ranks and MPI functions of a job it is
 * called back with, written back as two sections, "MPI RANKS" and "MPI CALLS", with the
 * numbers in report.csv's own %g style so that the test holds them against the job's RANK
 * SUMMARY TABLE and MPI FUNCTION SUMMARY TABLE (Rank N) cell for cell. API 1.4's call
 * sites come back as "MPI SITES" in MPI CALL SITES PER RANK's own row style, and a
 * --trace mpi=full rank's events (streamed: only sums are kept) as "MPI EVENTS", per rank
 * and function: calls, bytes sent and received, and time. Rows are kept until session_end:
 * the calls come after every rank. Built with -DDECLARE_1_2 it says it is a tool of API
 * 1.2, where mpi_rank and mpi_call were reserved; with -DDECLARE_1_3, of API 1.3, where
 * mpi_site and mpi_event were: either must be refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uprof_tool.h>

#include "tool_row.h"

#define MAX_ROWS 4096

static const struct uprof_tool_core *core;
static char ranks[256][512], calls[MAX_ROWS][512], sites[MAX_ROWS][1024];
static int nranks, ncalls, nsites, order_bad;

/* the events summed per (rank, function): what a tool keeps of a stream */
static struct ev_sum {
	int rank;
	char function[64];
	uint64_t calls, sent, recvd;
	int64_t time_ns;
} evs[MAX_ROWS];
static int nevs;
static uint64_t nevents, completions;
static int last_rank = -1;
static uint64_t next_index;

static int rank(void *ctx, const struct uprof_tool_mpi_rank *r)
{
	(void)ctx;
	if (r->size < sizeof(*r) || nranks == 256 || !r->host || !r->end || !r->why)
		return -EINVAL;
	if (ncalls) /* every rank comes before any call */
		order_bad = 1;
	snprintf(ranks[nranks++], sizeof(ranks[0]),
		 "%d, %d, %g, %g, %" PRIu64 ", %" PRIu64 ", %g, %g, %g, %s", r->rank, r->pid,
		 r->mpi_s, r->wait_s, r->calls, r->bytes_sent, r->app_s, r->init_s, r->finalize_s,
		 r->end);
	return 0;
}

static int call(void *ctx, const struct uprof_tool_mpi_call *c)
{
	(void)ctx;
	if (c->size < sizeof(*c) || ncalls == MAX_ROWS || !c->function)
		return -EINVAL;
	snprintf(calls[ncalls++], sizeof(calls[0]),
		 "%d, %s, %" PRIu64 ", %g, %" PRIu64 ", %" PRIu64, c->rank, c->function, c->calls,
		 c->time_s, c->bytes_sent, c->bytes_recv);
	return 0;
}

static int site(void *ctx, const struct uprof_tool_mpi_site *x)
{
	(void)ctx;
	if (x->size < sizeof(*x) || nsites == MAX_ROWS || !x->function || !x->place ||
	    !x->caller || !x->module || !x->callers)
		return -EINVAL;
	if (ncalls == 0 && nranks == 0)
		order_bad = 1;
	/* Rank,Site,MPI Function,File:Line,Calls,Time,Messages,Total,Min,Avg,Max; then the
	 * site's Caller and Module (MPI CALL SITES) */
	snprintf(sites[nsites++], sizeof(sites[0]),
		 "%d, %d, %s, \"%s\", %" PRIu64 ", %g, %" PRIu64 ", %" PRIu64 ", %" PRIu64
		 ", %g, %" PRIu64 "|%s|%s",
		 x->rank, x->site, x->function, x->place, x->calls, x->time_s, x->messages,
		 x->bytes, x->min_bytes, x->messages ? (double)x->bytes / (double)x->messages : 0.0,
		 x->max_bytes, x->caller, x->module);
	return 0;
}

static int event(void *ctx, const struct uprof_tool_mpi_event *e)
{
	int i;

	(void)ctx;
	if (e->size < sizeof(*e) || !e->function || e->end_ns < e->begin_ns)
		return -EINVAL;
	/* rank after rank, each rank's events in the order of their index */
	if (e->rank != last_rank)
		last_rank = e->rank, next_index = 0;
	if (e->index < next_index)
		order_bad = 1;
	next_index = e->index + 1;
	nevents++;
	if (e->flags & UPROF_TOOL_MPI_COMPLETION) { /* of a request an earlier event posted */
		if (e->posted >= e->index)
			order_bad = 1;
		completions++;
		return 0;
	}
	for (i = 0; i < nevs; i++)
		if (evs[i].rank == e->rank && !strcmp(evs[i].function, e->function))
			break;
	if (i == nevs) {
		if (nevs == MAX_ROWS)
			return -E2BIG;
		evs[nevs].rank = e->rank;
		snprintf(evs[nevs++].function, sizeof(evs[0].function), "%s", e->function);
	}
	evs[i].calls++;
	evs[i].sent += e->sent;
	evs[i].recvd += e->recvd;
	evs[i].time_ns += e->end_ns - e->begin_ns;
	return 0;
}

static int table(const char *title, char *rows, size_t width, int n)
{
	int ret = core->section(core, title, "Row");

	for (int i = 0; i < n && !ret; i++)
		ret = tool_row(core, "t", rows + (size_t)i * width);
	return ret;
}

static int event_table(void)
{
	int ret = core->section(core, "MPI EVENTS", "Rank,Function,Calls,Sent,Received,Time");

	for (int i = 0; i < nevs && !ret; i++)
		ret = tool_row(core, "itiiii", (int64_t)evs[i].rank, evs[i].function,
			       (int64_t)evs[i].calls, (int64_t)evs[i].sent, (int64_t)evs[i].recvd,
			       (int64_t)evs[i].time_ns);
	ret = ret ? ret : core->section(core, "MPI EVENT COUNTS", "Events,Completions");
	return ret ? ret : tool_row(core, "ii", (int64_t)nevents, (int64_t)completions);
}

static int end(void *ctx, const struct uprof_tool_session *s)
{
	int ret;

	(void)ctx;
	if (order_bad)
		return -EPROTO;
	ret = table("MPI RANKS", ranks[0], sizeof(ranks[0]), nranks);
	ret = ret ? ret : table("MPI CALLS", calls[0], sizeof(calls[0]), ncalls);
	ret = ret ? ret : table("MPI SITES", sites[0], sizeof(sites[0]), nsites);
	ret = ret ? ret : event_table();
	/* the session callbacks get the job: its directory and its totals */
	ret = ret ? ret : core->section(core, "MPI JOB", "Dir,Processes");
	return ret ? ret : tool_row(core, "ti", s->dir, (int64_t)s->nprocesses);
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc;
	(void)argv;
	core = c;
	d.name = "mpiranks";
#ifdef DECLARE_1_2 /* built as if against API 1.2, where mpi_rank and mpi_call were reserved */
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
#endif
#ifdef DECLARE_1_3 /* ... against API 1.3, where mpi_site and mpi_event were */
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 3);
#endif
	d.mpi_rank = rank;
	d.mpi_call = call;
	d.mpi_site = site;
	d.mpi_event = event;
	d.session_end = end;
	return c->register_tool(c, &d);
}
