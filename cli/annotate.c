// SPDX-License-Identifier: MIT
/*
 * uprof annotate: where inside a function the samples fell, on the terminal (perf
 * annotate's job, from uProf's Function Detail Data): source lines interleaved with their
 * instructions, each with its samples and share of the function, the hottest lines
 * marked. Also the options report shares for the same data in report.csv.
 */
#include "cli/cli.h"
#include "cli/report_args.h"
#include "job/job.h"
#include "report/report.h"
#include "util/util.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *const CMD = "annotate";

#define HOT_MARKED 5 /* lines marked as the hottest, by rank */
#define STR(x) #x
#define XSTR(x) STR(x)

struct annotate_state {
	struct cli_report_args a; /* -i, the paths, --function, ... */
	char buildid_dir[PATH_MAX];
	bool events; /* --show-event-count: the sort event's value beside the samples */
	double unit; /* its value per sample: seconds (CPU_TIME) or events */
	const char *unit_name;
};

#define STATE struct annotate_state

static const struct cli_option annotate_options[] = {
	OPT_INCLUDE(cli_input_options, STATE, a),
	OPT_INT(0, "cutoff", STATE, a.opts.cutoff, "<n>", 0, 1000000, "a function count (0 = all)",
		"without a function named, the n hottest\n"
		"(default 1; 0 = all)"),
	OPT_INCLUDE(cli_function_detail_options, STATE, a),
	OPT_BOOL(0, "show-event-count", STATE, events,
		 "also the sort event's value of each line and\n"
		 "instruction: event counts (samples x interval)\n"
		 "or, for CPU_TIME, seconds"),
	OPT_INCLUDE(cli_binary_path_options, STATE, a),
	OPT_INCLUDE(cli_source_path_options, STATE, a),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command annotate_cmd = {
	.name = "annotate",
	.usage = "usage: uprof annotate -i <session-dir> [<options>] [<function>...]\n",
	.intro =
		"Show where inside a function its samples fell: its source lines, each\n"
		"followed by its instructions, with the samples of each and their share of\n"
		"the function; the " XSTR(
			HOT_MARKED) " hottest lines are marked (>> and their rank). Without\n"
				    "a function named, the hottest function (or --cutoff of them). A name matches\n"
				    "a function whole, or the part before its argument list ('step' for\n"
				    "'step(double)'). The same data goes into report.csv with 'uprof report\n"
				    "--disasm' (Function Detail Data).\n",
	.outro = "Code without DWARF line information (stripped) is shown as assembly only,\n"
		 "with a note saying why. man uprof-annotate has the rest.\n",
	.options = annotate_options,
	.column = 29,
};

static int parse_options(struct annotate_state *st, int argc, char **argv)
{
	int first, ret;

	st->a.opts.cutoff = 1;
	st->a.opts.annotate = true;
	ret = cli_options_parse(&annotate_cmd, st, argc, argv, &first);
	if (ret >= 0)
		return ret;
	for (; first < argc; first++) {
		ret = cli_report_args_function(&st->a, argv[first], CMD);
		if (ret >= 0)
			return ret;
	}
	if (!st->a.input)
		return cli_usage_error(CMD, "no session given: use -i <session-dir>");
	return -1;
}

/* The rank (1..HOT_MARKED) of line @l among the hottest with samples, 0 when not. */
static int hot_rank(const struct rpt_annot *v, int l)
{
	for (size_t k = 0; k < v->nlines && k < HOT_MARKED; k++)
		if ((int)v->hottest[k] == l)
			return v->lines[l].samples ? (int)k + 1 : 0;
	return 0;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* the value column of --show-event-count, or nothing */
static void print_value(const struct annotate_state *st, uint64_t samples)
{
	if (st->events)
		printf(st->unit < 1 ? " %12.4f" : " %12.0f", (double)samples * st->unit);
}

static void print_line(const struct annotate_state *st, const struct rpt_annot *v, int l)
{
	const struct rpt_annot_line *ln = &v->lines[l];
	int rank = hot_rank(v, l);
	char where[192];

	snprintf(where, sizeof(where), "%s:%d", base_name(ln->file), ln->line);
	printf("%s%-2.0d %7.2f %8llu", rank ? ">>" : "  ", rank, ln->share,
	       (unsigned long long)ln->samples);
	print_value(st, ln->samples);
	printf("  %-22s %.*s%s%s%s\n", where, ln->text ? (int)ln->text_len : 0,
	       ln->text ? ln->text : "", ln->inlined ? "   [inlined from " : "",
	       ln->inlined ? ln->inlined : "", ln->inlined ? "]" : "");
}

static void print_one(const struct annotate_state *st, const struct rpt_annot *v, const char **said,
		      int *nsaid)
{
	int last = -2;

	printf("\n==== %s  (%s)\n", v->function, v->module);
	printf("%llu samples", (unsigned long long)v->samples);
	if (v->end > v->start)
		printf("; code 0x%llx-0x%llx", (unsigned long long)v->start,
		       (unsigned long long)v->end);
	printf("\n");
	for (int k = 0; k < 3; k++) {
		const char *why = (const char *[]){ v->no_source, v->no_text, v->no_disasm }[k];
		bool dup = false;

		for (int i = 0; why && i < *nsaid && !dup; i++)
			dup = said[i] == why; /* one note per file, not per function */
		if (!why || dup)
			continue;
		printf("Note: %s\n", why);
		if (*nsaid < 64)
			said[(*nsaid)++] = why;
	}
	if (v->nlines) {
		printf("Hottest lines:");
		for (size_t k = 0; k < v->nlines && k < HOT_MARKED; k++)
			if (v->lines[v->hottest[k]].samples)
				printf(" %s:%d %.2f%%", base_name(v->lines[v->hottest[k]].file),
				       v->lines[v->hottest[k]].line, v->lines[v->hottest[k]].share);
		printf("\n");
	}
	printf("\n    Percent  Samples%s  Source line / address: instruction\n",
	       st->events ? st->unit_name : "");
	for (size_t i = 0; i < v->ninsns; i++) {
		const struct rpt_annot_insn *in = &v->insns[i];

		if (in->line != last && in->line >= 0)
			print_line(st, v, in->line);
		last = in->line;
		printf("     %7.2f %8llu", in->share, (unsigned long long)in->samples);
		print_value(st, in->samples);
		printf("  %12llx:  %s\n", (unsigned long long)in->addr,
		       in->len ? in->text : "(no disassembly)");
	}
}

/* What one sample stands for in the sort event's unit (the report's CPU_TIME or counts). */
static void set_unit(struct annotate_state *st, const struct rpt *r)
{
	const struct ses_event *ev;
	struct rpt_summary s;

	rpt_summary(r, &s);
	ev = s.info->nevents ? &s.info->events[0] : NULL;
	if (!ev || ses_event_is_timer(ev)) {
		st->unit = s.period_s * (s.time_scale > 0 ? s.time_scale : 1);
		st->unit_name = "  CPU_TIME(s)";
	} else {
		st->unit = (double)ses_event_unit(ev);
		st->unit_name = "        EVENTS";
	}
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_state st = { 0 };
	const struct rpt_annot *v;
	const char *const *unmatched;
	const char *said[64];
	struct rpt *r = NULL;
	char err[512];
	int ret, n, nu, nsaid = 0, dfd;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	/* the session directory, opened once: every file of it read beneath the fd
	 * (docs/DESIGN.md §4) */
	dfd = util_dir_open(st.a.input);
	if (dfd < 0)
		return cli_error(1, CMD,
				 "'%s' is not a directory; give a session directory with -i",
				 st.a.input);
	if (rpt_is_job_dir_at(dfd)) {
		close(dfd);
		return cli_error(EXIT_USAGE, CMD,
				 "'%s' is an MPI job directory: annotate one "
				 "rank's session in it",
				 st.a.input);
	}
	if (rpt_buildid_default_dir(st.buildid_dir, sizeof(st.buildid_dir)))
		st.a.opts.buildid_dir = st.buildid_dir;
	ret = rpt_open_at(&r, dfd, st.a.input, &st.a.opts, err, sizeof(err));
	close(dfd);
	if (ret)
		return cli_error(1, CMD, "%s", err);
	set_unit(&st, r);
	n = rpt_annots(r, &v);
	nu = rpt_annot_unmatched(r, &unmatched);
	for (int i = 0; n && i < nu; i++)
		cli_warn(CMD, "'%s': no function with samples has that name", unmatched[i]);
	for (int i = 0; i < n; i++)
		print_one(&st, &v[i], said, &nsaid);
	/* nothing shown: one line says why (the names, or an empty session) */
	ret = n	   ? 0
	      : nu ? cli_error(1, CMD,
			       "nothing to annotate: no function with samples is "
			       "named '%s'%s",
			       unmatched[0], nu > 1 ? " (nor the others)" : "")
		   : cli_error(1, CMD, "nothing to annotate: the session has no samples");
	rpt_free(r);
	return ret;
}
