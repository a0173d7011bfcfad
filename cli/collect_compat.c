// SPDX-License-Identifier: MIT
/*
 * uProf's collect --wait-for-signal. uProf's aliases that work are in collect_opts.c's
 * table (--data-buffer-count, --call-graph-type); the options refused with a reason are
 * all in cli/uprof_refused.c.
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
