// SPDX-License-Identifier: MIT
/*
 * uProf's collect options that uprof answers with a reason (hidden from --help; the
 * parser says "--<name> [<value>]: <reason>", exit 2), and --wait-for-signal. uProf's
 * aliases that work are in collect_opts.c's table (--data-buffer-count, --call-graph-type).
 */
#include "cli/collect.h"
#include "cli/options.h"

/* uProf's --wait-for-signal: sampling starts when uprof gets SIGUSR1 (collect_run.c's
 * start hold, as --start-delay's, ended by the signal instead of a time) */
const struct cli_option cli_collect_signal_options[] = {
	OPT_BOOL(0, "wait-for-signal", struct collect_state, wait_for_signal,
		 "start sampling when uprof gets SIGUSR1 (kill -USR1\n"
		 "<uprof's pid>); the program runs from the start"),
	OPT_END(),
};

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
	/* named in uProf 5.3's release notes only: neither its spelling nor its effect is
	 * documented (docs: uprof-cli.md §2) */
	OPT_REFUSED(0, "collect-thread", NULL,
		    "uProf documents no effect for it: every thread's samples are collected "
		    "already (report's --group-by thread shows them per thread)",
		    NULL),
	OPT_END(),
};
