// SPDX-License-Identifier: MIT
/* uprof report's terminal summary: what the report says about the session on stderr,
 * the hottest functions and programs on the table's stream. */
#include "cli/cli.h"
#include "cli/report_job.h"
#include "report/report.h"
#include "session/session.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAME_COLS 60 /* widest function column on the terminal */

/* The hottest programs (processes of one executable summed), under the functions: what
 * perf report --sort comm says, when it says more than the process table. */
static void print_programs(const struct rpt *r, const struct rpt_summary *s, FILE *table,
			   bool timer)
{
	const struct ses_event *ev0 = s->info->nevents ? &s->info->events[0] : NULL;
	struct rpt_row rows[10];
	int n = s->by_program ? rpt_rows(r, RPT_PROGRAMS, rows, 10) : 0, width = 7;

	for (int i = 0; i < n; i++)
		width = (int)strlen(rows[i].name) > width ? (int)strlen(rows[i].name) : width;
	width = width > NAME_COLS ? NAME_COLS : width;
	if (n)
		fprintf(table, "\n%12s %7s  %-*s %9s  %s\n", timer ? "CPU_TIME(s)" : "EVENTS", "%",
			width, "PROGRAM", "PROCESSES", "PATH");
	for (int i = 0; i < n; i++)
		fprintf(table,
			timer ? "%12.4f %6.2f%%  %-*.*s %9llu  %s\n"
			      : "%12.0f %6.2f%%  %-*.*s %9llu  %s\n",
			timer ? rows[i].seconds
			      : (double)rows[i].samples * (double)ses_event_unit(ev0),
			s->samples ? 100.0 * rows[i].samples / s->samples : 0.0, width, NAME_COLS,
			rows[i].name, (unsigned long long)rows[i].count, rows[i].module);
}

/* A function's name as the terminal shows it: cut in the middle past NAME_COLS, where a
 * C++ template's arguments are, so that both ends stay readable (@cut holds it). */
static const char *shown_name(const char *name, char cut[NAME_COLS + 1])
{
	size_t len = strlen(name), head = (NAME_COLS - 3) / 2, tail = NAME_COLS - 3 - head;

	if (len <= NAME_COLS)
		return name;
	snprintf(cut, NAME_COLS + 1, "%.*s...%s", (int)head, name, name + len - tail);
	return cut;
}

static const char *module_base(const struct rpt_row *row)
{
	const char *mod = strrchr(row->module, '/');

	return mod ? mod + 1 : row->module;
}

/* --view: the hottest functions in the view's columns (report.csv's ALL FUNCTIONS, as the
 * terminal has room for: its first column sorts, then the sort event's share), in place
 * of the CPU_TIME table. false without a view. */
static bool print_view(const struct rpt *r, const struct rpt_summary *s,
		       const struct rpt_row *rows, int n, int width, FILE *table)
{
	enum { MAXC = 32 };
	const char *names[MAXC], *title;
	bool is_event[MAXC];
	int nc = rpt_view_columns(r, &title, names, is_event, MAXC), w[MAXC];
	double v[MAXC];

	if (!nc)
		return false;
	fprintf(table, "View: %s\n", title);
	for (int c = 0; c < nc; c++) {
		w[c] = (int)strlen(names[c]) > 10 ? (int)strlen(names[c]) : 10;
		fprintf(table, "%*s ", w[c], names[c]);
		if (!c)
			fprintf(table, "%7s ", "%");
	}
	fprintf(table, " %-*s %s\n", width, "FUNCTION", "MODULE");
	for (int i = 0; i < n; i++) {
		char cut[NAME_COLS + 1];

		rpt_view_function_values(r, &rows[i], v);
		for (int c = 0; c < nc; c++) {
			if (!isfinite(v[c])) /* a formula undefined here (x/0): as report.csv's */
				fprintf(table, "%*s ", w[c], "-");
			else
				fprintf(table, is_event[c] && !c && s->info->nevents &&
							       ses_event_is_timer(&s->info->events[0])
						       ? "%*.4f "
					       : is_event[c] ? "%*.0f "
							     : "%*.4f ",
					w[c], v[c]);
			if (!c)
				fprintf(table, "%6.2f%% ",
					s->samples ? 100.0 * rows[i].samples / s->samples : 0.0);
		}
		fprintf(table, " %-*s %s\n", width, shown_name(rows[i].name, cut),
			module_base(&rows[i]));
	}
	return true;
}

/* A perf pipe file's status line: its events, and what their values are. */
/* --trace os: one line of what the OS trace found (report.csv has the tables). */
static void print_os_trace(const struct rpt *r)
{
	struct rpt_os_summary o;

	rpt_os_summary(r, &o);
	if (!o.traced)
		return;
	if (*o.note) {
		fprintf(stderr, "warning: %s\n", o.note);
		return;
	}
	fprintf(stderr,
		"OS trace: %llu system calls (%llu failed) in %llu threads; blocked %.3f s "
		"(sleep %.3f, I/O %.3f, lock %.3f, other %.3f)",
		(unsigned long long)o.calls, (unsigned long long)o.errors,
		(unsigned long long)o.threads,
		(double)(o.blocked_ns[0] + o.blocked_ns[1] + o.blocked_ns[2] + o.blocked_ns[3]) /
			1e9,
		(double)o.blocked_ns[0] / 1e9, (double)o.blocked_ns[1] / 1e9,
		(double)o.blocked_ns[2] / 1e9, (double)o.blocked_ns[3] / 1e9);
	if (*o.top_func)
		fprintf(stderr, "; longest off CPU: %s (%s) %.3f s", o.top_func, o.top_kind,
			(double)o.top_ns / 1e9);
	fprintf(stderr, "\n");
}

static void print_foreign(const struct rpt_summary *s, const char *head)
{
	const struct ses_info *in = s->info;

	fprintf(stderr, "%s (a perf pipe file): %llu samples (%llu lost) of ", head,
		(unsigned long long)s->kept_samples, (unsigned long long)s->lost);
	for (int i = 0; i < in->nevents; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", in->events[i].name);
	fprintf(stderr, "; %d process%s, %d thread%s\n", s->nprocesses,
		s->nprocesses == 1 ? "" : "es", s->nthreads, s->nthreads == 1 ? "" : "s");
	fprintf(stderr, "note: each sample is weighted by its period (its own where the file "
			"records one): CPU_TIME is the sum of the cpu-clock/task-clock samples' "
			"periods (ns), any other event the sum of its samples' periods (events)\n");
}

/* What the report says about the session (rate, damage, warnings) on stderr, then the ten
 * hottest functions on @table: stdout, so that `uprof report -i S | grep fn` finds them
 * (stderr when the CSV takes stdout). */
/* A rank of an MPI job traced with --trace mpi: its MPI lines, as the job's terminal
 * summary says them, and what is missing or partial in its MPI data. */
static void print_rank_mpi(const struct rpt *r)
{
	struct rpt_job_mpi_summary m;
	char why[256];

	if (rpt_dir_fd(r) < 0 || rpt_job_session_mpi(rpt_dir_fd(r), NULL, &m, why, sizeof(why)) ||
	    !m.traced)
		return;
	report_mpi_lines(&m);
	if (why[0])
		fprintf(stderr, "warning: MPI data: %s\n", why);
}

void report_summary(const struct rpt *r, const char *written, FILE *table)
{
	int width = 8; /* "FUNCTION" */
	struct rpt_summary s;
	struct rpt_stack_summary cs;
	struct rpt_row rows[10];
	const struct ses_event *ev0;
	char cause[256];
	const char *head;
	char headbuf[64];
	bool timer;
	int n;

	rpt_summary(r, &s);
	/* a complete session whose files do not hold what collect wrote is not "complete" */
	head = s.info->status != SES_STATUS_COMPLETE		 ? "Session INTERRUPTED"
	       : s.damaged_at || s.count_damage || s.rate_damage ? "Session DAMAGED"
								 : "Session complete";
	/* and by what, where collect recorded the signal that cut it short */
	if (s.info->status == SES_STATUS_INTERRUPTED && s.info->stop_signal > 0) {
		const char *abbrev = sigabbrev_np(s.info->stop_signal);

		snprintf(headbuf, sizeof(headbuf), "Session INTERRUPTED by SIG%s",
			 abbrev ? abbrev : "?");
		head = headbuf;
	}
	ev0 = s.info->nevents ? &s.info->events[0] : NULL;
	timer = !ev0 || ses_event_is_timer(ev0);
	if (written)
		fprintf(stderr, "Generated report file: %s\n", written);
	if (s.info->foreign)
		print_foreign(&s, head);
	else if (timer)
		fprintf(stderr,
			"%s: %llu samples (%llu lost) of CPU_TIME every %.3f ms; %.1f Hz "
			"%s of %.1f Hz requested; %d process%s, %d thread%s\n",
			head, (unsigned long long)s.sample_records, (unsigned long long)s.lost,
			s.period_s * 1e3, s.achieved_hz,
			s.rate_damage ? "(implausible: damage)" : "achieved", s.requested_hz,
			s.nprocesses, s.nprocesses == 1 ? "" : "es", s.nthreads,
			s.nthreads == 1 ? "" : "s");
	else /* a PMC or software event sorts: its interval is in events, not ms; each
	      * sample counts the period the kernel gave it (rpt_events_weigh) */
		fprintf(stderr,
			"%s: %llu samples (%llu lost) of %s, %.0f events (interval asked %llu, "
			"each sample counts its own period); %d process%s, %d thread%s\n",
			head, (unsigned long long)s.sample_records, (unsigned long long)s.lost,
			ev0->name, (double)s.samples * (double)ses_event_unit(ev0),
			(unsigned long long)ev0->period, s.nprocesses,
			s.nprocesses == 1 ? "" : "es", s.nthreads, s.nthreads == 1 ? "" : "s");
	if (s.collect_killed)
		fprintf(stderr, "note: %s\n", rpt_killed_words(&s, cause, sizeof(cause)));
	/* CPU_TIME made right from the measured CPU time, and why it had to be */
	if (timer && s.time_scale > 1)
		fprintf(stderr,
			"note: the timer fired %.1fx less often than asked (%.1f Hz of %.1f "
			"Hz: %s); CPU_TIME is the target's measured CPU time shared out over "
			"the samples, %.4f ms each\n",
			s.time_scale, s.achieved_hz, s.requested_hz,
			rpt_rate_cause(r, cause, sizeof(cause)), s.period_s * s.time_scale * 1e3);
	if (timer && s.throttles)
		fprintf(stderr,
			"note: throttled %llu times: the kernel stopped the timer for a while "
			"(perf_event_max_sample_rate)\n",
			(unsigned long long)s.throttles);
	print_rank_mpi(r);
	rpt_stack_summary(r, &cs);
	if (cs.collected)
		fprintf(stderr,
			"Call stacks: %llu distinct; %llu truncated, %llu could not be unwound "
			"to the end\n",
			(unsigned long long)cs.stacks, (unsigned long long)cs.truncated,
			(unsigned long long)cs.unwind_failed);
	if (cs.leaf_note)
		fprintf(stderr, "note: %s\n", cs.leaf_note);
	if (cs.early)
		fprintf(stderr,
			"note: %.0f %% of the -g stacks end early (frame pointers missing in "
			"%s): use --call-graph dwarf\n",
			cs.early_pct, cs.early_module);
	if (s.damaged_at)
		fprintf(stderr,
			"warning: %s is damaged from offset %llu (%s); "
			"reported what comes before\n",
			s.info->foreign ? "the perf file" : "samples.data",
			(unsigned long long)s.damaged_at, s.damage);
	if (s.count_damage && s.counted_samples != s.file_samples)
		fprintf(stderr,
			"warning: damaged: session.ini counted %llu samples, samples.data "
			"holds %llu%s\n",
			(unsigned long long)s.counted_samples, (unsigned long long)s.file_samples,
			s.counted_samples > s.file_samples ? " (cut short or truncated?)" : "");
	if (s.count_damage && s.counted_lost != s.file_lost)
		fprintf(stderr,
			"warning: damaged: session.ini counted %llu lost samples, "
			"samples.data records %llu\n",
			(unsigned long long)s.counted_lost, (unsigned long long)s.file_lost);
	if (s.rate_damage)
		fprintf(stderr,
			"warning: damaged: %llu timer samples, more than the %llu that the "
			"CPUs sampled could give in the run (one per period per CPU); the "
			"achieved rate is not a rate\n",
			(unsigned long long)s.rate_samples, (unsigned long long)s.rate_max_samples);
	if (s.count_damage && s.counted_pause_ns != s.file_pause_ns)
		fprintf(stderr,
			"warning: damaged: session.ini counted %.6f s paused, pauses.csv "
			"holds %.6f s\n",
			(double)s.counted_pause_ns / 1e9, (double)s.file_pause_ns / 1e9);
	for (size_t i = 0; i < s.nfile_notes && i < RPT_FILE_NOTES; i++)
		fprintf(stderr, "warning: %s %s\n", s.file_notes[i].file, s.file_notes[i].why);
	if (s.nfile_notes > RPT_FILE_NOTES)
		fprintf(stderr,
			"warning: and %zu more files of %s/ could not be used (see "
			"report.csv's Malformed Task Records)\n",
			s.nfile_notes - RPT_FILE_NOTES, SES_TASKS_DIR);
	if (s.missing_modules)
		fprintf(stderr,
			"warning: %d profiled file%s gone since collection (deleted or "
			"moved), %llu samples not symbolized: %s%s\n",
			s.missing_modules, s.missing_modules == 1 ? " is" : "s are",
			(unsigned long long)s.missing_samples, s.missing_module,
			s.missing_modules > 1 ? " and others (see report.csv)" : "");
	if (s.changed_modules)
		fprintf(stderr,
			"warning: %d profiled file%s been replaced since collection "
			"(build id or inode differs: rebuilt?), %llu samples not "
			"symbolized: %s%s\n",
			s.changed_modules, s.changed_modules == 1 ? " has" : "s have",
			(unsigned long long)s.changed_samples, s.changed_module,
			s.changed_modules > 1 ? " and others (see report.csv)" : "");
	if (s.cache_modules)
		fprintf(stderr,
			"note: %d profiled file%s gone or replaced since collection %s read "
			"from the build-id cache: %s%s\n",
			s.cache_modules, s.cache_modules == 1 ? "" : "s",
			s.cache_modules == 1 ? "was" : "were", s.cache_module,
			s.cache_modules > 1 ? " and others" : "");
	if (s.bin_path_modules)
		fprintf(stderr,
			"note: %d profiled file%s gone or replaced since collection %s "
			"found under --bin-path: %s%s\n",
			s.bin_path_modules, s.bin_path_modules == 1 ? "" : "s",
			s.bin_path_modules == 1 ? "was" : "were", s.bin_path_module,
			s.bin_path_modules > 1 ? " and others" : "");
	if (s.info->not_profiled[0])
		fprintf(stderr, "warning: the program was not profiled: %s\n",
			s.info->not_profiled);
	if (s.info->orphans > 0)
		fprintf(stderr,
			"warning: the target left %d process%s running when it exited; "
			"not profiled after that\n",
			s.info->orphans, s.info->orphans > 1 ? "es" : "");
	if (s.task_comma)
		fprintf(stderr,
			"warning: %llu task/event records skipped: names may not contain a "
			"comma (first: \"%s\")\n",
			(unsigned long long)s.task_comma, s.task_comma_name);
	if (s.tool_dropped)
		fprintf(stderr, "Dropped by the tools' sample filters: %llu samples not reported\n",
			(unsigned long long)s.tool_dropped);
	if (s.filtered)
		fprintf(stderr,
			"Filtered (-p/--time-filter): %llu samples reported, %llu outside "
			"the filter not reported\n",
			(unsigned long long)s.sample_records,
			(unsigned long long)s.filtered_samples);
	if (s.task_names_dropped || s.task_unnamed)
		fprintf(stderr,
			"warning: %llu task/event names did not fit the targets' string "
			"tables (64 KiB per process); %llu records without a name skipped "
			"(create each name's handle once)\n",
			(unsigned long long)s.task_names_dropped,
			(unsigned long long)s.task_unnamed);
	if (s.pages_squatted || s.pages_refused || s.pages_not_followed)
		fprintf(stderr,
			"warning: instrumented processes not read: %llu page name%s held by "
			"another user, %llu page%s refused, %llu process%s not followed (pids "
			"%s); their tasks and pauses are missing\n",
			(unsigned long long)s.pages_squatted, s.pages_squatted == 1 ? "" : "s",
			(unsigned long long)s.pages_refused, s.pages_refused == 1 ? "" : "s",
			(unsigned long long)s.pages_not_followed,
			s.pages_not_followed == 1 ? "" : "es", s.pages_pids);
	if (s.task_lost)
		fprintf(stderr,
			"warning: the targets dropped %llu task records (ring full); "
			"task counts and times are incomplete\n",
			(unsigned long long)s.task_lost);
	print_os_trace(r);
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 10);
	if (!n) {
		fprintf(table, "No samples to display.\n"); /* in place of the table */
		return;
	}
	/* the name column fits the names, up to NAME_COLS; longer ones (C++ templates) are
	 * cut in the middle, where the arguments are, so that both ends stay readable */
	for (int i = 0; i < n; i++)
		width = (int)strlen(rows[i].name) > width ? (int)strlen(rows[i].name) : width;
	width = width > NAME_COLS ? NAME_COLS : width;
	fprintf(stderr, "\n"); /* sets the table off from the status lines, and goes with them */
	if (print_view(r, &s, rows, n, width, table))
		return;
	fprintf(table, "%12s %7s  %-*s %s\n", timer ? "CPU_TIME(s)" : "EVENTS", "%", width,
		"FUNCTION", "MODULE");
	for (int i = 0; i < n; i++) {
		char cut[NAME_COLS + 1];

		fprintf(table, timer ? "%12.4f %6.2f%%  %-*s %s\n" : "%12.0f %6.2f%%  %-*s %s\n",
			timer ? rows[i].seconds
			      : (double)rows[i].samples * (double)ses_event_unit(ev0),
			s.samples ? 100.0 * rows[i].samples / s.samples : 0.0, width,
			shown_name(rows[i].name, cut), module_base(&rows[i]));
	}
	print_programs(r, &s, table, timer);
}
