// SPDX-License-Identifier: MIT
/* uprof report: a session directory in, report.csv and a terminal summary out. */
#include "cli/cli.h"
#include "report/report.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const CMD = "report";

struct report_state {
	const char *input;
	const char *output;	/* --report-output */
	bool to_stdout;
	struct rpt_options opts;
	char command[1024];
	char out_path[PATH_MAX];
};

static void report_help(void)
{
	printf("usage: uprof report -i <session-dir> [<options>]\n\n"
	       "Symbolize and aggregate a session written by 'uprof collect' into\n"
	       "<session-dir>/report.csv (uProf's layout) and print the hottest functions.\n\n"
	       "  -i, --input-dir <dir>      the session directory (required)\n"
	       "  --detail                   add a section per process (see --group-by)\n"
	       "  --group-by <what>          process (default), thread or module: how\n"
	       "                             --detail splits its sections\n"
	       "  --cutoff <n>               rows per section (default 10; 0 = all)\n"
	       "  --report-output <path>     write the CSV here: a path ending in .csv is the\n"
	       "                             file, any other path a directory for report.csv\n"
	       "  --stdout                   write the CSV to standard output instead\n"
	       "  --kallsyms <file>          kernel symbols (default /proc/kallsyms)\n"
	       "  -h, --help                 this text\n");
}

enum { OPT_DETAIL = 256, OPT_GROUP, OPT_CUTOFF, OPT_OUTPUT, OPT_STDOUT, OPT_KALLSYMS };

static const struct option report_options[] = {
	{ "input-dir", required_argument, NULL, 'i' },
	{ "detail", no_argument, NULL, OPT_DETAIL },
	{ "group-by", required_argument, NULL, OPT_GROUP },
	{ "cutoff", required_argument, NULL, OPT_CUTOFF },
	{ "report-output", required_argument, NULL, OPT_OUTPUT },
	{ "stdout", no_argument, NULL, OPT_STDOUT },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_cutoff(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 1000000)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int parse_options(struct report_state *st, int argc, char **argv)
{
	char msg[256];
	int c;

	st->opts.cutoff = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", report_options, NULL)) != -1) {
		switch (c) {
		case 'i':
			st->input = optarg;
			break;
		case OPT_DETAIL:
			st->opts.detail = true;
			break;
		case OPT_GROUP:
			if (!strcmp(optarg, "process"))
				st->opts.group_by = RPT_GROUP_PROCESS;
			else if (!strcmp(optarg, "thread"))
				st->opts.group_by = RPT_GROUP_THREAD;
			else if (!strcmp(optarg, "module"))
				st->opts.group_by = RPT_GROUP_MODULE;
			else
				return cli_error(EXIT_USAGE, CMD,
						 "--group-by '%s': use process, thread or module",
						 optarg);
			break;
		case OPT_CUTOFF:
			if (parse_cutoff(optarg, &st->opts.cutoff))
				return cli_error(EXIT_USAGE, CMD,
						 "--cutoff '%s' is not a row count (0 = all)", optarg);
			break;
		case OPT_OUTPUT:
			st->output = optarg;
			break;
		case OPT_STDOUT:
			st->to_stdout = true;
			break;
		case OPT_KALLSYMS:
			st->opts.kallsyms = optarg;
			break;
		case 'h':
			report_help();
			return 0;
		case ':':
			snprintf(msg, sizeof(msg), "option '%s' needs a value", argv[optind - 1]);
			return cli_usage_error(CMD, msg);
		default:
			snprintf(msg, sizeof(msg), "unknown option '%s'", argv[optind - 1]);
			return cli_usage_error(CMD, msg);
		}
	}
	if (optind < argc) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[optind]);
		return cli_usage_error(CMD, msg);
	}
	if (!st->input)
		return cli_usage_error(CMD, "no session given: use -i <session-dir>");
	return -1;
}

static int output_path(struct report_state *st)
{
	const char *o = st->output;
	size_t len = o ? strlen(o) : 0;

	if (!o)
		snprintf(st->out_path, sizeof(st->out_path), "%s/report.csv", st->input);
	else if (len > 4 && !strcmp(o + len - 4, ".csv"))
		snprintf(st->out_path, sizeof(st->out_path), "%s", o);
	else
		snprintf(st->out_path, sizeof(st->out_path), "%s/report.csv", o);
	return 0;
}

static void print_summary(const struct rpt *r, const char *written)
{
	struct rpt_summary s;
	struct rpt_row rows[10];
	int n;

	rpt_summary(r, &s);
	if (written)
		fprintf(stderr, "Generated report file: %s\n", written);
	fprintf(stderr, "%s: %llu samples (%llu lost) of CPU_TIME every %.3f ms; %.1f Hz achieved "
			"of %.1f Hz requested; %d process%s, %d thread%s\n",
		s.info->status == SES_STATUS_COMPLETE ? "Session complete" : "Session INTERRUPTED",
		(unsigned long long)s.samples, (unsigned long long)s.lost, s.period_s * 1e3,
		s.achieved_hz, s.requested_hz, s.nprocesses, s.nprocesses == 1 ? "" : "es",
		s.nthreads, s.nthreads == 1 ? "" : "s");
	if (s.damaged_at)
		fprintf(stderr, "warning: samples.data is damaged from offset %llu (%s); "
				"reported what comes before\n",
			(unsigned long long)s.damaged_at, s.damage);
	if (s.task_comma)
		fprintf(stderr, "warning: %llu task/event records skipped: names may not contain a "
				"comma (first: \"%s\")\n",
			(unsigned long long)s.task_comma, s.task_comma_name);
	if (s.task_lost)
		fprintf(stderr, "warning: the targets dropped %llu task records (ring full); "
				"task counts and times are incomplete\n",
			(unsigned long long)s.task_lost);
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 10);
	if (!n) {
		fprintf(stderr, "No samples to display.\n");
		return;
	}
	fprintf(stderr, "\n%12s %7s  %-40s %s\n", "CPU_TIME(s)", "%", "FUNCTION", "MODULE");
	for (int i = 0; i < n; i++) {
		const char *mod = strrchr(rows[i].module, '/');

		fprintf(stderr, "%12.4f %6.2f%%  %-40s %s\n", rows[i].seconds,
			s.samples ? 100.0 * rows[i].samples / s.samples : 0.0, rows[i].name,
			mod ? mod + 1 : rows[i].module);
	}
}

static void record_command(struct report_state *st, int argc, char **argv)
{
	size_t used = snprintf(st->command, sizeof(st->command), "uprof report");

	for (int i = 1; i < argc && used < sizeof(st->command); i++)
		used += snprintf(st->command + used, sizeof(st->command) - used, " %s", argv[i]);
	st->opts.report_command = st->command;
}

static int write_report(struct report_state *st, struct rpt *r)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int ret;

	if (st->to_stdout) {
		ret = rpt_write_csv(r, stdout);
		print_summary(r, NULL);
		return ret ? cli_error(1, CMD, "writing to stdout: %s", strerror(-ret)) : 0;
	}
	output_path(st);
	snprintf(tmp, sizeof(tmp), "%s.tmp", st->out_path);
	f = fopen(tmp, "we");
	if (!f)
		return cli_error(1, CMD, "cannot write '%s': %s; use --report-output <path>",
				 st->out_path, strerror(errno));
	ret = rpt_write_csv(r, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, st->out_path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return cli_error(1, CMD, "writing '%s' failed: %s", st->out_path, strerror(-ret));
	}
	print_summary(r, st->out_path);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_state st = { 0 };
	struct rpt *r = NULL;
	char err[512], abs_input[PATH_MAX];
	struct stat sb;
	int ret;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	if (stat(st.input, &sb) || !S_ISDIR(sb.st_mode))
		return cli_error(1, CMD, "'%s' is not a directory; give a session directory with -i",
				 st.input);
	record_command(&st, argc, argv);
	/* the header's Data Folder is absolute, as uProf writes it */
	if (realpath(st.input, abs_input))
		st.input = abs_input;
	ret = rpt_open(&r, st.input, &st.opts, err, sizeof(err));
	if (ret)
		return cli_error(1, CMD, "%s", err);
	ret = write_report(&st, r);
	rpt_free(r);
	return ret;
}
