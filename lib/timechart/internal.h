/* SPDX-License-Identifier: MIT */
/* lib/timechart's files share these small readers (not part of timechart.h). */
#ifndef UPROF_TIMECHART_INTERNAL_H
#define UPROF_TIMECHART_INTERNAL_H

#include "timechart/timechart.h"

#include <stddef.h>

#define TC_MSR_MPERF 0xE7
#define TC_MSR_APERF 0xE8
#define TC_MSR_PSTATE_STATUS 0xC0010063 /* AMD PStateStat: bits 2:0, the current P-state */

/* "<root>/<rel>" read whole (NUL-terminated, at most @len - 1 bytes): 0 or -errno. */
int tc_read_text(const char *root, const char *rel, char *buf, size_t len);
/* The file's first number: 0 or -errno (-EINVAL: not a number). */
int tc_read_u64(const char *root, const char *rel, uint64_t *out);
/* MSR @msr of CPU @cpu from <dev>/cpu/<cpu>/msr: 0 or -errno. */
int tc_read_msr(const char *dev, int cpu, uint32_t msr, uint64_t *out);
/* /proc/cpuinfo's "cpu MHz" of each processor: @mhz[cpu] for the processors listed
 * (others untouched). The number of values read, or -errno. */
int tc_cpuinfo_mhz(const char *procfs, double *mhz, int max);

/* energy.c: amd_energy's per-core counters (m->ncores, core_*), and their power over the
 * @dt seconds since the last reading into row->core_power_w (NAN: not read, or no last
 * reading). */
void tc_find_core_energy(struct tc_machine *m);
void tc_read_core_power(struct tc_machine *m, double dt, struct tc_row *row);

#endif
