// SPDX-License-Identifier: MIT
/*
 * uprof collect: the command line into struct collect_state, and the combinations of
 * options refused before anything starts.
 */
#include "cli/collect.h"
#include "cli/options.h"

#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "collect";

/* -d: whatever strtod reads whole that is finite and above 0 (1e9, 0x10, 2.5e-3); no
 * upper bound: a deadline past the end of time is none (collect_run.c saturates it). */
static int parse_duration(const char *s, double *out)
{
	char *end;
	double d;

	d = strtod(s, &end);
	if (end == s || *end || !isfinite(d) || !(d > 0))
		return -EINVAL;
	*out = d;
	return 0;
}

/* -m: pages, or a size with B, K, M or G (uProf 4's form: -m 1M), which must be a whole
 * number of pages */
static int parse_pages(const char *s, size_t *out)
{
	long page = sysconf(_SC_PAGESIZE);
	char *end;
	unsigned long v;
	int shift = -1;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (end != s && end[0] && !end[1])
		shift = strchr("bB", *end)   ? 0
			: strchr("kK", *end) ? 10
			: strchr("mM", *end) ? 20
			: strchr("gG", *end) ? 30
					     : -1;
	if (shift >= 0) {
		if (v > (1UL << 40) >> shift || page <= 0 || (v << shift) % (unsigned long)page)
			return -EINVAL;
		v = (v << shift) / (unsigned long)page;
		end++;
	}
	if (errno || *end || end == s || s[0] == '-' || !v || (v & (v - 1)) || v > 65536)
		return -EINVAL;
	*out = v;
	return 0;
}

/* --limit-data: uProf's MB (taken as MiB), or a size with a unit B, K, M or G; at least
 * one page, at most 1 TiB. */
static int parse_limit(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 20;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end != s && end[0] && !end[1]) {
		shift = strchr("bB", *end)   ? 0
			: strchr("kK", *end) ? 10
			: strchr("mM", *end) ? 20
			: strchr("gG", *end) ? 30
					     : -1;
		end++;
	}
	if (errno || *end || end == s || s[0] == '-' || shift < 0 || !v ||
	    v > (1ULL << 40) >> shift || (v << shift) < 4096)
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

/* What each option of the table does: data of its entry. */
enum {
	O_EVENT,
	O_SYSTEM_WIDE,
	O_CPU,
	O_PID,
	O_TID,
	O_CONFIG,
	O_USE_LINUX_PERF,
	O_LIMIT_DATA,
	O_DURATION,
	O_MMAP_PAGES,
	O_G,
	O_CALL_GRAPH,
	O_CG_DEPTH,
	O_CG_MODE,
	O_CG_TYPE,
	O_INTERVAL,
	O_START_DELAY,
	O_AFFINITY,
	O_ENV_VAR,
	O_TOOL,
	O_TOOL_TIMEOUT,
	O_TOOL_CPU,
	O_TOOL_MEMORY,
	O_MPI_IMPL,
	O_TRACE,
	O_OSRT_THRESHOLD,
	O_MAX_THREADS,
	O_BUFFER_SIZE,
	O_FUNC,
	O_EXCLUDE_FUNC,
	O_OMP,
	O_OMP_IMPL,
	O_OMP_SCOPE,
};

/* -g, --call-graph, --call-graph-depth/-mode. Returns -1 to go on, or an exit code. */
static int parse_callgraph(struct collect_state *st, int opt, const char *arg)
{
	char err[160];
	int ret = 0;

	switch (opt) {
	case O_G:
		st->cg.mode = PMC_CG_FP;
		return -1;
	case O_CALL_GRAPH:
		ret = pmc_callgraph_parse(arg, &st->cg, err, sizeof(err));
		break;
	case O_CG_DEPTH:
		ret = pmc_callgraph_set_depth(&st->cg, arg, err, sizeof(err));
		break;
	case O_CG_MODE:
		ret = pmc_callgraph_set_mode(&st->cg, arg, err, sizeof(err));
		break;
	case O_CG_TYPE:
		/* uProf 5's interval:depth:scope:mode has a separate option for each field
		 * and this one is the scope's (user, kernel, all); a mode is taken too, as
		 * uprof took it before */
		if (!pmc_callgraph_set_scope(&st->cg, arg, NULL, 0)) {
			if (st->cg.mode == PMC_CG_NONE)
				st->cg.mode = PMC_CG_FP; /* uProf's default mode */
			return -1;
		}
		if (pmc_callgraph_set_mode(&st->cg, arg, err, sizeof(err)))
			return cli_error(EXIT_USAGE, CMD,
					 "--call-graph-type '%s': the stacks' scope, user, kernel "
					 "or all (or a mode: fp, fpo, dwarf)",
					 arg);
		return -1;
	}
	if (ret)
		return cli_error(EXIT_USAGE, CMD, "--call-graph: %s", err);
	return -1;
}

static int parse_interval(struct collect_state *st, const char *arg)
{
	char *end;

	errno = 0;
	st->pmc_interval = strtoull(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || !st->pmc_interval ||
	    st->pmc_interval > (1ULL << 62))
		return cli_error(EXIT_USAGE, CMD, "--interval '%s' is not a positive event count",
				 arg);
	return -1;
}

/* Option @o (its data: one of O_*) with @arg: -1 to go on, or an exit code. */
static int collect_option(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct collect_state *st = state;

	(void)cmd;
	switch (o->data) {
	case O_EVENT:
		if (st->nspecs >= SES_MAX_EVENTS)
			return cli_error(EXIT_USAGE, CMD, "at most %d -e events", SES_MAX_EVENTS);
		st->specs[st->nspecs++] = arg;
		return -1;
	case O_SYSTEM_WIDE:
		st->system_wide = st->attach = true;
		return -1;
	case O_CPU:
		return collect_parse_sample_cpus(st, arg);
	case O_PID:
	case O_TID:
		return collect_attach_parse(st, arg, o->data == O_TID);
	case O_CONFIG:
		/* uProf's last one wins silently; a session has one config here, so two that
		 * differ are refused rather than one dropped unsaid */
		if (st->config_name && strcmp(st->config_name, arg))
			return cli_error(EXIT_USAGE, CMD,
					 "--config given twice ('%s' and '%s'): "
					 "a session has one config; add events to it with -e",
					 st->config_name, arg);
		st->config_name = arg;
		return -1;
	case O_USE_LINUX_PERF:
		fprintf(stderr,
			"uprof %s: note: --use-linux-perf changes nothing: uprof "
			"always samples through perf_event_open\n",
			CMD);
		return -1;
	case O_LIMIT_DATA:
		if (parse_limit(arg, &st->limit_data_bytes))
			return cli_error(EXIT_USAGE, CMD,
					 "--limit-data '%s': give a size in MB (MiB), a whole "
					 "number, or with a unit: 4096B, 512K, 100M, 2G (at least "
					 "4 KiB, at most 1 TiB)",
					 arg);
		return -1;
	case O_DURATION:
		if (parse_duration(arg, &st->duration_s))
			return cli_error(EXIT_USAGE, CMD,
					 "-d/--duration '%s' is not a positive number of "
					 "seconds (a finite number above 0: 10, 0.5, 1e3)",
					 arg);
		return -1;
	case O_MMAP_PAGES:
		if (parse_pages(arg, &st->mmap_pages))
			return cli_error(
				EXIT_USAGE, CMD,
				"-m/--mmap-pages '%s' must be a power of two from 1 to 65536 "
				"pages, or a size of that many (4K, 1M: B, K, M, G)",
				arg);
		return -1;
	case O_G:
	case O_CALL_GRAPH:
	case O_CG_DEPTH:
	case O_CG_MODE:
	case O_CG_TYPE:
		return parse_callgraph(st, (int)o->data, arg);
	case O_INTERVAL:
		return parse_interval(st, arg);
	case O_START_DELAY: /* uProf: 0 means no delay */
		if (strcmp(arg, "0") && parse_duration(arg, &st->start_delay_s))
			return cli_error(EXIT_USAGE, CMD,
					 "--start-delay '%s' is not a number of seconds (0 = none)",
					 arg);
		return -1;
	case O_AFFINITY:
		return collect_launch_parse_affinity(st, arg);
	case O_ENV_VAR:
		return collect_launch_parse_env(st, arg);
	case O_TOOL:
		return cli_tools_add(&st->tools, arg, CMD);
	case O_TOOL_TIMEOUT:
		return cli_tools_timeout(&st->tools, arg, CMD);
	case O_TOOL_CPU:
		return cli_tools_cpu(&st->tools, arg, CMD);
	case O_TOOL_MEMORY:
		return cli_tools_memory(&st->tools, arg, CMD);
	case O_MPI_IMPL:
		return collect_mpi_impl_parse(st, arg);
	case O_TRACE:
	case O_OMP:
		return collect_trace_parse(st, o->data == O_OMP ? "openmp" : arg);
	case O_OSRT_THRESHOLD:
		return collect_ostrace_threshold(st, arg);
	case O_MAX_THREADS:
		return collect_ostrace_max_threads(st, arg);
	case O_BUFFER_SIZE:
		return collect_ostrace_buffer_size(st, arg);
	case O_FUNC:
	case O_EXCLUDE_FUNC:
		return collect_ostrace_func_parse(st, o->data == O_EXCLUDE_FUNC, arg);
	case O_OMP_IMPL:
	case O_OMP_SCOPE:
		return collect_omp_parse_option(st, o->data == O_OMP_IMPL, arg);
	}
	return -1;
}

#define STATE struct collect_state
#define VALUE(s, l, a, h, d) OPT_CALLBACK(s, l, a, h, collect_option, d)
#define FLAG(s, l, h, d) OPT_CALLBACK_NOARG(s, l, h, collect_option, d)

static const struct cli_option collect_options[] = {
	{ .kind = CLI_OPTK_CALLBACK,
	  .short_name = 'e',
	  .long_name = "event",
	  .argh = "<spec>",
	  .help = "sample this event instead of the config's:\n"
		  "event=NAME|pmcxNNN|timer[,interval=N][,umask=..][,user=..]\n"
		  "[,os=..], a uProf name (RETIRED_INST), a perf software\n"
		  "event (page-faults); 'uprof info --list predefined-events'",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = collect_option,
	  .data = O_EVENT },
	VALUE('p', "pid", "<pids>",
	      "attach to these running processes (comma list): all\n"
	      "their threads, and what they start later; they run on\n"
	      "untouched when collection ends (-d or Ctrl-C)",
	      O_PID),
	VALUE(0, "tid", "<tids>", "attach to these threads only (comma list)", O_TID),
	FLAG('a', "system-wide",
	     "every process on every CPU, for -d seconds or until\n"
	     "Ctrl-C (needs root or kernel.perf_event_paranoid <= 0)",
	     O_SYSTEM_WIDE),
	VALUE('c', "cpu", "<cpus>", "sample on these CPUs only (e.g. 0-3,8)", O_CPU),
	VALUE(0, "config", "<name>",
	      "collect configuration: tbp (default) or hotspots;\n"
	      "'uprof info --list collect-configs' lists them",
	      O_CONFIG),
	VALUE(0, "interval", "<n>",
	      "sample every <n> events, for every PMC event (overrides\n"
	      "each event's interval=; the timer keeps its own)",
	      O_INTERVAL),
	OPT_STRING(0, "timer-interval", STATE, interval_arg, "<ms>",
		   "timer period in milliseconds, fractions allowed\n"
		   "(default 1; from 0.01 to 3600000)"),
	OPT_STRING('o', "output-dir", STATE, outdir, "<dir>",
		   "where the session directory is created (default: .);\n"
		   "created if missing"),
	VALUE('d', "duration", "<s>", "stop collecting after <s> seconds (fractions allowed)",
	      O_DURATION),
	OPT_STRING('w', "working-dir", STATE, workdir, "<dir>", "the program's working directory"),
	VALUE(0, "affinity", "<cpus>", "run the program on these CPUs only (e.g. 0-3,8)",
	      O_AFFINITY),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "env-var",
	  .argh = "<N=V>[;..]",
	  .help = "add to the program's environment",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = collect_option,
	  .data = O_ENV_VAR },
	VALUE(0, "trace", "<what>",
	      "openmp: also trace OpenMP regions, waits and locks,\n"
	      "through OMPT (man uprof-openmp);\n"
	      "mpi[=<family>][,lwt|full]: also trace the MPI calls of\n"
	      "each rank (implies --mpi): time, calls and bytes per\n"
	      "function, peer and collective (full: also each call, for\n"
	      "report --export perfetto); family openmpi or mpich\n"
	      "(default: the one the program is linked with, or for\n"
	      "python3 its mpi4py's); with\n"
	      "--trace openmp too, both in the job's report (each\n"
	      "rank's OpenMP);\n"
	      "os[=<ev>[:<us>],..]: system calls, thread states and\n"
	      "off-CPU time by call stack (ev: syscall, pthread,\n"
	      "sched, pagefault; <us>: list calls this slow; needs\n"
	      "root and tracefs; man uprof-collect)",
	      O_TRACE),
	VALUE(0, "osrt-threshold", "<ns>",
	      "--trace os: the slowest calls listed take at least\n"
	      "<ns> (pthread:<ns> and syscall:<ns> too; default 1000)",
	      O_OSRT_THRESHOLD),
	VALUE(0, "max-threads", "<n>",
	      "--trace os: model the first <n> threads, count the\n"
	      "records of later ones (default: every thread)",
	      O_MAX_THREADS),
	VALUE(0, "buffer-size", "<pages>",
	      "--trace os: data pages per CPU ring, a power of two\n"
	      "(default 1024; the same as -m)",
	      O_BUFFER_SIZE),
	VALUE(0, "func", "<mod:pat,..>",
	      "--trace os: count the calls of the functions of module\n"
	      "<mod> (the program's name, a library's, or a path)\n"
	      "named by glob <pat> (uprobes; report's FUNCTION COUNTS)",
	      O_FUNC),
	VALUE(0, "exclude-func", "<mod:pat,..>",
	      "--func: leave out these functions",
	      O_EXCLUDE_FUNC),
	FLAG(0, "omp", "the same as --trace openmp", O_OMP),
	VALUE(0, "openmp-impl", "<i>",
	      "ompt (default: the runtime's OMPT, LLVM libomp) or\n"
	      "omplib (gcc programs: LLVM libomp stands in for libgomp,\n"
	      "so the timings are libomp's; collect warns)",
	      O_OMP_IMPL),
	VALUE(0, "openmp-scope", "<s>", "basic (default) or full (every wait recorded too)",
	      O_OMP_SCOPE),
	OPT_BOOL(0, "no-inherit", STATE, no_inherit, "do not follow threads and child processes"),
	OPT_BOOL(0, "no-buildid-cache", STATE, no_buildid_cache,
		 "do not copy the profiled binaries into the build-id\n"
		 "cache (~/.debug, or $PERF_BUILDID_DIR), where\n"
		 "report and perf find them after they move"),
	OPT_BOOL(0, "start-paused", STATE, start_paused,
		 "start with sampling paused; the program resumes it with\n"
		 "amdProfileResume() (AMDProfileController.h)"),
	VALUE(0, "start-delay", "<s>",
	      "start sampling <s> seconds after the program (0: at once);\n"
	      "the profile, and -d, start then",
	      O_START_DELAY),
	OPT_BOOL('b', "terminate", STATE, terminate,
		 "kill the program when collection ends early (-d, signal)"),
	OPT_BOOL('q', "quiet", STATE, quiet,
		 "no status line (with -d or -a, on a terminal, CI unset:\n"
		 "elapsed, samples, lost, samples/s, 4 times a second)"),
	VALUE('m', "mmap-pages", "<n>",
	      "ring buffer pages per CPU, a power of two (default 128),\n"
	      "or their size: 4K, 1M (B, K, M, G)",
	      O_MMAP_PAGES),
	FLAG(0, "use-linux-perf", "accepted (uProf's): uprof always uses perf_event",
	     O_USE_LINUX_PERF),
	VALUE(0, "data-buffer-count", "<n>", "uProf 5.3's name for -m", O_MMAP_PAGES),
	VALUE(0, "limit-data", "<MB>",
	      "end the collection once samples.data holds this many MiB\n"
	      "(or 512K, 2G ...), as -d's end does; report says so",
	      O_LIMIT_DATA),
	VALUE(0, "limit-size", "<MB>", "uProf 4's name for --limit-data", O_LIMIT_DATA),
	FLAG('g', NULL, "collect call stacks (same as --call-graph fp)", O_G),
	VALUE(0, "call-graph", "<spec>",
	      "call stacks with every sample: fp[:<bytes>] (frame\n"
	      "pointers, and a leaf copy of <bytes> of user stack,\n"
	      "default 512, 0 none: report gives frameless leaves their\n"
	      "callers back), or\n"
	      "dwarf[:<bytes>] (copy <bytes> of user stack per sample,\n"
	      "default 8192, unwound by 'uprof report' with the CFI of\n"
	      "the binaries: works without frame pointers); fpo[:<bytes>]\n"
	      "is dwarf; uProf's <interval>:<depth>:<scope>:<fp|fpo>\n"
	      "form (scope user, kernel or all) is accepted too",
	      O_CALL_GRAPH),
	VALUE(0, "call-graph-depth", "<n>", "most frames kept per stack (2 to 1024, default 128)",
	      O_CG_DEPTH),
	VALUE(0, "call-graph-mode", "<m>", "fp, fpo or dwarf (implies call stacks)", O_CG_MODE),
	VALUE(0, "call-graph-type", "<s>",
	      "uProf 5.x's scope field: user, kernel or all (implies call\n"
	      "stacks, fp unless a mode is given)",
	      O_CG_TYPE),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "tool",
	  .argh = "<t.so>[,k=v..]",
	  .help = "load a tool of the tool API (uprof-tool(3)) and collect\n"
		  "what it asks for: call stacks (unless -g or\n"
		  "--call-graph chose), events; recorded in session.ini",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = collect_option,
	  .data = O_TOOL },
	VALUE(0, "tool-timeout", "<s>", "each tool's time limit when it is loaded (default 300)",
	      O_TOOL_TIMEOUT),
	VALUE(0, "tool-cpu", "<s>", "each tool's CPU time limit when it is loaded (default 300)",
	      O_TOOL_CPU),
	VALUE(0, "tool-memory", "<MiB>",
	      "the memory each tool may take when it is loaded\n(default 1024)", O_TOOL_MEMORY),
	OPT_BOOL(0, "mpi", STATE, mpi.on,
		 "this is one rank of an MPI job (mpirun -np N uprof\n"
		 "collect --mpi ... ./app): every rank's session goes\n"
		 "into one job directory, <dir>/uprof-<program>-HPC_MPI_\n"
		 "<job>/rank-<r>/ (uprof-mpi(7))"),
	VALUE(0, "mpi-impl", "<family>",
	      "openmpi or mpich: the interposer to use (a program of\n"
	      "the other family is refused)",
	      O_MPI_IMPL),
	OPT_INCLUDE_SAME(cli_collect_signal_options),
	OPT_INCLUDE_SAME(cli_log_options),
	OPT_INCLUDE_SAME(cli_uprof_refused_collect_options),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command collect_cmd = {
	.name = "collect",
	.usage = "usage: uprof collect [<options>] <program> [<args>]\n"
		 "       uprof collect [<options>] -p <pid>[,<pid>...] [-d <s>]\n"
		 "       uprof collect [<options>] -a [-d <s>]\n",
	.intro = "Run <program> (or attach to running processes) and sample where it spends\n"
		 "CPU time. Everything after the program name is passed to it. Writes a session\n"
		 "directory for 'uprof report'.\n",
	.outro = "Session directory: <dir>/uprof-<program>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>/\n"
		 "(mode 0700, its files 0600, whatever the umask)\n"
		 "uprof exits with the program's exit status (128+N if signal N killed it).\n",
	.options = collect_options,
	.column = 25,
	.flags = CLI_STOP_AT_OPERAND, /* everything after the program name is the program's */
};

const struct cli_option *cli_collect_options(void)
{
	return collect_options;
}

/* The combinations of options refused before anything starts; -1 to go on. */
static int check_combinations(struct collect_state *st, int argc, int first)
{
	int c = collect_omp_check(st);

	if (c >= 0)
		return c;
	if (st->wait_for_signal && st->start_delay_s > 0)
		return cli_usage_error(CMD, "--wait-for-signal and --start-delay both say when "
					    "sampling starts: give one");
	if (st->wait_for_signal) /* until SIGUSR1: a delay no run reaches (~31 years) */
		st->start_delay_s = 1e9;
	if (st->system_wide && (st->nattach || st->ntids_only))
		return cli_usage_error(CMD, "-a profiles every process: leave out -p/--tid");
	if (st->system_wide && first < argc)
		return cli_usage_error(CMD,
				       "-a profiles the whole system for -d seconds (or until "
				       "Ctrl-C), not a program: leave out -a to profile a program");
	if (st->attach && (st->has_affinity || st->nenv))
		return cli_usage_error(CMD, "--affinity and --env-var apply to a launched program, "
					    "not to -p/--tid");
	if (st->attach && first < argc)
		return cli_usage_error(CMD, "give either a program to run or -p/--tid, not both");
	if (st->attach && st->workdir)
		return cli_usage_error(CMD, "-w applies to a launched program, not to -p/--tid");
	return -1;
}

/* Returns -1 to go on, or an exit code. */
int collect_parse_options(struct collect_state *st, int argc, char **argv)
{
	int first, ret;

	ret = cli_options_parse(&collect_cmd, st, argc, argv, &first);
	if (ret >= 0 || (ret = cli_log_start(CMD, argc, argv)) >= 0)
		return ret;
	ret = check_combinations(st, argc, first);
	if (ret >= 0 || st->attach)
		return ret;
	if (first >= argc)
		return cli_usage_error(CMD, "no program to run was given (or -p <pid> to attach)");
	st->prog_argv = argv + first;
	return -1;
}
