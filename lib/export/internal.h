/* SPDX-License-Identifier: MIT */
/* lib/export internals: what the export_*.c files share. */
#ifndef UPROF_EXPORT_INTERNAL_H
#define UPROF_EXPORT_INTERNAL_H

#include "export/export.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdint.h>

/* Append @name to @b as a folded frame: ';' and line breaks replaced. 0 or -ENOMEM. */
int rpt_sbuf_frame(struct util_sbuf *b, const char *name);

/* The root frame of process @proc in folded stacks and the flame graph: its comm. */
const char *rpt_export_comm(const struct rpt *r, uint32_t proc);

/* ---- export_perfetto.c's Trace Event Format writer, shared with export_perfetto_omp.c ---- */

struct rpt_pf {
	FILE *f;
	uint64_t base; /* the trace's time 0 (ns) */
	bool first;    /* no event written yet */
};
void rpt_pf_sep(struct rpt_pf *w);	      /* before each event of the traceEvents array */
void rpt_pf_ts(struct rpt_pf *w, uint64_t t); /* @t (ns) as microseconds since the base */
/* A metadata event @what ("thread_name") of @pid/@tid: @name then @suffix. */
void rpt_pf_meta(struct rpt_pf *w, const char *what, uint32_t pid, uint32_t tid, const char *name,
		 const char *suffix);

/* Tracks of one thread (or device): a slice goes on the first where it nests inside
 * what is open there, so each track nests properly; deeper overlaps share the last. */
#define RPT_PF_LANES 8
#define RPT_PF_DEPTH 64
struct rpt_pf_lanes {
	uint64_t open[RPT_PF_LANES][RPT_PF_DEPTH]; /* ends of the slices open on each */
	int depth[RPT_PF_LANES];
	int n; /* tracks used */
};
/* The track for [@begin, @end), slices given in (begin, longest first) order. */
int rpt_pf_lane(struct rpt_pf_lanes *l, uint64_t begin, uint64_t end);

/* export_perfetto_omp.c: the OpenMP slices (report.h's rpt_omp_*). */
/* The earliest of @base and every slice's begin. */
uint64_t rpt_pf_omp_base(const struct rpt *r, uint64_t base);
/* Thread slice @i on track @tid of its process. */
void rpt_pf_omp_slice(struct rpt_pf *w, const struct rpt *r, uint32_t tid, size_t i);
/* A track per (process, device) with its target, data, submit and device slices (extra
 * tids from *@vtid on). 0 or -ENOMEM. */
int rpt_pf_omp_devices(struct rpt_pf *w, const struct rpt *r, uint32_t *vtid);
/* otherData's "openmp" member (with its leading comma), nothing when not traced. */
void rpt_pf_omp_other(struct rpt_pf *w, const struct rpt *r);

/* The writers the exporter table (export.c) registers; rpt_stacks_ready() was called. */
int rpt_export_folded(const struct rpt *r, FILE *f);
int rpt_export_flamegraph(const struct rpt *r, FILE *f);
int rpt_export_perfetto(const struct rpt *r, FILE *f);
int rpt_export_html(const struct rpt *r, FILE *f);
int rpt_export_sqlite(struct rpt *r, FILE *f);
int rpt_export_pprof(struct rpt *r, FILE *f);

#endif
