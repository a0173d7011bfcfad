// SPDX-License-Identifier: MIT
/*
 * uprof pcm roofline: measure the machine's ceilings (lib/metric's roofline_bench.c), run
 * the program with its FP counter (configs/pcm/fp.ini's FLOPS) and the memory group's
 * Data Fabric events (configs/pcm/memory.ini) where the PMU has them, and write the
 * roofline file (lib/metric's format) and, with --html, its chart. Where a counter cannot
 * be opened the file says which and why, and has no point. -i re-draws a saved file
 * without measuring.
 */
#include "cli/pcm.h"
#include "cli/roofline.h"
#include "cli/options.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "pcm roofline";

struct rl_state {
	const char *out_path, *out_dir, *in_path;
	bool html;
	char csv_path[PATH_MAX], html_path[PATH_MAX], prog_path[PATH_MAX];
	char **prog_argv;
	struct mtr_roofline *r;
	struct pmc_pmus *pmus;
	struct pmc_topo *topo;
	struct pmc_cpuid cpuid;
	/* the program's counters */
	struct pmc_evlist *evl;
	int nflops; /* events [0, nflops) are FP, the rest DRAM */
	struct smp_child child;
	bool launch_failed; /* the program could not be started: no file */
};

#define STATE struct rl_state

static const struct cli_option roofline_options[] = {
	OPT_STRING('o', "output", STATE, out_path, "<file.csv>", "write the roofline file here"),
	OPT_STRING('O', "output-dir", STATE, out_dir, "<dir>",
		   "write <dir>/report.csv (the directory is made if needed)"),
	OPT_BOOL(0, "html", STATE, html, "also write report.html beside it: the log-log chart"),
	OPT_STRING('i', "input", STATE, in_path, "<dir|file>",
		   "draw a saved run (<dir>/report.csv) again: no measuring;\n"
		   "the point is recomputed from its recorded counts"),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command roofline_cmd = {
	.name = "pcm roofline",
	.usage =
		"usage: uprof pcm roofline (-o <file.csv> | -O <dir>) [--html] [-- <program> [<args>]]\n"
		"       uprof pcm roofline -i <dir|file.csv> [-o <file.csv> | -O <dir>] [--html]\n",
	.intro =
		"Measure this machine's ceilings with built-in kernels (peak DP and SP FLOP/s per core\n"
		"and for all cores, DRAM triad bandwidth, L1/L2/L3 read bandwidth where sysfs gives\n"
		"the cache sizes, the nominal peak from /proc/cpuinfo) and place the program's point\n"
		"(FLOPs per DRAM byte, GFLOP/s) from its FP and Data Fabric counters where the PMU\n"
		"has them; where it does not, the file says which counter could not be opened and why.\n",
	.outro = "The measured ceilings take a few seconds. See 'man uprof-pcm' (ROOFLINE).\n",
	.options = roofline_options,
	.column = 27,
	.flags = CLI_STOP_AT_OPERAND | CLI_ALIGN_LONG,
};

static int parse_args(struct rl_state *st, int argc, char **argv)
{
	int first, ret;

	ret = cli_options_parse(&roofline_cmd, st, argc, argv, &first);
	if (ret >= 0)
		return ret;
	st->prog_argv = first < argc ? argv + first : NULL;
	return -1;
}

static int check_args(struct rl_state *st)
{
	const char *slash;
	int n;

	if (st->out_path && st->out_dir)
		return cli_usage_error(CMD, "-o and -O cannot be used together");
	if (st->in_path && st->prog_argv)
		return cli_usage_error(CMD, "-i draws a saved run: it takes no program");
	if (!st->in_path && !st->out_path && !st->out_dir)
		return cli_usage_error(
			CMD, "say where to write the roofline file: -o FILE.csv or -O DIR");
	if (st->html && !st->out_path && !st->out_dir)
		return cli_usage_error(CMD,
				       "--html writes report.html beside the CSV: give -o FILE.csv "
				       "or -O DIR");
	if (st->out_dir) {
		n = snprintf(st->csv_path, sizeof(st->csv_path), "%s/report.csv", st->out_dir);
		if (n < 0 || (size_t)n >= sizeof(st->csv_path))
			return cli_usage_error(CMD, "the output path is too long");
		st->out_path = st->csv_path;
	}
	if (st->html) {
		slash = strrchr(st->out_path, '/');
		n = slash ? snprintf(st->html_path, sizeof(st->html_path), "%.*s/report.html",
				     (int)(slash - st->out_path), st->out_path)
			  : snprintf(st->html_path, sizeof(st->html_path), "report.html");
		if (n < 0 || (size_t)n >= sizeof(st->html_path))
			return cli_usage_error(CMD, "the output path is too long");
	}
	return -1;
}

/* ---- -i: a saved run ---- */

static int load_saved(struct rl_state *st)
{
	char path[PATH_MAX], err[256];
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	int fd, ret;

	snprintf(path, sizeof(path), "%s", st->in_path);
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		snprintf(path, sizeof(path), "%s/report.csv", st->in_path);
	/* O_NONBLOCK: a FIFO named there does not hang us; util_fd_read_all refuses it */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ret = util_fd_read_all(fd < 0 ? -errno : fd, MTR_RL_MAX_FILE, &buf, &len);
	if (ret == -EINVAL)
		return cli_error(1, CMD, "-i: '%s' is not a regular file", path);
	if (ret == -EFBIG)
		return cli_error(1, CMD, "-i: '%s' is over %u bytes: not a roofline file", path,
				 MTR_RL_MAX_FILE);
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret)
		return cli_error(1, CMD, "-i: cannot read '%s': %s", path, strerror(-ret));
	ret = mtr_rl_parse(buf, len, st->r, err, sizeof(err));
	free(buf);
	if (ret)
		return cli_error(1, CMD, "-i: %s: %s", path, err);
	return -1;
}

/* ---- the program's counters ---- */

static void add_missing(struct rl_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_missing(struct rl_state *st, const char *fmt, ...)
{
	size_t n = strlen(st->r->missing);
	va_list ap;

	if (n && n + 2 < sizeof(st->r->missing)) {
		memcpy(st->r->missing + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(st->r->missing + n, sizeof(st->r->missing) - n, fmt, ap);
	va_end(ap);
}

static const char *errno_name(int e)
{
	switch (e) {
	case ENODEV:
		return "ENODEV";
	case ENOENT:
		return "ENOENT";
	case EACCES:
		return "EACCES";
	case EPERM:
		return "EPERM";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EINVAL:
		return "EINVAL";
	case EBUSY:
		return "EBUSY";
	default:
		return "errno";
	}
}

/* Add the events named @only (NULL: all) of configs/pcm/<group>.ini; false (and the reason
 * in missing) when one is not there. */
static bool add_group(struct rl_state *st, const char *group, const char *only)
{
	struct mtr_config *cfg = malloc(sizeof(*cfg));
	char path[PATH_MAX], err[512];
	bool ok = cfg != NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/pcm/0x%x/%s.ini", cli_config_dir(), st->cpuid.family,
		 group);
	if (st->cpuid.family < 0 || access(path, R_OK))
		snprintf(path, sizeof(path), "%s/pcm/%s.ini", cli_config_dir(), group);
	if (ok && (ret = mtr_config_load_path(path, cfg, err, sizeof(err)))) {
		add_missing(st, "%s: %s", path, err[0] ? err : strerror(-ret));
		ok = false;
	}
	for (int i = 0; ok && i < cfg->nevents; i++) {
		const struct mtr_config_event *ce = &cfg->events[i];
		struct pmc_event ev;

		if (only && strcmp(ce->name, only))
			continue;
		ret = pmc_event_parse(ce->spec, strlen(ce->spec), st->pmus, &ev, err, sizeof(err));
		if (!ret)
			ret = pmc_event_require(&ev, st->pmus, err, sizeof(err));
		if (!ret && pmc_evlist_add(st->evl, &ev) < 0)
			ret = -ENOMEM;
		if (ret) {
			add_missing(st, "%s:%s (%s) could not be opened: %s (%s): %s", group,
				    ce->name, ce->spec, errno_name(-ret), strerror(-ret), err);
			ok = false;
		}
	}
	free(cfg);
	return ok;
}

/* Plan and open the counters on the spawned program; false with the reason in missing. */
static bool open_counters(struct rl_state *st)
{
	struct pmc_target t = { .pid = st->child.pid, .inherit = true };
	char err[512];
	int failed = -1, ret;

	st->evl = pmc_evlist_new();
	if (!st->evl || !add_group(st, "fp", "FLOPS"))
		return false;
	st->nflops = (int)pmc_evlist_nevents(st->evl);
	if (!add_group(st, "memory", NULL))
		return false;
	ret = pmc_evlist_plan(st->evl, st->pmus, st->topo, &t, err, sizeof(err));
	if (ret) {
		add_missing(st, "the FP and DRAM counters could not be planned: %s (%s): %s",
			    errno_name(-ret), strerror(-ret), err);
		return false;
	}
	ret = pmc_evlist_open(st->evl, &failed);
	if (ret) {
		struct pmc_counter_info ci = { .event = -1 };
		const struct pmc_event *ev = NULL;
		struct pmc_open_what what;

		if (failed >= 0 && !pmc_evlist_counter(st->evl, (size_t)failed, &ci))
			ev = pmc_evlist_event(st->evl, (size_t)ci.event);
		pmc_open_what_event(&what, ev,
				    ci.cpu >= 0 && ci.pid < 0 ? PMC_OPEN_CPU : PMC_OPEN_TASK);
		pmc_open_strerror(ret, &what, err, sizeof(err));
		add_missing(st, "%s could not be opened: %s (%s): %s", ev ? ev->name : "a counter",
			    errno_name(-ret), strerror(-ret), err);
		return false;
	}
	return true;
}

static void record_counts(struct rl_state *st)
{
	size_t n = pmc_evlist_ncounters(st->evl);
	struct pmc_count *c = calloc(n ? n : 1, sizeof(*c));

	if (!c || pmc_evlist_read(st->evl, c)) {
		add_missing(st, "reading the counters failed");
		free(c);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct pmc_counter_info ci;
		struct mtr_rl_counter rc = { 0 };
		const struct pmc_event *ev;

		if (pmc_evlist_counter(st->evl, i, &ci))
			continue;
		ev = pmc_evlist_event(st->evl, (size_t)ci.event);
		rc.role = ci.event < st->nflops ? MTR_RL_FLOPS : MTR_RL_DRAM;
		if (ci.cpu >= 0)
			snprintf(rc.event, sizeof(rc.event), "%s on CPU %d", ev->name, ci.cpu);
		else
			snprintf(rc.event, sizeof(rc.event), "%s", ev->name);
		rc.value = c[i].value;
		rc.enabled = c[i].enabled;
		rc.running = c[i].running;
		mtr_rl_add_counter(st->r, &rc);
	}
	free(c);
}

/* Run the program (counted where the counters opened); its exit status. */
static int run_program(struct rl_state *st)
{
	const char *what = "exec";
	char err[512], why[320];
	bool counting;
	int64_t t0, t1;
	int ret, status = 0;

	st->launch_failed = true;
	if (cli_resolve_program(st->prog_argv[0], st->prog_path, sizeof(st->prog_path), err,
				sizeof(err)))
		return cli_error(1, CMD, "%s", err);
	ret = smp_child_spawn(&st->child, st->prog_path, st->prog_argv, NULL);
	if (ret)
		return cli_error(1, CMD, "cannot start '%s': %s", st->prog_argv[0], strerror(-ret));
	counting = open_counters(st);
	signal(SIGINT, SIG_IGN); /* Ctrl-C is the program's; its end ends the run */
	t0 = cli_now_ns(CLOCK_MONOTONIC);
	ret = smp_child_release(&st->child, &what);
	if (ret) {
		waitpid(st->child.pid, NULL, 0);
		return cli_error(127, CMD, "cannot run '%s': %s failed: %s", st->prog_argv[0], what,
				 strcmp(what, "exec")
					 ? strerror(-ret)
					 : cli_exec_error(st->prog_path, -ret, why, sizeof(why)));
	}
	st->launch_failed = false;
	if (counting && pmc_evlist_enable(st->evl)) /* the uncore ones; task ones began at exec */
		add_missing(st, "the counters could not be enabled");
	while (waitpid(st->child.pid, &status, 0) < 0 && errno == EINTR)
		;
	t1 = cli_now_ns(CLOCK_MONOTONIC);
	if (counting) {
		pmc_evlist_disable(st->evl);
		record_counts(st);
	}
	signal(SIGINT, SIG_DFL);
	st->r->elapsed_ns = (uint64_t)(t1 - t0);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

/* ---- a measuring run ---- */

static void facts(struct rl_state *st)
{
	char buf[256], cpus[128];
	time_t now = time(NULL);
	struct tm tm;
	size_t n = 0;

	mtr_rl_add_fact(st->r, "Version", "uprof " UPROF_VERSION);
	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %z", &tm);
	mtr_rl_add_fact(st->r, "Measured", buf);
	mtr_rl_add_fact(st->r, "System",
			st->cpuid.model_name[0] ? st->cpuid.model_name : "unknown");
	snprintf(buf, sizeof(buf), "0x%x", st->cpuid.family);
	mtr_rl_add_fact(st->r, "Family", st->cpuid.family >= 0 ? buf : "unknown");
	pmc_cpus_format(pmc_topo_online(st->topo), cpus, sizeof(cpus));
	snprintf(buf, sizeof(buf), "%d (%s), %d cores", pmc_cpus_count(pmc_topo_online(st->topo)),
		 cpus, pmc_topo_cores(st->topo));
	mtr_rl_add_fact(st->r, "CPUs", buf);
	snprintf(buf, sizeof(buf), "%.3f", st->cpuid.mhz);
	mtr_rl_add_fact(st->r, "cpu MHz (cpuinfo)", st->cpuid.mhz > 0 ? buf : "unknown");
	if (!st->prog_argv)
		return;
	buf[0] = '\0';
	for (char **a = st->prog_argv; *a && n + 1 < sizeof(buf); a++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      a == st->prog_argv ? "" : " ", *a);
	mtr_rl_add_fact(st->r, "Program", buf);
}

static int measure(struct rl_state *st)
{
	struct mtr_rl_bench b = { .kernels = arch_rl_kernels(0),
				  .sysfs_root = pmc_sysfs_root(),
				  .procfs_root = pmc_procfs_root() };
	struct pmc_cpus cpus;
	int cpu_list[PMC_MAX_CPUS];
	char err[256] = "", cpus_text[256];
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
	facts(st);
	/* the CPUs this process may run on, among the online ones */
	cpu_set_t mask;
	if (sched_getaffinity(0, sizeof(mask), &mask))
		CPU_ZERO(&mask);
	pmc_cpus_clear(&cpus);
	for (int c = pmc_cpus_next(pmc_topo_online(st->topo), 0); c >= 0;
	     c = pmc_cpus_next(pmc_topo_online(st->topo), c + 1))
		if (c < CPU_SETSIZE && CPU_ISSET(c, &mask)) {
			pmc_cpus_set(&cpus, c);
			cpu_list[b.ncpus++] = c;
		}
	pmc_cpus_format(&cpus, cpus_text, sizeof(cpus_text));
	b.cpus = cpu_list;
	b.cpus_text = cpus_text;
	b.ncores = pmc_topo_cores(st->topo);
	b.cpuinfo_mhz = st->cpuid.mhz;
	if (!b.ncpus)
		return cli_error(1, CMD, "no online CPU is in this process's affinity mask");
	if (b.ncores > b.ncpus)
		b.ncores = b.ncpus;
	fprintf(stderr, "uprof pcm roofline: measuring the ceilings on %d CPUs (%s)...\n", b.ncpus,
		b.kernels->isa);
	ret = mtr_rl_bench_run(&b, st->r, err, sizeof(err));
	if (ret)
		return cli_error(1, CMD, "measuring the ceilings: %s",
				 err[0] ? err : strerror(-ret));
	if (!st->prog_argv)
		add_missing(st,
			    "no program was given (-- PROGRAM): only the ceilings are measured");
	return -1;
}

/* ---- output ---- */

static void summary(const struct rl_state *st)
{
	struct mtr_rl_point p;

	for (int i = 0; i < st->r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &st->r->ceilings[i];

		if (isfinite(c->value))
			fprintf(stderr, "  %-30s %10.2f %s\n", c->name, c->value,
				c->kind == MTR_RL_MEMORY ? "GB/s" : "GFLOP/s");
		else
			fprintf(stderr, "  %-30s %10s (%s)\n", c->name, "unknown", c->desc[8]);
	}
	mtr_rl_point(st->r, &p);
	if (p.placed)
		fprintf(stderr,
			"  point: %.4g FLOP/byte, %.4g GFLOP/s (%.4g FLOPs, %.4g DRAM bytes)\n",
			p.intensity, p.gflops, p.flops, p.dram_bytes);
	else
		fprintf(stderr, "  no point: %s\n", st->r->missing[0] ? st->r->missing : p.why);
}

static int write_out(struct rl_state *st, int ret)
{
	char name[NAME_MAX + 1];
	FILE *f;
	int err, dfd;

	/* the directory opened once, its files made beneath its fd (docs/DESIGN.md §4) */
	dfd = st->out_dir ? cli_output_dir(st->out_dir)
			  : cli_open_parent(st->out_path, name, sizeof(name));
	if (dfd < 0)
		return cli_error(1, CMD, "cannot write '%s': %s", st->out_path, strerror(-dfd));
	f = cli_output_fopen_at(dfd, st->out_dir ? "report.csv" : name);
	if (!f) {
		err = errno;
		close(dfd);
		return cli_error(1, CMD, "cannot write '%s': %s", st->out_path, strerror(err));
	}
	err = mtr_rl_write(st->r, f);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		close(dfd);
		return cli_error(1, CMD, "cannot write '%s': %s", st->out_path, strerror(-err));
	}
	fprintf(stderr, "Generated data file path: %s\n", st->out_path);
	if (st->html) {
		err = rl_html_write(st->r, dfd);
		if (err)
			ret = cli_error(1, CMD, "cannot write '%s': %s", st->html_path,
					strerror(-err));
		else
			fprintf(stderr, "Generated HTML report path: %s\n", st->html_path);
	}
	close(dfd);
	return ret;
}

int cmd_pcm_roofline(int argc, char **argv)
{
	struct rl_state *st = calloc(1, sizeof(*st));
	int ret;

	if (!st || !(st->r = calloc(1, sizeof(*st->r)))) {
		free(st);
		return cli_error(1, CMD, "out of memory");
	}
	ret = parse_args(st, argc, argv);
	if (ret < 0)
		ret = check_args(st);
	if (ret < 0)
		ret = st->in_path ? load_saved(st) : measure(st);
	if (ret < 0) {
		int code = st->prog_argv ? run_program(st) : 0;

		if (!st->launch_failed) {
			summary(st);
			ret = st->out_path ? write_out(st, code) : code;
		} else {
			ret = code;
		}
	}
	pmc_evlist_free(st->evl);
	pmc_topo_free(st->topo);
	pmc_pmus_free(st->pmus);
	free(st->r);
	free(st);
	return ret;
}
