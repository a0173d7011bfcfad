// SPDX-License-Identifier: MIT
/*
 * uprof translate: prepare a session so that later reports are faster. The expensive
 * part of report, unwinding every sample's user stack from its registers and stack copy
 * (--call-graph dwarf), is done once and stored in <session>/translated.bin
 * (lib/unwind/unwind.h); report uses it while it still matches the session, its
 * module files and the options that change an unwind. translate writes no CSV.
 */
#include "cli/cli.h"
#include "cli/report_args.h"
#include "cli/translate_export.h"
#include "export/export.h"
#include "job/job.h"
#include "report/report.h"
#include "util/util.h"
#include "symbols/symbols.h"
#include "session/session.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *const CMD = "translate";

struct translate_state {
	struct cli_report_args a; /* -i, the paths, --time-filter, --host */
	bool quiet;
	char buildid_dir[PATH_MAX];
	struct cli_progress prog;
	bool exports[RPT_EXPORT_COUNT]; /* --export sqlite,pprof (translate_export.c) */
};

/* uProf's option that does not apply here: its reason, exit 2. */
static int vmlinux(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o;
	(void)state;
	return cli_error(EXIT_USAGE, cmd,
			 "--vmlinux-path %s: not used: kernel frames come "
			 "from the kernel's own callchain and are named from kallsyms "
			 "(--kallsyms-path)",
			 arg);
}

/* --export sqlite,pprof */
static int exports(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o;
	return cli_translate_export_parse(((struct translate_state *)state)->exports, arg, cmd);
}

#define STATE struct translate_state

static const struct cli_option translate_options[] = {
	OPT_INCLUDE(cli_input_options, STATE, a),
	OPT_BOOL(0, "retranslate", STATE, a.opts.retranslate,
		 "translate again even when translated.bin is\n"
		 "up to date"),
	OPT_INCLUDE(cli_binary_path_options, STATE, a),
	{ .kind = CLI_OPTK_STRING,
	  .long_name = "kallsyms-path",
	  .offset = offsetof(STATE, a.opts.kallsyms),
	  .flags = CLI_OPT_HIDDEN }, /* uProf's name */
	OPT_INCLUDE(cli_time_filter_options, STATE, a),
	OPT_INCLUDE(cli_host_options, STATE, a),
	OPT_BOOL('q', "quiet", STATE, quiet, "no progress line"),
	OPT_CALLBACK(0, "export", "<sqlite,pprof>",
		     "then write report.db (sqlite) and/or\n"
		     "profile.pb.gz (pprof) into the session, as\n"
		     "'uprof report --export' would",
		     exports, 0),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "vmlinux-path",
	  .fn = vmlinux,
	  .flags = CLI_OPT_HIDDEN },
	OPT_INCLUDE(cli_refused_translate_options, STATE, a),
	OPT_INCLUDE_SAME(cli_log_options),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command translate_cmd = {
	.name = "translate",
	.usage = "usage: uprof translate -i <session-dir> [<options>]\n"
		 "       uprof translate [<options>] <session-dir>\n",
	.intro = "Prepare a session for faster reports: unwind every sample's user stack\n"
		 "(sessions of --call-graph dwarf) once, and store the stacks in\n"
		 "<session-dir>/translated.bin (mode 0600). 'uprof report' then uses them\n"
		 "while samples.data, the module files and the options below are as they\n"
		 "were, and unwinds again (saying why) when not: report.csv is the same\n"
		 "either way. Writes no CSV. A session without dwarf stacks gains nothing.\n",
	.outro = "The options read as uprof report's. --time-filter: report unwinds the\n"
		 "samples outside it. --host: each rank's session of the job is translated.\n"
		 "--kallsyms-path is --kallsyms (uProf's name); --category cpu is taken (the\n"
		 "only category translated). uProf's --inline, --agg-interval and\n"
		 "--vmlinux-path are refused with their reason. man uprof-translate has the\n"
		 "rest.\n",
	.options = translate_options,
	.column = 29,
};

static int parse_options(struct translate_state *st, int argc, char **argv)
{
	int first, ret;

	ret = cli_options_parse(&translate_cmd, st, argc, argv, &first);
	if (ret >= 0 || (ret = cli_log_start(CMD, argc, argv)) >= 0)
		return ret;
	if (!st->a.input && first == argc - 1)
		st->a.input = argv[first++];
	if (first < argc) {
		char msg[PATH_MAX + 32];

		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[first]);
		return cli_usage_error(CMD, msg);
	}
	if (!st->a.input)
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

/* Translate the session directory open as @dfd (borrowed), @dir its absolute path (for
 * messages). 0, or the exit code of the message said. */
static int translate_one(struct translate_state *st, int dfd, const char *dir)
{
	struct rpt_options o = st->a.opts;
	struct rpt_translated_stats stats;
	char err[PATH_MAX + 256], why[640];
	struct rpt *r = NULL;
	int ret;

	if (!o.retranslate && rpt_translated_check(dfd, &o, why, sizeof(why)) == 0) {
		printf("%s: nothing to do (--retranslate translates again)\n", why);
		return cli_translate_exporting(st->exports)
			       ? cli_translate_export(st->exports, &st->a.opts, dfd, dir, CMD)
			       : 0;
	}
	o.retranslate = true; /* keep every unwind, and use no old file */
	o.translate_only = true;
	cli_progress_init(&st->prog, cli_progress_wanted(st->quiet), 1.0);
	o.progress = cli_report_progress;
	o.progress_arg = &st->prog;
	ret = rpt_open_at(&r, dfd, dir, &o, err, sizeof(err));
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
	if (cli_translate_exporting(st->exports))
		return cli_translate_export(st->exports, &st->a.opts, dfd, dir, CMD);
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

/* An MPI job directory (open as @jobfd): each selected rank's session, in job.ini's
 * order, each beneath @jobfd with no symlink followed. */
static int translate_job(struct translate_state *st, int jobfd, const char *jobdir)
{
	struct ses_job j;
	char err[256], dir[PATH_MAX + 80];
	int ret = 0, done = 0;

	if (ses_job_read_at(jobfd, &j, err, sizeof(err)))
		return cli_error(1, CMD, "%s/" SES_JOB_FILE ": %s", jobdir, err);
	for (size_t i = 0; i < j.nranks && ret != EXIT_USAGE; i++) {
		int rc, rfd;

		if (!host_selected(st->a.hosts, j.ranks[i].host))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", jobdir, j.ranks[i].session);
		printf("rank %d (%s):\n", j.ranks[i].rank, j.ranks[i].host);
		fflush(stdout);
		rfd = util_at_dir(jobfd, j.ranks[i].session);
		rc = rfd < 0 ? cli_error(1, CMD, "%s: %s", dir,
					 rfd == -ELOOP ? "a symbolic link; not followed"
						       : strerror(-rfd))
			     : translate_one(st, rfd, dir);
		if (rfd >= 0)
			close(rfd);
		ret = ret ? ret : rc;
		done++;
	}
	ses_job_release(&j);
	if (!done && (!st->a.hosts || !strcmp(st->a.hosts, "all")))
		return cli_error(1, CMD, "%s/" SES_JOB_FILE " lists no rank", jobdir);
	if (!done)
		return cli_error(1, CMD, "--host %s: no rank of the job ran on %s", st->a.hosts,
				 strchr(st->a.hosts, ',') ? "those hosts" : "that host");
	return ret;
}

int cmd_translate(int argc, char **argv)
{
	struct translate_state st = { 0 };
	char abs_input[PATH_MAX];
	int ret, dfd;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	/* the session (or job) directory, opened once: every file of it read and
	 * translated.bin written beneath the fd (docs/DESIGN.md §4) */
	dfd = util_dir_open(st.a.input);
	if (dfd < 0)
		return cli_error(1, CMD,
				 "'%s' is not a directory; give a session directory with -i",
				 st.a.input);
	if (!cli_fd_path(dfd, st.a.input, abs_input, sizeof(abs_input)))
		st.a.input = abs_input;
	if (rpt_buildid_default_dir(st.buildid_dir, sizeof(st.buildid_dir)))
		st.a.opts.buildid_dir = st.buildid_dir;
	if (rpt_is_job_dir_at(dfd))
		ret = translate_job(&st, dfd, st.a.input);
	else if (st.a.hosts)
		ret = cli_error(EXIT_USAGE, CMD,
				"--host selects ranks of an MPI job: '%s' is a "
				"single session",
				st.a.input);
	else
		ret = translate_one(&st, dfd, st.a.input);
	close(dfd);
	return ret;
}
