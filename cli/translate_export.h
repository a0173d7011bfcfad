/* SPDX-License-Identifier: MIT */
/* cli/translate_export.c: uprof translate --export sqlite,pprof. */
#ifndef UPROF_CLI_TRANSLATE_EXPORT_H
#define UPROF_CLI_TRANSLATE_EXPORT_H

#include "cli/cli.h"
#include "report/report.h"

#include <stdbool.h>

/* --export's list into @want (RPT_EXPORT_COUNT flags): -1 to go on, or the exit code of
 * the message said (an export translate does not write: 2). */
int cli_translate_export_parse(bool *want, const char *arg, const char *cmd);
bool cli_translate_exporting(const bool *want);
/* The exports of @want for the session open as @dfd (borrowed), @dir its path, with the
 * report options @opts (translate's); each file written whole beneath @dfd and named on
 * stdout. 0, or the exit code of the message said. */
int cli_translate_export(const bool *want, const struct rpt_options *opts, int dfd, const char *dir,
			 const char *cmd);

#endif
