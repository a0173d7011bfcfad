/* SPDX-License-Identifier: MIT */
/*
 * The OpenMP slices of a trace (openmp_trace.c) as the report keeps them: a .ompt file's
 * records paired into intervals, with no report state, so that tests/unit/test_omp_trace.c
 * feeds them synthetic files. lib/report's own header: nothing outside lib/report (and its
 * unit tests) includes it; lib/export reads the slices through report.h.
 */
#ifndef UPROF_REPORT_OMP_TRACE_H
#define UPROF_REPORT_OMP_TRACE_H

#include "session/session.h"
#include "util/util.h"

#include <stddef.h>
#include <stdint.h>

struct rpt;

/* One slice: report.h's rpt_omp_slice_view says what each field holds. */
struct rpt_omp_slice {
	uint64_t begin, end, count, bytes;
	uint32_t tid;
	uint32_t site; /* while loading: the file's site id; then the site's index + 1 */
	int32_t proc;  /* r->omp->procs */
	int32_t device;
	uint16_t kind, how, depth; /* kind: enum rpt_omp_slice_kind; 0: did not pair */
	uint32_t member;	   /* a device record: its op, to pair its END */
};

struct rpt_omp_slices {
	struct rpt_omp_slice *v;
	size_t n, cap;
};

struct rpt_omp_trace {
	struct rpt_omp_slices thr, dev; /* region and wait slices; target, data, submit, device */
	size_t thr0, dev0;		/* the process being loaded: its first slices */
	uint64_t left_out, left_from, unpaired, tasks;
	int full, basic;
	struct util_hash alias; /* (pid, merged site id) -> the id it was merged into + 1 */
};

/* Pair the records of parsed file @o (process @proc of the report) into @t's slices:
 * region and wait slices per thread, target, data, submit and device slices. The new
 * slices still carry the file's site ids. 0 or -ENOMEM. */
int rpt_omp_trace_pair(struct rpt_omp_trace *t, const struct ses_ompt *o, int32_t proc);
/* Settle the slices paired last: drop those that did not pair, those outside @r's -p and
 * --time-filter (clipped to it; @r NULL: no filter) for process @pid, and those past
 * @cap slices in all (the earliest kept, the others counted in left_out and left_from);
 * then sort. 0 or -ENOMEM. */
int rpt_omp_trace_settle(struct rpt_omp_trace *t, const struct rpt *r, int pid, size_t cap);
/* Free @t (NULL is fine). */
void rpt_omp_trace_free(struct rpt_omp_trace *t);

#endif
