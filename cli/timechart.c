// SPDX-License-Identifier: MIT
/*
 * uprof timechart: effective frequency, P-state, package power and temperature at an
 * interval, written to <dir>/timechart.csv in uProf's layout (lib/timechart reads and
 * computes; this file parses the options, keeps time and writes). Runs for -d seconds,
 * until a program given exits, or until SIGINT/SIGTERM.
 */
#include "cli/cli.h"
#include "cli/options.h"
#include "pmc/pmc.h"
#include "timechart/timechart.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "timechart";

struct tc_state {
	unsigned want;	      /* enum tc_what; 0: all */
	const char *cores;    /* core=<list> of -e */
	int interval_ms;      /* -t */
	const char *duration; /* -d */
	const char *affinity; /* --affinity: the program's CPUs */
	const char *workdir;  /* -w: the program's working directory */
	const char *out_dir;  /* -o */
	const char *format;   /* -f csv|txt */
	bool list;
	double duration_s;
	char **prog_argv;
	char prog_path[PATH_MAX]; /* the program, found before anything is written */
	cpu_set_t cpus;		  /* --affinity's */
};

#define STATE struct tc_state

/* -e: a comma list of frequency, p-state, power, temperature, all, core=<cpus> */
static int event_option(const struct cli_option *opt, const char *arg, void *state, const char *cmd)
{
	static const struct {
		const char *word;
		unsigned what;
	} words[] = {
		{ "frequency", TC_FREQUENCY },	   { "p-state", TC_PSTATE },
		{ "pstate", TC_PSTATE },	   { "power", TC_POWER },
		{ "temperature", TC_TEMPERATURE }, { "all", TC_ALL },
	};
	struct tc_state *st = state;
	const char *p = arg;
	size_t n, i;

	(void)opt;
	while (*p) {
		n = strcspn(p, ",");
		if (!strncmp(p, "core=", 5)) {
			/* the CPU list runs to the end: core=0-3,8 has commas of its own only
			 * when it is last; a word after it ends it */
			const char *end = p + 5;

			while (*end && !(end[0] == ',' && !(end[1] >= '0' && end[1] <= '9')))
				end++;
			st->cores = strndup(p + 5, end - (p + 5));
			if (!st->cores)
				return cli_error(1, cmd, "out of memory");
			p = *end ? end + 1 : end;
			continue;
		}
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].word) == n && !strncmp(p, words[i].word, n))
				break;
		if (i == sizeof(words) / sizeof(words[0]))
			return cli_error(
				EXIT_USAGE, cmd,
				"-e: '%.*s' is not a timechart event (frequency, p-state, "
				"power, temperature, all, core=<cpus>); see 'uprof timechart "
				"--list'",
				(int)n, p);
		st->want |= words[i].what;
		p += n + (p[n] == ',');
	}
	return -1;
}

static const struct cli_option timechart_options[] = {
	OPT_CALLBACK('e', "event", "<events>",
		     "what to sample, comma-separated: frequency, p-state, power,\n"
		     "temperature, all (the default); core=<cpus> limits the per-core\n"
		     "columns (-e core=0-3,frequency). Repeatable",
		     event_option, 0),
	OPT_INT('t', "interval", STATE, interval_ms, "<ms>", 10, 3600000,
		"an interval of 10 to 3600000 ms",
		"sampling interval in milliseconds (at least 10; default 1000)"),
	OPT_STRING('d', "duration", STATE, duration, "<s>",
		   "stop after this many seconds (default: when the program exits,\n"
		   "or at Ctrl-C)"),
	OPT_STRING('o', "output-dir", STATE, out_dir, "<dir>",
		   "write <dir>/timechart.csv (made if needed; default\n"
		   "./AMDuProf-SWP-Timechart_<date>)"),
	OPT_STRING('f', "format", STATE, format, "csv|txt",
		   "timechart.csv (default) or timechart.txt, a fixed-width table"),
	OPT_STRING(0, "affinity", STATE, affinity, "<cpus>", "run the program on these CPUs"),
	OPT_STRING('w', "working-dir", STATE, workdir, "<dir>", "the program's working directory"),
	OPT_BOOL(0, "list", STATE, list, "the events and where this machine reads each"),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command timechart_cmd = {
	.name = "timechart",
	.usage = "usage: uprof timechart [-e <events>] [-t <ms>] [-d <s>] [-o <dir>] [-f csv|txt]\n"
		 "                        [--affinity <cpus>] [-w <dir>] [<program> [<args>]]\n"
		 "       uprof timechart --list\n",
	.intro = "Sample each core's effective frequency and P-state, each package's power and\n"
		 "temperature at an interval, into uProf's timechart.csv layout. Each quantity is\n"
		 "read from the best source the machine has (APERF/MPERF MSRs, cpufreq, or\n"
		 "/proc/cpuinfo for frequency; RAPL powercap for power; hwmon for temperature);\n"
		 "stderr says which, and names the quantities it has no source for.\n",
	.outro = "$UPROF_SYSFS_ROOT, $UPROF_PROCFS_ROOT and $UPROF_DEV_ROOT replace /sys, /proc\n"
		 "and /dev (tests). See 'man uprof-timechart'.\n",
	.options = timechart_options,
	.column = 27,
	.flags = CLI_STOP_AT_OPERAND | CLI_ALIGN_LONG,
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static struct tc_roots roots(void)
{
	const char *dev = getenv("UPROF_DEV_ROOT");
	struct tc_roots r = { pmc_sysfs_root(), pmc_procfs_root(), dev && *dev ? dev : "/dev" };

	return r;
}

/* The program found and --affinity read before anything is written or said */
static int check_program(struct tc_state *st)
{
	char err[512];
	struct pmc_cpus cpus;
	struct stat sb;

	if (cli_resolve_program(st->prog_argv[0], st->prog_path, sizeof(st->prog_path), err,
				sizeof(err)) < 0)
		return cli_error(1, CMD, "%s", err);
	if (st->workdir && (stat(st->workdir, &sb) || !S_ISDIR(sb.st_mode)))
		return cli_error(EXIT_USAGE, CMD, "-w: '%s' is not a directory", st->workdir);
	if (!st->affinity)
		return -1;
	if (pmc_cpus_parse(st->affinity, strlen(st->affinity), &cpus) || !pmc_cpus_count(&cpus))
		return cli_error(EXIT_USAGE, CMD,
				 "--affinity: '%s' is not a CPU list (such as 0-3,8)",
				 st->affinity);
	CPU_ZERO(&st->cpus);
	for (int c = pmc_cpus_next(&cpus, 0); c >= 0 && c < CPU_SETSIZE;
	     c = pmc_cpus_next(&cpus, c + 1))
		CPU_SET(c, &st->cpus);
	return -1;
}

static int check_args(struct tc_state *st)
{
	char *end;
	int ret;

	if (!st->want)
		st->want = TC_ALL;
	if (!st->interval_ms)
		st->interval_ms = 1000;
	if (st->format && strcmp(st->format, "csv") && strcmp(st->format, "txt"))
		return cli_error(EXIT_USAGE, CMD, "-f: '%s' is not a format (csv or txt)",
				 st->format);
	if (st->duration) {
		errno = 0;
		st->duration_s = strtod(st->duration, &end);
		if (errno || end == st->duration || *end || !(st->duration_s > 0) ||
		    st->duration_s > 1e7)
			return cli_error(
				EXIT_USAGE, CMD,
				"-d: '%s' is not a duration in seconds (such as 10 or 0.5)",
				st->duration);
	}
	if ((st->affinity || st->workdir) && !st->prog_argv)
		return cli_usage_error(CMD, "--affinity and -w set up a program: give one");
	if (st->prog_argv) {
		ret = check_program(st);
		if (ret >= 0)
			return ret;
	}
	return -1;
}

static int list_events(void)
{
	struct tc_roots r = roots();
	struct tc_machine m;
	char err[256], missing[1024];
	int ret = tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err));

	if (ret)
		return cli_error(1, CMD, "%s", err);
	printf("%-12s %s\n", "EVENT", "SOURCE HERE");
	printf("%-12s %s\n", "frequency", tc_freq_source_name(m.freq_source));
	printf("%-12s %s\n", "p-state", tc_pstate_source_name(m.pstate_source));
	printf("%-12s %s (%d package zone%s), %s (%d core%s)\n", "power",
	       m.npackages ? "RAPL powercap energy_uj" : "none", m.npackages,
	       m.npackages == 1 ? "" : "s", m.ncores ? "amd_energy energyN_input" : "none",
	       m.ncores, m.ncores == 1 ? "" : "s");
	printf("%-12s %s (%d sensor%s)\n", "temperature", m.nthermal ? "hwmon temp1_input" : "none",
	       m.nthermal, m.nthermal == 1 ? "" : "s");
	printf("%-12s per-core columns only for these CPUs\n", "core=<cpus>");
	tc_machine_missing(&m, missing, sizeof(missing));
	if (*missing)
		printf("\ncannot fill here: %s\n", missing);
	tc_machine_close(&m);
	return 0;
}

/* uProf's default directory name: AMDuProf-SWP-Timechart_Jun-14-2023_01-02-16 */
static void default_dir(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "AMDuProf-SWP-Timechart_%b-%d-%Y_%H-%M-%S", &tm);
}

/* uProf's timestamps: the wall clock as h:m:s:ms */
static void stamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%d:%d:%d:%ld", tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

static pid_t start_program(struct tc_state *st)
{
	char err[512];
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return cli_error(-1, CMD, "fork: %s", strerror(errno));
	if (pid)
		return pid;
	if (st->affinity && sched_setaffinity(0, sizeof(st->cpus), &st->cpus))
		fprintf(stderr, "uprof timechart: --affinity %s: %s\n", st->affinity,
			strerror(errno)),
			_exit(127);
	if (st->workdir && chdir(st->workdir))
		fprintf(stderr, "uprof timechart: -w %s: %s\n", st->workdir, strerror(errno)),
			_exit(127);
	execv(st->prog_path, st->prog_argv);
	fprintf(stderr, "uprof timechart: %s: %s\n", st->prog_path,
		cli_exec_error(st->prog_path, errno, err, sizeof(err)));
	_exit(127);
}

static void sleep_until(int64_t due_ns)
{
	struct timespec ts = { due_ns / 1000000000, due_ns % 1000000000 };

	while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Sample until -d, the program's exit or a signal: rows written, or -errno */
static long run(struct tc_state *st, struct tc_machine *m, FILE *f, pid_t child, int *status)
{
	bool txt = st->format && !strcmp(st->format, "txt");
	int64_t start = cli_now_ns(CLOCK_MONOTONIC), due = start, now;
	struct tc_row row;
	char ts[32];
	long rows = 0;
	int ret;

	ret = tc_row_alloc(m, &row);
	if (!ret)
		ret = txt ? tc_txt_header(m, f) : tc_csv_header(m, f);
	while (!ret) {
		now = cli_now_ns(CLOCK_MONOTONIC);
		ret = tc_sample(m, (now - start) / 1e9, &row);
		if (ret == 1) {
			stamp(ts, sizeof(ts));
			ret = txt ? tc_txt_row(m, &row, ++rows, ts, f)
				  : tc_csv_row(m, &row, ++rows, ts, f);
		}
		if (ret < 0 || stop_signal ||
		    (child > 0 && waitpid(child, status, WNOHANG) == child) ||
		    (st->duration && (now - start) / 1e9 >= st->duration_s))
			break;
		ret = 0;
		due += (int64_t)st->interval_ms * 1000000;
		if (st->duration && due > start + (int64_t)(st->duration_s * 1e9))
			due = start + (int64_t)(st->duration_s * 1e9);
		sleep_until(due);
	}
	tc_row_free(&row);
	return ret < 0 ? ret : rows;
}

static void say_sources(const struct tc_machine *m)
{
	char missing[1024];

	if ((m->want & TC_FREQUENCY) && m->freq_source != TC_FREQ_NONE)
		fprintf(stderr, "uprof timechart: effective frequency from %s\n",
			tc_freq_source_name(m->freq_source));
	if ((m->want & TC_PSTATE) && m->pstate_source != TC_PSTATE_NONE)
		fprintf(stderr, "uprof timechart: P-state from %s\n",
			tc_pstate_source_name(m->pstate_source));
	tc_machine_missing(m, missing, sizeof(missing));
	if (*missing)
		fprintf(stderr, "uprof timechart: cannot fill here: %s\n", missing);
}

int cmd_timechart(int argc, char **argv)
{
	struct tc_state st = { 0 };
	struct tc_roots r = roots();
	struct tc_machine m;
	char err[256], dir[PATH_MAX];
	struct sigaction sa = { .sa_handler = on_stop };
	int first, ret, dfd, status = 0;
	pid_t child = 0;
	long rows;
	FILE *f;

	ret = cli_options_parse(&timechart_cmd, &st, argc, argv, &first);
	if (ret >= 0)
		return ret;
	st.prog_argv = first < argc ? argv + first : NULL;
	if (st.list)
		return list_events();
	ret = check_args(&st);
	if (ret >= 0)
		return ret;
	ret = tc_machine_open(&m, &r, st.want, st.cores, err, sizeof(err));
	if (ret)
		return cli_error(ret == -EINVAL ? EXIT_USAGE : 1, CMD, "%s", err);
	if (!st.out_dir)
		default_dir(dir, sizeof(dir));
	dfd = cli_output_dir(st.out_dir ? st.out_dir : dir);
	if (dfd < 0) {
		tc_machine_close(&m);
		return cli_error(1, CMD, "cannot make the output directory %s: %s",
				 st.out_dir ? st.out_dir : dir, strerror(-dfd));
	}
	f = cli_output_fopen_at(dfd, st.format && !strcmp(st.format, "txt") ? "timechart.txt"
									    : "timechart.csv");
	if (!f) {
		ret = cli_error(1, CMD, "cannot write timechart.%s in %s: %s",
				st.format ? st.format : "csv", st.out_dir ? st.out_dir : dir,
				strerror(errno));
		goto out;
	}
	say_sources(&m);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (st.prog_argv) {
		child = start_program(&st);
		if (child < 0) {
			ret = -child;
			fclose(f);
			goto out;
		}
	}
	rows = run(&st, &m, f, child, &status);
	if (fclose(f) && rows >= 0)
		rows = -errno;
	if (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		kill(child, SIGTERM); /* -d ended the chart before the program */
		waitpid(child, &status, 0);
	}
	if (rows < 0) {
		ret = cli_error(1, CMD, "writing the timechart failed: %s", strerror((int)-rows));
		goto out;
	}
	fprintf(stderr, "uprof timechart: %ld record%s every %d ms in %s/timechart.%s\n", rows,
		rows == 1 ? "" : "s", st.interval_ms, st.out_dir ? st.out_dir : dir,
		st.format ? st.format : "csv");
	ret = 0;
	if (child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = 1; /* the program never ran: said by the child */
out:
	close(dfd);
	tc_machine_close(&m);
	return ret;
}
