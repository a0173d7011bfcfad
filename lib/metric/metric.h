/* SPDX-License-Identifier: MIT */
/*
 * lib/metric: formulas of derived metrics (IPC, CPI, ... PTI), the small neutral module
 * that collect (configs, pcm) and report both use (docs/DESIGN.md §3): it knows no PMU and no
 * session, only names and numbers. Nothing here prints or exits.
 *
 *   expr   one formula: compiled once (mtr_expr_parse), evaluated per row
 *   set    the metrics of a session or a config, in order: each may use the inputs
 *          (event values) and the metrics before it
 */
#ifndef UPROF_METRIC_H
#define UPROF_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mtr_expr;

/*
 * Compile formula @s (@len bytes, not NUL-terminated): numbers (1, 0.5, 1e3, 0x10), names
 * ([A-Za-z_][A-Za-z0-9_.]*), + - * / unary minus and parentheses, usual precedence.
 * 0, -EINVAL (@err: "column N: ..."), -ENOMEM. Free with mtr_expr_free().
 */
int mtr_expr_parse(const char *s, size_t len, struct mtr_expr **out, char *err, size_t errlen);
void mtr_expr_free(struct mtr_expr *e);

/* The names a formula uses, each once, in order of first use (owned by @e). */
size_t mtr_expr_nnames(const struct mtr_expr *e);
const char *mtr_expr_name(const struct mtr_expr *e, size_t i);

/* Value of a name: 0, or -ENOENT when unknown. */
typedef int (*mtr_lookup_fn)(void *arg, const char *name, double *value);

/*
 * Evaluate. x/0 is NaN (also 0/0), and NaN propagates. 0, or -ENOENT when @lookup does
 * not know a name (*@out is then NaN).
 */
int mtr_expr_eval(const struct mtr_expr *e, mtr_lookup_fn lookup, void *arg, double *out);
/* The same with @vals[k] the value of mtr_expr_name(@e, k), for every k. Returns 0. */
int mtr_expr_eval_values(const struct mtr_expr *e, const double *vals, double *out);

/* ---- a set of metrics ---- */

struct mtr_set;

/*
 * Compile @n metrics, @names[i] = @formulas[i] (all borrowed, copied), over the inputs
 * @inputs[0..@ninputs) (borrowed, copied). A formula may name an input or an earlier
 * metric (an input wins over a metric of the same name); any other name makes that
 * metric undefined (NaN), as does a later or its own metric. 0; -EINVAL with @err
 * "<name>: column N: ..." for the first formula that does not parse; -ENOMEM. Free with
 * mtr_set_free().
 */
int mtr_set_new(struct mtr_set **out, const char *const *inputs, int ninputs,
		const char *const *names, const char *const *formulas, int n, char *err,
		size_t errlen);
void mtr_set_free(struct mtr_set *s); /* NULL is fine */
int mtr_set_count(const struct mtr_set *s);

/* The @n metrics (mtr_set_count) for input values @in (@ninputs of them) into @out;
 * NaN where a metric is undefined. */
void mtr_set_eval(const struct mtr_set *s, const double *in, double *out);

/* ---- a roofline run (uprof pcm roofline): its file and its point ---- */

/*
 * The roofline CSV, format 1 (man uprof-pcm, ROOFLINE FILE): written by mtr_rl_write
 * and read back by mtr_rl_parse, so a run on a machine with a PMU can be drawn again
 * anywhere. Fixed sizes: a parsed file owns no memory.
 */
#define MTR_RL_FORMAT 1
#define MTR_RL_MAX_FACTS 32
#define MTR_RL_MAX_CEILINGS 32
#define MTR_RL_MAX_COUNTERS 64
#define MTR_RL_NDESC 9 /* kernel, ISA, vector bits, threads, work, reps, statistic, clock, note */
#define MTR_RL_MAX_FILE (1u << 20)

enum mtr_rl_kind { MTR_RL_COMPUTE, MTR_RL_MEMORY, MTR_RL_NOMINAL };
enum mtr_rl_role { MTR_RL_FLOPS, MTR_RL_DRAM };

struct mtr_rl_ceiling {
	enum mtr_rl_kind kind;
	char name[64];
	double value; /* GFLOP/s (compute, nominal) or GB/s (memory); NaN: unknown */
	char desc[MTR_RL_NDESC][256];
};

struct mtr_rl_counter {
	enum mtr_rl_role role; /* FP operations, or DRAM cache lines (64 B each) */
	char event[128];
	uint64_t value, enabled, running; /* as read(): TOTAL_TIME_ENABLED|RUNNING, ns */
};

struct mtr_roofline {
	int nfacts, nceilings, ncounters;
	char fact_key[MTR_RL_MAX_FACTS][64];
	char fact_val[MTR_RL_MAX_FACTS][256];
	struct mtr_rl_ceiling ceilings[MTR_RL_MAX_CEILINGS];
	struct mtr_rl_counter counters[MTR_RL_MAX_COUNTERS];
	uint64_t elapsed_ns; /* the program's run, wall clock; 0: no program */
	char missing[1024];  /* why there is no point ("" if counters were recorded) */
};

/*
 * The program's point from the recorded counts: FLOPs = the sum of the FLOPS counters,
 * DRAM bytes = 64 x the sum of the DRAM counters, each scaled for multiplexing (value x
 * enabled / running; a counter enabled but never running makes the point unplaceable);
 * intensity = FLOPs / DRAM bytes, GFLOP/s = FLOPs / elapsed ns. placed is false (and
 * @why says why) when a role has no counter, elapsed is 0, or DRAM bytes are 0.
 */
struct mtr_rl_point {
	bool placed;
	double flops, dram_bytes, intensity, gflops;
	char why[256];
};
void mtr_rl_point(const struct mtr_roofline *r, struct mtr_rl_point *out);

/* Add a fact / ceiling / counter (copied, truncated to the fields' sizes); -ENOSPC when
 * full. */
int mtr_rl_add_fact(struct mtr_roofline *r, const char *key, const char *val);
int mtr_rl_add_ceiling(struct mtr_roofline *r, const struct mtr_rl_ceiling *c);
int mtr_rl_add_counter(struct mtr_roofline *r, const struct mtr_rl_counter *c);
const char *mtr_rl_kind_name(enum mtr_rl_kind k); /* compute, memory, nominal */

/* Write @r (with its point) as the format-1 CSV to @f (borrowed). 0 or -EIO. */
int mtr_rl_write(const struct mtr_roofline *r, FILE *f);
/*
 * Parse @len bytes of @buf (not NUL-terminated) into @out. 0, or -EINVAL with @err
 * "line N: ..." (an unknown line, a bad number, a missing or newer format line), -E2BIG
 * (over MTR_RL_MAX_FILE bytes, a line over 4096, more rows than the limits).
 */
int mtr_rl_parse(const char *buf, size_t len, struct mtr_roofline *out, char *err, size_t errlen);

/* ---- measuring the ceilings (roofline_bench.c) ----
 * Every measurement runs one thread pinned per CPU (or one, for the per-core figures);
 * thread 0 first calibrates the repetition to about 20 ms of its CPU time, then all
 * threads run the repetitions together. A repetition's rate is the sum over threads of
 * work / that thread's CPU time; the ceiling is the best repetition, the median stated.
 * The kernels are lib/arch's (arch_rl_kernels). */

struct arch_rl_kernels;

struct mtr_rl_bench {
	const struct arch_rl_kernels *kernels; /* borrowed: the set to measure with */
	const int *cpus; /* borrowed: one pinned thread per CPU for the all-cores
				 * figures; cpus[0] for the one-core ones */
	int ncpus;
	const char *cpus_text;	 /* the same CPUs as a list ("0-3"), for the descriptions */
	int ncores;		 /* cores among them: the nominal all-cores peak */
	double cpuinfo_mhz;	 /* cpuinfo's "cpu MHz"; 0 when unknown (no nominal peak) */
	const char *sysfs_root;	 /* the cache sizes: <root>/devices/system/cpu/cpu0/cache */
	const char *procfs_root; /* the vector width of the nominal peak: <root>/cpuinfo */
};

/*
 * Measure every ceiling into @r (compute, memory, nominal) and add the facts about how.
 * 0, -ENOMEM (@err "too many ceilings" when @r is full), or -errno of a thread that could
 * not be started or pinned (@err says which).
 */
int mtr_rl_bench_run(const struct mtr_rl_bench *b, struct mtr_roofline *r, char *err,
		     size_t errlen);

/* What one call of a kernel does, for the rates (exact arithmetic):
 *   FMA    @count iterations: ARCH_RL_ACC x lanes x 2 FLOPs each (lanes: bits / 64 DP,
 *          bits / 32 SP)
 *   READ   @count passes over @n doubles: 8 bytes each
 *   TRIAD  @count passes over @n elements: 24 bytes each (b, c read; a written)
 *   CLOCK  @count iterations of 16 dependent adds: 16 cycles each */
enum mtr_rl_job { MTR_RL_JOB_FMA, MTR_RL_JOB_READ, MTR_RL_JOB_TRIAD, MTR_RL_JOB_CLOCK };
double mtr_rl_job_work(const struct arch_rl_kernels *k, enum mtr_rl_job kind, bool sp, size_t n,
		       uint64_t count);

/* One thread's repetition: its work (FLOPs, bytes, cycles), its CPU time and its span on
 * the monotonic clock, in ns. */
struct mtr_rl_sample {
	double work, cpu_ns;
	int64_t wall0, wall1;
};
/* The rates of @reps repetitions by @nthreads threads, @s[rep * nthreads + thread]:
 * a repetition's CPU rate is the sum over threads of work / cpu_ns (0 for cpu_ns 0), its
 * wall rate nthreads x thread 0's work / (the last end - the first start); best_cpu and
 * best_wall are the highest, median_cpu the CPU rates' upper median (sorted[reps / 2]).
 * In work per ns (GFLOP/s, GB/s). @reps in [1, MTR_RL_MAX_REPS]; others give zeros. */
#define MTR_RL_MAX_REPS 48
struct mtr_rl_rate {
	double best_cpu, median_cpu, best_wall, work; /* work: thread 0's, last repetition */
	int reps, threads;
};
void mtr_rl_summarize(const struct mtr_rl_sample *s, int reps, int nthreads,
		      struct mtr_rl_rate *out);

/* ---- configuration files (config.c) ---- */

/* An [event.N] section: an event spec (lib/pmc syntax, as for -e), an optional name the
 * [metric.N] formulas use instead of the event's own (RETIRED_INST, PMCx0C4), and whether
 * the event may be missing (metrics using it are then empty). */
struct mtr_config_event {
	char name[64];
	char spec[256];
	bool optional; /* optional = 1: a system without it still counts the rest */
};

/* A [metric.N] section: the column name, a formula over event names, variables and the
 * ids of earlier metrics (lib/metric mtr_expr syntax), and an optional id. */
struct mtr_config_metric {
	char name[64];
	char id[32];
	char formula[256];
};

#define MTR_CONFIG_MAX_EVENTS 32
#define MTR_CONFIG_MAX_METRICS 48 /* Zen 5 ccm_bw: 2 totals + 16 CFIs x read, write */

/* A collect configuration (configs/<name>.ini), or a pcm metric group
 * (configs/pcm/<group>.ini, which also sets title). */
struct mtr_config {
	char name[64];
	char label[32];
	char description[128];
	char title[32];
	double timer_interval_ms;
	bool user_only;
	int nevents, nmetrics;
	struct mtr_config_event events[MTR_CONFIG_MAX_EVENTS];
	struct mtr_config_metric metrics[MTR_CONFIG_MAX_METRICS];
};

/* Load config @name from @dir (<dir>/<name>.ini). 0, -ENOENT (no such config) or -EINVAL
 * (@err says what). */
int mtr_config_load(const char *dir, const char *name, struct mtr_config *cfg, char *err,
		    size_t errlen);

/* Load the config file at @path (any name). 0, -ENOENT or -EINVAL (@err says what). */
int mtr_config_load_path(const char *path, struct mtr_config *cfg, char *err, size_t errlen);

/* Parse config text @buf (@len bytes) into @cfg (zeroed first, defaults set). 0 or -EINVAL
 * with @err. Events and metrics must be numbered 0.. without gaps; each event needs a
 * spec, each metric a name and a formula that parses. */
int mtr_config_parse(const char *buf, size_t len, struct mtr_config *cfg, char *err, size_t errlen);

/* Names of all configs in @dir (its *.ini files, without .ini), sorted; returns the count
 * (up to @max; 0 when @dir cannot be read). */
int mtr_config_list(const char *dir, char names[][64], int max);

/*
 * pcm's cumulative table read back (pcm_table.c; uprof pcm compare): the
 * "Metric,<component>,..." header and a row per metric, after any other lines, to the
 * first blank line. Fixed sizes: a parsed table owns no memory (it is large: allocate it).
 */
#define MTR_PCM_SEEN_INT 1     /* a cell without decimals (pcm writes a count so) */
#define MTR_PCM_SEEN_DEC 2     /* a cell with decimals (a derived metric) */
#define MTR_PCM_MAX_COMPS 1024 /* a 1000-core machine's -A core table (pcm hreport) */
#define MTR_PCM_MAX_METRICS 512
struct mtr_pcm_table {
	int ncomps, nmetrics;
	char comp[MTR_PCM_MAX_COMPS][64];
	char metric[MTR_PCM_MAX_METRICS][96];
	double val[MTR_PCM_MAX_METRICS][MTR_PCM_MAX_COMPS]; /* NAN: an empty cell */
	unsigned char seen[MTR_PCM_MAX_METRICS];	    /* each row's MTR_PCM_SEEN_* bits */
};
/* 0, or -EINVAL with @err saying what ("line N: ..."): a NUL byte, no table, no metric
 * row, a row whose cells do not match the header, a value that is no number, an empty or
 * overlong name, a line over 4096 bytes, more components or metrics than the limits. */
int mtr_pcm_table_parse(const char *buf, size_t len, struct mtr_pcm_table *t, char *err,
			size_t errlen);
/* The value of @metric for @comp: 0, or -ENOENT when the table has not both. */
int mtr_pcm_table_find(const struct mtr_pcm_table *t, const char *metric, const char *comp,
		       double *out);

/*
 * pcm's timeseries read back (pcm_series.c; uprof pcm hreport): the metadata lines (the
 * file's first meta_len bytes), the three header rows and a row per interval, to the first
 * blank line. Rows past @max_values values are checked and counted, not kept. The column
 * of how much the counters were multiplexed is the last of every row (vals has ncols + 1
 * values a row).
 */
#define MTR_PCM_MUX_SCALE_NAME "Multiplex Scale (enabled/running)"
#define MTR_PCM_SERIES_MAX_COLS 16384
#define MTR_PCM_SERIES_MAX_ROWS 100000000
struct mtr_pcm_series_comp {
	char label[48]; /* as pcm_comps_build names them */
	int group;	/* index into titles */
	int first_col, ncols;
};
struct mtr_pcm_series {
	size_t meta_len;
	int ngroups, ncomps, ncols;
	char (*titles)[32];
	struct mtr_pcm_series_comp *comps;
	char (*metric)[64];  /* each column's metric name */
	unsigned char *seen; /* each column's MTR_PCM_SEEN_* bits (ncols + 1) */
	int rows, cap, rows_total;
	char (*stamps)[16];
	double *vals; /* rows x (ncols + 1); NAN: an empty cell */
};
/* 0; -ENODATA (no "Timestamp," header: not a timeseries); -EINVAL with @err saying what
 * ("line N: ..."); -ENOMEM. On failure nothing is left to free. */
int mtr_pcm_series_parse(const char *buf, size_t len, size_t max_values, struct mtr_pcm_series *s,
			 char *err, size_t errlen);
void mtr_pcm_series_free(struct mtr_pcm_series *s);
/* The unsigned number of metadata line "@key,<n>" in [@meta, @meta+@len): 0, -ENOENT when
 * there is no such line, -EINVAL when its value is not one. */
int mtr_pcm_meta_uint(const char *meta, size_t len, const char *key, unsigned *out);

/*
 * The run file pcm writes beside its CSV in -O's directory (report-run.tsv): what the CSV
 * does not say. Lines of tab-separated fields, \t \n \r \\ escaped:
 *   uprof-pcm-run<TAB>1
 *   program<TAB><argv[0]><TAB><argv[1]>...        (absent: no program was launched)
 *   metric<TAB><group name><TAB>count|derived<TAB><metric name>   (each, in CSV order)
 */
#define MTR_PCM_RUN_MAGIC "uprof-pcm-run"
#define MTR_PCM_RUN_MAX_BYTES (1u << 20)
#define MTR_PCM_RUN_MAX_ARGS 4096
#define MTR_PCM_RUN_MAX_METRICS 4096
struct mtr_pcm_run_metric {
	char group[32];
	char name[64];
	bool count; /* one event's count (no decimals), else a derived metric */
};
struct mtr_pcm_run {
	char **argv; /* NULL-terminated, nargs; NULL without a program line */
	int nargs, nmetrics;
	struct mtr_pcm_run_metric *metric;
	char *store;
};
/* 0; -EINVAL with @err saying what ("line N: ..."); -ENOMEM. */
int mtr_pcm_run_parse(const char *buf, size_t len, struct mtr_pcm_run *run, char *err,
		      size_t errlen);
void mtr_pcm_run_free(struct mtr_pcm_run *run);

/* ---- view configurations (views.c; report --view, info --view-config) ---- */

/* A column of a view: an event of the session (@formula NULL: its value, the column the
 * default report has) or a metric, @formula over the events' names (uProf's names, or
 * the names a config's [event.N] gives them: ExRetBrnTkn). */
struct mtr_view_column {
	const char *name;
	const char *formula;
};

/* One of uProf's views: @columns[0] is an event and sorts the report. @config: the
 * collect config whose events the view needs; NULL with @needs, why uprof cannot
 * collect them here (IBS views). Static data. */
struct mtr_view {
	const char *name;  /* triage_assess, ... */
	const char *title; /* report.csv's "Selected View" */
	const char *config;
	const char *needs;
	int ncolumns;
	const struct mtr_view_column *columns;
};

#define MTR_VIEW_NAME 64

int mtr_view_count(void);
const struct mtr_view *mtr_view_at(int i);		/* NULL past the end */
const struct mtr_view *mtr_view_find(const char *name); /* exact name, or NULL */
/* A column's formula: its own, or the event's name for an event column. */
const char *mtr_view_formula(const struct mtr_view_column *c);
/* The events @v needs, each once, in order of first use over its columns' formulas, into
 * @names (at most @max). The count; -EINVAL (@err "<view>: <column>: column N: ...") for
 * a formula that does not parse, -ENOSPC past @max, -ENOMEM. */
int mtr_view_inputs(const struct mtr_view *v, char names[][MTR_VIEW_NAME], int max, char *err,
		    size_t errlen);

#endif
