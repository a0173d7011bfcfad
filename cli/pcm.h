/* SPDX-License-Identifier: MIT */
/*
 * uprof pcm: counting of core, L3, Data Fabric and software events, shown as metrics per
 * interval (timeseries CSV) and for the whole run (cumulative), in AMDuProfPcm's layout.
 *   pcm.c         options, the command's flow
 *   pcm_groups.c  -m's groups (loaded by lib/pmc's pmc_groups), their column blocks
 *   pcm_run.c     the launched program, signals, -t, rows from lib/pmc's interval loop
 *   pcm_out.c     the CSV (metadata, three header rows, rows, cumulative) and --dry-run
 *   pcm_html.c    --html: report.html drawn from the values pcm_out.c wrote
 *   pcm_runfile.c report-run.tsv beside -O's CSV: what the CSV does not say
 *   pcm_hreport.c uprof pcm hreport: report.html again from a saved -O directory
 */
#ifndef UPROF_CLI_PCM_H
#define UPROF_CLI_PCM_H

#include "cli/cli.h"
#include "metric/metric.h"
#include "pmc/pmc.h"
#include "sampler/sampler.h"

#include <stdio.h>

/* One column block: a unit (system, package, CCX, core) for one group. */
struct pcm_comp {
	int group;
	enum pmc_level level;
	int unit;
	char label[48];	      /* System (Aggregated), Package (Aggregated)-0, CCX-1, Core-3 */
	struct pmc_cpus cpus; /* counters on these CPUs add up here (all CPUs of the unit) */
	int ncpus;	      /* CPUs of the unit that are counted (NCPUS) */
};

/* --html: what the CSV writer wrote, kept as it wrote it, so the page shows the CSV's own
 * numbers (one source). Rows past PCM_HTML_MAX_VALUES values are counted, not kept. */
#define PCM_HTML_MAX_VALUES (1u << 22)
struct pcm_series {
	int ncols; /* values per row: each component's group's metrics, in CSV order */
	int rows, cap, rows_total;
	double *vals;	    /* rows x ncols */
	char (*stamps)[16]; /* each row's Timestamp cell */
	double *cum;	    /* metric x component (label_index order), NaN where empty */
	double *cum_scale;  /* per component (label_index order): its multiplex scale */
	bool have_cum;
	char *meta; /* the metadata lines, as written to the CSV */
	size_t meta_len;
};

/* The column, last in each row, and the cumulative row of how much the counters were
 * multiplexed: the largest time enabled / time running (1.00: not at all). */
#define PCM_MUX_SCALE_NAME MTR_PCM_MUX_SCALE_NAME /* lib/metric reads it back */
#define PCM_MUX_SCALE_UNIT "All Counters" /* its component cell: every unit's counters */

#define PCM_MAX_MUX 32 /* PMUs whose multiplexing interval -t changes (a few in practice) */

struct pcm_state {
	/* options */
	char groups_arg[256];
	const char *user_cfg; /* -i: a user-defined group file, instead of -m */
	bool all_cpus, cumulative, dry_run, levels_given;
	int zen;	 /* the Zen generation the groups are for (PMC_ZEN_NONE: not a Zen) */
	bool zen_named;	 /* --family named it (dry runs only); else the CPU's */
	pid_t attach_id; /* --pid / --tid: the running task counted (0: none) */
	bool attach_tid; /* --tid: a thread, not a process */
	unsigned start_delay_ms;  /* --start-delay: counting starts this long after the start */
	bool wait_for_signal;	  /* --wait-for-signal: counting starts at SIGUSR1 */
	struct pmc_cpus affinity; /* -x: the launched program's CPUs */
	bool affinity_given;
	bool top; /* uprof pcm top: the live table */
	bool profile; /* uprof pcm profile: timeseries, cumulative, JSON and HTML in -O */
	char cpu_arg[64];
	unsigned levels; /* bit (1 << PMC_LEVEL_*) */
	unsigned interval_ms, mux_ms;
	double duration_s;
	const char *out_path;
	const char *out_dir; /* -O: <dir>/report.csv (and report.html) */
	bool html;
	char csv_path[4096], html_path[4096];
	/* the directory the CSV and report.html are made beneath (opened once: -O made or
	 * opened, -o's parent), or -1 for stdout; out_name: the CSV's name in it */
	int out_dfd;
	char out_name[256];
	char **prog_argv;
	char prog_path[4096];
	/* the system */
	struct pmc_pmus *pmus;
	struct pmc_topo *topo;
	struct pmc_cpuid cpuid;
	double p0_mhz;
	/* what is counted */
	struct pmc_target target;
	struct pmc_groups mg; /* -m's groups, their events (mg.evl) and metrics */
	struct pcm_comp *comps;
	int ncomps;
	/* the run */
	size_t ncounters;
	struct pmc_counter_info *cinfo;
	struct pmc_counting *counting;
	int64_t t_cur; /* the last reading's CLOCK_MONOTONIC ns (the row being written) */
	FILE *out;
	int rows;
	double mux_scale_max;	   /* the most any row's counters were multiplexed (1: never) */
	struct pcm_series *series; /* --html only */
	double *rowbuf;		   /* one row's values (pcm_out.c) */
	struct smp_child child;
	bool have_child, child_exited;
	int child_status;
	int sigfd;
	int stop_signal;
	/* -t: the PMUs' multiplexing intervals as they were, put back on every way out */
	struct pmc_mux_saved mux_saved[PCM_MAX_MUX];
	int nmux_saved;
};

/* pcm_groups.c */
/* -m's groups, or -i's file (its group named by the file's name without .ini) */
int pcm_groups_load(struct pcm_state *st);
int pcm_comps_build(struct pcm_state *st);
void pcm_groups_free(struct pcm_state *st);
/* Metric @m of @comp over @delta (per counter) and @elapsed_ns; NaN when not computable.
 * A count (pcm_metric_is_count) is as counted, an integer; a derived metric is over counts
 * scaled for multiplexing (enabled/running) and to the row's interval. */
double pcm_metric_value(const struct pcm_state *st, const struct pcm_comp *comp, int m,
			const struct pmc_count *delta, const uint64_t *idle, int64_t elapsed_ns);
/* Is metric @m one event's count (shown without decimals)? */
bool pcm_metric_is_count(const struct pcm_state *st, int m);
/* The largest enabled/running of @comp's counters over @delta: 1 when none was
 * multiplexed, NaN when one never ran (pmc_groups_mux_scale). */
double pcm_mux_scale(const struct pcm_state *st, const struct pcm_comp *comp,
		     const struct pmc_count *delta, int64_t elapsed_ns);
/* Decimals of metric @m's cells, in the CSV and the page alike: 0 for a count, else 2. */
int pcm_metric_decimals(const struct pcm_state *st, int m);
/* "<group>:<name>" of the first group naming event @ev. */
const char *pcm_event_name(const struct pcm_state *st, int ev);

/* pcm_out.c */
void pcm_out_metadata(struct pcm_state *st, FILE *f);
void pcm_out_header(struct pcm_state *st, FILE *f);
void pcm_out_row(struct pcm_state *st, FILE *f, const struct pmc_count *delta, const uint64_t *idle,
		 int64_t elapsed_ns);
void pcm_out_cumulative(struct pcm_state *st, FILE *f, const struct pmc_count *delta,
			const uint64_t *idle, int64_t elapsed_ns);
void pcm_out_dry_run(struct pcm_state *st, FILE *f);
/* Index of the first component labelled like component @c (the cumulative table's column). */
int pcm_label_index(const struct pcm_state *st, int c);

/* pcm_html.c */
/* Keep row @vals (series->ncols values) stamped @stamp; counted but not kept past the cap. */
void pcm_html_keep_row(struct pcm_series *s, const char *stamp, const double *vals);
int pcm_html_new(struct pcm_state *st);
void pcm_html_free(struct pcm_state *st);
/* Write the page as @name beneath st->out_dfd from st->series (a run's, or one read back
 * by pcm hreport); 0 or -errno. */
int pcm_html_write(const struct pcm_state *st, const char *name);
int pcm_ncols(const struct pcm_state *st);
/* The page's start (doctype, @title, the shared style plus @css, an <h1>), and text
 * escaped for HTML text and attributes: the roofline page uses them too. */
void pcm_html_head(FILE *f, const char *title, const char *css);
void pcm_html_esc(FILE *f, const char *s);

/* pcm_compare.c: uprof pcm compare (argv[0] is "compare") */
int cmd_pcm_compare(int argc, char **argv);

/* roofline.c: uprof pcm roofline (argv[0] is "roofline") */
int cmd_pcm_roofline(int argc, char **argv);
/* A pcm command word where a program would be, without -- before it (cli/pcm_words.c):
 * the exit code of the line said, else -1 */
int pcm_operand_check(int argc, char **argv, int first);

/* pcm_run.c */
int pcm_run(struct pcm_state *st);

/* pcm_gate.c: --start-delay / --wait-for-signal */
int pcm_gate_parse_delay(struct pcm_state *st, const char *arg);
/* After the start: wait for SIGUSR1 and/or the delay, then restart the counting from
 * there. 0 to go on; 1 when the run ended first (nothing counted); else the exit code. */
int pcm_gate_wait(struct pcm_state *st);

/* pcm_affinity.c: -x. Each returns -1 to go on, else the exit code (parse: 0). */
int pcm_affinity_parse(struct pcm_state *st, const char *arg);
int pcm_affinity_check(const struct pcm_state *st);
/* On the spawned program, still at its gate. */
int pcm_affinity_apply(const struct pcm_state *st);

/* pcm_msr.c: --msr, refused with the reason (the exit code) */
int pcm_msr_refuse(void);

/* pcm_top.c: uprof pcm top */
/* Its defaults and refusals, before the common checks. -1 to go on, else the exit code. */
int pcm_top_prepare(struct pcm_state *st);
/* One interval's table. */
void pcm_top_frame(struct pcm_state *st, FILE *f, const struct pmc_count *delta,
		   const uint64_t *idle, int64_t elapsed_ns);

/* pcm_profile.c: uprof pcm profile (into -O: these files, report.html beside them) */
#define PCM_PROFILE_TIMESERIES "report-timeseries.csv"
#define PCM_PROFILE_CUMULATIVE "report-cumulative.csv"
#define PCM_PROFILE_JSON "report.json"
/* Its checks (-O, not -o or -C) and --html on. -1 to go on, else the exit code. */
int pcm_profile_prepare(struct pcm_state *st);
/* report-cumulative.csv beneath the output directory, started with the run's facts; NULL
 * (said) when it cannot be made. */
FILE *pcm_profile_open_cumulative(struct pcm_state *st);
/* Close it: @ret, or the exit code of a write that failed (said). */
int pcm_profile_close_cumulative(struct pcm_state *st, FILE *f, int ret);
/* report.json: @ret, or the exit code of a write that failed (said). */
int pcm_profile_write_json(struct pcm_state *st, int ret);

/* pcm_runfile.c: PCM_RUN_FILE beneath st->out_dfd (lib/metric's mtr_pcm_run format):
 * the program's command line, each metric's group and kind; 0 or -errno */
#define PCM_RUN_FILE "report-run.tsv"
int pcm_runfile_write(const struct pcm_state *st);

/* pcm_hreport.c: uprof pcm hreport <dir> (argv[0] is "hreport") */
int cmd_pcm_hreport(int argc, char **argv);

/* pcm_json.c: report.json (@name beneath st->out_dfd) from st->series; 0 or -errno */
int pcm_json_write(const struct pcm_state *st, const char *name);

/* pcm_attach.c: --pid / --tid */
/* Take @arg as the task to count: 0, or the exit code of a bad value. */
int pcm_attach_parse(struct pcm_state *st, const char *arg, bool tid);
/* Check the options around it and that the task runs; set the target. -1 to go on, else
 * the exit code. */
int pcm_attach_check(struct pcm_state *st);
/* Has the counted task ended (or is it a zombie)? false without --pid/--tid. */
bool pcm_attach_gone(const struct pcm_state *st);

#endif
