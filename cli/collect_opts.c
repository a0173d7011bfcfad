// SPDX-License-Identifier: MIT
/*
 * uprof collect: the command line into struct collect_state, and the combinations of
 * options refused before anything starts.
 */
#include "cli/collect.h"

#include <errno.h>
#include <unistd.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "collect";

enum { OPT_CONFIG = 256, OPT_TIMER, OPT_NO_INHERIT, OPT_START_PAUSED, OPT_TID };
enum { OPT_CALL_GRAPH = 300, OPT_CG_DEPTH, OPT_CG_MODE, OPT_AFFINITY, OPT_ENV_VAR, OPT_START_DELAY,
       OPT_INTERVAL, OPT_TOOL, OPT_TOOL_TIMEOUT, OPT_MPI, OPT_TRACE, OPT_MPI_IMPL };
enum { OPT_NO_BUILDID_CACHE = 350, OPT_USE_LINUX_PERF, OPT_LIMIT_DATA };
enum { OPT_OMP = 400, OPT_OMP_IMPL, OPT_OMP_SCOPE };

static const struct option collect_options[] = {
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "timer-interval", required_argument, NULL, OPT_TIMER },
	{ "output-dir", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'd' },
	{ "working-dir", required_argument, NULL, 'w' },
	{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
	{ "no-buildid-cache", no_argument, NULL, OPT_NO_BUILDID_CACHE },
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
	{ "tool", required_argument, NULL, OPT_TOOL },
	{ "tool-timeout", required_argument, NULL, OPT_TOOL_TIMEOUT },
	{ "mpi", no_argument, NULL, OPT_MPI },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "mpi-impl", required_argument, NULL, OPT_MPI_IMPL },
	{ "omp", no_argument, NULL, OPT_OMP },
	{ "openmp-impl", required_argument, NULL, OPT_OMP_IMPL },
	{ "openmp-scope", required_argument, NULL, OPT_OMP_SCOPE },
	/* uProf's, answered in words (issue 16): see collect_compat() */
	{ "use-linux-perf", no_argument, NULL, OPT_USE_LINUX_PERF },
	{ "limit-data", required_argument, NULL, OPT_LIMIT_DATA },
	{ "limit-size", required_argument, NULL, OPT_LIMIT_DATA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define COLLECT_SHORTOPTS "+:o:d:w:bm:p:e:hgac:q"

const struct option *cli_collect_options(const char **shortopts)
{
	*shortopts = COLLECT_SHORTOPTS;
	return collect_options;
}

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
		shift = strchr("bB", *end) ? 0 : strchr("kK", *end) ? 10 : strchr("mM", *end) ? 20
			: strchr("gG", *end) ? 30 : -1;
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
int collect_parse_options(struct collect_state *st, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 1;
	/* '+': stop at the program name, everything after it is the program's */
	while ((c = getopt_long(argc, argv, COLLECT_SHORTOPTS, collect_options, NULL)) != -1) {
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
		case 'q':
			st->quiet = true;
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
			/* uProf's last one wins silently; a session has one config here, so two
			 * that differ are refused rather than one dropped unsaid */
			if (st->config_name && strcmp(st->config_name, optarg))
				return cli_error(EXIT_USAGE, CMD, "--config given twice ('%s' and '%s'): "
						 "a session has one config; add events to it with -e",
						 st->config_name, optarg);
			st->config_name = optarg;
			break;
		case OPT_USE_LINUX_PERF:
			fprintf(stderr, "uprof %s: note: --use-linux-perf changes nothing: uprof "
					"always samples through perf_event_open\n", CMD);
			break;
		case OPT_LIMIT_DATA:
			return cli_error(EXIT_USAGE, CMD, "--limit-data is not supported: a session's "
					 "size is bounded by -d/--duration; samples.data is not cut at "
					 "a size (a cut file loses the end of the run unsaid)");
		case OPT_TIMER:
			st->interval_arg = optarg;
			break;
		case 'o':
			st->outdir = optarg;
			break;
		case 'd':
			if (parse_duration(optarg, &st->duration_s))
				return cli_error(EXIT_USAGE, CMD,
						 "-d/--duration '%s' is not a positive number of "
						 "seconds (a finite number above 0: 10, 0.5, 1e3)",
						 optarg);
			break;
		case 'w':
			st->workdir = optarg;
			break;
		case OPT_NO_INHERIT:
			st->no_inherit = true;
			break;
		case OPT_NO_BUILDID_CACHE:
			st->no_buildid_cache = true;
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
						 "-m/--mmap-pages '%s' must be a power of two from 1 to 65536 "
						 "pages, or a size of that many (4K, 1M: B, K, M, G)",
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
		case OPT_TOOL:
			ret = cli_tools_add(&st->tools, optarg, CMD);
			if (ret >= 0)
				return ret;
			break;
		case OPT_TOOL_TIMEOUT:
			ret = cli_tools_timeout(&st->tools, optarg, CMD);
			if (ret >= 0)
				return ret;
			break;
		case OPT_MPI:
			st->mpi.on = true;
			break;
		case OPT_MPI_IMPL:
			ret = collect_mpi_impl_parse(st, optarg);
			if (ret >= 0)
				return ret;
			break;
		case OPT_TRACE:
		case OPT_OMP:
			ret = collect_trace_parse(st, c == OPT_OMP ? "openmp" : optarg);
			if (ret >= 0)
				return ret;
			break;
		case OPT_OMP_IMPL:
		case OPT_OMP_SCOPE:
			ret = collect_omp_parse_option(st, c == OPT_OMP_IMPL, optarg);
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
	c = collect_omp_check(st);
	if (c >= 0)
		return c;
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
