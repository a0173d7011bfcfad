// SPDX-License-Identifier: MIT
/*
 * uprof collect --trace <what>: each tracer parses its own value in its own file
 * (openmp: collect_openmp.c); this is only the dispatch.
 */
#include "cli/collect.h"

#include <string.h>

static const char *const CMD = "collect";

int collect_trace_parse(struct collect_state *st, const char *arg)
{
	if (!strcmp(arg, "openmp"))
		return collect_omp_trace_parse(st);
	return cli_error(EXIT_USAGE, CMD, "--trace '%s': what to trace is one of: openmp", arg);
}
