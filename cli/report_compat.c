// SPDX-License-Identifier: MIT
/*
 * uProf's report options that uprof report does not do (yet), each answered with its
 * reason instead of "unknown option" (issue 16: every uProf option accepted or refused
 * with a reason). The getopt entries are CLI_REPORT_COMPAT_OPTIONS (cli.h), in the order
 * of the table below.
 */
#include "cli/cli.h"

#include <string.h>

struct compat {
	const char *name;
	const char *why; /* NULL: accepted (with @accept, the values taken) */
	const char *accept;
};

static const struct compat compat[CLI_REPORT_COMPAT_COUNT] = {
	{ "sort-by", "not supported: the tables are sorted by "
		     "the session's first event (its sort event)", NULL },
	{ "view", "views are not supported: report.csv has every event's column", NULL },
	{ "show-percentage", "not supported: report.csv's values are CPU_TIME seconds or "
			     "event counts; the terminal table shows percentages", NULL },
	{ "show-sample-count", "not supported: report.csv's values are CPU_TIME seconds or "
			       "event counts (samples x interval)", NULL },
	{ "show-event-count", "not supported in report: report.csv's values are event "
			      "counts already (annotate takes --show-event-count)", NULL },
	{ "agg-interval", "timelines are not supported: use --time-filter T1:T2 for a "
			  "window of the run", NULL },
	{ "ignore-system-module", "not supported: -p and --time-filter narrow a report; "
				  "the modules table shows system modules apart", NULL },
	{ "inline", "not supported: samples count for the function they were compiled into; "
		    "--disasm shows inlined functions' own lines, marked [inlined from]", NULL },
	/* the hottest tables are CPU data; OpenMP and MPI sections are written whenever the
	 * session has their data, so only cpu is a category to take */
	{ "category", "only 'cpu' is a category here: OpenMP and MPI sections are written "
		      "whenever the session has their data", "cpu" },
};

int cli_report_compat(int c, const char *arg, const char *cmd)
{
	const struct compat *k;

	if (c == 's')
		c = CLI_OPT_COMPAT;
	if (c < CLI_OPT_COMPAT || c >= CLI_OPT_COMPAT + CLI_REPORT_COMPAT_COUNT)
		return cli_error(EXIT_USAGE, cmd, "internal: option %d is not uProf's", c);
	k = &compat[c - CLI_OPT_COMPAT];
	if (k->accept && arg && !strcmp(arg, k->accept))
		return -1;
	return cli_error(EXIT_USAGE, cmd, "--%s%s%s: %s", k->name, arg ? " " : "", arg ? arg : "",
			 k->why);
}
