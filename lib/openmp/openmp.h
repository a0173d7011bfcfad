/* SPDX-License-Identifier: MIT */
/*
 * lib/openmp: the OpenMP model of a session traced with --trace openmp, from its
 * openmp/<pid>.ompt files (lib/session/openmp.h): sites, threads, target offload, and
 * their time split. lib/report loads it for a report (openmp.c, which names the sites
 * with libdw and labels the samples) and writes its sections of report.csv
 * (openmp_csv.c); those functions are declared in report's internal.h.
 *
 * Per region site and thread (times from the tool, ns):
 *   Work     = span - nested - sync - lock wait   (span: the thread's implicit tasks)
 *   Nested   = the elapsed of the regions the thread encountered in its implicit tasks
 *              (as a nested region's primary: their time is theirs, so a thread-second
 *              is Work of one region only, and the process's totals count it once)
 *   Sync     = waits in barriers, taskwait and taskgroup (of this region, not of the
 *              regions nested in it)
 *   Overhead = joined - span                  (joined: the elapsed of the instances it
 *                                              was in; fork and join outside its task)
 *   Idle     = the process's threads in no team of the region at any level while it ran:
 *              (threads alive - team) x elapsed - the threads of nested teams beyond
 *              their primaries x their elapsed. A thread working in an inner team is
 *              not idle of the outer region; it is Work (or Sync) of the inner one.
 * Thread Count is the team size (the largest, with the range when the teams differed),
 * not the threads seen over instances. A teams construct on the host is a row of its
 * own (its "threads" the teams' primaries, its Thread Count the teams); the runtime's
 * per-team parallel inside it is part of it, not a region.
 * CPU time per region: timer samples of a thread inside one of its implicit tasks of the
 * region (BEGIN/END records), times the sampling period; those inside a region nested in
 * it on that thread are the nested region's (as Work is), so no sample counts twice.
 */
#ifndef UPROF_OPENMP_H
#define UPROF_OPENMP_H

#include "session/session.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Wait types of the OPENMP WAITS table (openmp_waits.c), in its columns' order. */
enum rpt_omp_wait {
	RPT_OMP_W_IMPLICIT,	  /* the implicit barrier closing a parallel region */
	RPT_OMP_W_WORKSHARE,	  /* ... closing a worksharing construct */
	RPT_OMP_W_EXPLICIT,	  /* #pragma omp barrier */
	RPT_OMP_W_IMPLEMENTATION, /* barriers the runtime added of its own */
	RPT_OMP_W_TASKWAIT,
	RPT_OMP_W_TASKGROUP,
	RPT_OMP_W_REDUCTION,
	RPT_OMP_W_LOCK, /* omp locks and nest locks */
	RPT_OMP_W_CRITICAL,
	RPT_OMP_W_ORDERED,
	RPT_OMP_W_OTHER, /* no known type: atomic, teams, a session from before the types */
	RPT_OMP_WAITS
};

struct rpt_omp_tstat {
	uint32_t tid, slot, team_index;
	uint64_t f[SES_OMPT_F_MAX]; /* the tool's fields for this (site, thread) */
	uint64_t samples;	    /* timer samples inside its implicit tasks of the site */
	/* ns waiting, by type (openmp_waits.c) */
	uint64_t waits[RPT_OMP_WAITS];
};

struct rpt_omp_site {
	uint32_t id;
	uint16_t kind; /* enum ses_ompt_site_kind */
	uint64_t code;
	char name[320]; /* <func>$omp$<construct>:<n>@<file>:<line> */
	char func[192], file[96];
	int line;
	bool line_exact;    /* the line table's line for its code, not one looked back to or
			    * forward from (two sites on one exact line are one construct) */
	uint64_t outlined;  /* gcc: the outlined function the runtime was given, its
			    * link-time address (one function, one construct); 0: none */
	bool gomp_sections; /* gcc: a "parallel sections" (its call or its outlined function
			     * calls GOMP_*sections*), whose loop is the GOMP shim's */
	struct rpt_omp_tstat *threads;
	int nthreads, capthreads;
	uint64_t f[SES_OMPT_F_MAX]; /* summed over its threads */
	uint64_t samples;
	struct rpt_omp_tgt_stat *tgt; /* a TARGET site's figures (openmp_target.c), or NULL */
	struct rpt_omp_hot *hot;      /* its samples by OpenMP state (report's openmp_state.h) */
	/* nesting (openmp_nest.c) */
	bool teams;	    /* a teams construct (a league of teams), not a parallel */
	bool nested;	    /* an instance began inside another region's implicit task */
	uint32_t parent_id; /* that region's site id (the last such) */
	int parent;	    /* its index in the sorted sites, -1: none or not found */
	int level;	    /* 1 + the parents above it */
};

/* A target construct's site: what its instances did (host side, the EMI callbacks). */
struct rpt_omp_tgt_stat {
	uint16_t kind; /* SES_OMPT_TGT_* of the last instance */
	int device;    /* the device of the last instance */
	bool devices_differ;
	uint64_t count, ns;	     /* instances, their time */
	uint64_t submits, submit_ns; /* kernel submits in them */
	uint64_t data_ops, bytes_to, bytes_from;
};

/* Data ops per (device, type), over the process. */
struct rpt_omp_xfer {
	int device;
	uint16_t op; /* SES_OMPT_DATA_* */
	uint64_t count, bytes, ns;
};

/* A device as the tool saw it. */
struct rpt_omp_dev {
	int num;
	char type[64];
	bool init, fini;
	uint16_t tracing; /* SES_OMPT_DEV_NO_LOOKUP .. TRACING; 0 = never said */
	bool no_time;
	uint64_t anchor, lost, loads;
	uint64_t records, kernels, data_ops, bytes;
};

/* A device trace record, its times CLOCK_MONOTONIC ns (0: not translatable). */
struct rpt_omp_devrec {
	int device;
	uint16_t type; /* SES_OMPT_DEVREC_* */
	uint32_t op;
	uint64_t begin, end, bytes;
};

struct rpt_omp_offload {
	struct rpt_omp_xfer *xfers;
	int nxfers;
	struct rpt_omp_dev *devs;
	int ndevs;
	struct rpt_omp_devrec *recs; /* the first RPT_OMP_DEVRECS of them */
	size_t nrecs;
	uint64_t recs_more; /* past those */
	uint64_t unpaired;  /* an end without its begin, a begin never ended */
	uint64_t ignored;   /* past the bounds (threads, devices, sites): a forged file */
	uint64_t regions;   /* target region instances (any site) */
};
#define RPT_OMP_DEVRECS 4096

struct rpt_omp_proc {
	int pid;
	uint16_t impl, scope;
	bool has_runtime;
	char runtime[128];
	uint64_t omp_version, callbacks, dropped;
	uint64_t lost_threads, lost_sites, lost_records;
	struct rpt_omp_site *sites;
	int nsites;
	int nthreads; /* threads the tool saw */
	uint64_t thread_life, thread_in, idle_ns, initial_in;
	uint64_t samples;	     /* of the process, every thread */
	uint64_t unpaired;	     /* BEGIN without END or the reverse */
	uint64_t ignored;	     /* values past MAX sites or threads (a forged file) */
	struct rpt_omp_offload *off; /* target offload, NULL when the process had none */
	/* (tool id, id kept): sites folded into another (openmp_loops.c) */
	uint32_t (*aliases)[2];
	size_t naliases, capaliases;
	struct rpt_omp_hot *hot; /* its samples outside regions (openmp_state.h) */
	/* openmp_window.c: the process outlived the window, its figures rebuilt from the
	 * region records; instances (team member 0's tasks) open at the window's edges */
	bool rebuilt, paused; /* paused: rebuilt because the session had pauses */
	uint64_t cut_start, cut_end, window_unpaired;
	bool waits_from_records; /* the waits come from WAIT records, not the sums */
	uint64_t waits_unpaired; /* WAIT records without their other end or thread */
	/* while loading: (1, site) -> site + 1, (2, site, slot) and (3, site, tid) ->
	 * thread + 1 in that site; stale once the sites are sorted */
	struct util_hash index;
};

struct rpt_omp {
	bool traced;	   /* the session has openmp/ (collect --trace openmp) */
	bool libgomp_seen; /* a traced process mapped GCC's libgomp */
	struct rpt_omp_proc *procs;
	int nprocs;
	uint64_t files_bad;
};

/* openmp_nest.c: which sites are teams constructs, and their parents' ids (after the
 * values are taken, before the sites are named) */
void rpt_omp_nest_prepare(struct rpt_omp_proc *p);
/* openmp_nest.c: each site's parent and level (once the sites are sorted and merged) */
void rpt_omp_nest_link(struct rpt_omp_proc *p);
/* openmp_nest.c: a region's Thread Count: its largest team, and the range when the teams
 * differed ("4", "4 (2-4)") */
void rpt_omp_team_size(const struct rpt_omp_site *s, char *buf, size_t len);
/* openmp_nest.c: the region row's cells Avg Nested Time, Nest Level, Parent Region (each
 * ending in a comma) */
void rpt_omp_write_nest_cells(const struct rpt_omp_proc *p, const struct rpt_omp_site *s, FILE *f);

/* openmp_sites.c: Work, Sync, Overhead (ns) of @t; the formulas above. */
void rpt_omp_split(const uint64_t *f, double *work, double *sync, double *overhead);

/* A region's imbalance over the n threads of its team (openmp_imbalance.c), each way as
 * max/avg - 1 and CV = stddev/avg (population), 0 when every value is 0:
 *   wall: of each thread's Work (wall time, uProf's Imbalance)
 *   cpu:  of each thread's CPU time in the region's implicit tasks (its timer samples,
 *         waits that spin included: they use the CPU); unknown without samples */
struct rpt_omp_imbalance {
	double wall, wall_cv;
	double cpu, cpu_cv;
	uint64_t cpu_samples; /* the team's samples in the region: 0, cpu is unknown */
};
void rpt_omp_imbalance(const struct rpt_omp_site *s, struct rpt_omp_imbalance *out);

/* openmp_sites.c: the site @id of @p while loading (made on first sight); NULL past the bounds
 * (*@full) or without memory. */
struct rpt_omp_site *rpt_omp_site_for(struct rpt_omp_proc *p, uint32_t id, bool *full);
/* openmp_waits.c: each (region site, thread)'s waits by type into its waits[]: from the
 * WAIT records of a full-scope file that lost none, else from the tool's sums. After
 * the values, while @p's index holds (before the sites are named). 0 or -ENOMEM. */
int rpt_omp_waits_load(struct rpt_omp_proc *p, const struct ses_ompt *o);
/* Add @from's waits to @to's (one thread of two sites being merged). */
void rpt_omp_waits_add(struct rpt_omp_tstat *to, const struct rpt_omp_tstat *from);
/* openmp_waits.c: the OPENMP WAITS table of @p: per region and per thread, by type;
 * @who prefixes the title (a rank's name, or ""). */
void rpt_omp_write_waits(const struct rpt_omp_proc *p, const char *who, FILE *f);
/* openmp_target.c: the target and device records of @o into @p (after the sites, before
 * they are named). 0 or -ENOMEM. */
int rpt_omp_target_load(struct rpt_omp_proc *p, const struct ses_ompt *o);
void rpt_omp_target_free(struct rpt_omp_proc *p);
/* Fold site @from's target figures into @to's (one construct at several addresses). */
int rpt_omp_target_merge(struct rpt_omp_site *to, struct rpt_omp_site *from);
/* The session's paused intervals, as the report knows them (times CLOCK_MONOTONIC ns). */
struct rpt_omp_pauses {
	const void *ctx;
	bool (*paused_at)(const void *ctx, uint64_t t);
	bool (*paused_within)(const void *ctx, uint64_t from, uint64_t to); /* any pause */
};
/* openmp_window.c: when @o has no summary (the window ended before the process) or the
 * session had @pauses (NULL: none), its per (site, thread) figures rebuilt from the
 * region records of the instances the windows saw whole, as VALUE records into *@vals
 * (free()), *@nvals of them, and @p's rebuilt and cut counts set; *@vals NULL when the
 * summary stands. 0 or -ENOMEM. */
int rpt_omp_window_rebuild(struct rpt_omp_proc *p, const struct ses_ompt *o,
			   const struct rpt_omp_pauses *pauses, struct ses_ompt_record **vals,
			   size_t *nvals);
/* openmp_window.c: OVERVIEW lines saying what the window cut, and what exit() did. */
void rpt_omp_write_window(const struct rpt_omp_proc *p, FILE *f);
/* openmp_target.c: TARGET REGIONS, DATA TRANSFERS, DEVICES and DEVICE TRACE of @p;
 * nothing when it had no offload. */
void rpt_omp_write_target(const struct rpt_omp_proc *p, FILE *f);

/* openmp_loops.c: worksharing loops and taskloops (LOOP and TASKLOOP sites). */
bool rpt_omp_is_loop(const struct rpt_omp_site *s);
/* The schedule said by @bits (bit n: ompt_work_t n ran): "Static", "Dynamic", "Guided",
 * "Other", "Unknown" (OpenMP 5.0's ompt_work_loop), "Mixed" (more than one), "" (none). */
const char *rpt_omp_schedule_name(uint64_t bits);
/* A region site's Schedule Type: of all its loops ("Mixed" when they differ). */
const char *rpt_omp_region_schedule(const struct rpt_omp_site *s);
/* A region site's loop iterations into *@iterations: its loops' and taskloops', summed
 * over them and its instances (a session of an older tool: one loop's); false: none. */
bool rpt_omp_region_iterations(const struct rpt_omp_site *s, uint64_t *iterations);
/* Note that the tool's site @from was folded into site @to: 0 or -ENOMEM. */
int rpt_omp_site_alias(struct rpt_omp_proc *p, uint32_t from, uint32_t to);
/* The site of @p the tool's id @id is (or was folded into), or NULL. */
const struct rpt_omp_site *rpt_omp_site_by_id(const struct rpt_omp_proc *p, uint32_t id);
/* The region @loop ran in (NULL: not known), *@several set when its threads saw more than
 * one (the last found is returned). */
const struct rpt_omp_site *rpt_omp_loop_region(const struct rpt_omp_proc *p,
					       const struct rpt_omp_site *loop, bool *several);
/* Name each TASKLOOP site that is in no source line (libomp gives taskloops an address
 * inside itself) after its region: <func>$omp$taskloop:<n>@<file>:<region's line>. */
void rpt_omp_name_taskloops(struct rpt_omp_proc *p);
void rpt_omp_loops_free(struct rpt_omp_proc *p);

#endif
