// SPDX-License-Identifier: MIT
/*
 * uprof compare (and its alias diff): two sessions side by side. Each is loaded as
 * report loads it; lib/report/compare.c matches their functions, modules and programs
 * and orders them by the largest change. A table on the terminal; -o FILE writes CSV.
 */
#include "cli/cli.h"
#include "cli/report_args.h"
#include "cli/compare_html.h"
#include "job/job.h"
#include "report/report.h"
#include "util/util.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *const CMD = "compare";

#define DEFAULT_ROWS 20
#define STR(x) #x
#define XSTR(x) STR(x)

struct compare_state {
	const char *dir[2]; /* the baseline, the other */
	const char *output; /* -o: CSV file, "-" for stdout; NULL: none */
	const char *html;   /* --html: the comparison as a page (compare_html.c); NULL: none */
	int cutoff;	    /* rows on the terminal; 0 = all */
	struct cli_report_args a; /* the paths */
	char buildid_dir[PATH_MAX];
};

static int set_dir(struct compare_state *st, int k, const char *arg)
{
	if (st->dir[k])
		return cli_error(EXIT_USAGE, CMD, "%s given twice ('%s' and '%s')",
				 k ? "the other session" : "the baseline", st->dir[k], arg);
	st->dir[k] = arg;
	return -1;
}

/* --baseline (o->data 0), --with (1) */
static int dir_option(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)cmd;
	return set_dir(state, (int)o->data, arg);
}

static int output(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o;
	if (!*arg)
		return cli_error(EXIT_USAGE, cmd, "-o needs a file name");
	((struct compare_state *)state)->output = arg;
	return -1;
}

#define STATE struct compare_state

static const struct cli_option compare_options[] = {
	OPT_CALLBACK(0, "baseline", "<dir>",
		     "the baseline session (uProf's spelling; the\n"
		     "same as the first directory named)",
		     dir_option, 0),
	OPT_CALLBACK(0, "with", "<dir>", "the session compared with it (the second)", dir_option,
		     1),
	OPT_CALLBACK('o', "output", "<file>",
		     "also write the whole comparison as CSV to\n"
		     "<file> ('-': CSV on stdout, no table)",
		     output, 0),
	OPT_STRING(0, "html", STATE, html, "<file>",
		   "also write the comparison as one self-contained\n"
		   "HTML page, largest changes first"),
	OPT_INT(0, "cutoff", STATE, cutoff, "<n>", 0, 1000000, "a row count (0 = all)",
		"rows in the terminal table (default " XSTR(DEFAULT_ROWS) "; 0 = all)"),
	OPT_INCLUDE(cli_binary_path_options, STATE, a),
	OPT_INCLUDE_SAME(cli_compat_compare_options),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command compare_cmd = {
	.name = "compare",
	.usage = "usage: uprof compare [<options>] <baseline-session> <other-session>\n"
		 "       uprof diff ...  (the same command)\n",
	.intro = "Compare two sessions: every function, module and program (a program's\n"
		 "processes summed, so that runs with other pids compare) with samples in\n"
		 "either, with the baseline's value, the other's, the change and the ratio\n"
		 "(other / baseline), the largest change first. Values are CPU_TIME seconds,\n"
		 "or event counts when the sort event is not the timer. A Note line says when\n"
		 "the sessions sampled another event or interval, or a module is another\n"
		 "build (its build id differs).\n",
	.outro = "A ratio of 'new' marks a row only the other session has. man uprof-compare\n"
		 "has the rest.\n",
	.options = compare_options,
	.column = 29,
};

static int parse_options(struct compare_state *st, int argc, char **argv)
{
	int first, ret;

	st->cutoff = DEFAULT_ROWS;
	ret = cli_options_parse(&compare_cmd, st, argc, argv, &first);
	if (ret >= 0)
		return ret;
	for (; first < argc; first++) {
		if (st->dir[0] && st->dir[1])
			return cli_error(EXIT_USAGE, CMD, "'%s': compare takes two sessions",
					 argv[first]);
		ret = set_dir(st, st->dir[0] != NULL, argv[first]);
		if (ret >= 0)
			return ret;
	}
	if (!st->dir[0] || !st->dir[1])
		return cli_usage_error(CMD, "give two session directories: the baseline, then "
					    "the one to compare with it");
	return -1;
}

static int open_one(struct compare_state *st, const char *dir, struct rpt **r)
{
	char err[512];
	int dfd, ret = -1;

	/* opened once: every file of it read beneath the fd (docs/DESIGN.md §4) */
	dfd = util_dir_open(dir);
	if (dfd < 0)
		return cli_error(1, CMD, "'%s' is not a session directory", dir);
	if (rpt_is_job_dir_at(dfd))
		ret = cli_error(EXIT_USAGE, CMD,
				"'%s' is an MPI job directory: compare one "
				"rank's session in it",
				dir);
	else if (rpt_open_at(r, dfd, dir, &st->a.opts, err, sizeof(err)))
		ret = cli_error(1, CMD, "%s", err);
	close(dfd);
	return ret;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "";
}

static void print_table(const struct compare_state *st, const struct rpt_compare *c)
{
	static const char *const kind[] = { "function", "module", "program" };
	size_t n = st->cutoff && (size_t)st->cutoff < c->nrows ? (size_t)st->cutoff : c->nrows;

	printf("Baseline: %s\nWith:     %s\nValues:   %s\n", st->dir[0], st->dir[1], c->unit);
	for (int i = 0; i < c->nnotes && i < RPT_CMP_NOTES; i++)
		printf("Note: %s\n", c->notes[i]);
	if (c->nnotes > RPT_CMP_NOTES)
		printf("Note: and %d more differences\n", c->nnotes - RPT_CMP_NOTES);
	printf("\n%-8s %12s %12s %12s %8s  %s\n", "KIND", "BASELINE", "WITH", "DELTA", "RATIO",
	       "NAME");
	for (size_t i = 0; i < n; i++) {
		const struct rpt_cmp_row *r = &c->rows[i];
		char ratio[16];

		if (isinf(r->ratio))
			snprintf(ratio, sizeof(ratio), "new");
		else
			snprintf(ratio, sizeof(ratio), "%.2fx", r->ratio);
		printf("%-8s %12.4f %12.4f %+12.4f %8s  %s%s%s%s\n", kind[r->kind], r->a, r->b,
		       r->delta, ratio, r->kind == RPT_CMP_MODULE ? base_name(r->name) : r->name,
		       r->module ? " (" : "", r->module ? base_name(r->module) : "",
		       r->module ? ")" : "");
	}
	if (n < c->nrows)
		printf("(%zu more rows; --cutoff 0 shows all, -o FILE writes them as CSV)\n",
		       c->nrows - n);
}

/* -o FILE: made beneath its directory's fd, opened once (a new temp file renamed over
 * FILE, 0600 as report's files: it may be inside a session another user can write). */
static int write_csv(const struct compare_state *st, const struct rpt_compare *c)
{
	bool out = !strcmp(st->output, "-");
	char base[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int dfd = -1, ret;
	FILE *f;

	if (out) {
		f = stdout;
	} else {
		dfd = cli_open_parent(st->output, base, sizeof(base));
		f = dfd < 0 ? (errno = -dfd, NULL)
			    : util_at_replace_fopen(dfd, base, 0600, tmp, sizeof(tmp));
	}
	if (!f) {
		ret = errno;
		if (dfd >= 0)
			close(dfd);
		return cli_error(1, CMD, "cannot write '%s': %s", st->output, strerror(ret));
	}
	ret = rpt_compare_write_csv(c, st->dir[0], st->dir[1], f);
	if (!out) {
		ret = util_at_replace_fcommit(dfd, tmp, base, f, ret);
		close(dfd);
	}
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", st->output, strerror(-ret));
	if (!out)
		printf("Generated comparison file: %s\n", st->output);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_state st = { 0 };
	struct rpt *r[2] = { NULL, NULL };
	struct rpt_compare c = { 0 };
	int ret;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	if (rpt_buildid_default_dir(st.buildid_dir, sizeof(st.buildid_dir)))
		st.a.opts.buildid_dir = st.buildid_dir;
	for (int k = 0; k < 2 && ret < 0; k++)
		ret = open_one(&st, st.dir[k], &r[k]);
	if (ret >= 0)
		goto out;
	ret = rpt_compare(r[0], r[1], &c);
	if (ret) {
		ret = cli_error(1, CMD, "comparing failed: %s", strerror(-ret));
		goto out;
	}
	if (!st.output || strcmp(st.output, "-"))
		print_table(&st, &c);
	ret = st.output ? write_csv(&st, &c) : 0;
	if (!ret && st.html)
		ret = compare_write_html(st.html, &c, st.dir[0], st.dir[1]);
out:
	rpt_compare_release(&c);
	rpt_free(r[0]);
	rpt_free(r[1]);
	return ret;
}
