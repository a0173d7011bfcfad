/* SPDX-License-Identifier: MIT */
/*
 * Timer samples of a --trace openmp session labelled with the OpenMP state of their
 * thread at their time (the timeline: openmp_timeline.c, pure functions of the records),
 * tallied per region and function (openmp_state.c) for report.csv's OPENMP HOT FUNCTIONS
 * and OPENMP LATE THREADS (openmp_hot_csv.c). Internal to lib/report.
 *
 * The states, from the tool's records of the sample's own thread (lib/session/openmp.h):
 *   work          inside an implicit task (BEGIN..END), in no wait
 *   barrier wait  inside a barrier's wait (WAIT_BEGIN..WAIT_END, full scope)
 *   lock wait     between mutex_acquire and mutex_acquired (full scope)
 *   other wait    taskwait, taskgroup and the runtime's other waits (full scope)
 *   runtime       basic scope only: inside an implicit task, in the OpenMP runtime's (or
 *                 the tool's) code: waits, locks and scheduling, which basic scope's
 *                 records cannot tell apart
 *   overhead      inside a region instance (the hull of its team's implicit tasks) the
 *                 thread is a member of, outside its own implicit task: fork and join
 *   serial        the initial thread outside every region
 *   idle          any other thread outside every region (the runtime's pool)
 * A sample is its innermost region's (a nested region's samples are not the outer's here,
 * unlike the CPU Time column, whose nested samples count in the enclosing region too).
 * An explicit task run inside a barrier is the barrier's: the WAIT records span it.
 *
 * Late threads (full scope): the k-th barrier wait of each member inside one region
 * instance is one barrier episode; its arrivals are the WAIT_BEGIN stamps. The last to
 * arrive is the late thread: late by A_last - mean(others' A), blamed for the team's
 * wait sum(A_last - A_i), and its samples in [first arrival, A_last] say what it was
 * doing while the others waited (HPCToolkit's blame shifting made concrete).
 */
#ifndef UPROF_REPORT_OPENMP_STATE_H
#define UPROF_REPORT_OPENMP_STATE_H

#include "report/internal.h"

enum rpt_omp_state {
	RPT_OMP_WORK,
	RPT_OMP_BARRIER,
	RPT_OMP_LOCK,
	RPT_OMP_OTHER_WAIT,
	RPT_OMP_RUNTIME,
	RPT_OMP_OVERHEAD,
	RPT_OMP_SERIAL,
	RPT_OMP_IDLE,
	RPT_OMP_NSTATES
};
/* "work", "barrier wait", ...: the CSV's State column */
const char *rpt_omp_state_name(int state);

/* A kept timer sample of the sort event (kept only for traced sessions). */
struct rpt_omp_sample {
	uint64_t time, addr, units;
	uint32_t tid, thread; /* thread: index in r->world.threads */
	int32_t module;
};

struct rpt_omp_samples {
	struct rpt_omp_sample *v;
	size_t n, cap;
	bool sorted;		/* by (tid, time) */
	struct util_hash funcs; /* (module, addr) -> func + 1 */
	signed char *runtime;	/* per module: 1 the OpenMP runtime's, -1 not, 0 not asked */
	int nruntime;
};

/* The late thread of some barrier episodes of one region: one per (barrier kind, team
 * member, tid). */
struct rpt_omp_late {
	uint16_t kind; /* SES_OMPT_WAIT_BARRIER_IMPLICIT or _EXPLICIT */
	uint32_t slot, tid;
	uint64_t times;		/* episodes it arrived last at */
	uint64_t late_ns;	/* sum over them of A_last - mean(others' A) */
	uint64_t blamed_ns;	/* sum over them of sum(A_last - A_i) */
	uint64_t samples;	/* its samples in the windows */
	struct util_hash funcs; /* (0, func) -> its samples in the windows */
};

/* A region's (or, for the process, outside regions) tallies. */
struct rpt_omp_hot {
	uint64_t state_samples[RPT_OMP_NSTATES];
	struct util_hash funcs; /* (state, func) -> samples */
	uint64_t episodes[2];	/* barrier episodes seen: implicit, explicit */
	struct rpt_omp_late *late;
	int nlate, caplate;
	uint64_t unpaired_waits; /* the process's (its own tallies only) */
};

/* ---- openmp_timeline.c: one process's records as its threads' OpenMP timeline, pure
 * functions of the records (no report state) ---- */
struct rpt_omp_timeline;
/* Pair @o's BEGIN/END and WAIT records per thread, join each site's implicit tasks into
 * instances. NULL: out of memory. */
struct rpt_omp_timeline *rpt_omp_timeline_new(const struct ses_ompt *o);
void rpt_omp_timeline_free(struct rpt_omp_timeline *tl); /* NULL is fine */
/* WAIT records it could not pair (a full ring dropped their pair, more than 8 open on one
 * thread): dropped; a sample in them counts as the state around them. */
uint64_t rpt_omp_timeline_unpaired_waits(const struct rpt_omp_timeline *tl);

/* A point in a thread's time. In: its time, thread, whether its code is the OpenMP
 * runtime's; out: its state (enum rpt_omp_state) and region site (0: outside regions; a
 * lock wait outside regions has 0 too). */
struct rpt_omp_point {
	uint64_t time;
	uint32_t tid;
	bool in_runtime;
	uint8_t state;
	uint32_t site;
};
/* Label @n points sorted by (tid, time) of the process @pid (its initial thread's tid)
 * traced with @scope (SES_OMPT_SCOPE_*). */
void rpt_omp_timeline_label(const struct rpt_omp_timeline *tl, int pid, uint16_t scope,
			    struct rpt_omp_point *pts, size_t n);

/* One barrier of one instance, as its members arrived (2 at least). */
struct rpt_omp_episode {
	uint32_t site;		      /* the region's */
	uint32_t late_slot, late_tid; /* the last to arrive: its team number and thread */
	uint32_t arrivals;
	uint16_t kind;		     /* SES_OMPT_WAIT_BARRIER_IMPLICIT or _EXPLICIT */
	uint64_t first, last;	     /* the first and the last arrival */
	uint64_t late_ns, blamed_ns; /* A_last - mean(others' A); sum(A_last - A_i) */
};
/* The barrier episodes of the timeline (full scope's WAIT records), by instance and
 * barrier; *@out malloc'ed (the caller frees it). 0 or -ENOMEM. */
int rpt_omp_timeline_episodes(const struct rpt_omp_timeline *tl, struct rpt_omp_episode **out,
			      size_t *n);

/* ---- openmp_state.c ---- */

/* load.c, before the samples are read: keep the samples' places when the session was
 * traced (openmp/ beneath r->dfd). 0 or -ENOMEM. */
int rpt_omp_samples_begin(struct rpt *r);
/* load.c: one kept sample of the sort event. 0 or -ENOMEM. */
int rpt_omp_note_sample(struct rpt *r, uint32_t tid, uint32_t thread, int module, uint64_t addr,
			uint64_t time, uint64_t units);
void rpt_omp_samples_free(struct rpt *r);

/* openmp.c's load, while @p's site index is valid (before its sites are sorted): label
 * the process's samples from @o's records into its sites' and its own hot tallies. 0 or
 * -ENOMEM. */
int rpt_omp_state_label(struct rpt *r, struct rpt_omp_proc *p, const struct ses_ompt *o);
/* Fold @from's tallies into @to's (one construct at two code addresses). 0 or -ENOMEM. */
int rpt_omp_hot_merge(struct rpt_omp_site *to, struct rpt_omp_site *from);
void rpt_omp_hot_free(struct rpt_omp_hot *h); /* NULL is fine */

/* openmp_hot_csv.c: OPENMP HOT FUNCTIONS and OPENMP LATE THREADS of @p. */
void rpt_omp_write_hot(const struct rpt *r, const struct rpt_omp_proc *p, const char *who, FILE *f);

#endif
