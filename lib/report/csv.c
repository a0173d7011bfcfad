// SPDX-License-Identifier: MIT
/*
 * report.csv in uProf's layout (docs/reference/uprof-cli.md §5.1): "Key:,"value"" header
 * lines, blank-line separated sections, quoted text cells, numbers with 4 decimals.
 * Our additions (pause duration, sampling honesty, damage) use the same key style.
 */
#include "report/internal.h"
#include "annotate/annotate.h"
#include "report/stacks.h"
#include "openmp/openmp.h"
#include "report/ostrace.h"
#include "metric/metric.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EVENT "\"CPU_TIME\" (seconds)"

/* ctime style, local time: "Tue Jun 10 10:33:24 2025". */
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

static double secs(const struct rpt *r, uint64_t samples)
{
	return (double)samples * rpt_sample_s(r);
}

/* The first event sorts everything. Sessions from -e or EBP configs (assess, ...) may
 * sample a PMC or software event first: then the timer's period, rate and seconds do not
 * apply, and values are event counts (samples x interval). */
static bool timer_first(const struct ses_info *in)
{
	return !in->nevents || ses_event_is_timer(&in->events[0]);
}

static const char *sort_event(const struct ses_info *in)
{
	return in->nevents ? in->events[0].name : "CPU_TIME";
}

static const char *session_type(const struct ses_info *in)
{
	if (!timer_first(in))
		return "Event-based Sampling";
	if (!strcmp(in->config, "tbp"))
		return "Time-based Sampling";
	if (!strcmp(in->config, "hotspots"))
		return "Hotspots";
	return in->label;
}

static void write_execution(const struct rpt *r, FILE *f)
{
	const struct ses_info *in = &r->info;

	fprintf(f, "\n\"uprof (Version:%s)\"\nPERFORMANCE ANALYSIS REPORT\n\nEXECUTION\n",
		UPROF_VERSION);
	util_csv_kv(f, "Target Path", in->target_path);
	util_csv_kv(f, "Command Line Arguments", in->target_args);
	util_csv_kv(f, "Working Directory", in->working_dir);
	fprintf(f, "Environment Variables:\n");
	util_csv_kvf(f, "CPU Details", "%s, Number of Cores(%d)", in->cpu_model, in->ncpus);
	util_csv_kvf(f, "Operating System", "%s Kernel:%s", in->os, in->kernel);
	util_csv_kv(f, "Collect Command", in->command);
	util_csv_kv(f, "Report Command",
		    r->opts.report_command ? r->opts.report_command : "uprof report");
}

/* The job report (job_csv.c) heads its report with a rank's EXECUTION block. */
void rpt_csv_execution(const struct rpt *r, FILE *f)
{
	write_execution(r, f);
}

/* uProf's two tables: the timer under TBP Events, every other event under PMC Events. */
static void write_events(const struct rpt *r, FILE *f)
{
	const struct ses_info *in = &r->info;
	bool timer = !in->nevents, pmc = false;

	for (int i = 0; i < in->nevents; i++)
		timer |= !strcmp(in->events[i].name, "CPU_TIME"),
			pmc |= strcmp(in->events[i].name, "CPU_TIME") != 0;
	if (timer) {
		fprintf(f, "TBP Events:,Name,Interval,Description\n");
		for (int i = 0; i < in->nevents || (!in->nevents && !i); i++) {
			if (in->nevents && strcmp(in->events[i].name, "CPU_TIME"))
				continue;
			fprintf(f,
				",\"CPU_TIME\",\"%.3f milliseconds\",\"CPU Time is the time in which "
				"the CPU core is executing the code.\"\n",
				in->nevents ? (double)in->events[i].period / 1e6 : 1.0);
		}
	}
	if (!pmc)
		return;
	fprintf(f, "PMC Events:,Name,Interval,Config,User,OS\n");
	for (int i = 0; i < in->nevents; i++) {
		const struct ses_event *e = &in->events[i];

		if (!strcmp(e->name, "CPU_TIME"))
			continue;
		fprintf(f, ",");
		util_csv_quoted(f, e->name);
		fprintf(f, ",%" PRIu64 ",0x%" PRIx64 ",%s,%s\n", e->period, e->config,
			e->exclude_user ? "False" : "True", e->exclude_kernel ? "False" : "True");
	}
}

/* -p / --time-filter, when given: what the report is limited to */
static void write_filters(const struct rpt *r, FILE *f, const struct rpt_summary *s)
{
	const struct rpt_options *o = &r->opts;

	if (o->nonly_pids) {
		fprintf(f, "Process Filter,\"");
		for (int i = 0; i < o->nonly_pids; i++)
			fprintf(f, "%s%d", i ? "," : "", o->only_pids[i]);
		fprintf(f, "\"\n");
	}
	if (o->time_filter) {
		char from[32] = "", to[32] = "";

		if (o->time_from_s >= 0)
			snprintf(from, sizeof(from), "%.3f", o->time_from_s);
		if (o->time_to_s >= 0)
			snprintf(to, sizeof(to), "%.3f", o->time_to_s);
		util_csv_kvf(f, "Time Filter", "%s:%s seconds after the profile start", from, to);
	}
	if (o->nonly_pids || o->time_filter)
		util_csv_kvf(f, "Samples Outside The Filter", "%" PRIu64 " not reported",
			     s->filtered_samples);
	if (o->ignore_system_module)
		util_csv_kvf(f, "System Modules Ignored",
			     "%" PRIu64 " samples in the kernel and system libraries (/lib, /usr/lib) "
			     "not reported",
			     r->system_samples);
	if (o->sort_by)
		util_csv_kvf(f, "Sort Event", "%s (--sort-by %s)", sort_event(&r->info),
			     o->sort_by->spec);
	if (o->show == RPT_SHOW_PERCENTAGE)
		util_csv_kv(f, "Values Shown", "percent of each event's total in this report");
	else if (o->show == RPT_SHOW_SAMPLE_COUNT)
		util_csv_kv(f, "Values Shown",
			    "samples (events counted by their own period: events)");
	else if (o->show == RPT_SHOW_EVENT_COUNT)
		util_csv_kv(f, "Values Shown", "event counts (samples x interval; CPU_TIME in ns)");
}

/* A row per sampled module whose file is gone or is another file now: its samples are
 * not symbolized, and the reader must know why. */
static void write_module_states(const struct rpt *r, FILE *f)
{
	for (int i = 0; i < r->world.nmodules; i++) {
		const struct rpt_module *m = &r->world.modules[i];
		enum rpt_file_state st;

		if (!m->samples)
			continue;
		st = rpt_symtab_file_state(r->symtab, m->path);
		if (st != RPT_FILE_MISSING && st != RPT_FILE_CHANGED)
			continue;
		fprintf(f, "%s:,", st == RPT_FILE_MISSING ? "Module Missing" : "Module Changed");
		util_csv_quoted(f, m->path);
		fprintf(f, ",\"%" PRIu64 " samples not symbolized: %s\"\n", m->samples,
			st == RPT_FILE_MISSING
				? "no such file now (deleted or moved since collection)"
				: "not the file profiled (build id or inode differs: rebuilt)");
	}
}

/* SAMPLING of a uprof session: the sort event, rates, counts, the target's exit. */
static void write_sampling(const struct rpt *r, FILE *f, const struct rpt_summary *sp,
			   bool all_paused)
{
	const struct ses_info *in = &r->info;
	const struct ses_event *ev = &in->events[0];
	const struct rpt_summary s = *sp;
	char cause[256];

	if (timer_first(in)) {
		util_csv_kvf(f, "Event Used", "cpu-clock (software timer, %s)",
			     ev->exclude_kernel ? "user mode only" : "user and kernel mode");
		util_csv_kvf(f, "Requested Sampling Rate", "%.1f Hz per busy CPU", s.requested_hz);
	} else {
		util_csv_kvf(f, "Event Used",
			     ev->weighted ? "%s (interval asked %" PRIu64 " events; each sample "
					    "counts the period the kernel recorded in it, %s)"
					  : "%s (one sample every %" PRIu64 " events, %s)",
			     ev->name, ev->period,
			     ev->exclude_kernel ? "user mode only"
			     : ev->exclude_user ? "kernel mode only"
						: "user and kernel mode");
	}
	/* 0 samples of a known CPU time is a rate of 0, not an unknown one */
	if (s.rate_damage)
		util_csv_kvf(f, "Achieved Sampling Rate",
			     "implausible (%.1f Hz): the session is damaged (see Data Damage)",
			     s.achieved_hz);
	else if (s.achieved_hz > 0 || (in->target_cpu_ns > 0 && !all_paused))
		util_csv_kvf(f, "Achieved Sampling Rate",
			     "%.1f Hz (samples per second of target %s%sCPU time)", s.achieved_hz,
			     s.rate_mode ? s.rate_mode : "", s.rate_mode ? "-mode " : "");
	else if (all_paused)
		util_csv_kv(f, "Achieved Sampling Rate", "none (paused for the whole run)");
	else
		util_csv_kv(f, "Achieved Sampling Rate", "unknown (target CPU time not recorded)");
	util_csv_kvf(f, "Samples", "%" PRIu64, s.sample_records);
	util_csv_kvf(f, "Lost Samples", "%" PRIu64, s.lost);
	if (s.throttles)
		util_csv_kvf(f, "Throttled",
			     "%" PRIu64 " times (the kernel stopped the timer for a while)",
			     s.throttles);
	if (s.time_scale > 1)
		util_csv_kvf(f, "CPU_TIME Per Sample",
			     "%.4f ms: the timer fired %.1fx less often than "
			     "asked (%s), so CPU_TIME is the target's measured CPU "
			     "time shared out over the samples",
			     s.period_s * s.time_scale * 1e3, s.time_scale,
			     rpt_rate_cause(r, cause, sizeof(cause)));
	if (in->not_profiled[0])
		util_csv_kv(f, "Target Not Profiled", in->not_profiled);
	if (in->exit_signal)
		util_csv_kvf(f, "Target Exit", "killed by signal %d (%s)", in->exit_signal,
			     sigabbrev_np(in->exit_signal) ? sigabbrev_np(in->exit_signal) : "?");
	else if (in->exit_code >= 0 && in->orphans > 0)
		util_csv_kvf(f, "Target Exit",
			     "exit status %d; it left %d process%s running, not profiled "
			     "after it exited",
			     in->exit_code, in->orphans, in->orphans > 1 ? "es" : "");
	else if (in->exit_code >= 0)
		util_csv_kvf(f, "Target Exit", "exit status %d", in->exit_code);
	else
		util_csv_kv(f, "Target Exit", "unknown (still running when collection ended)");
}

static void write_details(const struct rpt *r, FILE *f)
{
	const struct ses_info *in = &r->info;
	const struct ses_event *ev = &in->events[0];
	double run_ns = in->end_mono_ns > in->start_mono_ns
				? (double)(in->end_mono_ns - in->start_mono_ns)
				: 0.0;
	struct rpt_summary s;
	char start[64], end[64];
	bool all_paused;

	rpt_summary(r, &s);
	/* in whole ns: pause_s * 1e9 comes back a hair under the run for ~3 % of lengths,
	 * which made a never-resumed run "0.0 Hz" */
	all_paused = in->end_mono_ns > in->start_mono_ns &&
		     r->pause_total_ns >= in->end_mono_ns - in->start_mono_ns;
	ctime_ns(in->start_epoch_ns, start, sizeof(start));
	ctime_ns(in->end_epoch_ns, end, sizeof(end));
	fprintf(f, "\nPROFILE DETAILS\n");
	util_csv_kv(f, "Profile Session Type", session_type(in));
	util_csv_kv(f, "Profile Scope",
		    in->system_wide ? "System-wide"
		    : in->attached  ? "Attach Process"
				    : "Single Application");
	if (in->cpu_mask[0])
		util_csv_kv(f, "CPU Mask", in->cpu_mask);
	else
		util_csv_kvf(f, "CPU Mask", "0-%d", in->ncpus > 0 ? in->ncpus - 1 : 0);
	util_csv_kv(f, "Profile Start Time", start);
	util_csv_kv(f, "Profile End Time", end);
	util_csv_kvf(f, "Profile Duration", "%.3f seconds", run_ns / 1e9);
	util_csv_kvf(f, "Pause Duration", "%.3f seconds", s.pause_s);
	util_csv_kvf(f, "Number Of Pauses", "%zu", s.npauses);
	util_csv_kv(f, "Data Folder", r->dir);
	if (in->foreign)
		util_csv_kv(f, "Sampling Interval", "per event: see SAMPLING");
	else if (timer_first(in))
		util_csv_kvf(f, "Timer Interval", "%.3fms", s.period_s * 1e3);
	else
		util_csv_kvf(f, "Sampling Interval", "%" PRIu64 " events", ev->period);
	rpt_callgraph_write_details(r, f); /* "Call Stack Sampling" and how */
	if (r->opts.view) /* uProf writes its title; the name says which --view gave it */
		util_csv_kvf(f, "Selected View", "%s (%s)", r->opts.view->title,
			     r->opts.view->name);
	rpt_omp_write_details(r, f);
	util_csv_kv(f, "Session Status", ses_status_name(in->status));
	if (r->collect_killed)
		rpt_csv_killed_note(r, f);
	if (in->stop_signal > 0)
		util_csv_kvf(f, "Stopped By", "SIG%s%s",
			     sigabbrev_np(in->stop_signal) ? sigabbrev_np(in->stop_signal) : "?",
			     in->status == SES_STATUS_INTERRUPTED
				     ? ": collect got it before the end; the profile is cut short"
				     : ": the end of an attached or system-wide collection");
	else if (in->limit_data_reached)
		util_csv_kvf(f, "Stopped By",
			     "--limit-data %.4g MiB: samples.data reached it; the run went on "
			     "unprofiled",
			     (double)in->limit_data_bytes / (1 << 20));
	fprintf(f, "\nMONITORED EVENTS\n");
	if (in->foreign)
		rpt_foreign_csv_events(r, f);
	else
		write_events(r, f);
	fprintf(f, "\nSAMPLING\n");
	if (in->foreign)
		rpt_foreign_csv_sampling(r, f, &s);
	else
		write_sampling(r, f, &s, all_paused);
	if (s.damaged_at)
		util_csv_kvf(f, "Data Damage", "%s unreadable from offset %" PRIu64 ": %s",
			     in->foreign ? "the perf file" : "samples.data", s.damaged_at,
			     s.damage ? s.damage : "?");
	if (s.count_damage && s.counted_samples != s.file_samples)
		util_csv_kvf(f, "Data Damage",
			     "session.ini counted %" PRIu64 " samples, samples.data holds "
			     "%" PRIu64,
			     s.counted_samples, s.file_samples);
	if (s.count_damage && s.counted_lost != s.file_lost)
		util_csv_kvf(f, "Data Damage",
			     "session.ini counted %" PRIu64 " lost samples, samples.data "
			     "records %" PRIu64,
			     s.counted_lost, s.file_lost);
	if (s.rate_damage)
		util_csv_kvf(f, "Data Damage",
			     "%" PRIu64 " timer samples, more than the %" PRIu64 " that the CPUs "
			     "sampled could give in the run (one per period per CPU): the "
			     "session's times or counts are wrong",
			     s.rate_samples, s.rate_max_samples);
	if (s.count_damage && s.counted_pause_ns != s.file_pause_ns)
		util_csv_kvf(f, "Data Damage",
			     "session.ini counted %.6f s paused, pauses.csv holds %.6f s",
			     (double)s.counted_pause_ns / 1e9, (double)s.file_pause_ns / 1e9);
	if (s.unparsable)
		util_csv_kvf(f, "Malformed Records", "%" PRIu64 " skipped", s.unparsable);
	write_module_states(r, f);
	if (s.paused_samples)
		util_csv_kvf(f, "Samples In Pauses", "%" PRIu64 " dropped", s.paused_samples);
	if (s.tool_dropped)
		util_csv_kvf(f, "Samples Dropped By Tools",
			     "%" PRIu64 " not reported (--tool filter)", s.tool_dropped);
	if (s.unknown_rows || s.lost_pause_records)
		util_csv_kvf(f, "Pause State Unknown",
			     "%zu interval%s, %.3f s, %" PRIu64 " sample%s in them kept (%" PRIu64
			     " pause/resume records dropped by the target)",
			     s.unknown_rows, s.unknown_rows == 1 ? "" : "s", s.unknown_s,
			     s.unknown_samples, s.unknown_samples == 1 ? "" : "s",
			     s.lost_pause_records);
	write_filters(r, f, &s);
	if (s.pages_squatted || s.pages_refused || s.pages_not_followed)
		util_csv_kvf(f, "Instrumented Processes Not Read",
			     "%" PRIu64 " page name%s held by another user, %" PRIu64
			     " page%s refused, %" PRIu64 " process%s not followed (pids %s): "
			     "their tasks and pauses are missing",
			     s.pages_squatted, s.pages_squatted == 1 ? "" : "s", s.pages_refused,
			     s.pages_refused == 1 ? "" : "s", s.pages_not_followed,
			     s.pages_not_followed == 1 ? "" : "es", s.pages_pids);
	if (s.has_tasks) {
		util_csv_kvf(f, "Task Records", "%" PRIu64, s.task_records);
		util_csv_kvf(f, "Task Instances", "%" PRIu64, s.task_instances);
		util_csv_kvf(f, "Lost Task Records", "%" PRIu64, s.task_lost);
		if (s.task_malformed)
			util_csv_kvf(f, "Malformed Task Records", "%" PRIu64 " skipped",
				     s.task_malformed);
		for (size_t i = 0; i < s.nfile_notes && i < RPT_FILE_NOTES; i++)
			util_csv_kvf(f, "Task File Damage", "%s %s", s.file_notes[i].file,
				     s.file_notes[i].why);
		if (s.task_comma)
			util_csv_kvf(f, "Task Names With A Comma",
				     "%" PRIu64 " records skipped (first: %s)", s.task_comma,
				     s.task_comma_name);
		if (s.task_names_dropped || s.task_unnamed)
			util_csv_kvf(f, "Task Names Dropped",
				     "%" PRIu64
				     " names did not fit the string table (64 KiB per process); "
				     "%" PRIu64 " records without a name skipped",
				     s.task_names_dropped, s.task_unnamed);
	}
}

static void write_snapshot(const struct rpt *r, FILE *f)
{
	struct rpt_summary s;

	rpt_summary(r, &s);
	fprintf(f, "\n\nAPPLICATION PERFORMANCE SNAPSHOT\n");
	fprintf(f, "Number Of Processes,\"%d\"\n", s.nprocesses);
	fprintf(f, "Number Of Threads,\"%d\"\n", s.nthreads);
	if (timer_first(&r->info))
		fprintf(f, "Total CPU_TIME,\"%.*f seconds\"\n", rpt_value_digits(r), s.cpu_time_s);
	else
		fprintf(f, "Total %s,\"%.0f events\"\n", sort_event(&r->info),
			(double)s.samples * (double)ses_event_unit(&r->info.events[0]));
	rpt_omp_write_snapshot(r, f);
}

static void title(const struct rpt *r, FILE *f, const char *what)
{
	if (r->opts.cutoff > 0)
		fprintf(f, "\n\"%d HOTTEST %s (Sort Event - %s)\"\n", r->opts.cutoff, what,
			sort_event(&r->info));
	else
		fprintf(f, "\n\"ALL %s (Sort Event - %s)\"\n", what, sort_event(&r->info));
}

static int limit(const struct rpt *r, int n)
{
	return r->opts.cutoff > 0 && n > r->opts.cutoff ? r->opts.cutoff : n;
}

/* A section's column header: @lead, the value columns, @tail. */
static void header(const struct rpt *r, FILE *f, const char *lead, const char *tail)
{
	fputs(lead, f);
	rpt_events_header(r, f);
	fputs(tail, f);
	fputc('\n', f);
}

/* Rows: the name cell(s), then the values of (kind, owner, item). */
static void func_row(const struct rpt *r, FILE *f, int kind, uint32_t owner, int func,
		     uint64_t samples)
{
	util_csv_quoted(f, r->funcs[func].name);
	rpt_events_cells(r, f, kind, owner, (uint32_t)func, samples);
	fputc(',', f);
	util_csv_quoted(f, r->world.modules[r->funcs[func].module].path);
	fputc('\n', f);
}

static void named_row(const struct rpt *r, FILE *f, const char *name, int kind, uint32_t owner,
		      int item, uint64_t samples)
{
	util_csv_quoted(f, name);
	rpt_events_cells(r, f, kind, owner, (uint32_t)item, samples);
	fputc('\n', f);
}

static void thread_row(const struct rpt *r, FILE *f, int kind, uint32_t owner, int thread,
		       uint64_t samples)
{
	char name[96];

	(void)kind, (void)owner;
	rpt_thread_name(r, thread, name, sizeof(name));
	util_csv_quoted(f, name);
	fprintf(f, ",\"%d\"", r->world.threads[thread].tid);
	rpt_events_cells(r, f, RPT_K_THREAD, 0, (uint32_t)thread, samples);
	fputc('\n', f);
}

/* A program: its name as invoked, its processes, the values, its executable (two
 * programs of one name are told apart by it) */
static void program_row(const struct rpt *r, FILE *f, int kind, uint32_t owner, int prog,
			uint64_t samples)
{
	util_csv_quoted(f, r->programs[prog].name);
	fprintf(f, ",\"%d\"", r->programs[prog].nprocs);
	rpt_events_cells(r, f, kind, owner, (uint32_t)prog, samples);
	fputc(',', f);
	util_csv_quoted(f, rpt_program_path(r, prog));
	fputc('\n', f);
}

#define TASK_HEADER "DOMAIN,TASK,TASK COUNT,ELAPSED TIME(seconds)," EVENT "\n"

static void task_row(FILE *f, const char *domain, const char *name, uint64_t count, double elapsed,
		     double cpu)
{
	util_csv_quoted(f, domain);
	fputc(',', f);
	util_csv_quoted(f, name);
	fprintf(f, ",%" PRIu64 ",%.4f,%.4f\n", count, elapsed, cpu);
}

/* Task summary of one process or thread: (owner, item) entries of @h. */
static int write_task_summary(const struct rpt *r, FILE *f, const struct util_hash *h,
			      uint64_t owner)
{
	struct rpt_sorted *v;
	int n = 0;

	if (!r->has_tasks)
		return 0;
	v = malloc(sizeof(*v) * (h->n ? h->n : 1));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++)
		if (h->e[i].used && h->e[i].a == owner)
			v[n++] = (struct rpt_sorted){ (int)h->e[i].b, h->e[i].val };
	/* by CPU_TIME, then elapsed: val is an index into tstats */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			const struct rpt_task_stat *a = &r->tstats[v[j].samples - 1];
			const struct rpt_task_stat *b = &r->tstats[v[j - 1].samples - 1];
			struct rpt_sorted t;

			if (a->samples < b->samples ||
			    (a->samples == b->samples && a->elapsed_ns <= b->elapsed_ns))
				break;
			t = v[j], v[j] = v[j - 1], v[j - 1] = t;
		}
	fprintf(f, "\nTASK SUMMARY\n" TASK_HEADER);
	for (int i = 0; i < limit(r, n); i++) {
		const struct rpt_task_stat *st = &r->tstats[v[i].samples - 1];
		const struct rpt_task_item *it = &r->items[v[i].item];

		task_row(f, it->domain, it->name, st->count, (double)st->elapsed_ns / 1e9,
			 secs(r, st->samples));
	}
	free(v);
	return 0;
}

static int write_top(const struct rpt *r, FILE *f)
{
	struct rpt_row *rows;
	int n, max = r->opts.cutoff > 0 ? r->opts.cutoff : 1 << 30;
	int total = r->nfuncs + r->world.nprocs + r->world.nmodules + r->world.nthreads +
		    r->nprograms + 1;

	rows = malloc(sizeof(*rows) * (size_t)(total ? total : 1));
	if (!rows)
		return -ENOMEM;
	max = max < total ? max : total;
	title(r, f, "FUNCTIONS");
	header(r, f, "FUNCTION,", ",Module");
	n = rpt_rows(r, RPT_FUNCTIONS, rows, max);
	for (int i = 0; i < n; i++)
		func_row(r, f, RPT_K_FUNC, 0, rows[i].item, rows[i].samples);
	title(r, f, "PROCESSES");
	header(r, f, "PROCESS,", "");
	n = rpt_rows(r, RPT_PROCESSES, rows, max);
	for (int i = 0; i < n; i++)
		named_row(r, f, rows[i].name, RPT_K_PROC, 0, rows[i].item, rows[i].samples);
	if (rpt_programs_shown(r)) {
		title(r, f, "PROGRAMS");
		header(r, f, "PROGRAM,PROCESSES,", ",Path");
		n = rpt_rows(r, RPT_PROGRAMS, rows, max);
		for (int i = 0; i < n; i++)
			program_row(r, f, RPT_K_PROG, 0, rows[i].item, rows[i].samples);
	}
	title(r, f, "MODULES");
	header(r, f, "MODULE,", "");
	n = rpt_rows(r, RPT_MODULES, rows, max);
	for (int i = 0; i < n; i++)
		named_row(r, f, rows[i].name, RPT_K_MOD, 0, rows[i].item, rows[i].samples);
	title(r, f, "THREADS");
	header(r, f, "THREAD,THREAD ID,", "");
	n = rpt_rows(r, RPT_THREADS, rows, max);
	for (int i = 0; i < n; i++)
		thread_row(r, f, RPT_K_THREAD, 0, rows[i].item, rows[i].samples);
	free(rows);
	if (r->has_tasks) {
		rows = malloc(sizeof(*rows) * (size_t)(r->nitems ? r->nitems : 1));
		if (!rows)
			return -ENOMEM;
		title(r, f, "TASKS");
		fprintf(f, TASK_HEADER);
		n = rpt_rows(r, RPT_TASKS, rows, r->opts.cutoff > 0 ? r->opts.cutoff : r->nitems);
		for (int i = 0; i < n; i++)
			task_row(f, rows[i].module, rows[i].name, rows[i].count, rows[i].elapsed,
				 rows[i].seconds);
		free(rows);
	}
	return 0;
}

/* One block of "(owner, item) -> samples" rows from @h, printed by @row; @kind names
 * the further events' tally of the same rows. */
static int write_tally(const struct rpt *r, FILE *f, const struct util_hash *h, int owner, int kind,
		       void (*row)(const struct rpt *, FILE *, int, uint32_t, int, uint64_t))
{
	struct rpt_sorted *v;
	int n = rpt_collect(h, (uint64_t)owner, &v);

	if (n < 0)
		return n;
	for (int i = 0; i < limit(r, n); i++)
		row(r, f, kind, (uint32_t)owner, v[i].item, v[i].samples);
	free(v);
	return 0;
}

static void module_row(const struct rpt *r, FILE *f, int kind, uint32_t owner, int module,
		       uint64_t samples)
{
	named_row(r, f, r->world.modules[module].path, kind, owner, module, samples);
}

static int write_process_block(const struct rpt *r, FILE *f, int proc)
{
	const struct rpt_world *w = &r->world;
	struct rpt_sorted *v;
	char name[96];
	int n, k = 0;

	rpt_process_name(r, proc, name, sizeof(name));
	/* names are the target's (comm, thread names, paths): one line, valid UTF-8 */
	fputs("\n\nPROFILE REPORT FOR PROCESS - ", f);
	util_put_escaped(f, name, UTIL_ESC_TEXT);
	fputc('\n', f);
	header(r, f, "\nTHREAD SUMMARY\nTHREAD,THREAD ID,", "");
	v = malloc(sizeof(*v) * (size_t)(w->nthreads ? w->nthreads : 1));
	if (!v)
		return -ENOMEM;
	for (int t = 0; t < w->nthreads; t++)
		if (w->threads[t].pid == w->procs[proc].pid && w->threads[t].samples)
			v[k++] = (struct rpt_sorted){ t, w->threads[t].samples };
	for (int i = 0; i < k; i++) /* few threads per process: insertion sort is fine */
		for (int j = i; j > 0 && v[j].samples > v[j - 1].samples; j--) {
			struct rpt_sorted t = v[j];

			v[j] = v[j - 1], v[j - 1] = t;
		}
	for (int i = 0; i < limit(r, k); i++)
		thread_row(r, f, RPT_K_THREAD, 0, v[i].item, v[i].samples);
	free(v);
	header(r, f, "\nMODULE SUMMARY\nMODULE,", "");
	n = write_tally(r, f, &r->proc_module, proc, RPT_K_PROC_MOD, module_row);
	header(r, f, "\nFUNCTION SUMMARY\nFUNCTION,", ",Module");
	if (!n)
		n = write_tally(r, f, &r->proc_func, proc, RPT_K_PROC_FUNC, func_row);
	if (!n)
		n = write_task_summary(r, f, &r->proc_task, (uint32_t)w->procs[proc].pid);
	if (!n)
		n = rpt_callgraph_write_process(r, f, proc);
	return n;
}

static int write_thread_block(const struct rpt *r, FILE *f, int thread)
{
	char name[96];
	int n;

	rpt_thread_name(r, thread, name, sizeof(name));
	fputs("\n\nPROFILE REPORT FOR THREAD - ", f);
	util_put_escaped(f, name, UTIL_ESC_TEXT);
	fprintf(f, " (TID:%d)\n", r->world.threads[thread].tid);
	header(r, f, "\nMODULE SUMMARY\nMODULE,", "");
	n = write_tally(r, f, &r->thread_module, thread, RPT_K_THREAD_MOD, module_row);
	header(r, f, "\nFUNCTION SUMMARY\nFUNCTION,", ",Module");
	if (!n)
		n = write_tally(r, f, &r->thread_func, thread, RPT_K_THREAD_FUNC, func_row);
	if (!n)
		n = write_task_summary(r, f, &r->thread_task, r->world.threads[thread].tid);
	if (!n)
		n = rpt_callgraph_write_thread(r, f, thread);
	return n;
}

static int write_module_block(const struct rpt *r, FILE *f, int module)
{
	fputs("\n\nPROFILE REPORT FOR MODULE - ", f);
	util_put_escaped(f, r->world.modules[module].path, UTIL_ESC_TEXT);
	fputc('\n', f);
	header(r, f, "\nFUNCTION SUMMARY\nFUNCTION,", ",Module");
	return write_tally(r, f, &r->module_func, module, RPT_K_MOD_FUNC, func_row);
}

/* --group-by program: a program's processes, modules and functions, summed */
static int write_program_block(const struct rpt *r, FILE *f, int prog)
{
	const struct rpt_world *w = &r->world;
	struct rpt_sorted *v;
	int k = 0, n;

	fputs("\n\nPROFILE REPORT FOR PROGRAM - ", f);
	util_put_escaped(f, r->programs[prog].name, UTIL_ESC_TEXT);
	fprintf(f, " (%d process%s)\n", r->programs[prog].nprocs,
		r->programs[prog].nprocs == 1 ? "" : "es");
	header(r, f, "\nPROCESS SUMMARY\nPROCESS,", "");
	v = malloc(sizeof(*v) * (size_t)(w->nprocs ? w->nprocs : 1));
	if (!v)
		return -ENOMEM;
	for (int p = 0; p < w->nprocs; p++)
		if (w->procs[p].program == prog && w->procs[p].samples)
			v[k++] = (struct rpt_sorted){ p, w->procs[p].samples };
	util_qsort(v, (size_t)k, sizeof(*v), rpt_sorted_cmp);
	for (int i = 0; i < limit(r, k); i++) {
		char name[96];

		rpt_process_name(r, v[i].item, name, sizeof(name));
		named_row(r, f, name, RPT_K_PROC, 0, v[i].item, v[i].samples);
	}
	free(v);
	header(r, f, "\nMODULE SUMMARY\nMODULE,", "");
	n = write_tally(r, f, &r->prog_module, prog, RPT_K_PROG_MOD, module_row);
	header(r, f, "\nFUNCTION SUMMARY\nFUNCTION,", ",Module");
	if (!n)
		n = write_tally(r, f, &r->prog_func, prog, RPT_K_PROG_FUNC, func_row);
	return n;
}

static int write_detail(const struct rpt *r, FILE *f)
{
	enum rpt_section sec = r->opts.group_by == RPT_GROUP_THREAD    ? RPT_THREADS
			       : r->opts.group_by == RPT_GROUP_MODULE  ? RPT_MODULES
			       : r->opts.group_by == RPT_GROUP_PROGRAM ? RPT_PROGRAMS
								       : RPT_PROCESSES;
	int total = sec == RPT_THREADS	  ? r->world.nthreads
		    : sec == RPT_MODULES  ? r->world.nmodules
		    : sec == RPT_PROGRAMS ? r->nprograms
					  : r->world.nprocs;
	struct rpt_sorted *order = malloc(sizeof(*order) * (size_t)(total ? total : 1));
	int k = 0, ret = 0;

	if (!order)
		return -ENOMEM;
	for (int i = 0; i < total; i++) {
		uint64_t s = sec == RPT_THREADS	   ? r->world.threads[i].samples
			     : sec == RPT_MODULES  ? r->world.modules[i].samples
			     : sec == RPT_PROGRAMS ? r->programs[i].samples
						   : r->world.procs[i].samples;

		if (s)
			order[k++] = (struct rpt_sorted){ i, s };
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && order[j].samples > order[j - 1].samples; j--) {
			struct rpt_sorted t = order[j];

			order[j] = order[j - 1], order[j - 1] = t;
		}
	for (int i = 0; i < k && !ret; i++)
		ret = sec == RPT_THREADS    ? write_thread_block(r, f, order[i].item)
		      : sec == RPT_MODULES  ? write_module_block(r, f, order[i].item)
		      : sec == RPT_PROGRAMS ? write_program_block(r, f, order[i].item)
					    : write_process_block(r, f, order[i].item);
	free(order);
	return ret;
}

int rpt_write_csv(const struct rpt *r, FILE *f)
{
	bool cpu = rpt_category(&r->opts, RPT_CAT_CPU);
	int ret;

	write_execution(r, f);
	write_details(r, f);
	write_snapshot(r, f);
	ret = cpu ? write_top(r, f) : 0;
	if (!ret && cpu && r->opts.agg_interval)
		rpt_intervals_write(r, f);
	if (!ret && cpu)
		ret = rpt_callgraph_write_top(r, f);
	if (!ret && rpt_category(&r->opts, RPT_CAT_OPENMP))
		rpt_omp_write_report(r, f);
	if (!ret && rpt_category(&r->opts, RPT_CAT_OS))
		ret = rpt_os_write_csv(r, f);
	if (!ret && cpu && r->opts.detail)
		ret = write_detail(r, f);
	if (!ret && cpu && r->opts.annotate)
		ret = rpt_annot_write_csv(r, f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}
