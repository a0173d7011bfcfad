/* SPDX-License-Identifier: MIT */
/*
 * lib/job: the report of an MPI job (docs/DESIGN.md §10): every selected rank's session
 * reported (lib/report), its rows merged into the job's tables, its MPI trace read, and
 * report.csv of the whole job written.
 */
#ifndef UPROF_JOB_H
#define UPROF_JOB_H

#include "report/report.h"

/* Which ranks a job report covers: a bitmap of SES_JOB_MAX_RANKS bits (NULL: all), and
 * a comma list of host names (NULL or "all": all). Both borrowed. */
struct rpt_job_select {
	const uint8_t *ranks;
	const char *hosts;
};
#define RPT_RANK_BITMAP_BYTES (SES_JOB_MAX_RANKS / 8)
/* "0-3,8" into @bits (RPT_RANK_BITMAP_BYTES, zeroed first). 0, -EINVAL (not a list),
 * -ERANGE (a rank past SES_JOB_MAX_RANKS - 1). */
int rpt_rank_list_parse(const char *s, uint8_t *bits);

/* Does @dir hold a job.ini (a job directory rather than a session)? */
bool rpt_is_job_dir(const char *dir);
/* The same for the directory fd @dfd: job.ini a regular file beneath it, not followed. */
bool rpt_is_job_dir_at(int dfd);

enum rpt_rank_state {
	RPT_RANK_OK,
	RPT_RANK_INTERRUPTED, /* its collect did not finish: reported, and listed */
	RPT_RANK_DAMAGED,     /* its files hold less than its collect wrote: the same */
	RPT_RANK_MISSING,     /* in the job (job.ini, or under its world size) with no session */
	RPT_RANK_UNREADABLE,  /* a session that report cannot open */
};

struct rpt_job_rank {
	int rank;
	char host[128];
	int pid; /* the rank's program (0: unknown) */
	enum rpt_rank_state state;
	char why[256]; /* what is wrong with it, "" when OK */
	double cpu_s;  /* its CPU_TIME */
	uint64_t samples, lost;
	double elapsed_s;  /* its profile duration */
	bool mpi_traced;   /* collected with --trace mpi */
	char mpi_why[256]; /* its MPI data missing or partial, "" when whole */
};

struct rpt_job_summary {
	const char *id, *app, *dir;
	int size;		/* the launcher's world size (0: unknown) */
	int nranks;		/* ranks selected (the world, or --rank/--host) */
	int nreported;		/* of them, with a session reported */
	int nmissing, ndamaged; /* missing or unreadable; interrupted or damaged */
	int nhosts;		/* hosts of the reported ranks */
	int nprocesses, nthreads;
	double cpu_s;
	uint64_t samples, lost;
	bool timer; /* CPU_TIME sorts (else the first event's count) */
};

struct rpt_job;

/* Load the job in @jobdir (borrowed): job.ini, then each selected rank's session with
 * @opts (borrowed). A rank that cannot be read is listed, not an error; -ENOENT/-EINVAL
 * for a job.ini that is missing or broken, -ENODATA when no selected rank has a session
 * (@err says which ranks and why). */
int rpt_job_open(struct rpt_job **out, const char *jobdir, const struct rpt_options *opts,
		 const struct rpt_job_select *sel, char *err, size_t errlen);
/* The same on the job directory fd @dfd (borrowed, opened once by the caller): job.ini
 * and each rank's directory beneath it with no symlink followed (docs/DESIGN.md §4); a
 * rank directory that is a link is listed as unreadable. @jobdir names it in messages. */
int rpt_job_open_at(struct rpt_job **out, int dfd, const char *jobdir,
		    const struct rpt_options *opts, const struct rpt_job_select *sel, char *err,
		    size_t errlen);
void rpt_job_free(struct rpt_job *j);
void rpt_job_summary(const struct rpt_job *j, struct rpt_job_summary *s);
/* The selected ranks in rank order (owned by @j); returns how many. */
int rpt_job_ranks(const struct rpt_job *j, const struct rpt_job_rank **ranks);
/* The hottest @max functions over every reported rank (names borrowed from @j). */
int rpt_job_functions(const struct rpt_job *j, struct rpt_row *rows, int max);
/* report.csv of the job: the hottest tables over all ranks (a Rank column where rows are
 * a rank's), MPI ranks per host, the ranks missing or damaged. 0 or -errno. */
int rpt_job_write_csv(const struct rpt_job *j, FILE *f);

struct rpt_mpi_trace_facts; /* export/export.h */
/* trace.json of the job (job_trace.c): each selected rank's --trace mpi=full calls and
 * messages on one time line (lib/export's rpt_export_mpi_job). 0 or -errno; @facts (may
 * be NULL) says what it shows. */
int rpt_job_export_perfetto(const struct rpt_job *j, FILE *f, struct rpt_mpi_trace_facts *facts);

#endif
