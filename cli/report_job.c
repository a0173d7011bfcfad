// SPDX-License-Identifier: MIT
/*
 * uprof report -i JOBDIR: an MPI job's directory (job.ini, rank-<r>/ sessions) into one
 * report.csv (lib/job); the ranks that are missing or damaged named on stderr,
 * the hottest functions over every rank on stdout, as for a single session.
 */
#include "cli/report_job.h"
#include "export/export.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "report";

#define NAME_COLS 60

/* The CSV into @a->out_name beneath @a->out_dfd, whole or not at all (docs/DESIGN.md §4:
 * a new temp file renamed into place, nothing by path). */
static int write_csv(const struct rpt_job *j, const struct report_job_args *a)
{
	char tmp[NAME_MAX + 1];
	FILE *f;
	int ret;

	if (!a->out_path)
		return rpt_job_write_csv(j, stdout) ? cli_error(1, CMD, "writing to stdout failed")
						    : 0;
	f = util_at_replace_fopen(a->out_dfd, a->out_name, SES_FILE_MODE, tmp, sizeof(tmp));
	if (!f)
		return cli_error(1, CMD, "cannot write '%s': %s; use --report-output <path>",
				 a->out_path, strerror(errno));
	ret = util_at_replace_fcommit(a->out_dfd, tmp, a->out_name, f, rpt_job_write_csv(j, f));
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", a->out_path, strerror(-ret));
	return 0;
}

void report_mpi_lines(const struct rpt_job_mpi_summary *s)
{
	const struct rpt_job_mpi_summary m = *s;

	if (!m.traced)
		return;
	if (!m.ranks) { /* each rank's warning says why */
		fprintf(stderr, "MPI: none of the %d traced rank%s has its calls recorded\n",
			m.traced, m.traced == 1 ? "" : "s");
		return;
	}
	fprintf(stderr,
		"MPI: %d of %d traced rank%s reported; MPI time %.4f s, %.2f %% of their "
		"time between MPI_Init and MPI_Finalize (MPI_Init %.4f s, MPI_Finalize %.4f s, "
		"apart)\n",
		m.ranks, m.traced, m.traced == 1 ? "" : "s", m.mpi_s,
		m.elapsed_s > 0 ? 100.0 * m.mpi_s / m.elapsed_s : 0.0, m.init_s, m.finalize_s);
	if (m.top[0])
		fprintf(stderr, "MPI: top function %s, %.4f s (%.2f %% of MPI time); ", m.top,
			m.top_s, m.mpi_s > 0 ? 100.0 * m.top_s / m.mpi_s : 0.0);
	else
		fprintf(stderr, "MPI: no MPI call besides MPI_Init/Finalize; ");
	if (m.imbalanced[0])
		fprintf(stderr, "imbalanced: %s, max/avg - 1 = %.2f, slowest rank %d\n",
			m.imbalanced, m.imbalance, m.imbalance_rank);
	else
		fprintf(stderr, "no function flagged imbalanced\n");
}

/* report.html of the job (--export html): its report.csv's tables and its ranks' MPI
 * calls (lib/job's job_trace.c) made a page, whole or not at all beneath the export
 * directory's fd. */
static int write_html(const struct rpt_job *j, const struct report_job_args *a)
{
	char tmp[NAME_MAX + 1], *csv = NULL;
	struct rpt_job_summary s;
	size_t len = 0;
	FILE *m, *f;
	int ret;

	m = open_memstream(&csv, &len);
	if (!m)
		return cli_error(1, CMD, "out of memory");
	ret = rpt_job_write_csv(j, m);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(csv);
		return cli_error(1, CMD, "writing '%s' failed: %s", a->html_path, strerror(-ret));
	}
	rpt_job_summary(j, &s);
	f = util_at_replace_fopen(a->html_dfd, a->html_name, SES_FILE_MODE, tmp, sizeof(tmp));
	if (!f) {
		free(csv);
		return cli_error(1, CMD, "cannot write '%s': %s", a->html_path, strerror(errno));
	}
	ret = util_at_replace_fcommit(
		a->html_dfd, tmp, a->html_name, f,
		rpt_job_export_html(j, f, s.dir ? s.dir : a->input, csv, len));
	free(csv);
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", a->html_path, strerror(-ret));
	return 0;
}

/* --export perfetto: the job's MPI trace into @a->trace_name beneath @a->trace_dfd, whole
 * or not at all, named on stderr with what it shows. 0 or the exit code of a failure. */
static int write_trace(const struct rpt_job *j, const struct report_job_args *a)
{
	struct rpt_mpi_trace_facts facts;
	char tmp[NAME_MAX + 1];
	FILE *f;
	int ret;

	f = util_at_replace_fopen(a->trace_dfd, a->trace_name, SES_FILE_MODE, tmp, sizeof(tmp));
	if (!f)
		return cli_error(1, CMD, "cannot write '%s': %s", a->trace_path, strerror(errno));
	ret = util_at_replace_fcommit(a->trace_dfd, tmp, a->trace_name, f,
				      rpt_job_export_perfetto(j, f, &facts));
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", a->trace_path, strerror(-ret));
	fprintf(stderr, "Generated trace file: %s (%zu MPI calls, %zu messages)\n", a->trace_path,
		facts.slices, facts.messages);
	if (!facts.slices)
		fprintf(stderr, "note: the job's trace has no MPI call: collect with --trace "
				"mpi=full to record each call (its otherData says why per rank)\n");
	if (facts.left_out)
		fprintf(stderr,
			"note: trace.json shows the first %u MPI calls: %llu later ones left out "
			"(its otherData says so)\n",
			RPT_MPI_SLICES_MAX, (unsigned long long)facts.left_out);
	if (facts.dropped)
		fprintf(stderr,
			"note: the ranks' interposers dropped %llu events (calls and request "
			"completions) past their cap (%s; its otherData says so)\n",
			(unsigned long long)facts.dropped, SES_MPIEV_ENV_CAP);
	return 0;
}

/* --export sqlite: the job's MPI tables (job_sqlite.c) as @a->db_name beneath @a->db_dfd,
 * whole or not at all. 0 or the exit code of a failure. */
static int write_db(const struct rpt_job *j, const struct report_job_args *a)
{
	char tmp[NAME_MAX + 1];
	FILE *f = util_at_replace_fopen(a->db_dfd, a->db_name, SES_FILE_MODE, tmp, sizeof(tmp));
	int ret;

	if (!f)
		return cli_error(1, CMD, "cannot write '%s': %s", a->db_path, strerror(errno));
	ret = util_at_replace_fcommit(a->db_dfd, tmp, a->db_name, f, rpt_job_export_sqlite(j, f));
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", a->db_path, strerror(-ret));
	fprintf(stderr, "Generated SQLite database file: %s\n", a->db_path);
	return 0;
}

static void print_terminal(const struct rpt_job *j, const char *written, FILE *table)
{
	const struct rpt_job_rank *ranks;
	struct rpt_job_summary s;
	struct rpt_row rows[10];
	int n = rpt_job_ranks(j, &ranks), width = 8;
	char ends[1024];

	rpt_job_summary(j, &s);
	if (written)
		fprintf(stderr, "Generated report file: %s\n", written);
	fprintf(stderr,
		"MPI job %s: %d of %d rank%s reported, on %d host%s; %llu samples (%llu "
		"lost); %d process%s, %d thread%s\n",
		s.id, s.nreported, s.nranks, s.nranks == 1 ? "" : "s", s.nhosts,
		s.nhosts == 1 ? "" : "s", (unsigned long long)s.samples, (unsigned long long)s.lost,
		s.nprocesses, s.nprocesses == 1 ? "" : "es", s.nthreads,
		s.nthreads == 1 ? "" : "s");
	fprintf(stderr, "Ranks: %s\n", rpt_job_end_summary(j, ends, sizeof(ends)));
	{
		struct rpt_job_mpi_summary m;

		rpt_job_mpi_summary(j, &m);
		report_mpi_lines(&m);
	}
	for (int i = 0; i < n; i++)
		if (ranks[i].state != RPT_RANK_OK)
			fprintf(stderr, "warning: rank %d %s: %s\n", ranks[i].rank,
				ranks[i].state >= RPT_RANK_MISSING ? "missing" : "damaged",
				ranks[i].why);
	for (int i = 0; i < n; i++)
		if (ranks[i].mpi_traced && ranks[i].mpi_why[0])
			fprintf(stderr, "warning: rank %d MPI data: %s\n", ranks[i].rank,
				ranks[i].mpi_why);
	n = rpt_job_functions(j, rows, 10);
	if (!n) {
		fprintf(table, "No samples to display.\n");
		return;
	}
	for (int i = 0; i < n; i++)
		width = (int)strlen(rows[i].name) > width ? (int)strlen(rows[i].name) : width;
	width = width > NAME_COLS ? NAME_COLS : width;
	fprintf(stderr, "\n");
	fprintf(table, "%12s %7s  %-*s %s\n", s.timer ? "CPU_TIME(s)" : "EVENTS", "%", width,
		"FUNCTION", "MODULE");
	for (int i = 0; i < n; i++) {
		const char *mod = strrchr(rows[i].module, '/');

		fprintf(table,
			s.timer ? "%12.4f %6.2f%%  %-*.*s %s\n" : "%12.0f %6.2f%%  %-*.*s %s\n",
			rows[i].seconds, s.samples ? 100.0 * rows[i].samples / s.samples : 0.0,
			width, NAME_COLS, rows[i].name, mod ? mod + 1 : rows[i].module);
	}
}

int report_job(const struct report_job_args *a)
{
	struct rpt_job_select sel = { .hosts = a->hosts };
	uint8_t *bits = NULL;
	struct rpt_job *j = NULL;
	char err[1024];
	int ret, tret = 0;

	if (a->ranks) {
		bits = malloc(RPT_RANK_BITMAP_BYTES);
		if (!bits)
			return cli_error(1, CMD, "out of memory");
		ret = rpt_rank_list_parse(a->ranks, bits);
		if (ret) {
			free(bits);
			return cli_error(EXIT_USAGE, CMD,
					 ret == -ERANGE
						 ? "--rank '%s': ranks are numbered below 65536"
						 : "--rank '%s': give ranks such as 0-3,8",
					 a->ranks);
		}
		sel.ranks = bits;
	}
	ret = rpt_job_open_at(&j, a->dfd, a->input, a->opts, &sel, err, sizeof(err));
	free(bits);
	if (ret)
		return cli_error(1, CMD, "%s", err);
	ret = write_csv(j, a);
	if (!ret && a->html_dfd >= 0)
		ret = write_html(j, a);
	if (!ret && a->trace_dfd >= 0)
		ret = write_trace(j, a);
	if (!ret && a->db_dfd >= 0)
		ret = write_db(j, a);
	if (!ret) {
		print_terminal(j, a->out_path, a->out_path ? stdout : stderr);
		fflush(stdout);
		if (a->html_dfd >= 0)
			fprintf(stderr, "Generated HTML report file: %s\n", a->html_path);
	}
	/* after the job's report.csv is written whole: a tool that fails costs only its own */
	if (!ret && a->tools && a->tools->n)
		tret = cli_tools_report_job(a->tools, j, a->dfd, a->input, a->out_path, CMD);
	rpt_job_free(j);
	return ret ? ret : tret;
}
