/* SPDX-License-Identifier: MIT */
/* cli/compare_html.c: uprof compare --html, the comparison as one page. */
#ifndef UPROF_CLI_COMPARE_HTML_H
#define UPROF_CLI_COMPARE_HTML_H

#include "report/report.h"

/* @c (of @dir_a and @dir_b) as report.html's page into @path, made beneath its
 * directory's fd, whole or not at all; named on stdout. uprof's exit code (0, 1). */
int compare_write_html(const char *path, const struct rpt_compare *c, const char *dir_a,
		       const char *dir_b);

#endif
