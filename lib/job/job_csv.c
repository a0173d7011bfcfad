// SPDX-License-Identifier: MIT
/*
 * report.csv of an MPI job, in uProf's layout (docs/reference/uprof-cli.md §5.1, §6): a rank's
 * EXECUTION block, the job's PROFILE DETAILS (its wall-clock span, and every rank that is
 * missing or damaged, named), APPLICATION PERFORMANCE SNAPSHOT with the MPI lines, MPI
 * Ranks Per Node, a RANKS table, then the hottest tables over all ranks: functions and
 * modules summed, processes and threads each a row of its rank (a RANK column); the MPI
 * TRACING REPORT; and each traced rank's OpenMP TRACING REPORT, its titles naming it.
 */
#include "job/internal.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void ctime_ns(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm)) {
		snprintf(buf, len, "unknown");
		return;
	}
	strftime(buf, len, "%a %b %d %H:%M:%S %Y", &tm);
}

static const char *state_name(enum rpt_rank_state s)
{
	static const char *const names[] = { "complete", "interrupted", "damaged", "missing",
					     "unreadable" };

	return names[s];
}

/* "0-3,5": the reported ranks (state below missing) when @reported, else the others. */
static void rank_list(const struct rpt_job *j, bool reported, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < j->nranks && used < len; i++) {
		int k = i;

		if ((j->ranks[i].state < RPT_RANK_MISSING) != reported)
			continue;
		while (k + 1 < j->nranks && j->ranks[k + 1].rank == j->ranks[k].rank + 1 &&
		       (j->ranks[k + 1].state < RPT_RANK_MISSING) == reported)
			k++;
		used += snprintf(buf + used, len - used, "%s%d", used ? "," : "", j->ranks[i].rank);
		if (k > i)
			used += snprintf(buf + used, len - used, "-%d", j->ranks[k].rank);
		i = k;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

static void write_details(const struct rpt_job *j, FILE *f, const struct rpt_job_summary *s)
{
	char start[64], end[64], list[4096];

	ctime_ns(j->start_epoch_ns, start, sizeof(start));
	ctime_ns(j->end_epoch_ns, end, sizeof(end));
	fprintf(f, "\nPROFILE DETAILS\n");
	util_csv_kvf(f, "Profile Session Type", "%s", "MPI Profile");
	util_csv_kvf(f, "Profile Scope", "%s", "MPI Job");
	util_csv_kvf(f, "Profile Start Time", "%s", start);
	util_csv_kvf(f, "Profile End Time", "%s", end);
	util_csv_kvf(f, "Profile Duration", "%.3f seconds",
		     j->end_epoch_ns > j->start_epoch_ns
			     ? (double)(j->end_epoch_ns - j->start_epoch_ns) / 1e9
			     : 0.0);
	util_csv_kvf(f, "Data Folder", "%s", j->dir);
	util_csv_kvf(f, "MPI Job Id", "%s", j->job.id);
	if (s->size)
		util_csv_kvf(f, "MPI Ranks In Job", "%d", s->size);
	else
		util_csv_kvf(f, "MPI Ranks In Job", "%zu (the launcher gave no world size)",
			     j->job.nranks);
	rank_list(j, true, list, sizeof(list));
	util_csv_kvf(f, "MPI Ranks Reported", "%s", list);
	rank_list(j, false, list, sizeof(list));
	util_csv_kvf(f, "MPI Ranks Missing", "%s", list);
	util_csv_kvf(f, "MPI Rank Ends", "%s", rpt_job_end_summary(j, list, sizeof(list)));
	for (int i = 0; i < j->nranks; i++)
		if (j->ranks[i].state != RPT_RANK_OK)
			util_csv_kvf(f,
				     j->ranks[i].state >= RPT_RANK_MISSING ? "Rank Missing"
									   : "Rank Damaged",
				     "rank %d: %s", j->ranks[i].rank, j->ranks[i].why);
	if (j->opts.time_filter)
		util_csv_kvf(f, "Time Filter", "applied to each rank from its own profile start");
	if (j->nomp)
		util_csv_kvf(f, "OpenMP Tracing Enabled",
			     "Yes (%d ranks: OpenMP TRACING REPORT (RANK-<r>))", j->nomp);
	util_csv_kvf(f, "Samples", "%" PRIu64, s->samples);
	util_csv_kvf(f, "Lost Samples", "%" PRIu64, s->lost);
	if (j->leaf_fixed || j->leaf_fp || j->leaf_unknown) /* -g ranks, over them all */
		util_csv_kvf(f, "Frameless Leaf Callers Recovered",
			     "%" PRIu64 " (CFI at the leaf; %" PRIu64 " leaves had frames, %" PRIu64
			     " unknown)",
			     j->leaf_fixed, j->leaf_fp, j->leaf_unknown);
}

/* Hosts in the order their first rank comes, with their reported ranks. */
static void write_hosts(const struct rpt_job *j, FILE *f)
{
	fprintf(f, "\nMPI Ranks Per Node\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct rpt_job_rank *r = &j->ranks[i];
		bool first = r->state < RPT_RANK_MISSING;
		int n = 0;

		for (int k = 0; k < i && first; k++)
			first = j->ranks[k].state >= RPT_RANK_MISSING ||
				strcmp(j->ranks[k].host, r->host);
		if (!first)
			continue;
		for (int k = i; k < j->nranks; k++)
			n += j->ranks[k].state < RPT_RANK_MISSING &&
			     !strcmp(j->ranks[k].host, r->host);
		util_put_escaped(f, r->host, UTIL_ESC_CSV);
		fprintf(f, ",%d\n", n);
	}
}

static void write_snapshot(const struct rpt_job *j, FILE *f, const struct rpt_job_summary *s)
{
	fprintf(f, "\n\nAPPLICATION PERFORMANCE SNAPSHOT\n");
	fprintf(f, "Number Of Processes,\"%d\"\n", s->nprocesses);
	fprintf(f, "Number Of Threads,\"%d\"\n", s->nthreads);
	if (j->timer)
		fprintf(f, "Total CPU_TIME,\"%.4f seconds\"\n", s->cpu_s);
	fprintf(f, "Number Of MPI ranks,\"%d\"\n", s->nreported);
	fprintf(f, "Number Of MPI hosts,\"%d\"\n", s->nhosts);
	rpt_job_mpi_snapshot(j, f);
}

static void value_header(const struct rpt_job *j, FILE *f)
{
	if (j->timer)
		fprintf(f, "\"CPU_TIME\" (seconds)");
	else
		util_csv_quoted(f, j->event);
}

static void write_ranks(const struct rpt_job *j, FILE *f)
{
	fprintf(f, "\nMPI RANKS\nRANK,HOST,PID,STATE,");
	value_header(j, f);
	fprintf(f, ",SAMPLES,LOST SAMPLES,ELAPSED TIME(seconds),END\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct rpt_job_rank *r = &j->ranks[i];

		fprintf(f, "%d,", r->rank);
		util_csv_quoted(f, r->host);
		fprintf(f, ",%d,", r->pid);
		util_csv_quoted(f, state_name(r->state));
		fprintf(f, j->timer ? ",%.4f" : ",%.0f", r->cpu_s);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.4f,", r->samples, r->lost, r->elapsed_s);
		util_csv_quoted(f, r->end_label);
		fputc('\n', f);
	}
}

static const char *host_of(const struct rpt_job *j, int rank)
{
	for (int i = 0; i < j->nranks; i++)
		if (j->ranks[i].rank == rank)
			return j->ranks[i].host;
	return "?";
}

static int write_table(const struct rpt_job *j, FILE *f, int t, const char *what, const char *lead,
		       const char *tail)
{
	const struct rpt_job_item **v;
	int n = rpt_job_sorted(j, t, &v), cut = j->opts.cutoff;

	if (n < 0)
		return n;
	if (cut > 0)
		fprintf(f, "\n\"%d HOTTEST %s (Sort Event - %s)\"\n", cut, what, j->event);
	else
		fprintf(f, "\n\"ALL %s (Sort Event - %s)\"\n", what, j->event);
	fputs(lead, f);
	value_header(j, f);
	fputs(tail, f);
	fputc('\n', f);
	for (int i = 0; i < n && (cut <= 0 || i < cut); i++) {
		const struct rpt_job_item *it = v[i];

		util_csv_quoted(f, it->name);
		if (t == RPT_JOB_THREADS)
			fprintf(f, ",\"%d\"", it->id);
		if (it->rank >= 0) {
			fprintf(f, ",%d,", it->rank);
			util_csv_quoted(f, host_of(j, it->rank));
		}
		fprintf(f, j->timer ? ",%.4f" : ",%.4f", it->value);
		if (t == RPT_JOB_FUNCS) {
			fputc(',', f);
			util_csv_quoted(f, it->module ? it->module : "");
		}
		fputc('\n', f);
	}
	free(v);
	return 0;
}

int rpt_job_write_csv(const struct rpt_job *j, FILE *f)
{
	bool cpu = rpt_category(&j->opts, RPT_CAT_CPU);
	struct rpt_job_summary s;
	int ret;

	rpt_job_summary(j, &s);
	rpt_csv_execution(j->head, f);
	write_details(j, f, &s);
	write_snapshot(j, f, &s);
	write_hosts(j, f);
	write_ranks(j, f);
	rpt_job_timeline_write(j, f);
	rpt_job_rates_write(j, f);
	ret = cpu ? write_table(j, f, RPT_JOB_FUNCS, "FUNCTIONS", "FUNCTION,", ",Module") : 0;
	if (!ret && cpu)
		ret = write_table(j, f, RPT_JOB_PROCS, "PROCESSES", "PROCESS,RANK,HOST,", "");
	if (!ret && cpu)
		ret = write_table(j, f, RPT_JOB_MODS, "MODULES", "MODULE,", "");
	if (!ret && cpu)
		ret = write_table(j, f, RPT_JOB_THREADS, "THREADS", "THREAD,THREAD ID,RANK,HOST,",
				  "");
	if (!ret && cpu)
		rpt_job_intervals_write(j, f);
	if (!ret && rpt_category(&j->opts, RPT_CAT_MPI))
		ret = rpt_job_mpi_write(j, f);
	for (int i = 0; !ret && i < j->nranks && rpt_category(&j->opts, RPT_CAT_OPENMP); i++)
		if (j->omp[i]) /* each rank's OpenMP, in rank order */
			fputs(j->omp[i], f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}
