/* SPDX-License-Identifier: MIT */
/* lib/job internal: the job report's model (job.c loads it, job_csv.c writes it,
 * job_mpi.c reads the ranks' MPI traces). */
#ifndef UPROF_JOB_INTERNAL_H
#define UPROF_JOB_INTERNAL_H

#include "job/job.h"
#include "util/util.h"

#include <limits.h>

/* A merged row: a function or module summed over ranks, or a process or thread of one
 * rank (@rank >= 0). Names interned in the job's pool. */
struct rpt_job_item {
	const char *name;
	const char *module; /* functions */
	int rank;	    /* processes and threads; -1 for merged rows */
	int id;		    /* pid or tid */
	double value;	    /* CPU_TIME seconds, or event count */
	uint64_t samples;
};

struct rpt_job_items {
	struct rpt_job_item *v;
	size_t n, cap;
	struct util_strmap index; /* merged rows: key -> index + 1 */
};

enum { RPT_JOB_FUNCS, RPT_JOB_MODS, RPT_JOB_PROCS, RPT_JOB_THREADS, RPT_JOB_NTABLES };

/* A rank's MPI data (job_mpi.c): its mpi/<pid>.mpi, when it was traced. */
struct rpt_job_mpi {
	bool traced;	  /* its session has an mpi/ directory (--trace mpi) */
	bool has;	  /* and a file in it that could be read */
	struct ses_mpi m; /* owned: ses_mpi_release() */
	char why[256];	  /* what is missing or partial, "" when whole */
};

struct rpt_job {
	char dir[PATH_MAX]; /* the job directory as the user named it: for messages */
	int dfd;	    /* it, opened once (borrowed): every rank read beneath it */
	struct ses_job job;
	struct rpt_options opts;
	struct rpt_job_rank *ranks; /* the selected ranks, by rank */
	int nranks;
	struct rpt *head;	 /* the first reported rank's report: EXECUTION's facts */
	struct util_strmap pool; /* interned names */
	struct rpt_job_items t[RPT_JOB_NTABLES];
	bool timer;
	char event[64]; /* the sort event's name */
	int64_t start_epoch_ns, end_epoch_ns;
	int nthreads, nprocesses;
	/* -g ranks' frameless leaves, summed: recovered, had frames, unknown (a rank's own
	 * report's "Frameless Leaf Callers Recovered") */
	uint64_t leaf_fixed, leaf_fp, leaf_unknown;
	struct rpt_job_mpi *mpi; /* [nranks], parallel to ranks */
	int ntraced;		 /* ranks with an mpi/ directory */
	/* [nranks]: each rank's OpenMP TRACING REPORT (--trace openmp), written when the
	 * rank was reported (its report is freed before the next); NULL where untraced */
	char **omp;
	int nomp; /* ranks with one */
	/* MPI call sites over the ranks (job_sites.c); NULL: none */
	struct rpt_job_sites *sites;
	struct rpt_symshare *symshare; /* the ranks' symbols (owned): rpt_options.symshare */
	struct rpt_unwind_share *unwindshare; /* their leaf CFI rows (owned): .unwindshare */
	int64_t timeline_origin_ns;    /* the first rank's start, wall clock (job_timeline.c) */
	bool timeline_set;
	struct rpt_job_agg *agg; /* --agg-interval on the time line (job_intervals.c); NULL */
	int nrate_low; /* ranks sampled under 90 % of the asked rate (job_rates.c) */
	/* a one-rank job of a session (rpt_job_rank_open): its directory, borrowed; no dfd,
	 * no job.ini */
	bool of_session;
	int session_dfd;
};

/* job.c: rank @rank's session directory as job.ini names it, NULL when it has none */
const char *rpt_job_session_of(const struct ses_job *job, int rank);
/* job_trace.c: rank @rank's line of job.ini, NULL when it has none */
const struct ses_job_rank *rpt_job_ses_rank(const struct ses_job *job, int rank);

/* job_mpi.c: rank @i's MPI data from its session directory @session_dir. -ENOMEM only. */
int rpt_job_mpi_load(struct rpt_job *j, int i, int session_dfd);
void rpt_job_mpi_release(struct rpt_job *j);
/* The MPI lines of APPLICATION PERFORMANCE SNAPSHOT; MPI TRACING REPORT (uProf's blocks,
 * and the imbalance per function). Nothing when no rank was traced. */
void rpt_job_mpi_snapshot(const struct rpt_job *j, FILE *f);
int rpt_job_mpi_write(const struct rpt_job *j, FILE *f);
/* job_mpi_rma.c: the RMA COMMUNICATION MATRIX (origin ---> target), when a rank did RMA */
void rpt_job_mpi_rma_write(const struct rpt_job *j, FILE *f);

/* job_end.c: every selected rank's end (rpt_job_rank.end), once all are loaded */
void rpt_job_ends(struct rpt_job *j);
/* job_sites.c: rank @i's MPI call sites (its .mpi, loaded), named with its report @r
 * (open), into the job's sites. 0 or -ENOMEM. */
int rpt_job_sites_add(struct rpt_job *j, int i, struct rpt *r);
/* MPI CALL SITES, MPI CALL SITE TIME and MESSAGE SIZES (top --mpi-top), per rank; nothing
 * without sites. Once every rank is added. 0 or -ENOMEM. */
int rpt_job_sites_write(const struct rpt_job *j, FILE *f);
void rpt_job_sites_free(struct rpt_job *j);
/* job_sizes.c: MPI MESSAGE SIZES (Per Rank): each rank's histogram rows. */
void rpt_job_sizes_per_rank(const struct rpt_job *j, FILE *f);
/* job_timeline.c: rank @o's clock from job.ini and its session's @info, as it is loaded;
 * MPI RANK TIMELINE (nothing when no rank has a clock). */
void rpt_job_clock_note(struct rpt_job *j, struct rpt_job_rank *o, const struct ses_info *info);
/* Rank @rank's clock offset (CLOCK_REALTIME - CLOCK_MONOTONIC of its host) into @offset:
 * job.ini's, else its session @info's own; false when neither was recorded. */
bool rpt_job_rank_offset(const struct rpt_job *j, int rank, const struct ses_info *info,
			 int64_t *offset);
void rpt_job_timeline_write(const struct rpt_job *j, FILE *f);
/* job_intervals.c: --agg-interval over the job. Before the ranks are loaded: the time
 * line's origin from each selected rank's session.ini, and each rank's bucket origin on
 * its own clock (0 or -ENOMEM); @opts for rank @i's report (agg_origin_ns, or no
 * --agg-interval for a rank with no clock); rank @i's sort-event units per bucket from
 * its report @r (0 or -ENOMEM); SAMPLES PER INTERVAL (nothing without --agg-interval). */
int rpt_job_intervals_begin(struct rpt_job *j);
void rpt_job_intervals_opts(const struct rpt_job *j, int i, struct rpt_options *opts);
int rpt_job_intervals_add(struct rpt_job *j, int i, const struct rpt *r);
void rpt_job_intervals_write(const struct rpt_job *j, FILE *f);
void rpt_job_intervals_free(struct rpt_job *j);
/* job_rates.c: rank @o's achieved sampling rate from its report @r, and why it is low;
 * MPI RANK SAMPLING RATE (nothing when the sort event is no timer). */
void rpt_job_rate_note(struct rpt_job *j, struct rpt_job_rank *o, const struct rpt *r);
void rpt_job_rates_write(const struct rpt_job *j, FILE *f);
/* Imbalance flagged: the slowest rank spends this much more than the average ... */
#define RPT_JOB_IMBALANCE_FLAG 0.25
/* ... in a function that costs the slowest rank at least this share of its MPI time */
#define RPT_JOB_IMBALANCE_MIN_SHARE 0.01
/* job_mpi_apart.c: MPI_Init, MPI_Init_thread and MPI_Finalize, the runtime's start and
 * end, kept apart from MPI time (in no MPI Time, share or imbalance flag) */
bool rpt_job_mpi_lifecycle(const char *name);
uint64_t rpt_job_rank_mpi_ns(const struct ses_mpi *m); /* without them */
uint64_t rpt_job_rank_init_ns(const struct ses_mpi *m);
uint64_t rpt_job_rank_finalize_ns(const struct ses_mpi *m);
/* A rank's time from MPI_Init's return to MPI_Finalize's call (or to the flush, for a
 * rank that ended without it): mpiP's AppTime, what MPI time is a share of */
uint64_t rpt_job_rank_app_ns(const struct ses_mpi *m);
/* job_mpi.c: a rank's time in waits and MPI_Barrier (RANK SUMMARY's Wait Time), and the
 * bytes it sent (its Volume) */
uint64_t rpt_job_rank_wait_ns(const struct ses_mpi *m);
uint64_t rpt_job_rank_sent(const struct ses_mpi *m);
/* Does function @a (@a_ns in all) come before @b in the tables? */
bool rpt_job_mpi_before(const char *a, uint64_t a_ns, const char *b, uint64_t b_ns);

/* job_mpi_noinit.c: is @name a <pid>.noinit (lib/mpi left it: loaded, no MPI_Init seen)?
 * Why a traced rank has no <pid>.mpi, into @why, from the @noinit such files. */
bool rpt_job_mpi_is_noinit(const char *name);
void rpt_job_mpi_why_none(char *why, size_t len, int noinit);

/* Items of table @t sorted by value, largest first, into a malloc'ed array of
 * pointers (*out; free it). Returns how many, or -ENOMEM. */
int rpt_job_sorted(const struct rpt_job *j, int t, const struct rpt_job_item ***out);

#endif
