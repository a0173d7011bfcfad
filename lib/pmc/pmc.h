/* SPDX-License-Identifier: MIT */
/*
 * lib/pmc: what to count or sample, as perf_event_attr. Today: the timer event behind
 * CPU_TIME (a software cpu-clock event, present on every Linux box, PMU or not).
 * Hardware events (libpfm4) join here later; only this module will touch libpfm4.
 */
#ifndef UPROF_PMC_H
#define UPROF_PMC_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

/* What every sampling event of a session records: the fields lib/session's reader and
 * perf's pipe-mode reader both need. */
#define PMC_SAMPLE_TYPE                                                                  \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |  \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Shortest and longest timer period we accept, in ns (0.01 ms .. 1 hour). */
#define PMC_TIMER_MIN_NS 10000ULL
#define PMC_TIMER_MAX_NS 3600000000000ULL

/*
 * Fill @attr (zeroed first) for CPU_TIME sampling every @period_ns of CPU time, with
 * CLOCK_MONOTONIC time stamps, inherited by threads and children, disabled until the
 * target's exec (enable_on_exec). @user_only excludes kernel samples.
 */
void pmc_timer_attr(struct perf_event_attr *attr, uint64_t period_ns, bool user_only);

/*
 * Fill @attr for the tracking event: a dummy software event that samples nothing and
 * carries the side-band records report needs (MMAP2, COMM, FORK/EXIT). Kept apart from
 * the sampling events so these can be paused while mappings are still recorded (perf
 * does the same).
 */
void pmc_tracking_attr(struct perf_event_attr *attr);

/* Name shown for an attr in reports and session.ini ("CPU_TIME" for the timer). */
const char *pmc_attr_name(const struct perf_event_attr *attr);

/*
 * Parse a timer interval in milliseconds ("1", "0.25", "1e-1") into ns.
 * -EINVAL for text, zero, negative, NaN; -ERANGE outside PMC_TIMER_MIN/MAX_NS.
 */
int pmc_parse_interval_ms(const char *s, uint64_t *period_ns);

#endif
