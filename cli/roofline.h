/* SPDX-License-Identifier: MIT */
/*
 * uprof pcm roofline: the machine's ceilings measured by built-in kernels, and the
 * program's point from its FP and DRAM counters where the PMU has them.
 *   roofline.c          options, the command's flow, the program's counters
 *   roofline_html.c     --html: the log-log chart
 * The measuring (mtr_rl_bench_run), the file format and the point's arithmetic are
 * lib/metric's (mtr_rl_*), shared with -i; the kernels, one set per ISA, lib/arch's.
 */
#ifndef UPROF_CLI_ROOFLINE_H
#define UPROF_CLI_ROOFLINE_H

#include "arch/arch.h"
#include "metric/metric.h"
#include "pmc/pmc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* roofline_html.c: write @r as a self-contained page, report.html beneath the output
 * directory's fd @dfd (the CSV's). 0 or -errno. */
int rl_html_write(const struct mtr_roofline *r, int dfd);

#endif
