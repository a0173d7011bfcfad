// SPDX-License-Identifier: MIT
/*
 * uprof pcm: AMDuProfPcm's counting mode. Options are checked before anything starts;
 * then the metric groups are loaded, the counters planned (or printed: --dry-run) and
 * pcm_run() does the rest.
 */
#include "cli/pcm.h"
#include "cli/options.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "pcm";

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || *s == '-' || v < lo || v > hi)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int parse_levels(struct pcm_state *st, const char *arg)
{
	static const char *const names[] = { "system", "package", "ccx", "core" };
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", arg);
	st->levels = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned bit = 0;

		for (unsigned i = 0; i < 4; i++)
			if (!strcmp(tok, names[i]) || (i == 2 && !strcmp(tok, "ccd")))
				bit = 1u << i;
		if (!bit)
			return cli_error(EXIT_USAGE, CMD,
					 "-A '%s': levels are system, package, ccx, core", tok);
		st->levels |= bit;
	}
	st->levels_given = true;
	return st->levels ? 0 : cli_error(EXIT_USAGE, CMD, "-A needs a level");
}

static int parse_opt(struct pcm_state *st, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'm':
		snprintf(st->groups_arg, sizeof(st->groups_arg), "%s", arg);
		return 0;
	case 'i':
		st->user_cfg = arg;
		return 0;
	case 'a':
		st->all_cpus = true;
		return 0;
	case 'c':
		snprintf(st->cpu_arg, sizeof(st->cpu_arg), "%s", arg);
		return 0;
	case 'A':
		return parse_levels(st, arg);
	case 'C':
		st->cumulative = true;
		return 0;
	case 'I':
		return parse_uint(arg, 10, 3600000, &st->interval_ms)
			       ? cli_error(EXIT_USAGE, CMD, "-I '%s': milliseconds, 10 .. 3600000",
					   arg)
			       : 0;
	case 't':
		return parse_uint(arg, 1, 100000, &st->mux_ms)
			       ? cli_error(EXIT_USAGE, CMD, "-t '%s': milliseconds, 1 .. 100000",
					   arg)
			       : 0;
	case 'd':
		errno = 0;
		st->duration_s = strtod(arg, &end);
		if (errno || *end || end == arg || !isfinite(st->duration_s) || st->duration_s <= 0)
			return cli_error(EXIT_USAGE, CMD, "-d '%s': seconds, more than 0", arg);
		return 0;
	case 'o':
		st->out_path = arg;
		return 0;
	case 'O':
		st->out_dir = arg;
		return 0;
	case 'H':
		st->html = true;
		return 0;
	case 'D':
		st->dry_run = true;
		return 0;
	case 'p':
		return pcm_attach_parse(st, arg, false);
	case 'T':
		return pcm_attach_parse(st, arg, true);
	case 'M':
		return pcm_msr_refuse();
	case 'X':
		return 0; /* perf_event mode: uprof's only one */
	case 'x':
		return pcm_affinity_parse(st, arg);
	case 'S':
		return pcm_gate_parse_delay(st, arg);
	case 'W':
		st->wait_for_signal = true;
		return 0;
	case 'F':
		st->zen = pmc_zen_parse(arg);
		st->zen_named = true;
		return st->zen ? 0
			       : cli_error(EXIT_USAGE, CMD,
					   "--family '%s': zen3, zen4 or zen5 (the groups' events "
					   "differ per generation)",
					   arg);
	}
	return EXIT_USAGE;
}

static int pcm_option(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	int ret = parse_opt(state, (int)o->data, arg);

	(void)cmd;
	return ret ? ret : -1;
}

/* -l and -z: AMDuProfPcm's event lists, answered by info's (the same libpfm4 tables);
 * the list or the event is the whole output, so the run ends here */
static int list_events(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o, (void)arg, (void)state;
	return info_list_pmu_events_for(cmd);
}

static int show_event(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o, (void)state;
	return info_show_pmu_event(cmd, "-z", arg);
}

#define VALUE(s, l, a, h) OPT_CALLBACK(s, l, a, h, pcm_option, s)
#define FLAG(s, l, h, d) OPT_CALLBACK_NOARG(s, l, h, pcm_option, d)

static const struct cli_option pcm_options[] = {
	VALUE('m', "metrics", "<g,...>",
	      "metric groups: ipc, fp, l1, l2, dc, swpfdc, hwpfdc, tlb,\n"
	      "cache_miss, pipeline_util, avx_imix (core), l3 (L3),\n"
	      "memory, xgmi, pcie, dma, ccm_bw, cxl (Data Fabric), umc\n"
	      "(memory controllers), swi (OS: CPU utilization, context\n"
	      "switches, migrations, page faults)"),
	VALUE('i', "config-file", "<file.ini>",
	      "count the events and metrics of this user-defined group\n"
	      "file (the format: 'man uprof-pcm'); not with -m"),
	FLAG('a', "system-wide", "count on every CPU", 'a'),
	VALUE('c', "cpu", "<spec>", "count on core=N[-M] (CPUs), ccx=N, package=N or numa=N"),
	VALUE('A', "aggregate", "<l,...>",
	      "levels to show: system, package, ccx, core (default system)"),
	FLAG('C', "cumulative", "one value per metric for the whole run (not with -I)", 'C'),
	VALUE('I', "interval", "<ms>", "logging interval (default 1000, at least 10)"),
	VALUE('t', "mux-interval", "<ms>", "multiplexing interval of the PMUs in use (root)"),
	VALUE('d', "duration", "<s>", "stop after this long"),
	VALUE('o', "output", "<file.csv>", "write the CSV here (default: standard output)"),
	VALUE('O', "output-dir", "<dir>",
	      "write <dir>/report.csv (the directory is made if needed)"),
	FLAG(0, "html",
	     "also write report.html beside the CSV: a chart per metric\n"
	     "(a line per unit), the run's facts, the cumulative table\n"
	     "(needs -o or -O)",
	     'H'),
	FLAG(0, "dry-run", "print every counter's perf_event_attr and CPU; open nothing", 'D'),
	VALUE('p', "pid", "<pid>",
	      "count this running process (its main thread and the\n"
	      "threads and children it starts) until it ends"),
	OPT_CALLBACK(0, "tid", "<tid>",
		     "count this running thread (and the threads it starts)\n"
		     "until it ends",
		     pcm_option, 'T'),
	FLAG(0, "msr",
	     "AMDuProfPcm's MSR backend: refused with the reason (uprof\n"
	     "counts through perf_event)",
	     'M'),
	FLAG('X', "perf-mode", "AMDuProfPcm 4.0's perf_event mode: uprof's only one", 'X'),
	VALUE('x', "affinity", "<cpus>", "run the launched program on these CPUs only (e.g. 0-3)"),
	OPT_CALLBACK(0, "start-delay", "<ms>",
		     "start counting this long after the start (the program\n"
		     "runs from the start; 0: at once)",
		     pcm_option, 'S'),
	FLAG(0, "wait-for-signal",
	     "start counting at the first SIGUSR1 (SIGINT ends the run);\n"
	     "with --start-delay, the delay runs from the signal",
	     'W'),
	OPT_CALLBACK(0, "family", "<zen>",
		     "zen3, zen4 or zen5: the generation whose events --dry-run\n"
		     "shows (default: this CPU's)",
		     pcm_option, 'F'),
	OPT_CALLBACK_NOARG('l', "list-events", "list this CPU's core events (as 'uprof info --list\n"
			   "pmu-events')", list_events, 0),
	OPT_CALLBACK('z', "describe-event", "<pmcxNN|name>",
		     "describe one core event and its unit masks (as 'uprof\n"
		     "info --pmu-event')",
		     show_event, 0),
	OPT_INCLUDE_SAME(cli_refused_pcm_options),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command pcm_cmd = {
	.name = "pcm",
	.usage =
		"usage: uprof pcm (-m <group,...> | -i <file.ini>) [options] [-- <program> [<args>]]\n"
		"       uprof pcm top [-m <group,...>] [-I <ms>] [-d <s>] [-c <spec>]\n"
		"       uprof pcm profile (-m <group,...> | -i <file.ini>) -O <dir> [options] [-- <program> [<args>]]\n"
		"       uprof pcm roofline (-o <file.csv> | -O <dir>) [--html] [-- <program> [<args>]]\n"
		"       uprof pcm compare <baseline>,<other> [-o <file.csv>]\n",
	.intro =
		"Count core, L3, Data Fabric and software events and print metrics per interval.\n",
	.outro =
		"With a program and neither -a nor -c, the program (and its threads and children) is\n"
		"counted; uncore metrics (l3, memory) are then counted system-wide while it runs.\n"
		"'uprof pcm top' shows a live table: the system and every core, every -I ms (default\n"
		"group: ipc, or swi where there is no core PMU).\n"
		"'uprof pcm profile' writes the timeseries, the cumulative table, report.json and\n"
		"report.html of one run into -O's directory.\n"
		"'uprof pcm compare' puts two runs' cumulative tables side by side.\n"
		"'uprof pcm roofline' measures the machine's ceilings and places the program on a\n"
		"roofline chart ('uprof pcm roofline --help').\n"
		"See 'man uprof-pcm'.\n",
	.options = pcm_options,
	.column = 27,
	.flags = CLI_STOP_AT_OPERAND | CLI_ALIGN_LONG,
};

/* Options; -1 to go on, else the exit code. */
static int parse_args(struct pcm_state *st, int argc, char **argv)
{
	int first, ret;

	ret = cli_options_parse(&pcm_cmd, st, argc, argv, &first);
	if (ret >= 0 || (ret = pcm_operand_check(argc, argv, first)) >= 0)
		return ret;
	st->prog_argv = first < argc ? argv + first : NULL;
	return -1;
}

/* -O DIR: DIR/report.csv; --html: report.html in the CSV's directory. */
static int output_paths(struct pcm_state *st)
{
	const char *slash;
	int n = 0;

	if (st->out_dir) {
		n = snprintf(st->csv_path, sizeof(st->csv_path), "%s/%s", st->out_dir,
			     st->profile ? PCM_PROFILE_TIMESERIES : "report.csv");
		if (n < 0 || (size_t)n >= sizeof(st->csv_path))
			return -ENAMETOOLONG;
		st->out_path = st->csv_path;
	}
	if (!st->html)
		return 0;
	slash = strrchr(st->out_path, '/');
	if (slash)
		n = snprintf(st->html_path, sizeof(st->html_path), "%.*s/report.html",
			     (int)(slash - st->out_path), st->out_path);
	else
		n = snprintf(st->html_path, sizeof(st->html_path), "report.html");
	return n < 0 || (size_t)n >= sizeof(st->html_path) ? -ENAMETOOLONG : 0;
}

static int check_args(struct pcm_state *st)
{
	if (st->user_cfg && st->groups_arg[0])
		return cli_usage_error(CMD, "-i and -m cannot be used together (the file names "
					    "its own events and metrics)");
	if (!st->groups_arg[0] && !st->user_cfg)
		return cli_usage_error(CMD, "say what to count with -m (e.g. -m ipc,l3 or -m swi) "
					    "or -i <file.ini>");
	if (st->all_cpus && st->cpu_arg[0])
		return cli_usage_error(CMD, "-a and -c cannot be used together");
	if (st->cumulative && st->interval_ms)
		return cli_usage_error(CMD, "-C and -I cannot be used together");
	if (st->out_path && st->out_dir)
		return cli_usage_error(CMD, "-o and -O cannot be used together");
	if (st->html && !st->out_path && !st->out_dir)
		return cli_usage_error(CMD,
				       "--html writes report.html beside the CSV: give -o FILE.csv "
				       "or -O DIR");
	if (output_paths(st))
		return cli_usage_error(CMD, "the output path is too long");
	if (st->zen_named && !st->dry_run)
		return cli_usage_error(CMD, "--family needs --dry-run (a run counts this CPU's "
					    "own events)");
	if (!st->prog_argv && !st->duration_s && !st->dry_run && !st->attach_id && !st->top)
		return cli_usage_error(CMD, "use -d <seconds>, or give a program to run after --");
	/* -C has no rows: its interval only paces the checks whether an attached task
	 * (--pid/--tid) has ended, which no signal tells */
	if (!st->interval_ms)
		st->interval_ms = !st->cumulative ? 1000 : st->attach_id ? 100 : 3600000;
	if (!st->levels)
		st->levels = 1u << PMC_LEVEL_SYSTEM;
	return -1;
}

/* -c core=N[-M] | ccx=N | package=N | numa=N into target.cpus. */
static int parse_cpu_spec(struct pcm_state *st)
{
	const char *a = st->cpu_arg, *eq = strchr(a, '='), *v = eq ? eq + 1 : a;
	size_t klen = eq ? (size_t)(eq - a) : 0;
	unsigned n = 0;
	char rel[128], buf[4096];
	int len;

	if (!eq || (klen == 4 && !strncmp(a, "core", 4))) {
		if (pmc_cpus_parse(v, strlen(v), &st->target.cpus) ||
		    !pmc_cpus_count(&st->target.cpus))
			return cli_usage_error(CMD, "-c core=<CPU list>, e.g. core=0 or core=0-3");
	} else if (parse_uint(v, 0, PMC_MAX_CPUS, &n)) {
		return cli_usage_error(CMD, "-c: the unit number must be a number");
	} else if (klen == 3 && (!strncmp(a, "ccx", 3) || !strncmp(a, "ccd", 3))) {
		if (pmc_topo_unit(st->topo, PMC_LEVEL_CCX, (int)n, &st->target.cpus))
			return cli_error(EXIT_USAGE, CMD, "-c %s: this system has %d CCXs", a,
					 pmc_topo_ccxs(st->topo));
	} else if (klen == 7 && !strncmp(a, "package", 7)) {
		if (pmc_topo_unit(st->topo, PMC_LEVEL_PACKAGE, (int)n, &st->target.cpus))
			return cli_error(EXIT_USAGE, CMD, "-c %s: no such package", a);
	} else if (klen == 4 && !strncmp(a, "numa", 4)) {
		snprintf(rel, sizeof(rel), "%s/devices/system/node/node%u/cpulist",
			 pmc_sysfs_root(), n);
		len = -1;
		FILE *f = fopen(rel, "re");
		if (f) {
			len = (int)fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
		}
		if (len <= 0 || pmc_cpus_parse(buf, (size_t)len, &st->target.cpus))
			return cli_error(EXIT_USAGE, CMD, "-c %s: no such NUMA node", a);
	} else {
		return cli_usage_error(CMD, "-c takes core=N[-M], ccx=N, package=N or numa=N");
	}
	for (int c = pmc_cpus_next(&st->target.cpus, 0); c >= 0;
	     c = pmc_cpus_next(&st->target.cpus, c + 1))
		if (!pmc_cpus_has(pmc_topo_online(st->topo), c))
			return cli_error(EXIT_USAGE, CMD, "-c %s: CPU %d is not online", a, c);
	return -1;
}

static int load_system(struct pcm_state *st)
{
	int ret = pmc_pmus_load(&st->pmus);

	if (ret)
		return cli_error(1, CMD, "cannot read the PMUs in %s: %s", pmc_sysfs_root(),
				 strerror(-ret));
	ret = pmc_topo_load(&st->topo);
	if (ret)
		return cli_error(1, CMD,
				 "cannot read the CPU topology in %s/devices/system/cpu: %s",
				 pmc_sysfs_root(), strerror(-ret));
	pmc_cpuid_read(&st->cpuid);
	if (!st->zen_named)
		st->zen = pmc_zen_of(st->cpuid.family, st->cpuid.model);
	st->p0_mhz = pmc_cpu_nominal_mhz();
	return -1;
}

/* Who is counted: the program (task mode), or CPUs. */
static int choose_target(struct pcm_state *st)
{
	char err[512];

	if (st->attach_id)
		return pcm_attach_check(st);
	if (st->cpu_arg[0])
		return parse_cpu_spec(st);
	if (st->all_cpus || !st->prog_argv) {
		st->target.cpus = *pmc_topo_online(st->topo);
		return -1;
	}
	if (st->levels & ~(1u << PMC_LEVEL_SYSTEM))
		return cli_usage_error(CMD, "-A package/ccx/core need -a or -c (a program alone is "
					    "counted as a whole)");
	st->target.inherit = true;
	st->target.pid = INT_MAX; /* placeholder until the program is spawned */
	if (!st->dry_run && cli_resolve_program(st->prog_argv[0], st->prog_path,
						sizeof(st->prog_path), err, sizeof(err)))
		return cli_error(1, CMD, "%s", err);
	return -1;
}

/* Spawn the program at its gate (so task counters can follow its pid). */
static int spawn(struct pcm_state *st)
{
	char err[512];
	int ret;

	if (!st->prog_argv || st->dry_run)
		return -1;
	if (!st->prog_path[0] && cli_resolve_program(st->prog_argv[0], st->prog_path,
						     sizeof(st->prog_path), err, sizeof(err)))
		return cli_error(1, CMD, "%s", err);
	ret = smp_child_spawn(&st->child, st->prog_path, st->prog_argv, NULL);
	if (ret)
		return cli_error(1, CMD, "cannot start '%s': %s", st->prog_argv[0], strerror(-ret));
	st->have_child = true;
	if (st->target.pid > 0)
		st->target.pid = st->child.pid;
	return -1;
}

static int plan(struct pcm_state *st)
{
	char err[512];
	int ret = pmc_evlist_plan(st->mg.evl, st->pmus, st->topo, &st->target, err, sizeof(err));

	if (ret)
		return cli_error(1, CMD, "%s %s: %s", st->user_cfg ? "-i" : "-m",
				 st->user_cfg ? st->user_cfg : st->groups_arg, err);
	st->ncounters = pmc_evlist_ncounters(st->mg.evl);
	st->cinfo = calloc(st->ncounters ? st->ncounters : 1, sizeof(*st->cinfo));
	if (!st->cinfo)
		return cli_error(1, CMD, "out of memory");
	for (size_t i = 0; i < st->ncounters; i++)
		pmc_evlist_counter(st->mg.evl, i, &st->cinfo[i]);
	ret = pcm_comps_build(st);
	return ret ? ret : -1;
}

static void release(struct pcm_state *st)
{
	pcm_groups_free(st);
	free(st->cinfo);
	pmc_topo_free(st->topo);
	pmc_pmus_free(st->pmus);
}

int cmd_pcm(int argc, char **argv)
{
	struct pcm_state *st = calloc(1, sizeof(*st));
	int ret;

	if (argc > 1 && !strcmp(argv[1], "roofline")) {
		free(st);
		return cmd_pcm_roofline(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "compare")) {
		free(st);
		return cmd_pcm_compare(argc - 1, argv + 1);
	}
	if (!st)
		return cli_error(1, CMD, "out of memory");
	st->out_dfd = -1;
	if (argc > 1 && !strcmp(argv[1], "top")) { /* a command, never a program named top */
		st->top = true;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "profile")) {
		st->profile = true;
		argc--;
		argv++;
	}
	ret = parse_args(st, argc, argv);
	if (ret < 0 && st->top)
		ret = pcm_top_prepare(st);
	if (ret < 0 && st->profile)
		ret = pcm_profile_prepare(st);
	if (ret < 0)
		ret = check_args(st);
	if (ret < 0)
		ret = load_system(st);
	if (ret < 0)
		ret = choose_target(st);
	if (ret < 0 && !(ret = pcm_groups_load(st)))
		ret = -1;
	if (ret < 0)
		ret = pcm_affinity_check(st);
	if (ret < 0)
		ret = spawn(st);
	if (ret < 0 && !st->dry_run)
		ret = pcm_affinity_apply(st);
	if (ret < 0)
		ret = plan(st);
	if (ret < 0 && st->dry_run) {
		pcm_out_dry_run(st, stdout);
		ret = 0;
	}
	if (ret < 0)
		ret = pcm_run(st);
	else if (st->have_child)
		smp_child_abort(&st->child);
	release(st);
	free(st);
	return ret;
}
