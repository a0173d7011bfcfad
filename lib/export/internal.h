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

/* ---- export_flamegraph.c's drawing, shared with the wall-clock view (export_wall.c) ---- */

/* A flame graph's tree of frames, each as wide as its weight. */
struct rpt_flame;
/* Add stack @s (rpt_stack_at(); @s->nfuncs 0: its process's frame alone) of weight @w,
 * with frame @leaf (static, NULL: none) above its leaf. 0 or -ENOMEM. */
int rpt_flame_add(struct rpt_flame *t, const struct rpt_stack_view *s, const char *leaf,
		  uint64_t w);
/* What fills a flame graph: rpt_flame_add() for each stack. 0 or -errno. */
typedef int (*rpt_flame_feed)(const struct rpt *r, struct rpt_flame *t);
/* The SVG of what @feed adds: weights are samples, or with @wall (the title's note, ""
 * for none) nanoseconds of wall-clock time. 0 or -errno. */
int rpt_flamegraph_write(const struct rpt *r, FILE *f, rpt_flame_feed feed, const char *wall);

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

/* export_perfetto_os.c: a --trace os session's thread-state and system-call tracks. */
/* The tracks (extra tids from *@vtid on). 0 or -ENOMEM. */
int rpt_pf_os(struct rpt_pf *w, const struct rpt *r, uint32_t *vtid);
/* The earliest of @base and every span's begin. */
uint64_t rpt_pf_os_base(const struct rpt *r, uint64_t base);
/* otherData's "os_trace" member (with its leading comma), nothing when not traced. */
void rpt_pf_os_other(struct rpt_pf *w, const struct rpt *r);

/* export_perfetto_agg.c: report --agg-interval's counter tracks, per process (and per
 * thread of a process of several), from report.h's rpt_agg_cell_at. 0 or -ENOMEM. */
int rpt_pf_agg(struct rpt_pf *w, const struct rpt *r, const struct ses_info *info);
/* otherData's "agg_interval" member (with its leading comma), nothing without one. */
void rpt_pf_agg_other(struct rpt_pf *w, const struct rpt *r);

/* ---- the MPI calls and messages (mpi_match.c, export_perfetto_mpi.c) ---- */

/* A message: from call @send_call of rank @send_rank (indices into the ranks) to the
 * call @recv_call of @recv_rank where it arrived (@posted: the receive that asked). */
struct rpt_pf_mpi_flow {
	uint32_t send_rank, send_call, recv_rank, recv_call, posted;
};

struct rpt_pf_mpi {
	const struct rpt_mpi_rank *ranks; /* borrowed */
	size_t nranks;
	size_t ncalls; /* of every rank */
	bool cut;      /* calls from @cut_ns on (with the offsets) are left out */
	int64_t cut_ns;
	struct rpt_pf_mpi_flow *flows; /* owned */
	size_t nflows;
	uint64_t unmatched_sends, unmatched_recvs;
	uint64_t dropped, unfilled; /* the ranks' files': past their cap, never filled */
	uint64_t unlinked;	    /* completions whose posting or completing call is not there */
};

/* Match the messages of @ranks (borrowed: outlive the model) among their calls, at most
 * @max_slices calls kept (the earliest). 0 or -ENOMEM. */
int rpt_pf_mpi_new(struct rpt_pf_mpi **out, const struct rpt_mpi_rank *ranks, size_t n,
		   size_t max_slices);
void rpt_pf_mpi_free(struct rpt_pf_mpi *m); /* NULL is fine */
/* Is call @call of rank @rank (indices) before the cut? */
bool rpt_pf_mpi_kept(const struct rpt_pf_mpi *m, size_t rank, size_t call);
/* The earliest of @base and every kept call's begin (with its offset). */
uint64_t rpt_pf_mpi_base(const struct rpt_pf_mpi *m, uint64_t base);
/* The calls as slices on their threads' tracks, and the messages as flows; @name_tracks:
 * a process per rank named "rank N (host, pid)" (a job's trace; a session's own trace
 * names its processes and threads itself). */
void rpt_pf_mpi_put(struct rpt_pf *w, const struct rpt_pf_mpi *m, bool name_tracks);
/* otherData's "mpi" member (with its leading comma); nothing for NULL. */
void rpt_pf_mpi_other(struct rpt_pf *w, const struct rpt_pf_mpi *m);
/* A session's own MPI events (mpi/<pid>.mpiev beneath its directory), matched: *@out is
 * NULL when it has none. 0 or -ENOMEM. */
int rpt_pf_mpi_session(const struct rpt *r, struct rpt_pf_mpi **out);
void rpt_pf_mpi_session_free(struct rpt_pf_mpi *m); /* it and its rank's events */

/* The writers the exporter table (export.c) registers; rpt_stacks_ready() was called. */
int rpt_export_folded(const struct rpt *r, FILE *f);
int rpt_export_flamegraph(const struct rpt *r, FILE *f);
int rpt_export_perfetto(const struct rpt *r, FILE *f);
int rpt_export_html(const struct rpt *r, FILE *f);
int rpt_export_sqlite(struct rpt *r, FILE *f);
int rpt_export_pprof(struct rpt *r, FILE *f);
/* export_wall.c: on-CPU and off-CPU time by stack, folded and as a flame graph */
int rpt_export_wall_folded(const struct rpt *r, FILE *f);
int rpt_export_wall_flamegraph(const struct rpt *r, FILE *f);

#endif
