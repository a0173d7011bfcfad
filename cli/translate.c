// SPDX-License-Identifier: MIT
/*
 * uprof translate: prepare a session so that later reports are faster. The expensive
 * part of report, unwinding every sample's user stack from its registers and stack copy
 * (--call-graph dwarf), is done once and stored in <session>/translated.bin
 * (lib/report/translated.h); report uses it while it still matches the session, its
 * module files and the options that change an unwind. translate writes no CSV.
 */
#include "cli/cli.h"
#include "job/job.h"
#include "report/report.h"
#include "symbols/symbols.h"
#include "session/session.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const CMD = "translate";

#define MAX_PATHS 32

struct translate_state {
	const char *input;
	bool quiet;
	struct rpt_options opts;
	const char *paths[2][MAX_PATHS]; /* --bin-path, --symbol-path */
	char buildid_dir[PATH_MAX];
	struct cli_progress prog;
	const char *hosts; /* --host: a job's ranks on these hosts (NULL, "all": every one) */
};

enum { OPT_BIN_PATH = 256, OPT_SYMBOL_PATH, OPT_KALLSYMS, OPT_TIME_FILTER, OPT_RETRANSLATE,
       OPT_HOST, OPT_VMLINUX, OPT_INLINE, OPT_AGG, OPT_CATEGORY };

static const struct option translate_options[] = {
	{ "input-dir", required_argument, NULL, 'i' },
	{ "bin-path", required_argument, NULL, OPT_BIN_PATH },
	{ "symbol-path", required_argument, NULL, OPT_SYMBOL_PATH },
	{ "kallsyms-path", required_argument, NULL, OPT_KALLSYMS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "time-filter", required_argument, NULL, OPT_TIME_FILTER },
	{ "retranslate", no_argument, NULL, OPT_RETRANSLATE },
	{ "category", required_argument, NULL, OPT_CATEGORY },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "vmlinux-path", required_argument, NULL, OPT_VMLINUX },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "agg-interval", required_argument, NULL, OPT_AGG },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void translate_help(void)
{
	printf("usage: uprof translate -i <session-dir> [<options>]\n"
	       "       uprof translate [<options>] <session-dir>\n\n"
	       "Prepare a session for faster reports: unwind every sample's user stack\n"
	       "(sessions of --call-graph dwarf) once, and store the stacks in\n"
	       "<session-dir>/translated.bin (mode 0600). 'uprof report' then uses them\n"
	       "while samples.data, the module files and the options below are as they\n"
	       "were, and unwinds again (saying why) when not: report.csv is the same\n"
	       "either way. Writes no CSV. A session without dwarf stacks gains nothing.\n\n"
	       "  -i, --input-dir <dir>      the session directory (required)\n"
	       "  --retranslate              translate again even when translated.bin is\n"
	       "                             up to date\n"
	       "  --bin-path <dir>           where to find a profiled binary no longer at\n"
	       "                             its path (repeatable; as uprof report's)\n"
	       "  --symbol-path <dir>        where to find separate debug files (repeatable)\n"
	       "  --kallsyms-path <file>     kernel symbols (default /proc/kallsyms)\n"
	       "  --time-filter <T1:T2>      only the samples from T1 to T2 seconds after\n"
	       "                             the profile start (report unwinds the others)\n"
	       "  --category <name>          cpu (the only category translated)\n"
	       "  --host <name,..>           an MPI job directory: only the ranks on these\n"
	       "                             hosts ('all', the default, is every host);\n"
	       "                             each rank's session is translated\n"
	       "  -q, --quiet                no progress line\n"
	       "  -h, --help                 this text\n\n"
	       "uProf's --inline, --agg-interval and --vmlinux-path are refused with their\n"
	       "reason. man uprof-translate has the rest.\n");
}

static int add_path(struct translate_state *st, int which, const char *arg)
{
	int *n = which ? &st->opts.nsymbol_paths : &st->opts.nbin_paths;
	int ret = cli_add_dir(st->paths[which], n, MAX_PATHS, which ? "symbol-path" : "bin-path",
			      arg, CMD);

	st->opts.bin_paths = st->paths[0];
	st->opts.symbol_paths = st->paths[1];
	return ret;
}

/* uProf's options that do not apply here: their reason, exit 2. */
static int refuse(int c, const char *arg)
{
	switch (c) {
	case OPT_VMLINUX:
		return cli_error(EXIT_USAGE, CMD, "--vmlinux-path %s: not used: kernel frames come "
				 "from the kernel's own callchain and are named from kallsyms "
				 "(--kallsyms-path)", arg);
	case OPT_INLINE:
		return cli_report_compat(CLI_OPT_COMPAT + 7, NULL, CMD);
	case OPT_AGG:
		return cli_report_compat(CLI_OPT_COMPAT + 5, arg, CMD);
	default:
		return cli_report_compat(CLI_OPT_COMPAT + 8, arg, CMD); /* --category */
	}
}

static int parse_options(struct translate_state *st, int argc, char **argv)
{
	int c, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:qh", translate_options, NULL)) != -1) {
		switch (c) {
		case 'i':
			st->input = optarg;
			break;
		case OPT_BIN_PATH:
		case OPT_SYMBOL_PATH:
			ret = add_path(st, c - OPT_BIN_PATH, optarg);
			if (ret >= 0)
				return ret;
			break;
		case OPT_KALLSYMS:
			st->opts.kallsyms = optarg;
			break;
		case OPT_TIME_FILTER:
			ret = cli_parse_time_filter(&st->opts, optarg, CMD);
			if (ret >= 0)
				return ret;
			break;
		case OPT_RETRANSLATE:
			st->opts.retranslate = true;
			break;
		case OPT_HOST:
			st->hosts = optarg;
			break;
		case OPT_CATEGORY:
		case OPT_VMLINUX:
		case OPT_INLINE:
		case OPT_AGG:
			ret = refuse(c, optarg);
			if (ret >= 0)
				return ret;
			break;
		case 'q':
			st->quiet = true;
			break;
		case 'h':
			translate_help();
			return 0;
		default:
			return cli_getopt_error(CMD, c, argv);
		}
	}
	if (!st->input && optind == argc - 1)
		st->input = argv[optind++];
	if (optind < argc) {
		char msg[PATH_MAX + 32];

		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[optind]);
		return cli_usage_error(CMD, msg);
	}
	if (!st->input)
		return cli_usage_error(CMD, "no session given: use -i <session-dir>");
	return -1;
}

int cli_translated_say(struct rpt *r, bool write, const char *cmd)
{
	const char *note = rpt_translated_note(r);
	char err[PATH_MAX + 128];

	if (note)
		cli_warn(cmd, "%s", note);
	if (!write)
		return 0;
	if (rpt_translated_write(r, err, sizeof(err))) {
		cli_warn(cmd, "%s", err);
		return 1;
	}
	return 0;
}

/* Translate session @dir (absolute). 0, or the exit code of the message said. */
static int translate_one(struct translate_state *st, const char *dir)
{
	struct rpt_options o = st->opts;
	struct rpt_translated_stats stats;
	char err[PATH_MAX + 256], why[640];
	struct rpt *r = NULL;
	int ret;

	if (!o.retranslate && rpt_translated_check(dir, &o, why, sizeof(why)) == 0) {
		printf("%s: nothing to do (--retranslate translates again)\n", why);
		return 0;
	}
	o.retranslate = true; /* keep every unwind, and use no old file */
	o.translate_only = true;
	cli_progress_init(&st->prog, cli_progress_wanted(st->quiet), 1.0);
	o.progress = cli_report_progress;
	o.progress_arg = &st->prog;
	ret = rpt_open(&r, dir, &o, err, sizeof(err));
	cli_progress_clear(&st->prog);
	if (ret)
		return cli_error(1, CMD, "%s", err);
	ret = rpt_translated_write(r, err, sizeof(err));
	if (ret) {
		rpt_free(r);
		return cli_error(1, CMD, "%s", err);
	}
	rpt_translated_stats(r, &stats);
	rpt_free(r);
	printf("Translation completed: %llu stack%s unwound%s\n", (unsigned long long)stats.stacks,
	       stats.stacks == 1 ? "" : "s",
	       stats.stacks ? "" : " (no --call-graph dwarf stacks: reports gain nothing)");
	printf("Generated translated file: %s/translated.bin\n", dir);
	return 0;
}

/* Is @host one of the comma list @hosts (NULL or "all": every host)? */
static bool host_selected(const char *hosts, const char *host)
{
	size_t n = strlen(host);

	if (!hosts || !strcmp(hosts, "all"))
		return true;
	for (const char *p = hosts; *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !strncmp(p, host, n))
			return true;
		p += len + (c != NULL);
	}
	return false;
}

/* An MPI job directory: each selected rank's session, in job.ini's order. */
static int translate_job(struct translate_state *st, const char *jobdir)
{
	struct ses_job j;
	char err[256], dir[PATH_MAX + 80];
	int ret = 0, done = 0;

	if (ses_job_read(jobdir, &j, err, sizeof(err)))
		return cli_error(1, CMD, "%s/" SES_JOB_FILE ": %s", jobdir, err);
	for (size_t i = 0; i < j.nranks && ret != EXIT_USAGE; i++) {
		int rc;

		if (!host_selected(st->hosts, j.ranks[i].host))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", jobdir, j.ranks[i].session);
		printf("rank %d (%s):\n", j.ranks[i].rank, j.ranks[i].host);
		fflush(stdout);
		rc = translate_one(st, dir);
		ret = ret ? ret : rc;
		done++;
	}
	ses_job_release(&j);
	if (!done && (!st->hosts || !strcmp(st->hosts, "all")))
		return cli_error(1, CMD, "%s/" SES_JOB_FILE " lists no rank", jobdir);
	if (!done)
		return cli_error(1, CMD, "--host %s: no rank of the job ran on %s", st->hosts,
				 strchr(st->hosts, ',') ? "those hosts" : "that host");
	return ret;
}

int cmd_translate(int argc, char **argv)
{
	struct translate_state st = { 0 };
	char abs_input[PATH_MAX];
	struct stat sb;
	int ret;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	if (stat(st.input, &sb) || !S_ISDIR(sb.st_mode))
		return cli_error(1, CMD, "'%s' is not a directory; give a session directory with -i",
				 st.input);
	if (realpath(st.input, abs_input))
		st.input = abs_input;
	if (rpt_buildid_default_dir(st.buildid_dir, sizeof(st.buildid_dir)))
		st.opts.buildid_dir = st.buildid_dir;
	if (rpt_is_job_dir(st.input))
		return translate_job(&st, st.input);
	if (st.hosts)
		return cli_error(EXIT_USAGE, CMD, "--host selects ranks of an MPI job: '%s' is a "
				 "single session", st.input);
	return translate_one(&st, st.input);
}
