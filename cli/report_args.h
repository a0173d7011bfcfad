/* SPDX-License-Identifier: MIT */
/*
 * cli/report_args.c: the options report, translate, annotate and compare share, each
 * declared once as an option group (cli/options.h) over one struct that every one of
 * those commands embeds in its state; cli/report_compat.c: uProf's report options that
 * are refused with their reason.
 */
#ifndef UPROF_CLI_REPORT_ARGS_H
#define UPROF_CLI_REPORT_ARGS_H

#include "cli/cli.h"
#include "cli/options.h"
#include "report/report.h"

#define CLI_MAX_PATHS 32 /* of each of --bin-path, --symbol-path, --src-path */
enum { CLI_PATHS_BIN, CLI_PATHS_SYMBOL, CLI_PATHS_SRC, CLI_PATHS_COUNT };

struct cli_report_args {
	const char *input;	 /* -i: the session (or perf pipe file) */
	const char *hosts;	 /* --host: a job's ranks on these hosts (NULL, "all": every one) */
	struct rpt_options opts; /* what the options below set */
	/* --bin-path, --symbol-path, --src-path: opts' lists point here */
	const char *paths[CLI_PATHS_COUNT][CLI_MAX_PATHS];
	struct cli_annot annot; /* --function */
};

/* -i, --input-dir */
extern const struct cli_option cli_input_options[];
/* --bin-path, --symbol-path, --kallsyms */
extern const struct cli_option cli_binary_path_options[];
/* --src-path */
extern const struct cli_option cli_source_path_options[];
/* --time-filter */
extern const struct cli_option cli_time_filter_options[];
/* --host */
extern const struct cli_option cli_host_options[];
/* --disasm, --disasm-full, --disasm-only, --disasm-style, --function (Function Detail
 * Data: report.csv's, and annotate's view) */
extern const struct cli_option cli_function_detail_options[];
/* uProf's options refused with a reason: by report and translate (--agg-interval,
 * --inline, --category other than cpu), and by report only (-s/--sort-by, --view, ...) */
extern const struct cli_option cli_refused_report_options[];
extern const struct cli_option cli_refused_translate_options[]; /* --category, --agg-interval, --inline */

/* --function @arg (annotate's operands too): -1 to go on, or the exit code said. */
int cli_report_args_function(struct cli_report_args *a, const char *arg, const char *cmd);

#endif
