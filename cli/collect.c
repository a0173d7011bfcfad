// SPDX-License-Identifier: MIT
/*
 * uprof collect: options, checks before anything is started, the session directory,
 * and opening the events on the gated child. The sampling loop is in collect_run.c.
 */
#include "cli/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "collect";

static void collect_help(void)
{
	printf("usage: uprof collect [<options>] <program> [<args>]\n"
	       "       uprof collect [<options>] -p <pid>[,<pid>...] [-d <s>]\n"
	       "       uprof collect [<options>] -a [-d <s>]\n\n"
	       "Run <program> (or attach to running processes) and sample where it spends\n"
	       "CPU time. Everything after the program name is passed to it. Writes a session\n"
	       "directory for 'uprof report'.\n\n"
	       "  -e, --event <spec>     sample this event instead of the config's (repeatable):\n"
	       "                         event=NAME|pmcxNNN|timer[,interval=N][,umask=..][,user=..]\n"
	       "                         [,os=..], a uProf name (RETIRED_INST), a perf software\n"
	       "                         event (page-faults); 'uprof info --list predefined-events'\n"
	       "  -p, --pid <pids>       attach to these running processes (comma list): all\n"
	       "                         their threads, and what they start later; they run on\n"
	       "                         untouched when collection ends (-d or Ctrl-C)\n"
	       "  --tid <tids>           attach to these threads only (comma list)\n"
	       "  -a, --system-wide      every process on every CPU, for -d seconds or until\n"
	       "                         Ctrl-C (needs root or kernel.perf_event_paranoid <= 0)\n"
	       "  -c, --cpu <cpus>       sample on these CPUs only (e.g. 0-3,8)\n"
	       "  --config <name>        collect configuration: tbp (default) or hotspots;\n"
	       "                         'uprof info --list collect-configs' lists them\n"
	       "  --interval <n>         sample every <n> events, for every PMC event (overrides\n"
	       "                         each event's interval=; the timer keeps its own)\n"
	       "  --timer-interval <ms>  timer period in milliseconds, fractions allowed\n"
	       "                         (default 1; from 0.01 to 3600000)\n"
	       "  -o, --output-dir <dir> where the session directory is created (default: .);\n"
	       "                         created if missing\n"
	       "  -d, --duration <s>     stop collecting after <s> seconds (fractions allowed)\n"
	       "  -w, --working-dir <dir> the program's working directory\n"
	       "  --affinity <cpus>      run the program on these CPUs only (e.g. 0-3,8)\n"
	       "  --env-var <N=V>[;..]   add to the program's environment (repeatable)\n"
	       "  --no-inherit           do not follow threads and child processes\n"
	       "  --start-paused         start with sampling paused; the program resumes it with\n"
	       "                         amdProfileResume() (AMDProfileController.h)\n"
	       "  --start-delay <s>      start sampling <s> seconds after the program (0: at once);\n"
	       "                         the profile, and -d, start then\n"
	       "  -b, --terminate        kill the program when collection ends early (-d, signal)\n"
	       "  -m, --mmap-pages <n>   ring buffer pages per CPU, a power of two (default 128)\n"
	       "  -g                     collect call stacks (same as --call-graph fp)\n"
	       "  --call-graph <spec>    call stacks with every sample: fp (frame pointers), or\n"
	       "                         dwarf[:<bytes>] (copy <bytes> of user stack per sample,\n"
	       "                         default 8192, unwound by 'uprof report' with the CFI of\n"
	       "                         the binaries: works without frame pointers); fpo[:<bytes>]\n"
	       "                         is dwarf; uProf's <interval>:<depth>:<scope>:<fp|fpo>\n"
	       "                         form (scope user, kernel or all) is accepted too\n"
	       "  --call-graph-depth <n> most frames kept per stack (2 to 1024, default 128)\n"
	       "  --call-graph-mode <m>  fp, fpo or dwarf (implies call stacks)\n"
	       "  -h, --help             this text\n\n"
	       "Session directory: <dir>/uprof-<program>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>/\n"
	       "(mode 0700, its files 0600, whatever the umask)\n"
	       "uprof exits with the program's exit status (128+N if signal N killed it).\n");
}

enum { OPT_CONFIG = 256, OPT_TIMER, OPT_NO_INHERIT, OPT_START_PAUSED, OPT_TID };
enum { OPT_CALL_GRAPH = 300, OPT_CG_DEPTH, OPT_CG_MODE, OPT_AFFINITY, OPT_ENV_VAR, OPT_START_DELAY,
       OPT_INTERVAL };

static const struct option collect_options[] = {
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "timer-interval", required_argument, NULL, OPT_TIMER },
	{ "output-dir", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'd' },
	{ "working-dir", required_argument, NULL, 'w' },
	{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
	{ "start-paused", no_argument, NULL, OPT_START_PAUSED },
	{ "terminate", no_argument, NULL, 'b' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "event", required_argument, NULL, 'e' },
	{ "pid", required_argument, NULL, 'p' },
	{ "system-wide", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "call-graph-depth", required_argument, NULL, OPT_CG_DEPTH },
	{ "call-graph-mode", required_argument, NULL, OPT_CG_MODE },
	{ "affinity", required_argument, NULL, OPT_AFFINITY },
	{ "start-delay", required_argument, NULL, OPT_START_DELAY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "env-var", required_argument, NULL, OPT_ENV_VAR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_duration(const char *s, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || end == s || !(d > 0) || d > 31536000.0)
		return -EINVAL;
	*out = d;
	return 0;
}

static int parse_pages(const char *s, size_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || s[0] == '-' || !v || (v & (v - 1)) || v > 65536)
		return -EINVAL;
	*out = v;
	return 0;
}

/* -g, --call-graph, --call-graph-depth/-mode. Returns -1 to go on, or an exit code. */
static int parse_callgraph(struct collect_state *st, int opt, const char *arg)
{
	char err[160];
	int ret = 0;

	switch (opt) {
	case 'g':
		st->cg.mode = PMC_CG_FP;
		return -1;
	case OPT_CALL_GRAPH:
		ret = pmc_callgraph_parse(arg, &st->cg, err, sizeof(err));
		break;
	case OPT_CG_DEPTH:
		ret = pmc_callgraph_set_depth(&st->cg, arg, err, sizeof(err));
		break;
	case OPT_CG_MODE:
		ret = pmc_callgraph_set_mode(&st->cg, arg, err, sizeof(err));
		break;
	}
	if (ret)
		return cli_error(EXIT_USAGE, CMD, "--call-graph: %s", err);
	return -1;
}

/* Returns -1 to go on, or an exit code. */
static int parse_options(struct collect_state *st, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 1;
	/* '+': stop at the program name, everything after it is the program's */
	while ((c = getopt_long(argc, argv, "+:o:d:w:bm:p:e:hgac:", collect_options, NULL)) != -1) {
		int ret;

		switch (c) {
		case 'e':
			if (st->nspecs >= SES_MAX_EVENTS)
				return cli_error(EXIT_USAGE, CMD, "at most %d -e events", SES_MAX_EVENTS);
			st->specs[st->nspecs++] = optarg;
			break;
		case 'a':
			st->system_wide = st->attach = true;
			break;
		case 'c':
			ret = collect_parse_sample_cpus(st, optarg);
			if (ret >= 0)
				return ret;
			break;
		case 'p':
		case OPT_TID:
			ret = collect_attach_parse(st, optarg, c == OPT_TID);
			if (ret >= 0)
				return ret;
			break;
		case OPT_CONFIG:
			st->config_name = optarg;
			break;
		case OPT_TIMER:
			st->interval_arg = optarg;
			break;
		case 'o':
			st->outdir = optarg;
			break;
		case 'd':
			if (parse_duration(optarg, &st->duration_s))
				return cli_error(EXIT_USAGE, CMD,
						 "-d/--duration '%s' is not a positive number of seconds",
						 optarg);
			break;
		case 'w':
			st->workdir = optarg;
			break;
		case OPT_NO_INHERIT:
			st->no_inherit = true;
			break;
		case OPT_START_PAUSED:
			st->start_paused = true;
			break;
		case 'b':
			st->terminate = true;
			break;
		case 'm':
			if (parse_pages(optarg, &st->mmap_pages))
				return cli_error(EXIT_USAGE, CMD,
						 "-m/--mmap-pages '%s' must be a power of two from 1 to 65536",
						 optarg);
			break;
		case 'g':
		case OPT_CALL_GRAPH:
		case OPT_CG_DEPTH:
		case OPT_CG_MODE:
			ret = parse_callgraph(st, c, optarg);
			if (ret >= 0)
				return ret;
			break;
		case OPT_INTERVAL: {
			char *end;

			errno = 0;
			st->pmc_interval = strtoull(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' || !st->pmc_interval ||
			    st->pmc_interval > (1ULL << 62))
				return cli_error(EXIT_USAGE, CMD,
						 "--interval '%s' is not a positive event count", optarg);
			break;
		}
		case OPT_START_DELAY: /* uProf: 0 means no delay */
			if (strcmp(optarg, "0") && parse_duration(optarg, &st->start_delay_s))
				return cli_error(EXIT_USAGE, CMD,
						 "--start-delay '%s' is not a number of seconds (0 = none)",
						 optarg);
			break;
		case OPT_AFFINITY:
			ret = collect_launch_parse_affinity(st, optarg);
			if (ret >= 0)
				return ret;
			break;
		case OPT_ENV_VAR:
			ret = collect_launch_parse_env(st, optarg);
			if (ret >= 0)
				return ret;
			break;
		case 'h':
			collect_help();
			return 0;
		default: /* ':' (a value is missing) or '?' (unknown) */
			return cli_getopt_error(CMD, c, argv);
		}
	}
	if (st->system_wide && (st->nattach || st->ntids_only))
		return cli_usage_error(CMD, "-a profiles every process: leave out -p/--tid");
	if (st->system_wide && optind < argc)
		return cli_usage_error(CMD, "-a profiles the whole system for -d seconds (or until "
					    "Ctrl-C), not a program: leave out -a to profile a program");
	if (st->attach && (st->has_affinity || st->nenv))
		return cli_usage_error(CMD, "--affinity and --env-var apply to a launched program, "
					    "not to -p/--tid");
	if (st->attach && optind < argc)
		return cli_usage_error(CMD, "give either a program to run or -p/--tid, not both");
	if (st->attach && st->workdir)
		return cli_usage_error(CMD, "-w applies to a launched program, not to -p/--tid");
	if (st->attach)
		return -1;
	if (optind >= argc)
		return cli_usage_error(CMD, "no program to run was given (or -p <pid> to attach)");
	st->prog_argv = argv + optind;
	return -1;
}

static int load_config(struct collect_state *st)
{
	char err[256], names[32][64];
	int ret, n;

	ret = cli_config_load(st->config_name ? st->config_name : "tbp", &st->config, err,
			      sizeof(err));
	if (ret == -ENOENT) {
		char list[512] = "";

		n = cli_config_list(names, 32);
		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", names[i]);
		return cli_error(EXIT_USAGE, CMD, "unknown config '%s'; known configs: %s",
				 st->config_name ? st->config_name : "tbp",
				 n ? list : "none (is the configs directory installed?)");
	}
	if (ret)
		return cli_error(1, CMD, "config '%s' is broken: %s", st->config.name, err);
	if (st->interval_arg) {
		ret = pmc_parse_interval_ms(st->interval_arg, &st->period_ns);
		if (ret == -ERANGE)
			return cli_error(EXIT_USAGE, CMD,
					 "--timer-interval %s is out of range (0.01 to 3600000 ms)",
					 st->interval_arg);
		if (ret)
			return cli_error(EXIT_USAGE, CMD,
					 "--timer-interval '%s' is not a positive number of milliseconds",
					 st->interval_arg);
	} else {
		st->period_ns = (uint64_t)(st->config.timer_interval_ms * 1e6 + 0.5);
	}
	return -1;
}

/* Find the program like execvp would, so that a typo fails before anything starts. */
static int resolve_program(struct collect_state *st)
{
	const char *name = st->prog_argv[0];
	const char *path = getenv("PATH");
	struct stat sb;

	if (!*name)
		return cli_error(1, CMD, "the program name is empty");
	if (strchr(name, '/')) {
		if (stat(name, &sb))
			return cli_error(1, CMD, "cannot run '%s': %s", name, strerror(errno));
		if (S_ISDIR(sb.st_mode))
			return cli_error(1, CMD, "cannot run '%s': it is a directory", name);
		if (access(name, X_OK))
			return cli_error(1, CMD, "cannot run '%s': not executable (%s); chmod +x it?",
					 name, strerror(errno));
		if (!realpath(name, st->prog_path))
			snprintf(st->prog_path, sizeof(st->prog_path), "%s", name);
		return -1;
	}
	for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, len ? p : ".", name);
		if (!stat(cand, &sb) && S_ISREG(sb.st_mode) && !access(cand, X_OK)) {
			if (!realpath(cand, st->prog_path))
				snprintf(st->prog_path, sizeof(st->prog_path), "%s", cand);
			return -1;
		}
		p = colon ? colon + 1 : NULL;
	}
	return cli_error(1, CMD, "program '%s' not found in PATH", name);
}

/* <out>/uprof-<app>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>[-N] (lib/session names it). */
static int make_session_dir(struct collect_state *st)
{
	const char *out = st->outdir ? st->outdir : ".";
	const char *label = st->custom ? "Custom" : st->config.label; /* uProf's labels */
	char absout[PATH_MAX];
	int ret;

	ret = ses_mkdir_p(out);
	if (ret)
		return cli_error(1, CMD, "cannot create output directory '%s': %s", out,
				 strerror(-ret));
	if (!realpath(out, absout))
		return cli_error(1, CMD, "output directory '%s': %s", out, strerror(errno));
	if (access(absout, W_OK | X_OK))
		return cli_error(1, CMD, "output directory '%s' is not writable: %s", out,
				 strerror(errno));
	ret = ses_dir_create(absout, st->prog_path, label, time(NULL), st->session_dir,
			     sizeof(st->session_dir));
	if (ret == -ENAMETOOLONG)
		return cli_error(1, CMD, "output path too long");
	if (ret == -EEXIST)
		return cli_error(1, CMD, "too many sessions started this second in '%s'", absout);
	if (ret)
		return cli_error(1, CMD, "cannot create a session directory in '%s': %s", absout,
				 strerror(-ret));
	return -1;
}

/* Append @s to @dst (@size bytes, @used so far) as one shell word: as it is when it
 * needs no quoting, else in single quotes (a quote inside as '\''). The command line in
 * session.ini and the report must say where each argument begins and ends: "a b" and
 * a, b are different programs runs. Returns the new length (may exceed @size: cut). */
static size_t put_word(char *dst, size_t size, size_t used, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+=/.,:@%^";
	bool plain = *s && strspn(s, safe) == strlen(s);

	if (plain)
		return used + (size_t)snprintf(dst + used, size - used, "%s", s);
	if (used + 1 < size)
		dst[used] = '\'', dst[++used] = 0;
	for (; *s && used + 1 < size; s++) {
		if (*s == '\'')
			used += (size_t)snprintf(dst + used, size - used, "'\\''");
		else
			dst[used] = *s, dst[++used] = 0;
	}
	if (used + 1 < size)
		dst[used] = '\'', dst[++used] = 0;
	return used;
}

static void join_args(char *dst, size_t size, char **argv)
{
	size_t used = 0;

	dst[0] = 0;
	for (int i = 0; argv[i] && used + 1 < size; i++) {
		if (i)
			used += (size_t)snprintf(dst + used, size - used, " ");
		if (used + 1 < size)
			used = put_word(dst, size, used, argv[i]);
	}
}

/* An attached process's arguments and working directory, from /proc. */
static void attach_details(struct collect_state *st)
{
	struct ses_info *in = &st->info;
	char path[64], buf[SES_STR];
	ssize_t n = 0;
	int fd;
	char *arg0_end;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)st->attach_pids[0]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		char *args[256];
		int na = 0;

		buf[n] = 0;
		arg0_end = memchr(buf, 0, (size_t)n);
		for (char *p = arg0_end; p && p < buf + n - 1 && na < 255; p += strlen(p + 1) + 1)
			args[na++] = p + 1;
		args[na] = NULL;
		join_args(in->target_args, sizeof(in->target_args), args);
	}
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)st->attach_pids[0]);
	n = readlink(path, in->working_dir, sizeof(in->working_dir) - 1);
	in->working_dir[n > 0 ? n : 0] = 0;
}

static void fill_info(struct collect_state *st, int argc, char **argv)
{
	struct ses_info *in = &st->info;
	char cmd[SES_STR];

	memset(in, 0, sizeof(*in));
	in->format_version = SES_FORMAT_VERSION;
	snprintf(in->uprof_version, sizeof(in->uprof_version), "%s", UPROF_VERSION);
	/* -e replaces the config's events: the session is a custom one, as uProf labels it */
	snprintf(in->config, sizeof(in->config), "%s", st->custom ? "custom" : st->config.name);
	snprintf(in->label, sizeof(in->label), "%s", st->custom ? "Custom" : st->config.label);
	snprintf(in->description, sizeof(in->description), "%s",
		 st->custom ? "events given with -e" : st->config.description);
	join_args(cmd, sizeof(cmd), argv);
	snprintf(in->command, sizeof(in->command), "uprof %s", cmd);
	(void)argc;
	snprintf(in->target_path, sizeof(in->target_path), "%s", st->prog_path);
	if (st->system_wide)
		snprintf(in->target_args, sizeof(in->target_args), "%s", "");
	else if (st->attach)
		attach_details(st);
	else
		join_args(in->target_args, sizeof(in->target_args), st->prog_argv + 1);
	if (st->system_wide)
		snprintf(in->working_dir, sizeof(in->working_dir), "%s", "/");
	else if (st->attach)
		; /* set by attach_details */
	else if (st->workdir)
		realpath(st->workdir, in->working_dir) ? (void)0 : (void)snprintf(
			in->working_dir, sizeof(in->working_dir), "%s", st->workdir);
	else if (!getcwd(in->working_dir, sizeof(in->working_dir)))
		snprintf(in->working_dir, sizeof(in->working_dir), "?");
	cli_system_facts(in->host, sizeof(in->host), in->cpu_model, sizeof(in->cpu_model),
			 in->kernel, sizeof(in->kernel), in->os, sizeof(in->os));
	in->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(in->cpu_mask, sizeof(in->cpu_mask), "%s", st->sample_cpu_list);
	collect_events_info(st);
	in->exit_code = -1;
	in->collector_pid = (int)getpid();
	in->attached = st->attach && !st->system_wide;
	in->system_wide = st->system_wide;
	in->status = SES_STATUS_RUNNING;
	snprintf(in->callgraph_mode, sizeof(in->callgraph_mode), "%s",
		 pmc_callgraph_mode_name(st->cg.mode)); /* "none" without stacks */
	if (st->cg.mode != PMC_CG_NONE) {
		snprintf(in->callgraph_scope, sizeof(in->callgraph_scope), "%s",
			 pmc_callgraph_scope_name(st->cg.scope));
		in->callgraph_depth = st->cg.depth;
		if (st->cg.mode == PMC_CG_DWARF)
			in->callgraph_stack_bytes = st->cg.stack_bytes;
	}
}

void collect_callgraph_attr(struct collect_state *st)
{
	int kmax = pmc_callgraph_kernel_max_stack();

	/* the default depth (uProf's 128) quietly becomes the kernel's limit */
	if (st->cg.mode == PMC_CG_FP && st->cg.depth > kmax && st->cg.depth != PMC_CG_DEFAULT_DEPTH)
		cli_warn(CMD, "call-graph depth %d is more than kernel.perf_event_max_stack (%d): "
			      "frame-pointer stacks keep %d frames",
			 st->cg.depth, kmax, kmax);
	for (int i = COLLECT_TIMER; i < st->nattrs; i++)
		pmc_callgraph_attr(&st->cg, kmax, &st->attrs[i]);
	/* perf's unwinder reads .eh_frame_hdr through the mappings of read-only segments:
	 * record data mappings too (perf record does with --call-graph dwarf) */
	if (st->cg.mode == PMC_CG_DWARF)
		st->attrs[COLLECT_TRACKING].mmap_data = 1;
}

static int explain_open_error(struct collect_state *st, int err, int failed)
{
	const char *name = st->event_names[failed > 0 && failed < st->nattrs ? failed : COLLECT_TIMER];

	switch (-err) {
	case EACCES:
	case EPERM:
		return cli_error(1, CMD,
				 "not allowed to sample (%s); kernel.perf_event_paranoid is too "
				 "high: try 'sysctl kernel.perf_event_paranoid=1' or run as root",
				 strerror(-err));
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return cli_error(1, CMD, "the %s event is not supported here (%s); see "
					 "'uprof info --system'",
				 name, strerror(-err));
	case EMFILE:
		return cli_error(1, CMD, "too many open files; raise 'ulimit -n'");
	case ENOMEM:
		return cli_error(1, CMD,
				 "cannot map the ring buffers (%s); lower -m or raise "
				 "kernel.perf_event_mlock_kb",
				 strerror(-err));
	default:
		return cli_error(1, CMD, "cannot open the %s event: %s", name, strerror(-err));
	}
}

/* Open the events on the gated child; a kernel that refuses kernel samples to this user
 * gets user-only sampling, with a warning (perf's fallback). */
static int open_events(struct collect_state *st)
{
	struct smp_opts opts = { .mmap_pages = st->mmap_pages, .cpus = st->sample_cpus,
				 .ncpus = st->nsample_cpus };
	int failed, ret;

	collect_events_build(st, true);
	ret = smp_open(&st->smp, st->attrs, st->nattrs, st->child.pid, &opts, &failed);
	if ((ret == -EACCES || ret == -EPERM) && !st->attrs[COLLECT_TIMER].exclude_kernel) {
		for (int i = COLLECT_TIMER; i < st->nattrs; i++)
			st->attrs[i].exclude_kernel = 1;
		ret = smp_open(&st->smp, st->attrs, st->nattrs, st->child.pid, &opts, &failed);
		if (!ret)
			cli_warn(CMD, "kernel samples not allowed (perf_event_paranoid); sampling "
				      "user code only");
	}
	return ret ? explain_open_error(st, ret, failed) : -1;
}

static int sink_to_writer(void *arg, const void *records, size_t len)
{
	return ses_writer_write(arg, records, len);
}

static int start(struct collect_state *st, int argc, char **argv)
{
	char vdso[PATH_MAX + 16];
	size_t nids;
	const uint64_t *ids;
	int ret;

	/* every process of the run inherits the token; their control pages carry it */
	snprintf(st->token, sizeof(st->token), "%d.%lld", (int)getpid(),
		 (long long)cli_now_ns(CLOCK_MONOTONIC));
	setenv("UPROF_SESSION", st->token, 1);
	collect_launch_env(st); /* before the ITT default below sees what the user set */
	ret = collect_pages_start(st);
	if (ret)
		return cli_error(1, CMD, "cannot set up instrumentation: %s", strerror(-ret));
	if (st->attach) {
		ret = collect_attach_open(st);
		if (ret >= 0)
			return ret;
	} else {
		/* a daemonizing target's orphans become our children, so that the end of the
		 * run can tell whether the target left processes running (collect_run.c) */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		ret = smp_child_spawn(&st->child, st->prog_path, st->prog_argv, st->workdir);
		if (ret)
			return cli_error(1, CMD, "cannot start '%s': %s", st->prog_path,
					 strerror(-ret));
		ret = collect_launch_affinity(st);
		if (ret) {
			ret = cli_error(1, CMD, "--affinity: cannot pin the program: %s",
					strerror(-ret));
			goto fail;
		}
		ret = open_events(st);
		if (ret >= 0)
			goto fail;
	}
	fill_info(st, argc, argv);
	ret = ses_info_write(st->session_dir, &st->info);
	if (ret) {
		ret = cli_error(1, CMD, "cannot write %s/session.ini: %s", st->session_dir,
				strerror(-ret));
		goto fail;
	}
	st->writer = ses_writer_open(st->session_dir);
	if (!st->writer) {
		ret = cli_error(1, CMD, "cannot create %s/samples.data: %s", st->session_dir,
				strerror(errno));
		goto fail;
	}
	for (int k = 0; k < st->nattrs; k++) {
		/* with stacks the sampling attrs go first: perf script sets up callchain
		 * handling from the first attr of each event type only */
		int i = st->cg.mode == PMC_CG_NONE ? k : k + 1 < st->nattrs ? k + 1 : 0;

		ids = smp_ids(st->smp, i, &nids);
		ses_writer_add_attr(st->writer, &st->attrs[i], ids, nids);
	}
	ids = smp_ids(st->smp, COLLECT_TRACKING, &nids);
	/* perf report names kernel functions only with perf's kernel map record */
	smp_synth_kernel(nids ? ids[0] : 0, 0, sink_to_writer, st->writer);
	if (st->attach)
		collect_attach_synth(st);
	snprintf(vdso, sizeof(vdso), "%s/vdso.so", st->session_dir);
	smp_vdso_save(vdso); /* best effort: without it report reads its own vDSO */
	return -1;
fail:
	if (!st->attach)
		smp_child_abort(&st->child);
	return ret;
}

/* A run that never started leaves nothing behind: no empty session to trip over. */
static void remove_session_dir(const struct collect_state *st)
{
	static const char *const files[] = { SES_INFO_FILE, SES_DATA_FILE, "vdso.so", SES_PAUSES_FILE,
					     "." SES_INFO_FILE ".tmp" };
	char path[PATH_MAX + 32];

	if (!st->session_dir[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", st->session_dir, files[i]);
		unlink(path);
	}
	rmdir(st->session_dir);
}

int cmd_collect(int argc, char **argv)
{
	struct collect_state st = { .sigfd = -1 };
	int ret;

	for (int i = 0; i < SES_MAX_PIDS; i++)
		st.pidfds[i] = -1;
	pmc_callgraph_init(&st.cg);
	ret = parse_options(&st, argc, argv);
	if (ret < 0)
		ret = load_config(&st);
	if (ret < 0)
		ret = collect_events_prepare(&st);
	if (ret < 0 && st.workdir) {
		struct stat sb;

		if (stat(st.workdir, &sb) || !S_ISDIR(sb.st_mode))
			ret = cli_error(1, CMD, "working directory '%s' does not exist", st.workdir);
	}
	if (ret < 0)
		ret = st.attach ? collect_attach_prepare(&st) : resolve_program(&st);
	if (ret < 0)
		ret = make_session_dir(&st);
	if (ret < 0)
		ret = start(&st, argc, argv);
	if (ret < 0)
		ret = collect_run(&st);
	else
		st.never_started = true;
	collect_pages_stop(&st, 0);
	ses_writer_close(st.writer);
	smp_close(st.smp);
	if (st.never_started)
		remove_session_dir(&st);
	for (int i = 0; i < st.nattach; i++)
		if (st.pidfds[i] >= 0)
			close(st.pidfds[i]);
	collect_launch_release(&st);
	return ret;
}
