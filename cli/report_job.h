/* SPDX-License-Identifier: MIT */
/* cli/report_job.c: `uprof report` over an MPI job directory; cli/report_summary.c: its
 * terminal summary. */
#ifndef UPROF_CLI_REPORT_JOB_H
#define UPROF_CLI_REPORT_JOB_H

#include "cli/cli.h"
#include "job/job.h"

#include <limits.h>
#include <stdio.h>

struct report_job_args {
	const char *input;		/* the job directory, absolute: for messages */
	int dfd;			/* it, opened once (borrowed) */
	const char *out_path;		/* report.csv's path; NULL: the CSV to stdout */
	int out_dfd;			/* the directory it goes in, opened once (borrowed) */
	const char *out_name;		/* its name there */
	const struct rpt_options *opts; /* each rank's report */
	const char *ranks;		/* --rank list, or NULL */
	const char *hosts;		/* --host list, or NULL */
	/* --export html: report.html as @html_name beneath @html_dfd (borrowed), said as
	 * @html_path; -1: none */
	int html_dfd;
	const char *html_name, *html_path;
	int trace_dfd;		       /* --export perfetto: trace.json's directory, or -1 */
	const char *trace_path;	       /* its path, for messages */
	const char *trace_name;	       /* its name there */
	struct cli_tools *tools;       /* --tool (loaded), run after report.csv; NULL: none */
	int db_dfd;		       /* --export sqlite: report.db's directory, or -1 */
	const char *db_path, *db_name; /* its path (messages), its name there */
};

/* The job's report.csv and the terminal summary; uprof's exit code. */
int report_job(const struct report_job_args *a);

/* The two MPI lines of a job's (or a rank's) terminal summary on stderr, from @s (--trace
 * mpi): MPI time apart from MPI_Init/Finalize, the top function, the most imbalanced one
 * the report flags (uprof-mpi(7)). Nothing when no rank was traced. */
void report_mpi_lines(const struct rpt_job_mpi_summary *s);

/* cli/report_summary.c: the session's notes and warnings on stderr, then the hottest
 * functions (and programs) on @table; @written names the CSV written, or NULL. */
void report_summary(const struct rpt *r, const char *written, FILE *table);

#endif
