// SPDX-License-Identifier: MIT
/*
 * uProf's report options that uprof does not do (yet), each answered with its reason
 * instead of "unknown option" (issue 16: every uProf option accepted or refused with a
 * reason). Hidden from --help; the parser says "--<name> [<value>]: <reason>", exit 2.
 */
#include "cli/report_args.h"

/* translate's: it writes translated.bin (addresses) from the samples (the cpu domain),
 * no timeline nor function rows (report's --agg-interval, --inline and --category do) */
const struct cli_option cli_refused_translate_options[] = {
	OPT_REFUSED(0, "category", "<name>",
		    "only 'cpu' is a category to translate: OpenMP, MPI and OS data are read by "
		    "report from the session as they are ('uprof report --category' picks them)",
		    "cpu"),
	OPT_REFUSED(0, "agg-interval", "<ms>",
		    "translate writes no timeline: 'uprof report --agg-interval <ms>' writes "
		    "the samples per interval",
		    NULL),
	OPT_REFUSED(0, "inline", NULL,
		    "translate keeps every sample's address: 'uprof report --inline' counts "
		    "samples for the inlined functions",
		    NULL),
	OPT_END(),
};

/* report's own */
const struct cli_option cli_refused_report_options[] = {
	/* uProf 5.3's: raw IBS records as text; uprof sessions hold no IBS data on machines
	 * without IBS, and its op records go to report's tables where there are */
	OPT_REFUSED(0, "ascii", "<dump>",
		    "not supported: no text dump of IBS records (ibsop-event-dump, "
		    "ibsfetch-event-dump); 'perf script -i <session>/samples.data' prints every "
		    "sample",
		    NULL),
	/* uProf translates raw files into a database and may drop them; uprof's report
	 * reads samples.data each time, so it is the session */
	OPT_REFUSED(0, "remove-raw-files", NULL,
		    "not supported: samples.data is the session itself (report reads it each "
		    "time, there is no database beside it), so nothing raw can be removed",
		    NULL),
	OPT_REFUSED(0, "export-session", NULL,
		    "not supported: the session directory is self-contained (copy it, or tar "
		    "it); --export html writes one self-contained file of the report",
		    NULL),
	OPT_END(),
};
