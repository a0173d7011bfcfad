// SPDX-License-Identifier: MIT
/*
 * uProf's collect options that uprof answers with a reason (hidden from --help; the
 * parser says "--<name> [<value>]: <reason>", exit 2). uProf's aliases that work are in
 * collect_opts.c's table (--data-buffer-count, --call-graph-type).
 */
#include "cli/cli.h"
#include "cli/options.h"

const struct cli_option cli_refused_collect_options[] = {
	/* uProf unwinds on a timer of its own; perf_event gives each sample its stack */
	OPT_REFUSED(0, "call-graph-interval", "<ms>",
		    "uprof takes a call stack with every sample, not on a separate timer: leave it "
		    "out (-g or --call-graph gives stacks; the interval field of --call-graph "
		    "I:D:S:F is accepted and has no effect)",
		    NULL),
	/* uProf's hotspots timer is a signal sent to the program; ours is perf_event's
	 * cpu-clock, which sends the program nothing */
	OPT_REFUSED(0, "profiling-signal", "<signo>",
		    "uprof's timer samples through perf_event (cpu-clock) and sends the program "
		    "no signal: there is none to choose",
		    NULL),
	OPT_REFUSED(0, "wait-for-signal", NULL,
		    "not supported in collect: start with --start-paused and resume from the "
		    "program (amdProfileResume()), or use --start-delay <s>",
		    NULL),
	/* named in uProf 5.3's release notes only: neither its spelling nor its effect is
	 * documented (docs: uprof-cli.md §2) */
	OPT_REFUSED(0, "collect-thread", NULL,
		    "uProf documents no effect for it: every thread's samples are collected "
		    "already (report's --group-by thread shows them per thread)",
		    NULL),
	OPT_END(),
};
