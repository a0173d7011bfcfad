// SPDX-License-Identifier: MIT
/*
 * report.csv's OpenMP parts (openmp.h), in uProf's layout (docs/reference/uprof-cli.md §6):
 * the snapshot's OPENMP SUMMARY and the OpenMP TRACING REPORT (OVERVIEW, PARALLEL-REGION
 * METRIC and THREAD METRIC per process), with uprof's columns appended after uProf's:
 * instances, imbalance both ways (of wall Work and of CPU time), lock and taskwait time,
 * tasks, CPU time per region; and a LOCK METRIC table per process. Region rows use 6
 * decimals and end with a comma, as uProf's. CPU and wall times are never nested under
 * each other, and each summary line says its clock.
 */
#include "report/internal.h"
#include "openmp/openmp.h"
#include "report/openmp_state.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static double period_s(const struct rpt *r)
{
	return r->info.nevents ? (double)r->info.events[0].period / 1e9 : 1e-3;
}

static bool is_region(const struct rpt_omp_site *s)
{
	return s->kind == SES_OMPT_SITE_PARALLEL;
}

/* Work, sync, overhead and lock wait of a process, summed over regions and threads. */
static void proc_totals(const struct rpt_omp_proc *p, double *work, double *sync, double *over,
			double *lock)
{
	*work = *sync = *over = *lock = 0;
	for (int i = 0; i < p->nsites; i++) {
		double w, s, o;

		if (!is_region(&p->sites[i]))
			continue;
		rpt_omp_split(p->sites[i].f, &w, &s, &o);
		*work += w;
		*sync += s;
		*over += o;
		*lock += (double)p->sites[i].f[SES_OMPT_F_LOCKWAIT];
	}
}

void rpt_omp_write_details(const struct rpt *r, FILE *f)
{
	if (r->omp && r->omp->traced)
		fprintf(f, "OpenMP Tracing Enabled:,\"Yes\"\n");
}

void rpt_omp_write_snapshot(const struct rpt *r, FILE *f)
{
	double cpu = 0, work = 0, sync = 0, over = 0, lock = 0, idle = 0;

	if (!r->omp || !r->omp->nprocs)
		return;
	for (int i = 0; i < r->omp->nprocs; i++) {
		const struct rpt_omp_proc *p = &r->omp->procs[i];
		double w, s, o, l;

		proc_totals(p, &w, &s, &o, &l);
		cpu += (double)p->samples * period_s(r);
		work += w;
		sync += s;
		over += o;
		lock += l;
		idle += (double)p->idle_ns;
	}
	/* uProf nests Work and Overhead under CPU Time, but they are wall time of the threads
	 * (a loaded or oversubscribed run has more of them than of CPU): side by side, each
	 * saying its clock, none a part of another */
	fprintf(f, ".. OPENMP SUMMARY\n");
	fprintf(f, ".. CPU Time(CPU seconds: timer samples),\"%.4f seconds\"\n", cpu);
	fprintf(f, ".. Work Time(wall seconds: summed over threads),\"%.4f seconds\"\n",
		work / 1e9);
	fprintf(f,
		".. Overhead Time(wall seconds: sync + fork/join + lock wait),\"%.4f seconds\"\n",
		(sync + over + lock) / 1e9);
	fprintf(f, ".... Other Overhead Time(wall seconds: fork/join),\"%.4f seconds\"\n",
		over / 1e9);
	fprintf(f, ".. Idle Time(wall seconds: worker threads outside regions),\"%.4f seconds\"\n",
		idle / 1e9);
}

static const char *mechanism(const struct rpt_omp_proc *p)
{
	return p->impl == SES_OMPT_IMPL_OMPLIB
		       ? "omplib: LLVM libomp standing in for GCC's libgomp (GOMP_* ABI), traced "
			 "through OMPT"
		       : "OMPT (the runtime's tool interface)";
}

static void write_overview(const struct rpt *r, const struct rpt_omp_proc *p, const char *who,
			   FILE *f)
{
	const struct ses_info *in = &r->info;
	double prof = in->end_mono_ns > in->start_mono_ns
			      ? (double)(in->end_mono_ns - in->start_mono_ns) / 1e9
			      : 0;
	double inside = (double)p->initial_in / 1e9, w, s, o, l;

	proc_totals(p, &w, &s, &o, &l);
	fprintf(f, "\nOpenMP OVERVIEW (%sPID-%d)\n", who, p->pid);
	fprintf(f, "Profile Time(seconds),%.2f\n", prof);
	fprintf(f, "Time Inside Parallel Region(seconds),%.2f\n", inside);
	fprintf(f, "Time Outside Parallel Region(seconds),%.2f\n",
		prof > inside ? prof - inside : 0);
	fprintf(f, "Parallel Region Time %%,%.2f\n", prof > 0 ? 100 * inside / prof : 0);
	fprintf(f, "Total threads created,%d\n", p->nthreads);
	/* CPU and wall time side by side, not one under the other (write_snapshot says why) */
	fprintf(f, "CPU Time(CPU seconds: timer samples),%.2f\n", (double)p->samples * period_s(r));
	fprintf(f, "Work Time(wall seconds: summed over threads),%.2f\n", w / 1e9);
	fprintf(f, "Overhead Time(wall seconds: sync + fork/join + lock wait),%.2f\n",
		(s + o + l) / 1e9);
	fprintf(f, ".. Other Overhead Time(wall seconds: fork/join),%.2f\n", o / 1e9);
	fprintf(f, "Idle Time(wall seconds: worker threads outside regions),%.2f\n",
		(double)p->idle_ns / 1e9);
	fprintf(f, "OpenMP Runtime,\"%s\"\n", p->has_runtime ? p->runtime : "unknown");
	fprintf(f, "OpenMP Version,%" PRIu64 "\n", p->omp_version);
	fprintf(f, "Tracing Mechanism,\"%s\"\n", mechanism(p));
	if (p->impl == SES_OMPT_IMPL_OMPLIB) /* what was measured is not what runs untraced */
		fprintf(f,
			"Runtime Substituted,\"the program ran on LLVM's libomp in place of GCC's "
			"libgomp: its OpenMP timings are libomp's, not libgomp's\"\n");
	fprintf(f, "Tracing Scope,\"%s\"\n", p->scope == SES_OMPT_SCOPE_FULL ? "full" : "basic");
	if (p->dropped || p->lost_records || p->lost_threads || p->lost_sites || p->unpaired ||
	    p->ignored)
		fprintf(f,
			"Records Lost,\"%" PRIu64 " dropped by the target's full ring, %" PRIu64
			" summary records not sent, %" PRIu64 " threads and %" PRIu64
			" site events past the tool's tables, %" PRIu64
			" unpaired region records, %" PRIu64 " values past the report's tables\"\n",
			p->dropped, p->lost_records, p->lost_threads, p->lost_sites, p->unpaired,
			p->ignored);
	rpt_omp_write_window(p, f);
}

static void region_row(const struct rpt *r, const struct rpt_omp_proc *p,
		       const struct rpt_omp_site *s, FILE *f)
{
	double w, y, o, n = s->nthreads ? s->nthreads : 1;
	uint64_t iterations;
	struct rpt_omp_imbalance im;
	char team[64];

	rpt_omp_split(s->f, &w, &y, &o);
	rpt_omp_imbalance(s, &im);
	rpt_omp_team_size(s, team, sizeof(team));
	fprintf(f, "\"%s\",%.6f,%.6f,%.6f,%.6f,%.6f,%s,", s->name,
		(double)s->f[SES_OMPT_F_IDLE] / 1e9 / n, y / 1e9 / n, o / 1e9 / n, w / 1e9 / n,
		(double)s->f[SES_OMPT_F_ELAPSED] / 1e9, team);
	/* the chunk size: OMPT 5.0's work callback does not give it (left empty) */
	fprintf(f, ",%s,%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%.6f,%.6f,",
		rpt_omp_region_schedule(s), s->f[SES_OMPT_F_REGIONS], im.wall, im.wall_cv,
		(double)s->f[SES_OMPT_F_LOCKWAIT] / 1e9, (double)s->f[SES_OMPT_F_TASKWAIT] / 1e9,
		s->f[SES_OMPT_F_TASKS], (double)s->f[SES_OMPT_F_TASK_TIME] / 1e9,
		(double)s->samples * period_s(r));
	/* its loops' iterations, summed over them and its instances */
	if (rpt_omp_region_iterations(s, &iterations))
		fprintf(f, "%" PRIu64 ",", iterations);
	else
		fprintf(f, ",");
	/* the CPU way, appended (the columns before keep their places): empty without a
	 * sample in the region (unknown, not balanced) */
	if (im.cpu_samples)
		fprintf(f, "%.6f,%.6f,", im.cpu, im.cpu_cv);
	else
		fprintf(f, ",,");
	/* nesting, appended after them */
	rpt_omp_write_nest_cells(p, s, f);
	fprintf(f, "\n");
}

static int cmp_team(const void *a, const void *b)
{
	const struct rpt_omp_tstat *x = a, *y = b;

	if (x->team_index != y->team_index)
		return x->team_index < y->team_index ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void thread_rows(const struct rpt *r, struct rpt_omp_site *s, const char *who, FILE *f)
{
	fprintf(f, "\nOpenMP THREAD METRIC (%s%s)\n", who, s->name);
	fprintf(f,
		"ThreadNum,ThreadId,Total Idle Time(seconds),Total Sync Time(seconds),"
		"Total Overhead Time(seconds),Total Work Time(seconds),Lock Wait Time(seconds),"
		"Taskwait Time(seconds),Implicit Tasks,CPU Time(seconds),Nested Time(seconds)\n");
	util_qsort(s->threads, (size_t)s->nthreads, sizeof(*s->threads), cmp_team);
	for (int k = 0; k < s->nthreads; k++) {
		const struct rpt_omp_tstat *t = &s->threads[k];
		double w, y, o;

		rpt_omp_split(t->f, &w, &y, &o);
		fprintf(f, "%u,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%.6f,%.6f\n",
			t->team_index, t->tid, 0.0, y / 1e9, o / 1e9, w / 1e9,
			(double)t->f[SES_OMPT_F_LOCKWAIT] / 1e9,
			(double)t->f[SES_OMPT_F_TASKWAIT] / 1e9, t->f[SES_OMPT_F_ITASKS],
			(double)t->samples * period_s(r), (double)t->f[SES_OMPT_F_NESTED] / 1e9);
	}
}

static void lock_rows(const struct rpt_omp_proc *p, const char *who, FILE *f)
{
	bool any = false;

	for (int i = 0; i < p->nsites; i++) {
		const struct rpt_omp_site *s = &p->sites[i];
		uint64_t n = s->f[SES_OMPT_F_ACQUIRES];

		if (is_region(s) || !n)
			continue;
		if (!any)
			fprintf(f,
				"\nOpenMP LOCK METRIC (%sPID-%d)\nLock Site,Acquires,Total Wait "
				"Time(seconds),Avg Wait Time(seconds),Threads\n",
				who, p->pid);
		any = true;
		fprintf(f, "\"%s\",%" PRIu64 ",%.6f,%.6f,%d\n", s->name, n,
			(double)s->f[SES_OMPT_F_ACQ_WAIT] / 1e9,
			(double)s->f[SES_OMPT_F_ACQ_WAIT] / 1e9 / (double)n, s->nthreads);
	}
}

void rpt_omp_write_report(const struct rpt *r, FILE *f)
{
	rpt_omp_write_report_of(r, NULL, f);
}

bool rpt_omp_traced(const struct rpt *r)
{
	return r->omp && r->omp->traced;
}

void rpt_omp_write_report_of(const struct rpt *r, const char *rank, FILE *f)
{
	char who[64] = "";

	if (!r->omp || !r->omp->traced)
		return;
	if (rank) /* a rank of a job: its name in every title, so each table is found as its */
		snprintf(who, sizeof(who), "%s ", rank);
	if (rank)
		fprintf(f, "\nOpenMP TRACING REPORT (%s)\n(Time/durations are in seconds.)\n",
			rank);
	else
		fprintf(f, "\nOpenMP TRACING REPORT\n(Time/durations are in seconds.)\n");
	/* an openmp/ file (or the directory) that could not be read: said before anything
	 * that would read as "nothing happened" */
	for (size_t i = 0; i < r->nfile_notes && i < RPT_FILE_NOTES; i++)
		if (!strncmp(r->file_notes[i].file, SES_OMPT_DIR "/", strlen(SES_OMPT_DIR) + 1))
			fprintf(f, "OpenMP File Not Read:,\"%s %s\"\n", r->file_notes[i].file,
				r->file_notes[i].why);
	if (!r->omp->nprocs && r->omp->files_bad) {
		fprintf(f, "No OpenMP data read:,\"%" PRIu64 " file%s of %s/ could not be "
			   "read (above)\"\n",
			r->omp->files_bad, r->omp->files_bad == 1 ? "" : "s", SES_OMPT_DIR);
		return;
	}
	if (!r->omp->nprocs) {
		fprintf(f, "No OpenMP runtime seen:,\"no process of the run started an OpenMP "
			   "runtime that loaded uprof's OMPT tool\"\n");
		if (r->omp->libgomp_seen)
			fprintf(f, "Hint:,\"the program uses GCC's libgomp, which has no OMPT "
				   "interface: collect again with --openmp-impl omplib\"\n");
		return;
	}
	for (int i = 0; i < r->omp->nprocs; i++) {
		struct rpt_omp_proc *p = &r->omp->procs[i];

		write_overview(r, p, who, f);
		fprintf(f, "\nOpenMP PARALLEL-REGION METRIC (%sPID-%d)\n", who, p->pid);
		fprintf(f,
			"Region,Avg Idle Time(seconds),Avg Sync Time(seconds),Avg Overhead "
			"Time(seconds),Avg Work Time(seconds),Total Elapsed Time(seconds),Thread "
			"Count,Loop Chunk Size,Schedule Type,Instances,Imbalance(max/avg-1 of wall "
			"Work),Work CV(wall),Lock Wait Time(seconds),Taskwait Time(seconds),Tasks "
			"Created,Task Time(seconds),CPU Time(seconds),Loop Iterations,CPU "
			"Imbalance(max/avg-1 of CPU time),CPU CV(CPU time),Avg Nested Time(seconds),Nest "
			"Level,Parent Region,\n");
		for (int k = 0; k < p->nsites; k++)
			if (is_region(&p->sites[k]))
				region_row(r, p, &p->sites[k], f);
		rpt_omp_write_loops(p, who, f);
		for (int k = 0; k < p->nsites; k++)
			if (is_region(&p->sites[k]))
				thread_rows(r, &p->sites[k], who, f);
		lock_rows(p, who, f);
		rpt_omp_write_waits(p, who, f);
		rpt_omp_write_hot(r, p, who, f);
		rpt_omp_write_target(p, f);
	}
}
