/* SPDX-License-Identifier: MIT */
/* cli/report.c's state, shared with cli/report_opts.c (its options and their callbacks).
 * Private to those two files. */
#ifndef UPROF_CLI_REPORT_STATE_H
#define UPROF_CLI_REPORT_STATE_H

#include "cli/cli.h"
#include "cli/report_args.h"
#include "export/export.h"

#include <limits.h>
#include <stdbool.h>

struct report_state {
	struct cli_report_args a; /* -i, the paths, --time-filter, --host, --function, ... */
	bool foreign;		  /* input is a perf pipe file, not a session directory */
	const char *output;	  /* --report-output */
	bool to_stdout, quiet;
	struct cli_progress prog; /* reading samples.data (progress.c) */
	char command[1024];
	char out_path[PATH_MAX];
	/* docs/DESIGN.md §4: the session directory opened once (-1: a perf file), and the
	 * directories report.csv and the exports go in, each opened once; every file made
	 * beneath them (util_at_*), nothing by path name after */
	int dfd;
	int out_dfd;
	char out_name[NAME_MAX + 1];
	int input_parent; /* a perf file's directory (its outputs go beside it), or -1 */
	char input_base[NAME_MAX + 1];
	bool exports[RPT_EXPORT_COUNT];	   /* --export */
	bool exported[RPT_EXPORT_COUNT];   /* written: named on the terminal after the table */
	char export_error[PATH_MAX + 160]; /* why an export failed, said last */
	const char *export_dir;		   /* --export-dir; default: the session directory */
	int pids[64];			   /* -p */
	struct cli_tools tools;		   /* --tool */
	const char *ranks;		   /* --rank: a job's ranks */
	char buildid_dir[PATH_MAX];	   /* the build-id cache: ~/.debug */
	struct rpt_sort_key sort;	   /* -s/--sort-by (a.opts.sort_by points here) */
};

/* report_opts.c: report's option table */
extern const struct cli_option cli_report_options_table[];

#endif
