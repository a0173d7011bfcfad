/* SPDX-License-Identifier: MIT */
/* cli/collect*.c: the state of one `uprof collect` run. */
#ifndef UPROF_CLI_COLLECT_H
#define UPROF_CLI_COLLECT_H

#include "cli/cli.h"
#include "metric/metric.h"
#include "pmc/pmc.h"
#include "sampler/sampler.h"
#include "session/session.h"

#include <limits.h>
#include <signal.h>
#include <sys/resource.h>

/* attrs[0] is the tracking event; attrs[1..nattrs-1] the sampling events, the first of
 * which (COLLECT_TIMER) sorts the report. */
enum { COLLECT_TRACKING, COLLECT_TIMER };
#define COLLECT_MAX_ATTRS (1 + SES_MAX_EVENTS)
#define COLLECT_MAX_FUNC_SPECS 32 /* --func and --exclude-func options */
#define COLLECT_MAX_ENV 64

/* collect_mpi.c: --mpi, this collect as one rank of a launcher's job */
struct collect_mpi {
	bool on;
	int rank, size, local_rank; /* size, local_rank: -1 when the launcher did not say */
	const char *from;	    /* the variable the rank came from */
	char job[SES_JOB_ID_MAX + 1];
	char job_dir[PATH_MAX]; /* where every rank's session is: "Generated data files" */
	/* --trace mpi: lib/mpi's interposer preloaded */
	bool trace;
	bool full;		 /* scope full (lwt: light-weight, the default) */
	int family;		 /* enum ses_mpi_family asked for (--trace mpi=, --mpi-impl), 0 */
	const char *family_from; /* the option that named it */
	char lib[PATH_MAX];	 /* the interposer of the family, resolved */
	int dir_fd;		 /* --trace mpi: the session's mpi/, held open (-1) */
};

struct collect_state {
	/* options */
	const char *config_name;
	const char *outdir;
	const char *workdir;
	const char *interval_arg;
	int ncore;	       /* core PMC events among attrs (multiplexed beyond the counters) */
	uint64_t pmc_interval; /* --interval: every PMC event's period (0: their own) */
	double duration_s;     /* 0 = until the program exits */
	uint64_t limit_data_bytes; /* --limit-data: end the collection at this size, 0 none */
	bool no_inherit;
	bool no_buildid_cache; /* --no-buildid-cache: leave ~/.debug alone (perf's -N) */
	bool start_paused;
	struct rlimit nofile; /* RLIMIT_NOFILE as given (raised for us, restored for the target) */
	uint64_t stale_pages; /* pages of dead processes removed at start ([pages]) */
	double start_delay_s; /* --start-delay: sampling starts this long after launch */
	/* --wait-for-signal: sampling starts when uprof gets SIGUSR1 (start_delay_s holds a
	 * delay no run reaches until then, and the real one after); resume_signal: it came */
	bool wait_for_signal, resume_signal;
	int64_t cpu_before_start_ns; /* the launched target's CPU time when the delay ended */
	bool terminate;
	size_t mmap_pages;
	struct pmc_callgraph cg; /* -g / --call-graph: call stacks with the samples */
	char **prog_argv;	 /* borrowed from main's argv */
	bool has_affinity;	 /* --affinity */
	struct pmc_cpus affinity;
	int nsample_cpus; /* -c/--cpu: sample on these CPUs only (0: all) */
	int sample_cpus[PMC_MAX_CPUS];
	char sample_cpu_list[256];
	struct cli_tools tools;	      /* --tool: what they ask for (collect_tool.c) */
	struct tool_info *tool_infos; /* tools.n of them (owned) */
	int ntool_events;	      /* their events, after the config's or -e's */
	const char *tool_events[SES_MAX_EVENTS];
	struct { /* --trace openmp (collect_trace.c) */
		bool on, full, omplib, impl_given, scope_given;
		char runtime[PATH_MAX]; /* omplib: the libomp standing in for libgomp */
		int omplib_fd; /* omplib: openmp/omplib held open, for LD_LIBRARY_PATH (-1) */
	} omp;
	struct { /* --trace os, --osrt-threshold, --config threading (collect_ostrace.c) */
		bool on, threshold_given;
		unsigned events;       /* OST_EV_* asked for */
		uint64_t threshold_ns; /* the slowest calls listed take this long or more */
		uint64_t max_threads;  /* --max-threads (0: none given) */
		size_t buffer_pages;   /* --buffer-size: data pages per ring (0: none given) */
		int first;	       /* attrs[first..nattrs-1] are its tracepoints (0: none) */
		bool is_exit[COLLECT_MAX_ATTRS];  /* raw_syscalls:sys_exit: no stack */
		bool is_enter[COLLECT_MAX_ATTRS]; /* raw_syscalls:sys_enter: a short one */
		char tracefs[PATH_MAX];
		char formats[192 * 1024]; /* what OST_FORMATS_FILE gets */
		size_t formats_len;
		/* --func / --exclude-func (collect_ostrace_funcs.c): the specs as given
		 * (borrowed from argv), the uprobe event made (group "" when none) */
		const char *func_specs[COLLECT_MAX_FUNC_SPECS];
		bool func_exclude[COLLECT_MAX_FUNC_SPECS];
		int nfunc_specs;
		char probe_group[32];
	} os;
	int nenv; /* --env-var NAME=VALUE (owned) */
	char *env[COLLECT_MAX_ENV];

	/* attach mode: -p/--pid and --tid, and -a (every process: attach mode with no pids) */
	bool attach;
	bool system_wide;
	bool quiet;  /* -q: no status line */
	int nattach; /* processes */
	pid_t attach_pids[SES_MAX_PIDS];
	int ntids_only; /* --tid: only these threads */
	pid_t tids_only[SES_MAX_PIDS];
	int pidfds[SES_MAX_PIDS]; /* readable when that process has exited */
	int64_t cpu_start[SES_MAX_PIDS], cpu_last[SES_MAX_PIDS];
	/* user and system time (ns, /proc's ticks) when sampling started: of each attached
	 * process, and [0] of the launched program after --start-delay */
	int64_t user_start[SES_MAX_PIDS], sys_start[SES_MAX_PIDS];
	bool attached_gone; /* every attached process has exited */

	/* derived */
	struct mtr_config config;
	uint64_t period_ns;
	char prog_path[PATH_MAX];   /* the program's file, symlinks resolved (Target Path) */
	char exec_path[PATH_MAX];   /* the path exec'd: absolute, symlinks kept */
	char session_dir[PATH_MAX]; /* its path: for messages and for report to read */
	/* the directory-fd rule (docs/DESIGN.md §4): -o opened once, the session made beneath
	 * it and held open to the end; every file of the session is made beneath session_fd */
	int out_fd, session_fd;
	char session_name[2 * NAME_MAX + 2]; /* the session's name beneath out_fd */
	struct perf_event_attr attrs[COLLECT_MAX_ATTRS];
	int nattrs;
	char event_names[COLLECT_MAX_ATTRS][64]; /* as report shows them */
	const char *specs[SES_MAX_EVENTS];	 /* -e, in order */
	int nspecs;
	bool custom;	/* events from -e: the "Custom" label */
	bool user_only; /* the kernel refused kernel samples: every event, the tracking one
			 * too, excludes kernel and hypervisor (collect_open.c) */

	/* run */
	struct ses_info info;
	struct ses_writer *writer;
	/* fp stacks with a leaf copy: samples split between samples.data and
	 * leafstack.data (collect_open.c); NULL otherwise */
	struct ses_leaf_writer *leaf;
	struct ses_split *split;
	struct smp *smp;
	struct smp_child child;
	int sigfd;
	bool child_exited;
	int child_status;
	int64_t child_cpu_ns;
	int64_t child_user_ns, child_sys_ns; /* its rusage, for the user/system split */
	/* a launched target still running when the collection ended (-d, --limit-data): its
	 * CPU time then, so that what it runs while it is wound down (-b) is not counted */
	bool cpu_at_end_taken;
	int64_t cpu_at_end_ns, user_at_end_ns, sys_at_end_ns;
	uint64_t child_vcsw, child_ivcsw;    /* its rusage's context switches */
	int stop_signal;		     /* SIGINT/SIGTERM that stopped us, or 0 */
	bool write_failed;
	bool never_started;	   /* the program could not be started: remove the session */
	char token[64];		   /* UPROF_SESSION: tells our run's control pages from others */
	struct smp_pageset *pages; /* collect_pages.c */
	struct collect_mpi mpi;
};

/* collect_tool.c: --tool: load each tool, take its wishes (call stacks when -g was not
 * given, events), -1 to go on or an exit code; and into session.ini's [tool.N]. */
int collect_tools_apply(struct collect_state *st);
void collect_tools_info(struct collect_state *st);
void collect_tools_release(struct collect_state *st);

/* collect_opts.c: the command line into @st, read by collect's option table (its --help
 * too). -1 to go on, or an exit code (0 after --help) after printing the error. */
int collect_parse_options(struct collect_state *st, int argc, char **argv);
/* collect_prog.c: st->prog_argv[0] found as execvp would, into st->prog_path (resolved)
 * and st->exec_path (as found). -1 or an exit code. */
int collect_resolve_program(struct collect_state *st);
/* collect_setid.c: a program the kernel will not let this user profile (its events are
 * stopped at an exec that changes credentials or of an unreadable file). */
/* Is @path such a program for this user? Then @why (@len bytes) says why and what to do. */
bool collect_setid_reason(const char *path, char *why, size_t len);
/* Before the launched program is released: record and warn (info.not_profiled). */
void collect_setid_at_start(struct collect_state *st);
/* After the run (info counts final): what the start could not see, from the target's ids
 * or from no sample in its CPU time; recorded and warned. */
void collect_setid_at_end(struct collect_state *st);

/* collect_words.c: @argv (NULL-terminated) as shell words into @dst (@size bytes, cut). */
void collect_join_args(char *dst, size_t size, char **argv);
/* collect_info.c: st->info for session.ini, from @st and this system. */
void collect_fill_info(struct collect_state *st, int argc, char **argv);

/* collect_open.c: add the call-stack bits of st->cg to the sampling attrs (launch and
 * attach), and open the events on the gated child (-1, or an exit code). */
void collect_callgraph_attr(struct collect_state *st);
/* After samples.data was opened: leafstack.data and the split when the fp events carry a
 * leaf copy (-1, or an exit code); the HEADER_ATTR of sampling attr @i with @ids as
 * samples.data declares it (without the leaf copy); the sink the rings drain into; the
 * end (the first error, 0). */
int collect_leaf_open(struct collect_state *st);
void collect_write_attr(struct collect_state *st, int i, const uint64_t *ids, size_t nids);
int collect_sink(void *st, const void *records, size_t len);
int collect_leaf_close(struct collect_state *st);
int collect_open_events(struct collect_state *st);
/* After an open failed with @err: true (and st->user_only set, said once) when a user-only
 * retry may succeed (EACCES or EPERM, kernel samples were asked for). */
bool collect_user_only_retry(struct collect_state *st, int err);
/* The one warning, when the events are user-only for that reason. */
void collect_user_only_said(const struct collect_state *st);
/* collect_explain.c: exit code 1 after one line that explains open error @err (-errno)
 * of event @failed (an attrs[] index, or -1) on process @pid (attach; else 0). */
int collect_explain_open_error(struct collect_state *st, int err, int failed, int pid);

/*
 * collect_events.c: which events to sample. -e specs, else the config's [event.N], else
 * the timer; each parsed and checked against the PMUs present before anything starts,
 * so a missing PMU fails with one message and leaves no session behind. Returns -1 to
 * go on, or an exit code.
 */
int collect_events_prepare(struct collect_state *st);
/* Fill attrs[] for a launch (@enable_on_exec) or an attach. */
void collect_events_build(struct collect_state *st, bool enable_on_exec);
/* The sampling events on or off (pause/resume), leaving the tracking event alone. */
void collect_events_enable(struct collect_state *st, bool on);
/* session.ini's [event.N] sections. */
void collect_events_info(struct collect_state *st);

/* collect_launch.c: --affinity and --env-var for a launched program. The parsers return
 * -1 to go on, or an exit code after printing the error. */
int collect_launch_parse_affinity(struct collect_state *st, const char *arg);
int collect_launch_parse_env(struct collect_state *st, const char *arg);
int collect_parse_sample_cpus(struct collect_state *st, const char *arg); /* -c */
void collect_launch_env(const struct collect_state *st);		  /* into uprof's environ */
int collect_launch_affinity(const struct collect_state *st); /* the gated child: 0/-errno */
void collect_launch_release(struct collect_state *st);

/* collect_mpi.c: --mpi. Rank, size and job from the launcher's environment (-1 to go on,
 * or an exit code after one message: not under a launcher, no job id); the rank's session
 * directory in the job directory of @absout; the path every rank prints. */
int collect_mpi_detect(struct collect_state *st);
int collect_mpi_make_dir(struct collect_state *st, const char *absout);
const char *collect_mpi_data_path(const struct collect_state *st);
/* --trace mpi[=openmpi|mpich][,lwt|full] (@arg after "mpi") and --mpi-impl: -1 or an exit
 * code. Then, once the program is found: its family (from the libmpi it needs) against
 * the one asked for, and the interposer to preload; -1 or an exit code after one
 * message (a mismatch, a family not built). collect_mpi_env: UPROF_MPI_DIR and
 * LD_PRELOAD for the program (launch_env). */
int collect_mpi_trace_parse(struct collect_state *st, const char *arg);
int collect_mpi_impl_parse(struct collect_state *st, const char *arg);
int collect_mpi_prepare(struct collect_state *st);
void collect_mpi_env(const struct collect_state *st);
/* collect_stop.c: an MPI rank's collect stopped by @st->stop_signal: session.ini says so
 * at once, before the launcher's SIGKILL can come */
void collect_note_stop(struct collect_state *st);
/* collect_trace.c: --trace <what>, one parser per tracer; -1 or an exit code. */
int collect_trace_parse(struct collect_state *st, const char *arg);
/* collect_openmp.c: --trace openmp, --openmp-impl (@impl) and --openmp-scope; the
 * combinations refused; what the program's environment needs (after the session
 * directory exists). Each -1 to go on, or an exit code after the message. */
int collect_omp_trace_parse(struct collect_state *st);
int collect_omp_parse_option(struct collect_state *st, bool impl, const char *arg);
int collect_omp_check(const struct collect_state *st);
int collect_omp_env(struct collect_state *st);

/* collect_ostrace.c: --trace os[=EV[:THRESHOLD_US],...] (@arg after "os") and
 * --osrt-threshold: -1 or an exit code. collect_ostrace_prepare, after the sampling
 * events: tracefs found, the tracepoints' attrs appended and their formats read (-1 or an
 * exit code: no tracefs, no permission, a tracepoint missing); collect_ostrace_attrs, at
 * the end of collect_events_build: their stacks and the tracking event's switch records;
 * collect_ostrace_save: their formats into the session (-1 or an exit code). The sampling
 * events are attrs[COLLECT_TIMER..collect_ostrace_sampling_end(st)-1]. */
int collect_ostrace_parse(struct collect_state *st, const char *arg);
int collect_ostrace_threshold(struct collect_state *st, const char *arg);
/* --max-threads N and --buffer-size PAGES (uProf's OS-trace settings). -1 or an exit code. */
/* collect_ostrace_tdata.c: perf's tracing data record into samples.data. -1 or an exit
 * code. */
int collect_ostrace_tracing_data(struct collect_state *st);
int collect_ostrace_max_threads(struct collect_state *st, const char *arg);
int collect_ostrace_buffer_size(struct collect_state *st, const char *arg);
int collect_ostrace_prepare(struct collect_state *st);
void collect_ostrace_attrs(struct collect_state *st);
int collect_ostrace_save(struct collect_state *st);
int collect_ostrace_sampling_end(const struct collect_state *st);
/* collect_ostrace_funcs.c: --func / --exclude-func MOD:PAT[,..] (-1 or an exit code);
 * collect_ostrace_funcs_prepare, after the program is found: the functions resolved,
 * leftover probes of dead uprofs removed, the probes made and their tracepoint attr added
 * (-1 or an exit code: EXIT_USAGE for a module or pattern that names nothing);
 * collect_ostrace_funcs_remove, after every event is closed: the probes removed. */
int collect_ostrace_func_parse(struct collect_state *st, bool exclude, const char *arg);
int collect_ostrace_funcs_prepare(struct collect_state *st);
/* Tracepoint @system:@name (id @id) into the session: its format file into the formats
 * text, its attr after the others (@opt names the option in messages). -1 or an exit code. */
int collect_ostrace_add_tracepoint(struct collect_state *st, const char *system, const char *name,
				   uint64_t id, const char *opt);
void collect_ostrace_funcs_remove(struct collect_state *st);

/* collect_run.c: sampling from the open gate to the end; returns uprof's exit code. */
int collect_run(struct collect_state *st);
/* CPU time so far of a running process, all its threads, in ns (0 if gone) */
int64_t collect_cpu_ns(pid_t pid);
/* @pid's user and system time so far, ns (/proc's ticks); 0 or -ESRCH */
int collect_cpu_split_ns(pid_t pid, int64_t *user, int64_t *sys);

/* collect_attach.c: attaching to running processes. Each returns -1 to go on, or an exit
 * code after printing the error. */
int collect_attach_parse(struct collect_state *st, const char *arg, bool tids);
int collect_attach_prepare(struct collect_state *st); /* validate, name the session */
int collect_attach_open(struct collect_state *st);    /* events on every thread */
int collect_attach_synth(struct collect_state *st);   /* COMM/MMAP2 of what exists */
bool collect_attach_alive(struct collect_state *st);  /* any attached process left? */
void collect_attach_cpu(struct collect_state *st);    /* refresh CPU time readings */
int64_t collect_attach_cpu_ns(const struct collect_state *st);
/* Is @pid one of the attached processes or a descendant of one? */
bool collect_attach_owns(const struct collect_state *st, int pid);

/*
 * collect_pages.c: the control pages of instrumented processes of the run, through
 * lib/sampler's page set (smp_pageset_*: found as they appear in /dev/shm, drained by one
 * thread that applies pause/resume to the kernel events, acknowledges strict callers and
 * writes task records into instrument/<pid>.tasks), and what collect says about them.
 */
int collect_pages_start(struct collect_state *st);
int collect_pages_fd(const struct collect_state *st);	 /* the page set's fd to poll, or -1 */
bool collect_pages_busy(const struct collect_state *st); /* pages still being looked for */
void collect_pages_poll(struct collect_state *st);
/* Attach mode: take the pages the attached processes made before we came. */
void collect_pages_adopt_attached(struct collect_state *st);
/* --start-delay is over: sampling follows the programs' pause/resume from now on. */
void collect_pages_release_hold(struct collect_state *st);
/* Stop the threads, drain what is left, write pauses.csv; fills info's pause_total_ns and
 * lost_task_records. @end_mono closes an open pause. */
void collect_pages_stop(struct collect_state *st, int64_t end_mono);

#endif
