/* SPDX-License-Identifier: MIT */
/* cli: the uprof binary. Each subcommand is one file with its own state struct. */
#ifndef UPROF_CLI_H
#define UPROF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- --tool (cli/tool.c over lib/tool) ---- */
#define CLI_MAX_TOOLS 8
#define CLI_TOOL_TIMEOUT_S 300.0 /* a tool's limit, each time it runs */
#define CLI_TOOL_CPU_S 300.0	 /* its CPU time (RLIMIT_CPU) */
#define CLI_TOOL_MEMORY_MIB 1024 /* its memory on top of the report's (RLIMIT_AS) */
struct rpt;
struct tool_info;
struct cli_tools {
	const char *specs[CLI_MAX_TOOLS]; /* "path.so[,knob=value...]", borrowed from argv */
	int n;
	double timeout_s;    /* --tool-timeout; 0: CLI_TOOL_TIMEOUT_S */
	double cpu_s;	     /* --tool-cpu; 0: CLI_TOOL_CPU_S */
	uint64_t memory_mib; /* --tool-memory; 0: CLI_TOOL_MEMORY_MIB */
	/* report: a tool whose entry point crashed, hung or failed when it was loaded,
	 * said (and noted in report.csv) after the base report, never run over it */
	char *load_error[CLI_MAX_TOOLS];
	/* report: the names of the tools run so far (a second load of one tool gets its own
	 * sections and files: tool_run_after) */
	char ran[CLI_MAX_TOOLS][64];
	const char *ranp[CLI_MAX_TOOLS];
	int nran;
	bool filters[CLI_MAX_TOOLS]; /* the tool has a sample filter (cli_tools_load says) */
	uint8_t *drop;		     /* cli_tools_filter's bits (shared memory), or NULL */
	size_t ndrop;
};
/* Option handlers: -1 to go on, or the exit code of a message said. */
int cli_tools_add(struct cli_tools *t, const char *spec, const char *cmd);
int cli_tools_timeout(struct cli_tools *t, const char *arg, const char *cmd);
int cli_tools_cpu(struct cli_tools *t, const char *arg, const char *cmd);
int cli_tools_memory(struct cli_tools *t, const char *arg, const char *cmd);
/* Whether a tool given has a sample filter (after cli_tools_load). */
bool cli_tools_filtering(const struct cli_tools *t);
/* Run the tools' sample filters over @r (opened with opts.walk): t->drop and t->ndrop
 * hold the samples they drop, for the report opened next (opts.drop). A filter that
 * fails is said and its tool not run again; nothing it chose is dropped. 0, or the exit
 * code of a message said. */
int cli_tools_filter(struct cli_tools *t, struct rpt *r, const char *cmd);
/* Release t->drop. */
void cli_tools_release(struct cli_tools *t);
/* report: load each tool as cli_tools_probe does, but only a bad knob (2) or a refused
 * tool (1: not a tool, a bad descriptor) stops the report; a tool that crashed, hung or
 * failed in its entry point is kept in t->load_error and the report goes on. */
int cli_tools_load(struct cli_tools *t, const char *cmd);
/* Load each tool (in a child), check it and its knobs; with @collect record what it asks
 * for in @infos (t->n of them; may be NULL). -1 when all are fine, else the exit code
 * (2 for a bad knob) of the message said. */
int cli_tools_probe(const struct cli_tools *t, bool collect, struct tool_info *infos,
		    const char *cmd);
/* Run each tool over @r and append its sections to @csv_path (NULL: stdout); a tool
 * that fails (or failed to load) is said in one line and in a "Note:" line of the CSV.
 * 0, or the exit code of the last failure said (the others still ran). Frees
 * t->load_error. */
int cli_tools_report(struct cli_tools *t, struct rpt *r, const char *session_dir,
		     const char *csv_path, const char *cmd);
struct rpt_job;
struct rpt_options;
/* report over the MPI job @jobdir: load the tools as cli_tools_load does, refuse a sample
 * filter (a job's ranks are sessions of their own: exit 2), walk no samples (@opts). -1
 * to go on, or the exit code of the message said. */
int cli_tools_for_job(struct cli_tools *t, struct rpt_options *opts, const char *jobdir,
		      const char *cmd);
/* The same over the MPI job @job of directory fd @job_dfd (borrowed; the tools' files go
 * in its tools/), named @job_dir: the MPI callbacks (mpi_rank, mpi_call, mpi_site, mpi_event). */
int cli_tools_report_job(struct cli_tools *t, const struct rpt_job *job, int job_dfd,
			 const char *job_dir, const char *csv_path, const char *cmd);
/* uprof info --tool: name, version, API version, knobs (types, defaults, help), what it
 * asks collect for. 0 or the exit code of the message said. */
int cli_tool_show(const char *spec, const char *cmd);

/* Exit codes: 0 success, 1 failure at run time, 2 usage error (bad option or value). */
enum { EXIT_USAGE = 2 };

int cmd_collect(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_pcm(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_translate(int argc, char **argv);
int cmd_timechart(int argc, char **argv);

/* --time-filter T1:T2 into @o (report, translate): -1 to go on, or the exit code of the
 * message said. */
struct rpt_options;
int cli_parse_time_filter(struct rpt_options *o, const char *arg, const char *cmd);
/* After rpt_open(): say why translated.bin was not used (if it was there), and with
 * @write (report --retranslate) write it anew: a failure is a warning (the report goes
 * on), and 1. */
int cli_translated_say(struct rpt *r, bool write, const char *cmd);

/* ---- uprof profile: collect's and report's options, from their own tables ---- */
struct cli_option;
/* The option table of each command (cli/options.h): static, never freed. */
const struct cli_option *cli_collect_options(void);
const struct cli_option *cli_report_options(void);
/* The session (or MPI job) directory the last cmd_collect() wrote, "" when none was
 * made (static storage, overwritten by the next collect). */
const char *cli_collect_last_session(void);
/* That directory's fd, opened by collect beneath its own fds (never by the path again),
 * handed to the caller (who closes it); -1 when none. */
int cli_collect_take_session_fd(void);
/* The next cmd_report() reads the session beneath @dfd (taken: closed by it) instead of
 * opening its -i path, which then only names it: profile hands over what collect made,
 * so that nothing another user swaps in between is read or written. */
void cli_report_give_session_fd(int dfd);
/* Parse report's @argv (with a session named) as cmd_report would, doing nothing: -1
 * when every option is good, else the exit code of the message said (profile checks
 * before it collects, so that a bad report option costs no run). */
int cli_report_check_options(int argc, char **argv);

/* ---- Function Detail Data options, shared by report and annotate (cli/report_args.c) ---- */
#define CLI_MAX_FUNCTIONS 64
struct cli_annot {
	const char *functions[CLI_MAX_FUNCTIONS]; /* --function, borrowed from argv */
	int n;
};
/* A --bin-path/--symbol-path/--src-path directory @arg onto @list (@n of at most @max):
 * -1 to go on, or the exit code of the message said (not a directory, too many). */
int cli_add_dir(const char **list, int *n, int max, const char *opt, const char *arg,
		const char *cmd);

/* --enable-log, --log-path, --enable-logts (cli/log.c): called by the commands that take
 * them once their options are parsed; uprof's stderr is then copied to the log. -1 (go on, also when none
 * was asked), or the exit code of a log that cannot be opened (said). */
int cli_log_start(const char *cmd, int argc, char **argv);
/* The terminal's stderr, for what the log should not keep (the progress line). */
FILE *cli_log_terminal(void);

/* "uprof <cmd>: <message>" on stderr; returns @code so callers can `return err(...)`. */
int cli_error(int code, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether cli_error has printed a message: main then adds no second line for a failed
 * write to stdout that the command has already reported. */
bool cli_error_said(void);
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Why exec of @path failed with @err, in words a user can act on: for ENOENT on a file
 * that exists, the missing #! interpreter or ELF program interpreter is named. Returns
 * @buf (@len bytes). */
const char *cli_exec_error(const char *path, int err, char *buf, size_t len);

/* progress.c: the progress line of long work (collect -d / -a, report). Shown only when
 * cli_progress_wanted(): stderr is a terminal, CI is unset, no -q. */
struct cli_progress {
	bool on, shown;
	int64_t start, first, last; /* CLOCK_MONOTONIC ns: begun, first line due, last shown */
	int width;		    /* of the widest line shown, to pad over it */
};
bool cli_progress_wanted(bool quiet);
/* @on: cli_progress_wanted(); the first line only @delay_s after now. */
void cli_progress_init(struct cli_progress *p, bool on, double delay_s);
/* Whether a line is due at @now (on, past the delay, 250 ms since the last one). */
bool cli_progress_due(const struct cli_progress *p, int64_t now);
void cli_progress_show(struct cli_progress *p, int64_t now, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Erase the line (if one was shown): what follows starts at the line's beginning. */
void cli_progress_clear(struct cli_progress *p);
struct rpt_progress;
/* rpt_options.progress for report: @arg is its struct cli_progress. */
void cli_report_progress(void *arg, const struct rpt_progress *rp);

/* A usage error: "<what>; see 'uprof <cmd> --help'", exit code 2. */
int cli_usage_error(const char *cmd, const char *what);

/* Directory holding the configs: $UPROF_CONFIG_DIR, else <exe>/../share/uprof/configs
 * (lib/metric's mtr_config_* read them from the directory given). */
const char *cli_config_dir(void);

/* Find program @name like execvp would (a name with '/' is taken as a path) and put its
 * real path in @out. 0, or a message in @err and -errno (-ENOENT not found, -EACCES not
 * executable, -EISDIR a directory). */
int cli_resolve_program(const char *name, char *out, size_t len, char *err, size_t errlen);

/* @rel (such as "../lib/x.so") taken from the directory of uprof's own executable
 * (/proc/self/exe), so that the build tree (build/bin -> build/lib) and an installation
 * (<prefix>/bin -> <prefix>/lib) both find their files: @out, or NULL when the
 * executable cannot be read or the path does not fit. Nothing is checked to exist. */
char *cli_beside_exe(const char *rel, char *out, size_t len);

/* Paths, times and system facts shared by the subcommands. */
/* The absolute path of the directory open as @fd (from /proc/self/fd), into @out; where
 * /proc cannot say, @fallback and -1. */
int cli_fd_path(int fd, const char *fallback, char *out, size_t len);
/* The directory holding the file @path (the user's words, followed as named), opened once
 * for the file to be made beneath it (util_at_*): its fd, or -errno; the file's own name
 * into @base. */
int cli_open_parent(const char *path, char *base, size_t baselen);
/* A result directory the user named (pcm/roofline -O): opened once as named, or made
 * beneath its parent (0755) when it is not there yet; its fd or -errno. Files go beneath
 * it with cli_output_fopen_at, so a directory swapped after this is never written. */
int cli_output_dir(const char *dir);
/* A result file beneath @dfd (0644 whatever the umask, truncated): a name that was there
 * is rewritten only when it is a plain file of ours with one name (util_at_create), or a
 * character device (/dev/null), written as it is. NULL and errno set. */
FILE *cli_output_fopen_at(int dfd, const char *name);
int64_t cli_now_ns(int clock);
void cli_system_facts(char *host, size_t hl, char *cpu, size_t cl, char *kernel, size_t kl,
		      char *os, size_t ol);

/* info --list @what (cli/info_lists.c): the list on stdout, 0; or one line, exit code 2 */
int info_list(const char *what, const char *cmd);
int info_list_configs(void);
int info_list_predefined(void);
int info_list_pmu_events(void);
int info_list_pmu_events_for(const char *cmd);
/* info --pmu-event pmcxNN|all|NAME (info_pmu.c): 0, or the exit code of a failure said */
int info_show_pmu_event(const char *cmd, const char *opt, const char *arg);
/* uProf's views (info_views.c): --list view-configs, and --view-config NAME (0, or the
 * exit code of a failure said) */
int info_list_views(void);
int info_show_view(const char *name, const char *cmd);
/* The view named @name into *@out: -1; else its refusal, said as "@what 'NAME': no such
 * view (did you mean ...)", and exit code 2 */
struct mtr_view;
int cli_view_lookup(const char *name, const char *what, const char *cmd,
		    const struct mtr_view **out);

/* uProf's options no part of uprof builds, refused with the reason (cli/uprof_refused.c),
 * declared in cli/options.h; and the configs refused by name (NULL: not one) */
const char *cli_config_refusal(const char *name);

/* "Did you mean" (cli/suggest.c) for names outside an option table: " (did you mean X?)"
 * into @out when a real name is near @word, else "" -- never a name that is not there. */
void cli_did_you_mean(const char *const *names, size_t n, const char *word, char *out, size_t len);
/* ... over the configs of cli_config_dir() (collect --config, info --collect-config) */
void cli_config_near(const char *word, char *out, size_t len);
/* report --export's refusal of @word: one line naming the exports (and the near one),
 * exit code 2 */
int cli_export_unknown(const char *cmd, const char *word);
/* pcm's metric group names for CPU family @family (-1: the common ones), sorted, into
 * @names (at most @max); their count */
size_t cli_pcm_group_names(int family, char (*names)[64], size_t max);
/* ... over pcm's metric groups for CPU family @family (-1: the common ones only) */
void cli_pcm_group_near(int family, const char *word, char *out, size_t len);

#endif
