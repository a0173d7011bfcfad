/* SPDX-License-Identifier: MIT */
/* lib/report internals: the rebuilt world (processes, threads, maps) and the tallies. */
#ifndef UPROF_REPORT_INTERNAL_H
#define UPROF_REPORT_INTERNAL_H

#include "openmp/openmp.h"
#include "report/report.h"
#include "util/util.h"
#include "symbols/symbols.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Interned strings: equal strings get one pointer, valid until the pool is released
 * (over util_strmap, lib/util). */
struct rpt_strpool {
	struct util_strmap map;
};

/* Our copy of @s; NULL on out-of-memory. */
const char *rpt_strpool_intern(struct rpt_strpool *p, const char *s);
void rpt_strpool_release(struct rpt_strpool *p);

/* ---- model.c: processes, threads and their executable mappings ---- */

struct rpt_map {
	uint64_t start, end, pgoff;
	int module;
};

struct rpt_process {
	int pid;
	char comm[16];
	char exec_comm[16];  /* the name it was exec'd by ("" = no exec seen: comm) */
	int exe;	     /* module of its program's executable + 1; 0 = unknown */
	int program;	     /* programs.c: its index in rpt.programs */
	signed char perfmap; /* /tmp/perf-<pid>.map: 0 not looked for, 1 there, -1 not */
	int jitdump;	     /* module of the jit-<pid>.dump it mapped + 1; 0: none */
	struct rpt_map *maps;
	int nmaps, capmaps;
	uint64_t samples;
};

struct rpt_thread {
	int tid, pid;
	char comm[16];
	bool renamed; /* named by prctl/pthread_setname_np, not inherited */
	uint64_t samples;
	const char *name; /* full name set through ITT (tasks.c's pool, not owned), or NULL */
};

struct rpt_module {
	char *path;
	struct rpt_file_id id; /* the file profiled, from its first MMAP2 */
	uint64_t samples;
};

struct rpt_func {
	const char *name; /* owned by the symtab */
	int module;
	uint64_t samples;
};

#define RPT_VIEW_MAX 32	     /* columns of a --view (lib/metric views.c) */
#define RPT_MODULE_KERNEL 0  /* module 0 is always [kernel.kallsyms] */
#define RPT_MODULE_UNKNOWN 1 /* module 1: addresses outside every known mapping */

struct rpt_world {
	struct rpt_process *procs;
	int nprocs, capprocs;
	struct rpt_thread *threads;
	int nthreads, capthreads;
	struct rpt_module *modules;
	int nmodules, capmodules;
	struct util_hash pid_index, tid_index, module_index;
};

int rpt_world_init(struct rpt_world *w);
void rpt_world_release(struct rpt_world *w);
/* The process / thread, created on first sight; NULL when out of memory. */
struct rpt_process *rpt_world_process(struct rpt_world *w, int pid);
struct rpt_thread *rpt_world_thread(struct rpt_world *w, int pid, int tid);
/* Module index for @path (@len bytes), created on first sight; -ENOMEM. */
int rpt_world_module(struct rpt_world *w, const char *path, size_t len);

/* Apply one side-band record (COMM, FORK, MMAP, MMAP2). 0, -EINVAL (malformed), -ENOMEM. */
/* Apply one side-band record, decoded by lib/session's codec; @decoded is what
 * ses_reader_decode() returned (a record it could not decode is -EINVAL here when it is
 * a kind the world uses). 0, -EINVAL or -ENOMEM. */
int rpt_world_apply(struct rpt_world *w, const struct ses_decoded *d, int decoded);

/* The mapping of @pid that holds @ip, or NULL. */
const struct rpt_map *rpt_world_find_map(struct rpt_world *w, int pid, uint64_t ip);

/* ---- the report ---- */

struct rpt {
	struct rpt_options opts;
	char dir[4096]; /* the session directory as the user named it: for messages only */
	int dfd;	/* it, opened once: every file of it is read beneath this (-1: foreign) */
	/* a private copy of its vdso.so (a memfd, read beneath dfd), named for libdw by
	 * /proc/self/fd: libdw opens a module by name and looks for debug files beside it,
	 * which must never be inside a directory another user can change; "" and -1: none */
	int vdso_fd;
	char vdso_file[32];
	struct ses_info info;
	/* the session's [metric.N] formulas over its events (sessions of several events;
	 * NULL otherwise), compiled by rpt_events_init */
	struct mtr_set *metrics;
	/* report --view (view.c): the view's columns as one set over the events (NULL:
	 * none), and per column the event it shows (-1: a metric) */
	struct mtr_set *view_set;
	int view_event[RPT_VIEW_MAX];
	struct rpt_world world;
	struct rpt_symtab *symtab;
	struct rpt_locator *locator; /* where module files are now (locate.h) */
	struct rpt_func *funcs;
	int nfuncs, capfuncs;
	struct util_hash addr_counts; /* (thread, module, addr) -> samples */
	struct util_hash func_index;  /* (module, name ptr) -> func + 1 */
	struct util_hash proc_func, proc_module, thread_func, thread_module, module_func;
	uint64_t samples, lost, unparsable, damaged_at;
	uint64_t sample_records; /* the sort event's kept samples (@samples: in units) */
	uint64_t kept_samples;	 /* sample records of every event in the tables (@samples:
				  * the sort event's, in units of its period; foreign files
				  * weight them, ses_sample_units) */
	int foreign_skipped;	 /* foreign files: sampling attrs past SES_MAX_EVENTS */
	const char *damage;
	uint64_t file_samples; /* SAMPLE records in samples.data, whatever became of them */
	uint64_t throttles;    /* THROTTLE records: the kernel stopped the event for a while */
	double time_scale;     /* CPU time a sample stands for over the timer period (rates.c) */
	bool counts_final;     /* session.ini was written at the end (not left running) */
	bool collect_killed;   /* left running by a collect that is gone: load.c */
	uint64_t last_sample_ns; /* the time of the last sample replayed (CLOCK_MONOTONIC) */
	int ncpu_mask;

	/* events.c */
	int attr_event[64];	     /* reader attr -> session event + 2 (0 = unknown) */
	struct util_hash extra_addr; /* (thread | event << 40, module, addr) -> samples */
	struct util_hash extra;	     /* (kind << 56 | owner, item, event) -> samples */
	uint64_t event_samples[SES_MAX_EVENTS];

	/* intervals.c (--agg-interval): units per (bucket, event), @nintervals buckets
	 * allocated, @nused_intervals up to the last sampled one; units of samples past
	 * RPT_INTERVALS_MAX buckets */
	uint64_t *intervals;
	size_t nintervals, nused_intervals;
	uint64_t intervals_past;
	/* ... and per thread, for the exports' timelines: (thread index, bucket, event) ->
	 * units while replaying; then rpt_intervals_finish's cells, in (pid, tid, bucket,
	 * event) order (rpt_agg_cell_at) */
	struct util_hash interval_cells;
	struct rpt_agg_cell *agg_cells;
	size_t nagg_cells;

	/* pauses.c: paused intervals, merged and sorted */
	struct rpt_span *pauses;
	size_t npauses, pause_rows;
	int64_t pause_total_ns;
	int64_t file_pause_ns;	 /* the rows' sum, unmerged: session.ini's pause_total_ns */
	uint64_t paused_samples; /* samples dropped because they fell in a pause */
	/* pauses.csv's "unknown" rows (dropped pause records), merged: their samples are
	 * kept in the tables and counted here, neither paused nor proven running */
	struct rpt_span *unknown;
	size_t nunknown, unknown_rows;
	int64_t unknown_total_ns;
	uint64_t unknown_samples;

	/* filter.c: -p and --time-filter */
	uint64_t filtered_samples;
	uint64_t system_samples; /* --ignore-system-module: sample records left out */
	/* replay.c: opts.drop, the samples tools dropped: every sample a walk would give is
	 * numbered (@sample_seq), those whose bit is set are not counted */
	uint64_t sample_seq, tool_dropped;

	/* tasks.c */
	bool has_tasks;
	struct rpt_sample_time *stimes; /* (tid, time) of every kept sample, when tasks exist */
	size_t nstimes, capstimes;
	struct rpt_task_item *items;
	int nitems, capitems;
	struct rpt_task_stat *tstats;
	size_t ntstats, captstats;
	struct util_hash item_index, proc_task, thread_task;
	struct rpt_strpool names;
	struct rpt_inlines *inline_funcs; /* --inline: aggregate.c's DWARF look-ups */
	uint64_t task_records, task_instances, task_lost, task_malformed, task_comma;
	uint64_t task_names_dropped, task_unnamed;
	char task_comma_name[64];
	struct rpt_file_note file_notes[RPT_FILE_NOTES];
	size_t nfile_notes;

	/* openmp.h: --trace openmp sessions (NULL when not traced) */
	struct rpt_omp *omp;
	/* openmp_state.h: their samples' places, for the OpenMP states (NULL: not traced) */
	struct rpt_omp_samples *omp_samples;
	/* openmp_trace.c: its slices for trace.json (NULL when not kept) */
	struct rpt_omp_trace *omp_trace;

	/* ostrace.h: a --trace os session's model (NULL when not traced) */
	struct rpt_os *os;

	/* stacks.h: call stacks, call graph, exports */
	struct rpt_stacks *stacks;

	/* walk.c: every kept sample in time order, with opts.walk */
	struct rpt_wsample *wsamples;
	size_t nwsamples, capwsamples;
	struct util_hash walk_funcs; /* (module, addr) -> func + 1 */

	/* programs.c: processes of one executable, summed */
	struct rpt_program *programs;
	int nprograms, capprograms;
	struct util_hash program_index;		 /* (exe, name ptr) -> program + 1 */
	struct util_hash prog_func, prog_module; /* (program, item) -> samples */

	/* annotate.c: Function Detail Data, with opts.annotate (NULL otherwise) */
	struct rpt_annots *annots;
	/* translated_cache.c: translated.bin in use or being made; the record number in
	 * samples.data of the sample being counted (its key there) */
	struct rpt_trstate *tr;
	uint32_t tr_seq;
};

/* ---- walk.c: what rpt_walk() gives, kept per sample during the load ---- */
struct __attribute__((packed, aligned(4))) rpt_wsample {
	uint64_t time, ip, addr; /* addr: the offset in @module */
	uint32_t thread, stack;	 /* stack: UINT32_MAX for events but the first */
	int32_t module;
	uint16_t cpu, event; /* cpu UINT16_MAX: unknown */
	uint64_t units;	     /* ses_sample_units: what it adds to its event's tallies */
};
/* Room for @n samples at once (doubling a big array copies it). 0 or -ENOMEM. */
int rpt_walk_reserve(struct rpt *r, size_t n);
/* Keep @s (with opts.walk). 0 or -ENOMEM. */
int rpt_walk_note(struct rpt *r, const struct rpt_wsample *s);
void rpt_walk_release(struct rpt *r);
/* ---- rates.c ---- */
/* The target CPU time of the modes the sort event sampled, unpaused share, s; *@mode:
 * "user", "system" or NULL (both, or no split recorded). */
double rpt_rate_cpu_s(const struct rpt *r, const char **mode);
/* After the samples are read: what a sample stands for (r->time_scale). */
void rpt_rates_settle(struct rpt *r);
/* Seconds of CPU_TIME per sample: the timer period, times time_scale. */
double rpt_sample_s(const struct rpt *r);
/* The most timer samples the CPUs sampled could give in the run; 0: not known. */
uint64_t rpt_rate_max_samples(const struct rpt *r);
/* Decimals that write one sample's CPU_TIME exactly (4 at least, 9 at most). */
int rpt_value_digits(const struct rpt *r);

/* ---- programs.c ---- */
struct rpt_program {
	const char *name; /* as invoked, interned in rpt.names */
	int exe;	  /* module of its executable + 1; 0 = none known (kernel threads) */
	int nprocs;	  /* its processes with samples */
	uint64_t samples;
};
/* Give every process its program (before rpt_aggregate, which tallies them). 0, -ENOMEM. */
int rpt_programs_build(struct rpt *r);
void rpt_programs_release(struct rpt *r);
/* The executable of @program, "" when none is known. */
const char *rpt_program_path(const struct rpt *r, int program);
/* Is the view by program shown? With --group-by program, or when it says more than the
 * one by process: two programs or more, and fewer programs than processes (else it
 * repeats the process table, or is one line; and sessions of one program, as every
 * 0.1.0 session is, report as they did). */
bool rpt_programs_shown(const struct rpt *r);

/* stacks.c: remember a matched task instance for the timeline and the task view.
 * 0 or -ENOMEM. */
int rpt_stacks_span(struct rpt *r, int pid, uint32_t tid, int item, uint64_t begin, uint64_t end);

/* ---- pauses.c ---- */
struct rpt_span {
	int64_t from, to;
};
/* Read pauses.csv if present. 0, or -errno with @err naming the file and line. */
int rpt_pauses_load(struct rpt *r, char *err, size_t errlen);
bool rpt_paused_at(const struct rpt *r, uint64_t t);
/* Is @t inside an "unknown" row of pauses.csv? */
bool rpt_pause_unknown_at(const struct rpt *r, uint64_t t);
/* Does any paused interval meet [from, to]? */
bool rpt_paused_within(const struct rpt *r, uint64_t from, uint64_t to);

/* ---- filter.c ---- */
/* Is a sample of @pid at @time (the samples' clock) inside -p and --time-filter? */
bool rpt_filter_keeps(const struct rpt *r, int pid, uint64_t time);
/* A system library's file: under /lib, /lib32, /lib64, /libx32 or their /usr twins (libc,
 * libpthread, ld.so). */
bool rpt_system_path(const char *path);
/* --ignore-system-module's system modules: the kernel, [vdso] and the like, and files
 * rpt_system_path() names. */
bool rpt_module_is_system(const struct rpt *r, int module);
/* Clip [*from, *to] of @pid to the filters; false when nothing of it is left. */
bool rpt_filter_clip(const struct rpt *r, int pid, uint64_t *from, uint64_t *to);

/* ---- tasks.c ---- */
struct rpt_sample_time {
	uint32_t tid;
	uint64_t time;
};

struct rpt_task_item {
	const char *domain, *name; /* interned */
	uint64_t count, elapsed_ns, samples;
};

struct rpt_task_stat {
	uint64_t count, elapsed_ns, samples;
};

/* Does the session have instrument/ files? (decides whether sample times are kept) */
bool rpt_tasks_present(const struct rpt *r);
/* Remember a kept sample's time for CPU_TIME of tasks. 0 or -ENOMEM. */
int rpt_tasks_note_sample(struct rpt *r, uint32_t tid, uint64_t time);
/* Read instrument/<pid>.tasks files, match begins and ends, tally. A file that cannot
 * be used is skipped and noted (r->file_notes): one process's tasks, not the report.
 * 0 or -ENOMEM. */
int rpt_tasks_load(struct rpt *r);
void rpt_tasks_release(struct rpt *r);

/* aggregate.c: symbolize addr_counts and fill funcs and the per-X tallies. */
int rpt_aggregate(struct rpt *r);
/* The function and process of a sampled (thread, module, address). 0 or -errno. */
int rpt_resolve(struct rpt *r, int thread, int module, uint64_t addr, int *func, int *proc);

/* intervals.c: --agg-interval's SAMPLES PER INTERVAL. Add a kept sample's @units of
 * event @ev at @time (CLOCK_MONOTONIC ns) of thread @thread (r->world.threads index)
 * to its bucket, in all and the thread's: 0 or -ENOMEM. After the replay, finish sorts
 * the threads' cells for rpt_agg_cell_at (0 or -ENOMEM). Write the section. */
#define RPT_INTERVALS_MAX 100000
int rpt_intervals_note(struct rpt *r, int ev, uint32_t thread, uint64_t time, uint64_t units);
int rpt_intervals_finish(struct rpt *r);
void rpt_intervals_write(const struct rpt *r, FILE *f);
void rpt_intervals_release(struct rpt *r);

/* sort_event.c: move opts.sort_by's event to events[0] (the sort event), the others
 * keeping their order; before anything counts. 0, or -ENOKEY with @err. */
int rpt_sort_event_apply(struct rpt *r, char *err, size_t errlen);

/* ---- events.c: sessions with several sampling events ----
 * Event 0 (the sort event) goes through every tally above; the others are counted per
 * (kind, owner, item) here, for the extra columns of the CSV. */
enum rpt_kind {
	RPT_K_FUNC = 1,
	RPT_K_PROC,
	RPT_K_MOD,
	RPT_K_THREAD, /* owner 0 */
	RPT_K_PROC_FUNC,
	RPT_K_PROC_MOD,
	RPT_K_THREAD_FUNC,
	RPT_K_THREAD_MOD,
	RPT_K_MOD_FUNC,
	RPT_K_PROG,
	RPT_K_PROG_FUNC,
	RPT_K_PROG_MOD,
};
/* A session's events (not a foreign file's: its own rule, session/foreign.h) that count
 * each sample by the period the kernel recorded in it: software events but the clocks,
 * tracepoints (and, from rpt_events_of_attr, events sampled by frequency). */
void rpt_events_weigh(struct rpt *r);
/* Compile the session's metric formulas (after session.ini is read); -EINVAL with @err
 * for one that does not parse. Undo with rpt_events_release. */
int rpt_events_init(struct rpt *r, char *err, size_t errlen);
void rpt_events_release(struct rpt *r);
/* report --view (view.c): refuse a view whose events the session lacks (-ENOKEY, @err
 * names them and the config that samples them), else make its first column the sort
 * event and compile its columns. After rpt_sort_event_apply; undo with rpt_view_release. */
int rpt_view_apply(struct rpt *r, char *err, size_t errlen);
void rpt_view_release(struct rpt *r);
/* The session event a reader attr index samples, or -1 (the tracking event). */
int rpt_events_of_attr(struct rpt *r, const struct ses_reader *rd, int attr);
/* Add @units (ses_sample_units: 1, or the sample's period for a weighted event) for event
 * @ev at the address. */
int rpt_events_count(struct rpt *r, int ev, uint32_t thread, int module, uint64_t addr,
		     uint64_t units);
int rpt_events_aggregate(struct rpt *r);
/* CSV: the value columns' header (one per event, then the metrics), and one row's cells
 * (each preceded by a comma). */
void rpt_events_header(const struct rpt *r, FILE *f);
void rpt_events_cells(const struct rpt *r, FILE *f, int kind, uint32_t owner, uint32_t item,
		      uint64_t ev0_samples);

/* Entries of @h whose key is (@owner, item, *), as (item, samples), largest first, ties by
 * item. Returns the count and a malloc'ed array in *@out (caller frees), or -ENOMEM. */
struct rpt_sorted {
	int item;
	uint64_t samples;
};
int rpt_collect(const struct util_hash *h, uint64_t owner, struct rpt_sorted **out);
/* qsort order of rpt_sorted: most samples first, ties by item */
int rpt_sorted_cmp(const void *a, const void *b);

/* Display names (static buffers per call site are not used: the caller passes one). */
void rpt_process_name(const struct rpt *r, int proc, char *buf, size_t len);
void rpt_thread_name(const struct rpt *r, int thread, char *buf, size_t len);

/* ---- foreign.c: perf pipe files (r->info.foreign; r->dir is the file) ---- */
/* Synthesize r->info from the file @path; -errno with @err: one line naming it. */
int rpt_foreign_open(struct rpt *r, const char *path, char *err, size_t errlen);
/* The CSV's MONITORED EVENTS and SAMPLING lines of a foreign file. */
void rpt_foreign_csv_events(const struct rpt *r, FILE *f);
void rpt_foreign_csv_sampling(const struct rpt *r, FILE *f, const struct rpt_summary *s);

/* killed.c: PROFILE DETAILS' line for a session whose collect was killed */
void rpt_csv_killed_note(const struct rpt *r, FILE *f);
/* csv.c: rpt_csv_execution (report.h) writes report.csv's EXECUTION block. */

/* ---- annotate.c: Function Detail Data (lib/annotate) with opts.annotate, called by rpt_open once the report is built ---- */
struct rpt;
int rpt_annot_build(struct rpt *r);
void rpt_annot_free(struct rpt *r);
/* annot_csv.c: the Function Detail Data section of report.csv */
int rpt_annot_write_csv(const struct rpt *r, FILE *f);

/* ---- the OpenMP model (lib/openmp) of a report ---- */

/* openmp.c: read the session's openmp/ files, name the sites, label the samples (after
 * rpt_tasks_load, whose sorted sample times it uses). 0 or -ENOMEM; a file that cannot
 * be used is noted (r->file_notes), never fatal. */
int rpt_omp_load(struct rpt *r);
void rpt_omp_free(struct rpt_omp *o);
/* openmp_source.c: the source line of site @s (its code at @file_offset of the ELF file
 * @path) into s->line: its pragma's where compilers give the call another (0: not known),
 * s->line_exact when the line table gave that line to the code itself, s->outlined; its
 * file into @src. */
void rpt_omp_source_locate(const char *path, uint64_t file_offset, struct rpt_omp_site *s,
			   char *src, size_t srclen);
/* openmp_gomp.c: the function the call that returns to link-time address @ret of @elf
 * calls through the PLT or the GOT (gcc's call into the runtime), its name into @name;
 * false when that is not such a call. */
bool rpt_omp_gomp_callee(struct Elf *elf, uint64_t ret, char *name, size_t len);
/* openmp_source.c: the line of the entry of gcc's outlined function ("<f>._omp_fn.<n>")
 * that @file_offset of ELF file @path is in (its construct's pragma), its file into
 * @src; 0 when it is in none. */
int rpt_omp_source_outlined_line(const char *path, uint64_t file_offset, char *src, size_t srclen);
/* openmp_gomp.c: name gcc's host teams constructs (GOMP_teams_reg) whose code address is
 * the runtime's from the regions their teams ran (after the sites are located). */
void rpt_omp_gomp_leagues(struct rpt *r, struct rpt_omp_proc *p);
/* openmp_gomp.c: does the function at link-time address @fn of @size bytes call one
 * whose name starts with @prefix through the PLT or the GOT? */
bool rpt_omp_gomp_calls(struct Elf *elf, uint64_t fn, uint64_t size, const char *prefix);
/* openmp_gomp.c: gcc's "parallel sections" regions (s->gomp_sections) without the GOMP
 * shim's loop: their loop figures zeroed, the loop sites only they ran dropped (after
 * the sites' figures are summed, before they are named). */
void rpt_omp_gomp_sections(struct rpt_omp_proc *p);
/* openmp_source.c: @func without the compiler's outlining ("<f>._omp_fn.<n>", clang's
 * offloaded target regions), where no DWARF names the function. */
void rpt_omp_unoutline(char *func, size_t flen);

/* openmp_trace.c: the slices of a trace (report.h), kept with opts.exports and a
 * timeline. openmp.c's load_file calls take with the process's parsed file before its
 * sites are named, merged for each site folded into another (the file's ids), and name
 * once they are named. Each 0 or -ENOMEM. */
struct rpt_omp_proc;
struct ses_ompt;
int rpt_omp_trace_take(struct rpt *r, const struct rpt_omp_proc *p, const struct ses_ompt *o);
int rpt_omp_trace_merged(struct rpt *r, int pid, uint32_t from, uint32_t into);
int rpt_omp_trace_name(struct rpt *r, const struct rpt_omp_proc *p);
void rpt_omp_trace_free(struct rpt_omp_trace *t);

/* openmp_csv.c: report.csv's OpenMP parts, each nothing when the session was not traced. */
void rpt_omp_write_details(const struct rpt *r, FILE *f);  /* PROFILE DETAILS line */
void rpt_omp_write_snapshot(const struct rpt *r, FILE *f); /* .. OPENMP SUMMARY */
void rpt_omp_write_report(const struct rpt *r, FILE *f);   /* OpenMP TRACING REPORT */
/* openmp_loops.c: the OpenMP LOOP METRIC table of @p (nothing when it has no loop site) */
struct rpt_omp_proc;
void rpt_omp_write_loops(const struct rpt_omp_proc *p, const char *who, FILE *f);
/* rpt_omp_write_report_of (report.h) is the same for a rank of a job. */

/* load.c and replay.c: an error line into @err (may be NULL or 0 long) */
static inline void rpt_errf(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void rpt_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}
/* A FIFO, a device or a directory where collect writes a regular file: nothing to
 * read (input.c refused it before it could hang the report). */
#define RPT_NOT_REGULAR "%s%s%s %s; collect writes a regular file there: nothing to report"
/* replay.c: samples.data into @r's tables, in time order. 0 or -errno with @err. */
int rpt_read_samples(struct rpt *r, char *err, size_t errlen);

#endif
