// SPDX-License-Identifier: MIT
/*
 * A tool of API 1.3 (tests/e2e/tool_mpi.sh): the ranks and MPI functions of a job it is
 * called back with, written back as two sections, "MPI RANKS" and "MPI CALLS", with the
 * numbers in report.csv's own %g style so that the test holds them against the job's RANK
 * SUMMARY TABLE and MPI FUNCTION SUMMARY TABLE (Rank N) cell for cell. Rows are kept until
 * session_end: the calls come after every rank. Built with -DDECLARE_1_2 it says it is a
 * tool of API 1.2, where both slots were reserved: it must be refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uprof_tool.h>

#define MAX_ROWS 4096

static const struct uprof_tool_core *core;
static char ranks[256][512], calls[MAX_ROWS][512];
static int nranks, ncalls, order_bad;

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

static int table(const char *title, char rows[][512], int n)
{
	int ret = core->section(core, title, "Row");

	for (int i = 0; i < n && !ret; i++) {
		ret = core->cell_text(core, rows[i]);
		ret = ret ? ret : core->row_end(core);
	}
	return ret;
}

static int end(void *ctx, const struct uprof_tool_session *s)
{
	int ret;

	(void)ctx;
	if (order_bad)
		return -EPROTO;
	ret = table("MPI RANKS", ranks, nranks);
	ret = ret ? ret : table("MPI CALLS", calls, ncalls);
	if (!ret) { /* the session callbacks get the job: its directory and its totals */
		ret = core->section(core, "MPI JOB", "Dir,Processes");
		ret = ret ? ret : core->cell_text(core, s->dir);
		ret = ret ? ret : core->cell_int(core, s->nprocesses);
		ret = ret ? ret : core->row_end(core);
	}
	return ret;
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
	d.mpi_rank = rank;
	d.mpi_call = call;
	d.session_end = end;
	return c->register_tool(c, &d);
}
