// SPDX-License-Identifier: MIT
/*
 * uProf's log options (--log-path, --enable-log, --enable-logts: a log file
 * $USER-AMDuProfCLI.log in $AMDUPROF_LOGDIR or $TEMP), taken by collect, report and
 * translate. uprof keeps no log: each is refused with where its messages go instead.
 */
#include "cli/cli.h"
#include "cli/options.h"

#define NO_LOG \
	"uprof keeps no log file: its messages go to standard error (redirect it: 2>FILE); " \
	"a session's facts are in its session.ini"

const struct cli_option cli_refused_log_options[] = {
	OPT_REFUSED(0, "log-path", "<dir>", NO_LOG, NULL),
	OPT_REFUSED(0, "enable-log", NULL, NO_LOG, NULL),
	OPT_REFUSED(0, "enable-logts", NULL, NO_LOG, NULL),
	OPT_END(),
};
