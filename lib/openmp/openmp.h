/* SPDX-License-Identifier: MIT */
/*
 * lib/openmp: the OpenMP model of a session traced with --trace openmp, from its
 * openmp/<pid>.ompt files (lib/session/openmp.h): sites, threads, target offload, and
 * their time split. lib/report loads it for a report (openmp.c, which names the sites
 * with libdw and labels the samples) and writes its sections of report.csv
 * (openmp_csv.c); those functions are declared in report's internal.h.
 *
 * Per region site and thread (times from the tool, ns):
 *   Work     = span - sync - lock wait        (span: the thread's implicit tasks)
 *   Sync     = waits in barriers, taskwait and taskgroup
 *   Overhead = joined - span                  (joined: the elapsed of the instances it
 *                                              was in; fork and join outside its task)
 *   Idle     = the process's other threads, outside the team, while the region ran
 * CPU time per region: timer samples of a thread inside one of its implicit tasks of the
 * region (BEGIN/END records), times the sampling period; nested regions count in the
 * enclosing region too.
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
	bool line_exact;   /* the line table's line for its code, not one looked back to or
			    * forward from (two sites on one exact line are one construct) */
	uint64_t outlined; /* gcc: the outlined function the runtime was given, its
			    * link-time address (one function, one construct); 0: none */
	struct rpt_omp_tstat *threads;
	int nthreads, capthreads;
	uint64_t f[SES_OMPT_F_MAX]; /* summed over its threads */
	uint64_t samples;
	struct rpt_omp_tgt_stat *tgt; /* a TARGET site's figures (openmp_target.c), or NULL */
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
	bool waits_from_records;     /* the waits come from WAIT records, not the sums */
	uint64_t waits_unpaired;     /* WAIT records without their other end or thread */
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

/* openmp_sites.c: Work, Sync, Overhead (ns) of @t; the formulas above. */
void rpt_omp_split(const uint64_t *f, double *work, double *sync, double *overhead);

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
/* openmp_target.c: TARGET REGIONS, DATA TRANSFERS, DEVICES and DEVICE TRACE of @p;
 * nothing when it had no offload. */
void rpt_omp_write_target(const struct rpt_omp_proc *p, FILE *f);

#endif
