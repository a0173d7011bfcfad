// SPDX-License-Identifier: MIT
/*
 * uprof collect --trace <what>: each tracer parses its own value in its own file (openmp:
 * collect_openmp.c, mpi: collect_mpi.c, os: collect_ostrace.c); this is only the dispatch.
 */
#include "cli/collect.h"

#include <string.h>

static const char *const CMD = "collect";

int collect_trace_parse(struct collect_state *st, const char *arg)
{
	if (!strcmp(arg, "openmp"))
		return collect_omp_trace_parse(st);
	if (!strncmp(arg, "mpi", 3) && (!arg[3] || arg[3] == '='))
		return collect_mpi_trace_parse(st, arg + 3);
	if (!strncmp(arg, "os", 2) && (!arg[2] || arg[2] == '='))
		return collect_ostrace_parse(st, arg + 2);
	return cli_error(EXIT_USAGE, CMD,
			 "--trace '%s': what to trace is one of: openmp, "
			 "mpi[=openmpi|mpich][,lwt|full], os[=EV[:THRESHOLD_US],...]",
			 arg);
}
