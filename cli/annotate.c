// SPDX-License-Identifier: MIT
/*
 * uprof annotate: where inside a function the samples fell, on the terminal (perf
 * annotate's job, from uProf's Function Detail Data): source lines interleaved with their
 * instructions, each with its samples and share of the function, the hottest lines
 * marked. Also the options report shares for the same data in report.csv.
 */
#include "cli/cli.h"
#include "job/job.h"
#include "report/report.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const CMD = "annotate";

#define MAX_PATHS 32
#define HOT_MARKED 5 /* lines marked as the hottest, by rank */

int cli_add_dir(const char **list, int *n, int max, const char *opt, const char *arg,
		const char *cmd)
{
	struct stat sb;

	if (!*arg)
		return cli_error(EXIT_USAGE, cmd, "--%s needs a directory", opt);
	if (stat(arg, &sb) || !S_ISDIR(sb.st_mode))
		return cli_error(EXIT_USAGE, cmd, "--%s '%s' is not a directory", opt, arg);
	if (*n == max)
		return cli_error(EXIT_USAGE, cmd, "--%s: at most %d directories", opt, max);
	list[(*n)++] = arg;
	return -1;
}

int cli_annot_option(struct cli_annot *a, struct rpt_options *o, int c, const char *arg,
		     const char *cmd)
{
	switch (c) {
	case CLI_OPT_DISASM:
	case CLI_OPT_DISASM_FULL: /* uProf 5.3's: every instruction, which --disasm shows */
		o->annotate = true;
		break;
	case CLI_OPT_DISASM_ONLY:
		o->annotate = o->disasm_only = true;
		break;
	case CLI_OPT_DISASM_STYLE:
		if (strcmp(arg, "att") && strcmp(arg, "intel"))
			return cli_error(EXIT_USAGE, cmd, "--disasm-style '%s': use att or intel",
					 arg);
		o->att = !strcmp(arg, "att");
		break;
	case CLI_OPT_FUNCTION:
		if (!*arg)
			return cli_error(EXIT_USAGE, cmd, "--function needs a function name");
		if (a->n == CLI_MAX_FUNCTIONS)
			return cli_error(EXIT_USAGE, cmd, "--function: at most %d functions",
					 CLI_MAX_FUNCTIONS);
		a->functions[a->n++] = arg;
		o->annotate = true;
		o->functions = a->functions;
		o->nfunctions = a->n;
		break;
	}
	return -1;
}

struct annotate_state {
	const char *input;
	struct rpt_options opts;
	struct cli_annot funcs;
	const char *paths[3][MAX_PATHS]; /* --bin-path, --symbol-path, --src-path */
	char buildid_dir[PATH_MAX];
	bool events;	  /* --show-event-count: the sort event's value beside the samples */
	double unit;	  /* its value per sample: seconds (CPU_TIME) or events */
	const char *unit_name;
};

enum { OPT_CUTOFF = 256, OPT_KALLSYMS, OPT_BIN_PATH, OPT_SYMBOL_PATH, OPT_SRC_PATH,
       OPT_EVENTS };

static const struct option annotate_options[] = {
	{ "input-dir", required_argument, NULL, 'i' },
	{ "cutoff", required_argument, NULL, OPT_CUTOFF },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "show-event-count", no_argument, NULL, OPT_EVENTS },
	{ "bin-path", required_argument, NULL, OPT_BIN_PATH },
	{ "symbol-path", required_argument, NULL, OPT_SYMBOL_PATH },
	{ "src-path", required_argument, NULL, OPT_SRC_PATH },
	CLI_ANNOT_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void annotate_help(void)
{
	printf("usage: uprof annotate -i <session-dir> [<options>] [<function>...]\n\n"
	       "Show where inside a function its samples fell: its source lines, each\n"
	       "followed by its instructions, with the samples of each and their share of\n"
	       "the function; the %d hottest lines are marked (>> and their rank). Without\n"
	       "a function named, the hottest function (or --cutoff of them). A name matches\n"
	       "a function whole, or the part before its argument list ('step' for\n"
	       "'step(double)'). The same data goes into report.csv with 'uprof report\n"
	       "--disasm' (Function Detail Data).\n\n"
	       "  -i, --input-dir <dir>      the session directory (required)\n"
	       "  --cutoff <n>               without a function named, the n hottest\n"
	       "                             (default 1; 0 = all)\n"
	       "  --function <name>          a function to show (repeatable; the same as\n"
	       "                             naming it after the options)\n"
	       "  --disasm                   accepted: the view always has assembly\n"
	       "  --disasm-only              assembly only, no source lines\n"
	       "  --disasm-style <s>         att or intel (default intel, as uProf's)\n"
	       "  --show-event-count         also the sort event's value of each line and\n"
	       "                             instruction: event counts (samples x interval)\n"
	       "                             or, for CPU_TIME, seconds\n"
	       "  --bin-path <dir>           where to find a binary that moved or was\n"
	       "                             rebuilt (repeatable; see uprof report --help)\n"
	       "  --symbol-path <dir>        where to find separate debug files (repeatable)\n"
	       "  --src-path <dir>           where source files are, when not at the path\n"
	       "                             DWARF gives (repeatable): dir/<path>, then\n"
	       "                             with leading directories left out\n"
	       "  --kallsyms <file>          kernel symbols (default /proc/kallsyms)\n"
	       "  -h, --help                 this text\n\n"
	       "Code without DWARF line information (stripped) is shown as assembly only,\n"
	       "with a note saying why. man uprof-annotate has the rest.\n",
	       HOT_MARKED);
}

static int parse_options(struct annotate_state *st, int argc, char **argv)
{
	int c, ret, *counts[3] = { &st->opts.nbin_paths, &st->opts.nsymbol_paths,
				   &st->opts.nsrc_paths };

	st->opts.cutoff = 1;
	st->opts.annotate = true;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", annotate_options, NULL)) != -1) {
		char *end;
		long v;

		switch (c) {
		case 'i':
			st->input = optarg;
			break;
		case OPT_CUTOFF:
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 0 || v > 1000000)
				return cli_error(EXIT_USAGE, CMD,
						 "--cutoff '%s' is not a function count (0 = all)",
						 optarg);
			st->opts.cutoff = (int)v;
			break;
		case OPT_KALLSYMS:
			st->opts.kallsyms = optarg;
			break;
		case OPT_EVENTS:
			st->events = true;
			break;
		case OPT_BIN_PATH:
		case OPT_SYMBOL_PATH:
		case OPT_SRC_PATH:
			ret = cli_add_dir(st->paths[c - OPT_BIN_PATH], counts[c - OPT_BIN_PATH],
					  MAX_PATHS,
					  (const char *[]){ "bin-path", "symbol-path",
							    "src-path" }[c - OPT_BIN_PATH],
					  optarg, CMD);
			if (ret >= 0)
				return ret;
			break;
		case CLI_OPT_DISASM:
		case CLI_OPT_DISASM_FULL:
		case CLI_OPT_DISASM_ONLY:
		case CLI_OPT_DISASM_STYLE:
		case CLI_OPT_FUNCTION:
			ret = cli_annot_option(&st->funcs, &st->opts, c, optarg, CMD);
			if (ret >= 0)
				return ret;
			break;
		case 'h':
			annotate_help();
			return 0;
		default:
			return cli_getopt_error(CMD, c, argv);
		}
	}
	for (; optind < argc; optind++) {
		ret = cli_annot_option(&st->funcs, &st->opts, CLI_OPT_FUNCTION, argv[optind], CMD);
		if (ret >= 0)
			return ret;
	}
	st->opts.bin_paths = st->paths[0];
	st->opts.symbol_paths = st->paths[1];
	st->opts.src_paths = st->paths[2];
	if (!st->input)
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

static void print_one(const struct annotate_state *st, const struct rpt_annot *v,
		      const char **said, int *nsaid)
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
		st->unit = (double)ev->period;
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
	int ret, n, nu, nsaid = 0;
	struct stat sb;

	ret = parse_options(&st, argc, argv);
	if (ret >= 0)
		return ret;
	if (stat(st.input, &sb) || !S_ISDIR(sb.st_mode))
		return cli_error(1, CMD, "'%s' is not a directory; give a session directory with -i",
				 st.input);
	if (rpt_is_job_dir(st.input))
		return cli_error(EXIT_USAGE, CMD, "'%s' is an MPI job directory: annotate one "
						  "rank's session in it", st.input);
	if (rpt_buildid_default_dir(st.buildid_dir, sizeof(st.buildid_dir)))
		st.opts.buildid_dir = st.buildid_dir;
	ret = rpt_open(&r, st.input, &st.opts, err, sizeof(err));
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
	ret = n ? 0 : nu ? cli_error(1, CMD, "nothing to annotate: no function with samples is "
					     "named '%s'%s", unmatched[0], nu > 1 ? " (nor the others)" : "")
		 : cli_error(1, CMD, "nothing to annotate: the session has no samples");
	rpt_free(r);
	return ret;
}
