/* SPDX-License-Identifier: MIT */
/*
 * lib/report: from a session directory to numbers and report.csv.
 *
 *   rpt_open()        read session.ini and samples.data (through lib/session), rebuild
 *                     processes, threads and mappings, symbolize, aggregate
 *   rpt_write_csv()   report.csv in uProf's layout
 *   rpt_rows()        the hottest rows of a section, for the terminal
 *   rpt_free()
 *
 * Nothing here prints; problems found in the data (a cut file, lost samples) are
 * reported through rpt_summary() and written into the CSV header.
 */
#ifndef UPROF_REPORT_H
#define UPROF_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "annotate/annotate.h"
#include "session/session.h"

enum rpt_group { RPT_GROUP_PROCESS, RPT_GROUP_THREAD, RPT_GROUP_MODULE, RPT_GROUP_PROGRAM };

/* How report.csv shows the hottest tables' values (rpt_options.show). */
enum rpt_show {
	RPT_SHOW_VALUE,	       /* CPU_TIME seconds, event counts (samples x interval) */
	RPT_SHOW_PERCENTAGE,   /* percent of the event's total in the report */
	RPT_SHOW_SAMPLE_COUNT, /* samples */
	RPT_SHOW_EVENT_COUNT,  /* event counts, the timer's too (samples x period, in ns) */
};

/* How far rpt_open() is (rpt_options.progress). */
#define RPT_PROGRESS_EVERY 1024
struct rpt_progress {
	int pass;	     /* 1: reading samples.data, 2: counting its records in time order */
	uint64_t records;    /* records read (pass 1) or counted (pass 2) so far */
	uint64_t of_records; /* pass 2: records to count; 0 in pass 1 */
	uint64_t bytes;	     /* pass 1: bytes of samples.data read, of @of_bytes */
	uint64_t of_bytes;
};

struct mtr_view; /* lib/metric's view configurations */

struct rpt_options {
	int cutoff; /* rows per hottest-X section; 0 = all */
	/* --funccount-interval: --func's calls per slice of this many ns too (0: none) */
	uint64_t funccount_interval_ns;
	/* functions per OpenMP region and state, and per late thread; 0 = all */
	int openmp_top;
	int mpi_top; /* MPI call sites per table and per rank of a job (--mpi-top); 0 = all */
	bool detail; /* per-process (or --group-by) sections */
	enum rpt_group group_by;
	const char *kallsyms;	    /* NULL = /proc/kallsyms */
	const char *report_command; /* shown in the header */
	/* -p: only these processes (borrowed; 0 = all) */
	const int *only_pids;
	int nonly_pids;
	/* --time-filter: only samples from @time_from_s to @time_to_s seconds after the
	 * profile start (a negative bound is open); task instances are clipped to it */
	bool time_filter;
	double time_from_s, time_to_s;
	/* rpt_stacks_ready() will be called (lib/export's rpt_export()): keep each sample's
	 * time, thread and stack for the trace's sample tracks (16 bytes a sample, at most
	 * RPT_TIMELINE_MAX of them: below), which report.csv alone needs only with tasks */
	bool exports;
	/* with @exports: no trace is written (folded stacks and flame graphs need only the
	 * stacks' counts), so no sample is kept for one */
	bool no_timeline;
	/* rpt_walk() will be called: keep every sample's time, cpu, event and stack in time
	 * order (40 bytes a sample) */
	bool walk;
	/* keep the OpenMP slices of a --trace openmp session (rpt_omp_thread_slice_at ...)
	 * without a trace's timeline: the tool API's openmp_region */
	bool omp_slices;
	/* samples tools dropped (tool API 1.2's filter_sample): bit i of @drop for the i-th
	 * sample a walk gives (opts.walk's order), @ndrop bits; NULL: none (borrowed) */
	const uint8_t *drop;
	size_t ndrop;
	/* where files moved or rebuilt since collection are found (locate.h): --bin-path
	 * and --symbol-path directories, the build-id cache (NULL: none); all borrowed */
	const char *const *bin_paths;
	int nbin_paths;
	const char *const *symbol_paths;
	int nsymbol_paths;
	const char *buildid_dir;
	/* --src-path: kept for a source view (nothing in the report reads source text) */
	const char *const *src_paths;
	int nsrc_paths;
	/* Function Detail Data (rpt_annots(), report.csv's section of that name): built for
	 * the functions named in @functions (borrowed; matched whole, or as the name before
	 * its "(" argument list), or with none named for the hottest @cutoff ones */
	bool annotate;
	/* the same details for an export (report.html's Source/assembly page) without
	 * report.csv's section: the RPT_ANNOT_EXPORT_FUNCS hottest (or @functions) */
	bool annotate_export;
	bool disasm_only; /* assembly only: no source lines */
	bool att;	  /* AT&T syntax (default Intel, as uProf's) */
	const char *const *functions;
	int nfunctions;
	/* called every RPT_PROGRESS_EVERY records while rpt_open() reads samples.data and
	 * then counts its records, for a progress line the caller draws (NULL: never) */
	void (*progress)(void *arg, const struct rpt_progress *p);
	void *progress_arg;
	/* SESSION/translated.bin (uprof translate): used when it still matches, unless
	 * @retranslate, which ignores it and keeps every unwind for rpt_translated_write();
	 * @translate_only: rpt_open() stops once the samples are read (no tables: only
	 * rpt_translated_write() and rpt_free() may follow) */
	bool retranslate;
	bool translate_only;
	/* module symbols and kallsyms shared with other reports (a job's ranks: lib/job), by
	 * the session's host (borrowed, outlives the report; NULL: read for this one only) */
	struct rpt_symshare *symshare;
	/* the leaf steps' CFI rows, shared the same way (lib/unwind/unwind_share.c) */
	struct rpt_unwind_share *unwindshare;
	/* --category: the RPT_CAT_* bits of the domains whose sections report.csv holds; 0
	 * for all (the header, details and snapshot are always written) */
	unsigned categories;
	/* -s/--sort-by: the session event that sorts every table and drives every tally (the
	 * report's sort event: events[0] of the info rpt_summary gives, the others after it
	 * in the session's order); NULL: the session's first event (borrowed) */
	const struct rpt_sort_key *sort_by;
	/* --view: report.csv's hottest tables show this view's columns (lib/metric views.c),
	 * in its order, sorted by its first (an event the session must have; not with
	 * @sort_by); NULL: every event's column, then the session's metrics (borrowed) */
	const struct mtr_view *view;
	/* --show-percentage / --show-sample-count / --show-event-count: what report.csv's
	 * value cells of the hottest tables hold (RPT_SHOW_VALUE: CPU_TIME seconds, or
	 * event counts, as uProf's default) */
	enum rpt_show show;
	/* --agg-interval: report.csv gets SAMPLES PER INTERVAL, each event's samples per
	 * @agg_interval_ns of the run from the profile start (<= 0: the whole run, one row) */
	bool agg_interval;
	int64_t agg_interval_ns;
	/* where bucket 0 begins, CLOCK_MONOTONIC ns; 0: the profile start. A job's ranks get
	 * the job's time line origin on their own clock, so that their buckets line up */
	int64_t agg_origin_ns;
	/* --ignore-system-module: samples in the kernel, [vdso] and system libraries (/lib,
	 * /usr/lib, ...) are left out of every section, counted in the header */
	bool ignore_system_module;
	/* --inline: a sample in code inlined into a function counts for the inlined function
	 * (the innermost, from the module's DWARF), as a row of its own */
	bool inline_funcs;
};

/* report.csv's domains (--category) */
enum {
	RPT_CAT_CPU = 1u << 0,	  /* the hottest tables, call graphs, --detail, function data */
	RPT_CAT_MPI = 1u << 1,	  /* MPI TRACING REPORT (a rank's; a job's MPI sections) */
	RPT_CAT_OPENMP = 1u << 2, /* the OpenMP sections */
	RPT_CAT_OS = 1u << 3,	  /* the OS tracing sections */
};

/* Whether @o's report holds the sections of domain @cat (an RPT_CAT_* bit). */
static inline bool rpt_category(const struct rpt_options *o, unsigned cat)
{
	return !o->categories || (o->categories & cat);
}

struct rpt;
struct rpt_unwind_share;

/* Where rpt_find_sort_event() looks. */
struct rpt_sort_key {
	enum rpt_sort_kind {
		RPT_SORT_TIMER,	    /* event=timer: the CPU_TIME event */
		RPT_SORT_IBS_OP,    /* event=ibs-op */
		RPT_SORT_IBS_FETCH, /* event=ibs-fetch */
		RPT_SORT_EVENT,	    /* any other: the perf type and config it encodes to */
	} kind;
	uint32_t type;
	uint64_t config;
	/* user= or os= was given: the event's modes must match too (else any event of that
	 * type and config, the first of them) */
	bool modes;
	bool exclude_user, exclude_kernel;
	char spec[96]; /* as the user gave it, for the message */
};

/* The index in @in->events of the event @k names, or -ENOKEY when @in has none. */
int rpt_find_sort_event(const struct ses_info *in, const struct rpt_sort_key *k);

/*
 * Load @dir (borrowed). -ENOENT if it is not a session directory, -EINVAL/-EPROTO for a
 * broken session.ini or samples.data header; @err names the file and what is wrong.
 * A samples.data cut short is not an error: what was written is reported.
 * @dir may also be a perf pipe file (perf record -o -, perf inject -o -): a foreign
 * session, its facts synthesized from the file (foreign.c; -EPROTO for a perf.data in
 * file mode, -EOPNOTSUPP for one of zstd-compressed records (perf record -z), -EINVAL
 * for any other file, -SES_ENOTREG for a FIFO or device). -ENOKEY: @opts->sort_by names
 * an event the session does not have (@err names the session's events).
 */
int rpt_open(struct rpt **out, const char *dir, const struct rpt_options *opts, char *err,
	     size_t errlen);
/* The same on the session directory fd @dfd, opened once by the caller (util_dir_open: the
 * user's path, followed as named) and borrowed: every file of the session is read, and
 * translated.bin written, beneath it with no symlink followed (docs/DESIGN.md §4); @dir
 * only names it in messages and the report. @dfd -1: @dir is a perf pipe file. rpt_open
 * opens @dir once and calls this. */
int rpt_open_at(struct rpt **out, int dfd, const char *dir, const struct rpt_options *opts,
		char *err, size_t errlen);
void rpt_free(struct rpt *r);
/* The session directory's fd @r reads beneath (its own, open until rpt_free), or -1 for a
 * perf pipe file: what code working on @r's session (a tool's files) opens beneath too,
 * never the path again. */
int rpt_dir_fd(const struct rpt *r);

/* ---- translated.bin (translated_cache.c) ---- */

/* Write @r's unwinds (opts.retranslate) to SESSION/translated.bin: 0600, whole or not at
 * all (a temp file renamed into place). 0 or -errno with @err. */
int rpt_translated_write(struct rpt *r, char *err, size_t errlen);
/* Why translated.bin was there and not used (damaged, stale: one line), or NULL. */
const char *rpt_translated_note(const struct rpt *r);
struct rpt_translated_stats {
	bool used;	       /* translated.bin's unwinds were used */
	uint64_t stacks;       /* stacks it holds (or that rpt_translated_write writes) */
	uint64_t hits, misses; /* samples found in it, and unwound here instead */
};
void rpt_translated_stats(const struct rpt *r, struct rpt_translated_stats *out);
/* Is translated.bin of the session directory fd @dfd up to date for @opts? 0 (yes), 1
 * (no), with one line in @why either way; -ENOMEM. */
int rpt_translated_check(int dfd, const struct rpt_options *opts, char *why, size_t len);

/* A file of the session that could not be used, or only in part (instrument/ files:
 * the rest of the session still reports). */
#define RPT_FILE_NOTES 8 /* kept; all are counted */
struct rpt_file_note {
	char file[64]; /* relative to the session: "instrument/123.tasks" */
	char why[192]; /* "is a FIFO, not a regular file; its tasks are not reported" */
};

struct rpt_summary {
	const struct ses_info *info; /* owned by the report */
	uint64_t samples;	     /* the sort event's, in tally units (ses_event_unit) */
	uint64_t sample_records;     /* the sort event's samples kept (@samples: 1 unit each
				      * but where each counts its own period) */
	uint64_t lost;		     /* from PERF_RECORD_LOST records */
	uint64_t damaged_at;	     /* offset where samples.data became unreadable, 0 = none */
	const char *damage;	     /* why, or NULL */
	uint64_t unparsable;	     /* records skipped as malformed */
	/* session.ini's final counts differ from what samples.data holds (a file cut at a
	 * record boundary reads cleanly: only the counts tell); false when they agree or
	 * session.ini has no final count (collect was killed) */
	bool count_damage;
	/* more timer samples (@rate_samples: kept and filtered out) than the CPUs
	 * sampled could give in the run (@rate_max_samples): the achieved rate is damage */
	bool rate_damage;
	uint64_t rate_samples, rate_max_samples;
	uint64_t counted_samples, file_samples;	 /* session.ini's samples, SAMPLE records */
	uint64_t counted_lost, file_lost;	 /* session.ini's lost, LOST records' sum */
	int64_t counted_pause_ns, file_pause_ns; /* session.ini's pause total, pauses.csv's */
	double period_s;			 /* timer period */
	double cpu_time_s;			 /* sum of CPU_TIME */
	double requested_hz, achieved_hz; /* achieved: samples per second of target CPU time */
	const char *rate_mode;		  /* the CPU time achieved_hz divides by: "user",
					 * "system", NULL (both) */
	uint64_t throttles;		  /* THROTTLE records in samples.data */
	/* CPU_TIME per sample over the timer period: 1, or more when the timer fired much
	 * less often than asked (throttled, or an interval below what a sample costs) and
	 * CPU_TIME is the measured target CPU time shared out over the samples */
	double time_scale;
	bool interrupted; /* collect did not finish (killed) */
	/* session.ini was left running by a collect that is gone (killed by SIGKILL): the
	 * profile's end is its last sample (info->end_mono_ns, set by the report) */
	bool collect_killed;
	int nprocesses, nthreads;
	double pause_s;		     /* paused time, merged over all processes */
	size_t npauses;		     /* rows of pauses.csv */
	uint64_t paused_samples;     /* samples dropped because they fell in a pause */
	size_t unknown_rows;	     /* pauses.csv's "unknown" rows (dropped pause records) */
	double unknown_s;	     /* their time, merged */
	uint64_t unknown_samples;    /* samples in them: kept in the tables */
	uint64_t lost_pause_records; /* session.ini: pause records the targets dropped */
	bool filtered;		     /* -p or --time-filter was given */
	uint64_t filtered_samples;   /* samples outside them */
	uint64_t tool_dropped;	     /* samples a tool's filter_sample dropped (opts.drop) */
	bool has_tasks;		     /* the session has instrument/ records */
	uint64_t task_records;	     /* task/event records read from instrument/ */
	uint64_t task_instances;     /* matched task and event instances */
	uint64_t task_lost;	     /* records the targets' full rings dropped */
	uint64_t task_malformed;     /* records or files that could not be used */
	uint64_t task_comma;	     /* records refused for a comma in a name */
	const char *task_comma_name; /* the first such name */
	uint64_t task_names_dropped; /* names that did not fit a target's string table */
	uint64_t task_unnamed;	     /* records left out for want of such a name */
	/* session.ini [pages]: instrumented processes whose tasks and pauses are missing */
	uint64_t pages_squatted;     /* their page name held by another user */
	uint64_t pages_refused;	     /* their page not read (link, size, layout...) */
	uint64_t pages_not_followed; /* their page or files not kept (descriptors, memory) */
	const char *pages_pids;	     /* the first of them, "," between */
	/* instrument/ files skipped or read only in part: @nfile_notes in all, the first
	 * RPT_FILE_NOTES of them at @file_notes (owned by the report) */
	size_t nfile_notes;
	const struct rpt_file_note *file_notes;
	/* sampled module files that are gone, or another file now (rebuilt), so their
	 * samples could not be symbolized; the module with the most samples is named */
	int missing_modules, changed_modules;
	const char *missing_module, *changed_module;
	uint64_t missing_samples, changed_samples;
	/* sampled modules read from elsewhere than their recorded path (gone or rebuilt
	 * there): from the build-id cache, from a --bin-path directory; the one with the most
	 * samples of each is named */
	int cache_modules, bin_path_modules;
	const char *cache_module, *bin_path_module;
	/* programs (the processes of one executable, as invoked, summed) with samples; the
	 * view by program is in report.csv and on the terminal when it says more than the
	 * process table (2 programs or more, fewer than the processes) or --group-by program */
	int nprograms;
	bool by_program;
	/* sample records of every event in the tables (@samples: the sort event's, in units
	 * of its period: the sum of their periods in a foreign file's weighted events) */
	uint64_t kept_samples;
};

void rpt_summary(const struct rpt *r, struct rpt_summary *s);
/* "collect was killed: data up to <time> (...)" for a summary whose collect_killed is
 * set, else ""; into @buf (@len bytes), returned. */
const char *rpt_killed_words(const struct rpt_summary *s, char *buf, size_t len);

/* Why the timer fired less often than asked (time_scale > 1), from what was measured:
 * throttled, samples lost, a target running in bursts or a sample costing more than the
 * interval, with the numbers; into @buf (@len bytes), returned. */
const char *rpt_rate_cause(const struct rpt *r, char *buf, size_t len);

/* The pids of the session's processes (from side-band records and samples), at most
 * @max of them in @pids; returns how many there are in all. */
int rpt_process_ids(const struct rpt *r, int *pids, int max);

enum rpt_section {
	RPT_FUNCTIONS,
	RPT_PROCESSES,
	RPT_MODULES,
	RPT_THREADS,
	RPT_TASKS,
	RPT_PROGRAMS
};

struct rpt_row {
	const char *name;   /* function, "comm (PID:n)", module path, thread name,
				 * program name */
	const char *module; /* functions only; the domain for tasks; a program's
				 * executable ("" when unknown) */
	int id;		    /* pid or tid where it applies */
	double seconds;	    /* CPU_TIME */
	uint64_t samples;
	uint64_t count; /* tasks: instances; programs: processes */
	int item;	/* the report's index of the function/process/module/thread */
	double elapsed; /* tasks: seconds */
	char buf[96];	/* holds name where it is built (processes, threads) */
};

/* The hottest @max rows of @sec, largest first. Returns how many; names borrowed from
 * the report (or the row's own buf). */
int rpt_rows(const struct rpt *r, enum rpt_section sec, struct rpt_row *rows, int max);
/* --view on the terminal: the view's title (report.csv's Selected View) and columns (their
 * names, and whether each is an event rather than a formula), at most @max; 0 without a
 * view. A row of rpt_rows(RPT_FUNCTIONS) in them, into @out (one value a column; room for
 * 32, a view's most): an event's value as report.csv's (CPU_TIME seconds, event counts), a
 * formula's (NaN where undefined: x/0). */
int rpt_view_columns(const struct rpt *r, const char **title, const char **names,
		     bool *is_event, int max);
void rpt_view_function_values(const struct rpt *r, const struct rpt_row *row, double *out);

/* Write report.csv to @f. 0 or -errno. */
int rpt_write_csv(const struct rpt *r, FILE *f);
/* The same with @cutoff rows per hottest section (0: all) instead of opts.cutoff: the
 * HTML report's longer tables (csv_cutoff.c). 0 or -errno. */
int rpt_write_csv_cutoff(const struct rpt *r, int cutoff, FILE *f);

/* ---- Function Detail Data (annotate.c): where inside a function the samples fell, per
 * source line and per instruction ---- */

struct rpt_annot {
	const char *function, *module;	    /* borrowed from the report */
	uint64_t samples;		    /* the function's, every thread and process */
	uint64_t start, end;		    /* its code, link-time addresses; 0, 0: unknown */
	const struct rpt_annot_line *lines; /* source order (file, line) */
	size_t nlines;
	const struct rpt_annot_insn *insns; /* address order */
	size_t ninsns;
	const size_t *hottest; /* indices of lines, most samples first */
	/* what is missing, and why (NULL: nothing): no line table for its addresses (no
	 * DWARF: stripped, or built without -g); source files not found (the first is
	 * named); no disassembly (module file unreadable, no disassembler) */
	const char *no_source, *no_text, *no_disasm;
};

/* The details rpt_open() built (opts.annotate): hottest function first. Returns how many
 * and points *@out at them (owned by @r). */
int rpt_annots(const struct rpt *r, const struct rpt_annot **out);
#define RPT_ANNOT_EXPORT_FUNCS 10
/* Names in opts.functions that no sampled function matched: how many; *@names (owned by
 * @r) lists them. */
int rpt_annot_unmatched(const struct rpt *r, const char *const **names);

/* ---- the call stacks, read-only, as lib/export (export/export.h) writes them into
 * folded stacks, a flame graph and a trace (stacks_view.c). Every session has them: a
 * sample without a stack counts as a stack of its one function. ---- */

/* Ready @r's stacks for reading: functions with the inline chains DWARF names (looked up
 * the first time: the CSV of a session without stacks or tasks had no need for them),
 * the kept samples in (tid, time) order. Every accessor below needs it first.
 * 0, -EINVAL (opened without opts.exports) or -errno. */
int rpt_stacks_ready(struct rpt *r);

/* What the accessors range over, and the session facts an export names. */
struct rpt_stacks_facts {
	const char *dir;	     /* the session directory, or the perf file */
	const struct ses_info *info; /* owned by the report */
	uint64_t samples;	     /* samples read from samples.data */
	bool collected;		     /* the session has call stacks */
	size_t nstacks;		     /* symbolized stacks: rpt_stack_at() */
	size_t nsamples;	     /* kept samples, by (tid, time): rpt_stack_sample_at() */
	size_t nspans;		     /* task and event instances: rpt_task_span_at() */
	size_t npauses;		     /* paused intervals, merged: rpt_pause_at() */
	int nprocs;		     /* processes: rpt_process_at() */
	bool timeline;		     /* samples are kept (not opened with opts.no_timeline) */
	/* the kept samples are every @stride-th of the session's in time order (1: all),
	 * @left_out of them are not: a session without tasks keeps at most
	 * RPT_TIMELINE_MAX, so that a report's memory does not grow with its samples */
	uint64_t stride, left_out;
};
/* Kept samples of a session without tasks, at most: past it, every other one goes (and
 * every other one of those that come) until they fit. 16 MiB; a trace of 175 MB. */
#define RPT_TIMELINE_MAX (1u << 20)
void rpt_stacks_facts(const struct rpt *r, struct rpt_stacks_facts *out);

/* A symbolized stack: equal stacks of one process, merged. */
struct rpt_stack_view {
	uint32_t proc; /* rpt_process_at() */
	uint32_t nfuncs;
	const uint32_t *funcs; /* leaf first: rpt_stack_func() (borrowed) */
	uint64_t count;	       /* samples; 0: none left of it */
};
void rpt_stack_at(const struct rpt *r, size_t i, struct rpt_stack_view *out);

/* A function of the stacks. Markers are "[truncated]" and "[unwind failed]"; a kernel
 * function is of module [kernel.kallsyms] (an inlined one is RPT_FN_INLINED). */
enum rpt_fn_kind { RPT_FN_FUNCTION, RPT_FN_INLINED, RPT_FN_MARK, RPT_FN_KERNEL };
struct rpt_stack_fn {
	const char *name;   /* display name ("b (inlined)"), interned: one pointer per name */
	const char *module; /* its module's path; "" for markers */
	enum rpt_fn_kind kind;
};
void rpt_stack_func(const struct rpt *r, uint32_t fn, struct rpt_stack_fn *out);

/* A kept sample. */
struct rpt_stack_sample {
	uint64_t time;
	uint32_t tid;
	uint32_t stack; /* rpt_stack_at() */
};
void rpt_stack_sample_at(const struct rpt *r, size_t i, struct rpt_stack_sample *out);

/* A matched task or event instance (domain "User": an event). */
struct rpt_task_span_view {
	uint64_t begin, end;
	uint32_t pid, tid;
	const char *domain, *name; /* borrowed */
};
void rpt_task_span_at(const struct rpt *r, size_t i, struct rpt_task_span_view *out);

struct rpt_process_view {
	int pid;
	const char *comm; /* borrowed */
	uint64_t samples;
};
void rpt_process_at(const struct rpt *r, int proc, struct rpt_process_view *out);

struct rpt_thread_view {
	int tid, pid;
	const char *comm;
	const char *name; /* its full name set through ITT, or NULL */
	bool renamed;	  /* comm set by prctl/pthread_setname_np, not inherited */
};
/* Thread @tid: false when the session never saw it. */
bool rpt_thread_of(const struct rpt *r, uint32_t tid, struct rpt_thread_view *out);

/* Paused interval @i, in the samples' clock (ns). */
void rpt_pause_at(const struct rpt *r, size_t i, int64_t *from, int64_t *to);

/* --agg-interval's time buckets (lib/report/intervals.c), for the exports' timelines:
 * bucket b is [start + b * step, start + (b + 1) * step) of the profile start (a sample
 * at or before the start in bucket 0; a step of 0: the whole run, one bucket). Each kept
 * sample's units (samples, or events of a weighted event) of each session event go to
 * its thread's bucket, so the cells of an event sum to its SAMPLES PER INTERVAL column
 * of report.csv (the tables' totals), exactly; samples past RPT_INTERVALS_MAX buckets
 * are in no cell (counted in @past). Event 0 is the sort event (ses_info order). */
struct rpt_agg_facts {
	bool on;	  /* opened with opts.agg_interval */
	int64_t step_ns;  /* 0: the whole run */
	int64_t start_ns; /* bucket 0's start: the profile start, or opts.agg_origin_ns */
	int64_t end_ns;	  /* the profile end, else past the last sample; 0: unknown */
	size_t nbuckets;  /* up to the last sampled one */
	size_t ncells;	  /* rpt_agg_cell_at */
	int nevents;	  /* the session's events (1 for a session without) */
	uint64_t past;	  /* units past the last bucket */
};
void rpt_agg_facts(const struct rpt *r, struct rpt_agg_facts *out);
/* One (thread, bucket, event) with units, in (pid, tid, bucket, event) order. */
struct rpt_agg_cell {
	uint32_t pid, tid;
	uint32_t bucket;
	uint32_t ev;
	uint64_t units;
};
void rpt_agg_cell_at(const struct rpt *r, size_t i, struct rpt_agg_cell *out);

/* Call-stack facts for the terminal summary. */
struct rpt_stack_summary {
	bool collected;		  /* the session has call stacks */
	uint64_t stacks;	  /* distinct stacks */
	uint64_t truncated;	  /* samples whose stack ends in [truncated] */
	uint64_t unwind_failed;	  /* ... in [unwind failed] */
	uint64_t leaf_fixed;	  /* fp samples whose frameless leaf got its caller back */
	uint64_t leaf_fp;	  /* ... whose leaf had its frame (the walk was right) */
	uint64_t leaf_unknown;	  /* ... whose leaf's CFI could not tell */
	const char *leaf_note;	  /* NULL, or why leafstack.data was not (fully) used */
	bool early;		  /* RPT_EARLY_PCT % or more fp stacks end early: */
	double early_pct;	  /* their share, */
	const char *early_module; /* and the module most of them end in (borrowed) */
};
void rpt_stack_summary(const struct rpt *r, struct rpt_stack_summary *s);

/* ---- a walk over the report model, in this order: processes, threads, modules, task
 * instances, pauses, then samples in time order (lib/tool drives tools with it). Names
 * are borrowed from the report. ---- */

struct rpt_walk_process {
	int pid;
	const char *comm, *program; /* program: its executable, "" when unknown */
	uint64_t samples;
};

struct rpt_walk_thread {
	int pid, tid;
	const char *name; /* as report.csv names it */
	uint64_t samples;
};

struct rpt_walk_module {
	int id;
	const char *path;
	uint64_t samples;
};

struct rpt_walk_sample {
	uint64_t time, ip, offset; /* offset: ip in its module file (the kernel: ip) */
	int pid, tid, cpu;	   /* cpu -1: unknown */
	int event, module;
	uint64_t units; /* what it adds to its event's tallies: 1, or its own period where
			 * the event counts each sample's (ses_event_unit) */
	const char *function, *module_path;
	size_t index; /* for rpt_walk_source() and rpt_walk_stack() */
};

struct rpt_walk_task {
	int pid, tid;
	const char *domain, *name;
	uint64_t begin, end, samples;
};

/* Callbacks return 0 or -errno (which ends the walk); NULL ones are skipped. */
struct rpt_walker {
	void *ctx;
	int (*process)(void *ctx, const struct rpt_walk_process *p);
	int (*thread)(void *ctx, const struct rpt_walk_thread *t);
	int (*module)(void *ctx, const struct rpt_walk_module *m);
	int (*sample)(void *ctx, const struct rpt_walk_sample *s);
	int (*task)(void *ctx, const struct rpt_walk_task *t);
	int (*pause)(void *ctx, int64_t from, int64_t to);
};

/* Walk @r (opened with opts.walk for samples; without it there are none). 0, -ENOMEM or
 * a callback's -errno. Not const: names of samples are looked up as the walk goes. */
int rpt_walk(struct rpt *r, const struct rpt_walker *w);
/* Source file and line of walked sample @index from DWARF: 0, or -ENOENT (no line
 * known). *@file is borrowed from the report. */
int rpt_walk_source(struct rpt *r, size_t index, const char **file, int *line);
/* Call stack of walked sample @index, leaf first: up to @max function names (and module
 * paths, @mods may be NULL). The count, or -errno. */
int rpt_walk_stack(struct rpt *r, size_t index, const char **funcs, const char **mods, int max);
/* The same, frame by frame with what each is: @name as report.csv shows it ("b
 * (inlined)", "[truncated]"), @base its function's own name, @module its module's path
 * ("" for markers), @kind (rpt_stack_func()'s). */
struct rpt_walk_frame {
	const char *name, *base, *module;
	enum rpt_fn_kind kind;
};
int rpt_walk_frames(struct rpt *r, size_t index, struct rpt_walk_frame *out, int max);
/* What an export of the walk names beside the samples (walk.c). The path of module
 * @module ("" out of range); whether it is the unknown module (addresses outside every
 * mapping); its build id in hex into @hex ("" when none was recorded). */
const char *rpt_module_path(const struct rpt *r, int module);
bool rpt_module_is_unknown(const struct rpt *r, int module);
void rpt_module_build_id(const struct rpt *r, int module, char *hex, size_t len);
/* The session has call stacks (rpt_walk_stack gives more than the sampled function). */
bool rpt_stacks_collected(const struct rpt *r);
/* The session's events: how many, their names, and what a sample of @units (struct
 * rpt_walk_sample) stands for in the event's own unit: ns for the timers, events else. */
int rpt_event_count(const struct rpt *r);
const char *rpt_event_name(const struct rpt *r, int event);
uint64_t rpt_event_period(const struct rpt *r, int event, uint64_t units);
/* Whether event @event is a timer (its samples stand for CPU time in ns). */
bool rpt_event_is_timer(const struct rpt *r, int event);

/* ---- code_place.c: code addresses of a process, named ---- */

struct rpt_code_place {
	bool mapped;	  /* a mapping of the process held the address */
	char func[256];	  /* the function the source has it in, else its symbol; "unknown" */
	char file[256];	  /* the source file's base name, "" when no line is known */
	int line;	  /* 0: not known */
	char module[256]; /* the module's base name ("" unmapped) */
	uint64_t offset;  /* in the module's file */
};

/* Where each of @n code addresses @addrs of process @pid (while the session ran) is, into
 * @out[n]: its module, function and DWARF file:line. Give a return address less one: the
 * call instruction's own line. 0 or -ENOMEM (an address not found is !mapped). */
int rpt_code_places(struct rpt *r, int pid, const uint64_t *addrs, size_t n,
		    struct rpt_code_place *out);
/* What names @addr of process @pid: its module file (path, and build id or device and
 * inode) and offset, as a string into @key: equal keys are the same code, in another
 * process too, so a caller may keep one rpt_code_places() answer per key. 0, or -ENOENT
 * (no mapping of @pid holds it). */
int rpt_code_key(struct rpt *r, int pid, uint64_t addr, char *key, size_t len);

/* ---- --trace os (ostrace_csv.c): the terminal's summary of the OS trace ---- */
struct rpt_os_summary {
	bool traced;	  /* the session has an OS trace */
	const char *note; /* "" or why it could not be read (borrowed from the report) */
	uint64_t threads, calls, errors;
	uint64_t blocked_ns[4]; /* sleep, I/O, lock, other (lib/ostrace's wait kinds) */
	char top_func[128];	/* the function of the longest off-CPU stack ("" none) */
	const char *top_kind;	/* its wait kind */
	uint64_t top_ns;
};
void rpt_os_summary(const struct rpt *r, struct rpt_os_summary *out);
/* Its threads' states over time are kept when opened with opts.exports, at most
 * RPT_OS_SPANS_MAX (32 bytes each): read by rpt_os_span_count()/rpt_os_span_at() below
 * (the one reader, for trace.json and report.html); the spans past that bound are
 * counted there (their time is in THREAD STATES still). */
#define RPT_OS_SPANS_MAX (1u << 20)

/* ---- --trace os (ostrace_view.c): off-CPU time by stack, for the wall-clock exports ---- */
struct rpt_offcpu_view {
	int pid, tid;
	uint32_t proc;	    /* rpt_process_at(); UINT32_MAX: a process the report does not know */
	uint32_t sym;	    /* its stack: rpt_stack_at(); UINT32_MAX: none recorded */
	const char *wait;   /* "sleep", "I/O", "lock", "other" (static) */
	uint64_t ns, count; /* switch-out to switch-in, summed; spans */
};
/* Off-CPU entries of the session's OS trace (0: none traced). */
size_t rpt_os_offcpu_count(const struct rpt *r);
void rpt_os_offcpu_at(const struct rpt *r, size_t i, struct rpt_offcpu_view *out);
/* Each thread's states and system calls over time (a trace's slices), in the order they
 * ended; *@left_out: those past what the report keeps (the earliest are). */
enum rpt_os_span_kind { RPT_OS_RUNNING, RPT_OS_RUNNABLE, RPT_OS_BLOCKED, RPT_OS_CALL };
struct rpt_os_span_view {
	int pid, tid;
	uint64_t begin, end;
	enum rpt_os_span_kind kind;
	const char *wait; /* a blocked span's: "sleep", "I/O", "lock", "other" (static) */
	char call[32];	  /* a call's name ("read", "syscall_<nr>") */
	int64_t ret;	  /* a call's result */
};
size_t rpt_os_span_count(const struct rpt *r, uint64_t *left_out);
void rpt_os_span_at(const struct rpt *r, size_t i, struct rpt_os_span_view *out);
/* Nanoseconds of CPU time one sample of the sort event stands for (the timer period
 * times what the timer missed, as report.csv's CPU_TIME counts it); 0 when the sort
 * event is not CPU_TIME (its samples are not time). */
uint64_t rpt_sample_ns(const struct rpt *r);
/* The OS trace's rows for the tool API (ostrace_tool.c), borrowed from @r: each thread's
 * states (report.csv's THREAD STATES) and each thread's system calls (SYSTEM CALLS BY
 * THREAD), in the model's order; 0 rows for a session without an OS trace. */
struct ost_thread;
struct ost_call_stat;
size_t rpt_os_threads(const struct rpt *r, const struct ost_thread **out);
size_t rpt_os_calls(const struct rpt *r, const struct ost_call_stat **out);

/* ---- compare (compare.c): two sessions side by side, for uprof compare ---- */

enum rpt_cmp_kind { RPT_CMP_FUNCTION, RPT_CMP_MODULE, RPT_CMP_PROGRAM };

/* One row of a session going into a comparison: a function (@name in @module), a module
 * (@name, @module NULL) or a program (@name, its processes summed; @module NULL). */
struct rpt_cmp_in {
	const char *name, *module; /* borrowed */
	double value;		   /* CPU_TIME seconds, or event counts */
};

/* A row of the comparison: @a from the baseline, @b from the other session. */
struct rpt_cmp_row {
	enum rpt_cmp_kind kind;
	const char *name, *module; /* borrowed from the inputs */
	double a, b;
	double delta; /* b - a */
	double ratio; /* b / a; INFINITY when a is 0 (only in b) */
};

/* Match @a's rows (@na) with @b's (@nb) by name and module and append one row per key
 * present in either to @rows (grown with realloc, *@n rows, *@cap allocated), each of
 * kind @kind. Rows of equal key within one input are summed. 0 or -ENOMEM (what was
 * appended stays, owned by the caller). */
int rpt_compare_rows(enum rpt_cmp_kind kind, const struct rpt_cmp_in *a, size_t na,
		     const struct rpt_cmp_in *b, size_t nb, struct rpt_cmp_row **rows, size_t *n,
		     size_t *cap);
/* Sort @rows by the largest absolute delta first (ties: kind, then name, module). */
void rpt_compare_sort(struct rpt_cmp_row *rows, size_t n);

#define RPT_CMP_NOTES 8 /* kept; all are counted */
struct rpt_compare {
	struct rpt_cmp_row *rows; /* largest change first; names borrowed from the reports */
	size_t nrows;
	char unit[96]; /* "\"CPU_TIME\" (seconds)" or "\"<event>\" (events)", @a's */
	/* where the sessions differ so that their figures do not compare one to one: the
	 * sort event, its sampling period, a module's build id; @nnotes in all */
	char notes[RPT_CMP_NOTES][256];
	int nnotes;
};

/* Compare report @b with the baseline @a (both borrowed, and they must outlive @out):
 * every function, module and program with samples in either. 0 or -ENOMEM. */
int rpt_compare(const struct rpt *a, const struct rpt *b, struct rpt_compare *out);
void rpt_compare_release(struct rpt_compare *c);
/* The comparison as CSV: a header block (the sessions' unit and notes), then
 * KIND,NAME,MODULE,A,B,DELTA,RATIO rows. 0 or -errno. */
int rpt_compare_write_csv(const struct rpt_compare *c, const char *dir_a, const char *dir_b,
			  FILE *f);

/* ---- what lib/job reads of each rank's report ---- */

/* The most rows rpt_rows() can give for any section of @r. */
int rpt_rows_max(const struct rpt *r);
/* report.csv's EXECUTION block of @r (the job report's head). */
void rpt_csv_execution(const struct rpt *r, FILE *f);
/* Was the session traced with --trace openmp (an OpenMP TRACING REPORT to write)? */
bool rpt_omp_traced(const struct rpt *r);
/* The OpenMP TRACING REPORT of a rank of a job: @rank ("RANK-2") in the report's title
 * and in each table's, "(RANK-2 PID-123)"; NULL: as report.csv has it. */
void rpt_omp_write_report_of(const struct rpt *r, const char *rank, FILE *f);

/* ---- OpenMP slices for a trace (openmp_trace.c): what the OMPT tool recorded of a
 * --trace openmp session, paired into intervals on the samples' clock (CLOCK_MONOTONIC
 * ns), kept with opts.exports (and a timeline). ---- */

enum rpt_omp_slice_kind {
	RPT_OMP_SLICE_REGION = 1, /* a thread's implicit task of a parallel region */
	RPT_OMP_SLICE_WAIT,	  /* a wait (--openmp-scope full): how = SES_OMPT_WAIT_* */
	RPT_OMP_SLICE_TARGET,	  /* a target construct on the host: how = SES_OMPT_TGT_* */
	RPT_OMP_SLICE_DATA,	  /* a data op: how = SES_OMPT_DATA_*, @bytes */
	RPT_OMP_SLICE_SUBMIT,	  /* a kernel submit: @count = the teams asked for */
	RPT_OMP_SLICE_DEVICE,	  /* a device trace record: how = SES_OMPT_DEVREC_*, @bytes */
};

struct rpt_omp_slice_view {
	uint64_t begin, end;
	int pid;
	uint32_t tid; /* the host thread (0 for a device trace record) */
	int device;   /* target, data, submit and device slices: the device's number */
	enum rpt_omp_slice_kind kind;
	uint16_t how;
	uint16_t depth;	 /* region: its nesting level on the thread, 0 outermost */
	uint32_t member; /* region: the thread's number in the team */
	uint64_t count;	 /* submit: teams asked for; device kernel: teams granted */
	uint64_t bytes;	 /* data op */
	/* the construct's row name in report.csv ("" when its site is not known), and what
	 * the slice is: "implicit barrier", "to device", ... (both borrowed from @r) */
	const char *site, *what;
};

struct rpt_omp_trace_facts {
	bool kept;	    /* the session was traced and its slices kept (opts.exports) */
	size_t nthread;	    /* region and wait slices, by (tid, begin): rpt_omp_thread_slice_at */
	size_t ndevice;	    /* target, data, submit and device slices, by (pid, device, begin) */
	uint64_t left_out;  /* slices past RPT_OMP_SLICES_MAX: not kept */
	uint64_t left_from; /* the earliest begin of those (ns) */
	uint64_t unpaired;  /* a begin never ended, an end without its begin */
	int full, basic;    /* processes traced with --openmp-scope full, basic */
	uint64_t tasks;	    /* explicit tasks the tool counted (no record of each: none shown) */
};
/* Slices kept per report at most: the earliest, so the trace is whole up to a time. */
#define RPT_OMP_SLICES_MAX (1u << 20)
void rpt_omp_trace_facts(const struct rpt *r, struct rpt_omp_trace_facts *out);
void rpt_omp_thread_slice_at(const struct rpt *r, size_t i, struct rpt_omp_slice_view *out);
void rpt_omp_device_slice_at(const struct rpt *r, size_t i, struct rpt_omp_slice_view *out);

#endif
