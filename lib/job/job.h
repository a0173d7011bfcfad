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

/* How a rank's program ended (job_end.c), from its session.ini and the other ranks' */
enum rpt_rank_end {
	RPT_END_UNKNOWN,
	RPT_END_COMPLETED,   /* exit(0) */
	RPT_END_EXIT,	     /* exit(end_value), not 0 */
	RPT_END_SIGNAL,	     /* killed by signal end_value, its own (or no launcher's) */
	RPT_END_LAUNCHER,    /* killed by the launcher: signal end_value came while it ran,
			      * and another rank failed first or its collect was signalled */
	RPT_END_RUNNING,     /* its collect is still running */
	RPT_END_INTERRUPTED, /* its collect stopped by signal end_value; the rank's end unknown */
	RPT_END_NEVER_JOINED,
	RPT_END_NO_SESSION,
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
	/* its session.ini's facts (-1, 0, 0: unknown), and its collect's own end */
	int exit_code, exit_signal, stop_signal;
	bool collect_killed; /* session.ini left running, its collect gone (SIGKILL) */
	enum rpt_rank_end end;
	int end_value;	    /* the exit code or the signal */
	char end_label[48]; /* "completed", "exit(3)", "killed by SIGKILL", ... */
	/* its clock (job_timeline.c): its profile's span in its host's CLOCK_MONOTONIC, and
	 * that host's CLOCK_REALTIME - CLOCK_MONOTONIC (job.ini's clock_offset_ns, else its
	 * session's); @on_timeline false when neither was recorded */
	int64_t start_mono_ns, end_mono_ns, clock_offset_ns;
	bool on_timeline;
	/* its sampling rate (job_rates.c): CPU_TIME samples per second of its CPU time,
	 * and asked; @rate_low under 90 % of the asked, @rate_why the cause the session
	 * shows; its context switches (0: not recorded) */
	double achieved_hz, requested_hz;
	bool rate_low;
	char rate_why[384];
	uint64_t switches;
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
/* Rank @i's (of rpt_job_ranks) CLOCK_MONOTONIC time @mono_ns on the job's time line: ns
 * from the first rank's profile start, hosts' clocks merged by their offsets (0 for a
 * rank not on it). */
int64_t rpt_job_time_ns(const struct rpt_job *j, int i, int64_t mono_ns);
/* The hottest @max functions over every reported rank (names borrowed from @j). */
int rpt_job_functions(const struct rpt_job *j, struct rpt_row *rows, int max);
/* "2 completed (ranks 0,3), 1 exit(3) (rank 2)": the selected ranks by how
 * they ended, in the order each way first comes, with their ranks; into @buf, returned. */
const char *rpt_job_end_summary(const struct rpt_job *j, char *buf, size_t len);

/* The MPI lines of the job's terminal summary (--trace mpi): over the ranks with MPI
 * data, MPI time apart from MPI_Init/Finalize, the function of the most time, and the
 * most imbalanced function that the MPI IMBALANCE table flags ("" when none is). */
struct rpt_job_mpi_summary {
	int traced, ranks;	 /* ranks traced; of them, with MPI data */
	double mpi_s, elapsed_s; /* summed over those ranks (elapsed: MPI_Init's return to
				  * MPI_Finalize's call, mpiP's AppTime) */
	double init_s, finalize_s;
	char top[SES_MPI_NAME_MAX + 1];
	double top_s;
	char imbalanced[SES_MPI_NAME_MAX + 1];
	double imbalance;   /* its max/avg - 1 */
	int imbalance_rank; /* its slowest rank */
};
void rpt_job_mpi_summary(const struct rpt_job *j, struct rpt_job_mpi_summary *s);
/* One rank's session (the directory fd @session_dfd, borrowed) with MPI data: its MPI
 * TRACING REPORT to @f, as for a job of that rank alone, and its summary into @s (either
 * may be NULL); @why gets what is missing or partial ("" when whole). A session without
 * an mpi/ directory writes nothing and has s->traced 0. 0 or -ENOMEM. */
int rpt_job_session_mpi(int session_dfd, FILE *f, struct rpt_job_mpi_summary *s, char *why,
			size_t whylen);
/* report.csv of the job: the hottest tables over all ranks (a Rank column where rows are
 * a rank's), MPI ranks per host, the ranks missing or damaged. 0 or -errno. */
int rpt_job_write_csv(const struct rpt_job *j, FILE *f);

/* A rank's MPI summary for the tool API's mpi_rank (job_tool.c): its RANK SUMMARY TABLE
 * row. Strings borrowed from the job. */
struct rpt_job_mpi_rank_view {
	int rank, pid;
	const char *host, *end, *why;
	double app_s, mpi_s, wait_s, init_s, finalize_s;
	uint64_t calls, bytes_sent;
};
/* Rank @i's (of rpt_job_ranks) MPI summary into @v: 0, or -ENODATA when it has no MPI
 * data (not traced, or its file unreadable). */
int rpt_job_mpi_rank_at(const struct rpt_job *j, int i, struct rpt_job_mpi_rank_view *v);
/* Rank @i's MPI functions (borrowed from @j), in its file's order as report --detail's
 * MPI FUNCTION SUMMARY TABLE (Rank N); how many (0: none, or no MPI data). */
size_t rpt_job_mpi_funcs_at(const struct rpt_job *j, int i, const struct ses_mpi_func **funcs);
/* Ranks selected that have MPI data. */
int rpt_job_mpi_ranks_with_data(const struct rpt_job *j);

/* A rank's part of an MPI call site (job_sites.c), for the tool API's mpi_site and
 * report.db's uprof_mpi_sites: its row of MPI CALL SITES PER RANK, the site's place from
 * MPI CALL SITES. Strings borrowed from the job. */
struct rpt_job_mpi_site_view {
	int rank, site, line;
	const char *function, *caller, *module, *callers;
	char place[300]; /* File:Line: "file:line", "module+0xoffset", "unknown" */
	uint64_t calls, time_ns, messages, bytes, min_bytes, max_bytes;
};
/* The job's call sites (numbered, in order of place, from the first call on). */
size_t rpt_job_mpi_sites(const struct rpt_job *j);
/* Site @k's (0 .. rpt_job_mpi_sites - 1) part of rank @i's (of rpt_job_ranks) into @v: 0,
 * or -ENODATA when the rank never called there. */
int rpt_job_mpi_site_at(const struct rpt_job *j, size_t k, int i, struct rpt_job_mpi_site_view *v);
/* Rank @i's session directory, opened beneath the job's (the caller closes it): an fd, or
 * -errno (-ENOENT: the rank has no session). */
int rpt_job_rank_dir(const struct rpt_job *j, int i);
/* One rank's session (@session_dfd, borrowed while the job lives; @r its report, open)
 * as a job of that rank alone, for the tool API: its MPI data (job_mpi.c) and its call
 * sites named with @r, the numbers its report.csv's MPI TRACING REPORT has. 0 with *@out
 * (rpt_job_free), or -ENOMEM; a session without MPI data gives a job with none. */
int rpt_job_rank_open(struct rpt_job **out, int session_dfd, struct rpt *r);

/* report.db of the job (job_sqlite.c): uprof_mpi_ranks, uprof_mpi_calls, uprof_mpi_matrix,
 * uprof_mpi_sites (empty without MPI data). 0 or -errno. */
int rpt_job_export_sqlite(const struct rpt_job *j, FILE *f);

struct rpt_mpi_trace_facts; /* export/export.h */
/* trace.json of the job (job_trace.c): each selected rank's --trace mpi=full calls and
 * messages on one time line (lib/export's rpt_export_mpi_job). 0 or -errno; @facts (may
 * be NULL) says what it shows. */
int rpt_job_export_perfetto(const struct rpt_job *j, FILE *f, struct rpt_mpi_trace_facts *facts);
/* report.html of the job: its report.csv's text (@csv, @len bytes) as the page's tables,
 * and each selected rank's --trace mpi=full calls as a track per rank on its MPI timeline
 * (lib/export's rpt_export_html_job); @title heads the page. 0 or -errno. */
int rpt_job_export_html(const struct rpt_job *j, FILE *f, const char *title, const char *csv,
			size_t len);

#endif
