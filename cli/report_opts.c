// SPDX-License-Identifier: MIT
/* uprof report's options: the table and the callbacks that parse them into struct
 * report_state (cli/report.c runs the report). */
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/report_state.h"
#include "metric/metric.h"
#include "pmc/pmc.h"
#include "report/report.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int group_by(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;

	(void)o;
	if (!strcmp(arg, "process"))
		st->a.opts.group_by = RPT_GROUP_PROCESS;
	else if (!strcmp(arg, "thread"))
		st->a.opts.group_by = RPT_GROUP_THREAD;
	else if (!strcmp(arg, "module"))
		st->a.opts.group_by = RPT_GROUP_MODULE;
	else if (!strcmp(arg, "program"))
		st->a.opts.group_by = RPT_GROUP_PROGRAM;
	else
		return cli_error(EXIT_USAGE, cmd,
				 "--group-by '%s': use process, thread, module or program", arg);
	return -1;
}

/* --category cpu,mpi,openmp,os (uProf's domains; gputrace and gpuprof are GPU ones) */
static int category(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	static const struct {
		const char *name;
		unsigned bit;
	} cats[] = { { "cpu", RPT_CAT_CPU },
		     { "mpi", RPT_CAT_MPI },
		     { "openmp", RPT_CAT_OPENMP },
		     { "os", RPT_CAT_OS } };
	struct report_state *st = state;
	const char *p = arg;

	(void)o;
	do {
		size_t n = strcspn(p, ",");
		size_t i = 0;

		while (i < sizeof(cats) / sizeof(cats[0]) &&
		       (strlen(cats[i].name) != n || strncmp(p, cats[i].name, n)))
			i++;
		if (n && (!strncmp(p, "gputrace", n) || !strncmp(p, "gpuprof", n)))
			return cli_error(EXIT_USAGE, cmd,
					 "--category '%.*s': uprof profiles CPUs only; use cpu, "
					 "mpi, openmp or os",
					 (int)n, p);
		if (i == sizeof(cats) / sizeof(cats[0]))
			return cli_error(EXIT_USAGE, cmd,
					 "--category '%s': give cpu, mpi, openmp or os, or a "
					 "comma list of them",
					 arg);
		st->a.opts.categories |= cats[i].bit;
		p += n + (p[n] == ',');
	} while (*p);
	return -1;
}

#define VIEW_SORTS                                                                     \
	"--view sorts by the view's first column: give --view or -s/--sort-by, not both " \
	"('uprof info --view-config <name>' shows a view's columns)"

/* -s/--sort-by <spec>: uProf's event=pmcxc0,user=1,os=0 / event=timer / event=ibs-op
 * (keys event, umask, user, os, cmask, inv), through collect's one event parser, so a
 * spec names the event collect would have opened for it; rpt_open matches it against
 * the session's events. Given once. */
static int sort_by(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	struct rpt_sort_key *k = &st->sort;
	struct pmc_event ev;
	char err[256];
	int ret;

	(void)o;
	if (st->a.opts.sort_by)
		return cli_usage_error(cmd, "-s/--sort-by may be given once (one sort event)");
	if (st->a.opts.view)
		return cli_usage_error(cmd, VIEW_SORTS);
	ret = pmc_event_parse(arg, strlen(arg), NULL, &ev, err, sizeof(err));
	if (ret && ret != -ENODEV)
		return cli_error(EXIT_USAGE, cmd,
				 "--sort-by '%s': %s (e.g. -s event=timer, -s event=pmcxc0,user=1,"
				 "os=0, -s page-faults)",
				 arg, err);
	*k = (struct rpt_sort_key){ .kind = RPT_SORT_EVENT,
				    .type = ev.attr.type,
				    .config = ev.attr.config,
				    .exclude_user = ev.attr.exclude_user,
				    .exclude_kernel = ev.attr.exclude_kernel };
	if (ev.kind == PMC_EV_TIMER)
		k->kind = RPT_SORT_TIMER;
	else if (ev.kind == PMC_EV_IBS)
		k->kind = !strcmp(ev.name, "IBS_OP") ? RPT_SORT_IBS_OP : RPT_SORT_IBS_FETCH;
	k->modes = strcasestr(arg, "user=") || strcasestr(arg, "os=");
	snprintf(k->spec, sizeof(k->spec), "%s", arg);
	st->a.opts.sort_by = k;
	return -1;
}

/* --view <name>: one of lib/metric's views (info --list view-configs); rpt_open refuses it
 * when the session lacks its events. It sorts by its first column, so not with -s. */
static int view(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	const struct mtr_view *v;
	int ret;

	(void)o;
	if (st->a.opts.sort_by)
		return cli_usage_error(cmd, VIEW_SORTS);
	if (st->a.opts.view && strcmp(st->a.opts.view->name, arg))
		return cli_usage_error(cmd, "--view may be given once (one view)");
	ret = cli_view_lookup(arg, "--view", cmd, &v);
	if (ret >= 0)
		return ret;
	if (v->needs)
		return cli_error(EXIT_USAGE, cmd, "--view %s: it needs %s", v->name, v->needs);
	st->a.opts.view = v;
	return -1;
}

/* --show-percentage, --show-sample-count, --show-event-count: one of them */
static int show(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;

	(void)arg;
	if (st->a.opts.show != RPT_SHOW_VALUE && st->a.opts.show != (enum rpt_show)o->data)
		return cli_usage_error(cmd, "give one of --show-percentage, --show-sample-count "
					    "and --show-event-count");
	st->a.opts.show = (enum rpt_show)o->data;
	return -1;
}

/* --agg-interval <ms>: SAMPLES PER INTERVAL's bucket, and the exports' timelines' (uProf's
 * default 1 s, applied only when given; <= 0: the whole run) */
static int agg_interval(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	char *end;
	long long ms;

	(void)o;
	errno = 0;
	ms = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || ms > 86400000LL)
		return cli_error(EXIT_USAGE, cmd,
				 "--agg-interval '%s': give milliseconds, a whole number up to "
				 "86400000 (0 or less: the whole run)",
				 arg);
	st->a.opts.agg_interval = true;
	st->a.opts.agg_interval_ns = ms > 0 ? ms * 1000000LL : 0;
	return -1;
}

static int report_output(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o;
	if (!*arg)
		return cli_usage_error(cmd, "--report-output needs a path");
	((struct report_state *)state)->output = arg;
	return -1;
}

/* -p PID[,PID..]: 0, or -EINVAL (not a list of pids) / -E2BIG (too many) */
static int parse_pids(struct report_state *st, const char *arg)
{
	const char *p = arg;
	int n = 0;

	do {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > INT_MAX || (*end && *end != ','))
			return -EINVAL;
		if (n == (int)(sizeof(st->pids) / sizeof(st->pids[0])))
			return -E2BIG;
		st->pids[n++] = (int)v;
		p = *end ? end + 1 : end;
	} while (*p);
	if (arg[strlen(arg) - 1] == ',')
		return -EINVAL;
	st->a.opts.only_pids = st->pids;
	st->a.opts.nonly_pids = n;
	return 0;
}

static int pids(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	int ret = parse_pids(st, arg);

	(void)o;
	if (ret == -E2BIG)
		return cli_error(EXIT_USAGE, cmd, "-p '%s': at most 64 processes", arg);
	if (ret)
		return cli_error(EXIT_USAGE, cmd,
				 "-p '%s': give process ids separated by commas, e.g. -p 1234,1240",
				 arg);
	st->a.opts.detail = true;
	return -1;
}

static int tool(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	int ret;

	if (o->data == 1)
		return cli_tools_timeout(&st->tools, arg, cmd);
	if (o->data == 2)
		return cli_tools_cpu(&st->tools, arg, cmd);
	if (o->data == 3)
		return cli_tools_memory(&st->tools, arg, cmd);
	ret = cli_tools_add(&st->tools, arg, cmd);
	if (ret < 0) {
		st->a.opts.walk = true;	      /* the tools are walked through every sample */
		st->a.opts.omp_slices = true; /* and the OpenMP slices (API 1.2's openmp_region) */
	}
	return ret;
}

/* --funccount-interval S: collect --func's calls per slice of S seconds too */
static int funccount_interval(const struct cli_option *o, const char *arg, void *state,
			      const char *cmd)
{
	struct report_state *st = state;
	char *end;
	double v;

	(void)o;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0.001) || v > 86400)
		return cli_error(EXIT_USAGE, cmd,
				 "--funccount-interval '%s' is not a number of seconds from "
				 "0.001 to 86400",
				 arg);
	st->a.opts.funccount_interval_ns = (uint64_t)(v * 1e9 + 0.5);
	return -1;
}

/* --export folded,flamegraph,perfetto,html|all. Returns -1 to go on, or an exit code. */
static int parse_exports(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct report_state *st = state;
	char buf[256], *save = NULL, *tok;

	(void)o;
	snprintf(buf, sizeof(buf), "%s", arg);
	st->a.opts.exports = true; /* report keeps what exports need (or it fails on bad names) */
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int e = rpt_export_parse(tok);

		if (!strcmp(tok, "all")) {
			for (int i = 0; i < RPT_EXPORT_COUNT; i++)
				st->exports[i] = true;
		} else if (e < 0) {
			return cli_export_unknown(cmd, tok);
		} else {
			st->exports[e] = true;
		}
		if (e >= 0 ? rpt_export_walks(e) : !strcmp(tok, "all"))
			st->a.opts.walk = st->a.opts.omp_slices = true; /* every sample, slice */
	}
	/* the page's Source/assembly view: the hottest functions' details */
	st->a.opts.annotate_export = st->exports[RPT_EXPORT_HTML];
	return -1;
}

/* --export's list of what it writes */
static void export_names(FILE *f, int column)
{
	for (int e = 0; e < RPT_EXPORT_COUNT; e++) {
		const struct rpt_exporter *x = rpt_exporter(e);

		fprintf(f, "%*s%-11s %s: %s\n", column + 2, "", x->name, x->file, x->help);
	}
}

#define STATE struct report_state

const struct cli_option cli_report_options_table[] = {
	OPT_INCLUDE(cli_input_options, STATE, a),
	OPT_BOOL(0, "detail", STATE, a.opts.detail, "add a section per process (see --group-by)"),
	OPT_CALLBACK(0, "group-by", "<what>",
		     "process (default), thread, module or program:\n"
		     "how --detail splits its sections; program\n"
		     "also shows the table of programs (the\n"
		     "processes of one executable summed)",
		     group_by, 0),
	OPT_INT(0, "cutoff", STATE, a.opts.cutoff, "<n>", 0, 1000000, "a row count (0 = all)",
		"rows per section (default 10; 0 = all)"),
	OPT_INT(0, "openmp-top", STATE, a.opts.openmp_top, "<n>", 0, 1000000,
		"a function count (0 = all)",
		"functions per OpenMP region and state, and per\n"
		"late thread (--trace openmp; default 5; 0 = all)"),
	OPT_INT(0, "mpi-top", STATE, a.opts.mpi_top, "<n>", 0, 1000000,
		"a call site count (0 = all)",
		"MPI call sites per table, and per rank, of a\n"
		"job (--trace mpi; default 20; 0 = all)"),
	OPT_CALLBACK(0, "funccount-interval", "<s>",
		     "collect --func's calls per slice of <s> seconds\n"
		     "too (FUNCTION COUNTS BY INTERVAL)",
		     funccount_interval, 0),
	OPT_CALLBACK(0, "report-output", "<path>",
		     "write the CSV here: a path ending in .csv is the\n"
		     "file, any other path a directory for report.csv",
		     report_output, 0),
	OPT_BOOL(0, "stdout", STATE, to_stdout,
		 "write the CSV to standard output instead (the\n"
		 "table of hottest functions goes to standard error)"),
	OPT_BOOL('q', "quiet", STATE, quiet,
		 "no progress line (shown on a terminal after a second)"),
	OPT_CALLBACK('p', "pid", "<PID,..>", "only these processes (implies --detail)", pids, 0),
	OPT_CALLBACK('s', "sort-by", "<spec>",
		     "sort every table by this event of the session\n"
		     "(default its first): event=timer, event=pmcxc0,\n"
		     "user=1,os=0 (keys event, umask, user, os, cmask,\n"
		     "inv), event=ibs-op, or a name (page-faults)",
		     sort_by, 0),
	OPT_CALLBACK(0, "view", "<name>",
		     "show a view's columns only, in its order, sorted by\n"
		     "its first (info --list view-configs; the session\n"
		     "needs the view's events, e.g. collect --config\n"
		     "assess for triage_assess)",
		     view, 0),
	OPT_BOOL(0, "inline", STATE, a.opts.inline_funcs,
		 "a sample in inlined code counts for the inlined\n"
		 "function (from the module's DWARF), not the one\n"
		 "it was compiled into"),
	OPT_BOOL(0, "ignore-system-module", STATE, a.opts.ignore_system_module,
		 "leave out samples in the kernel, [vdso] and system\n"
		 "libraries (/lib, /usr/lib, ...): counted in the\n"
		 "header"),
	OPT_CALLBACK(0, "agg-interval", "<ms>",
		     "add SAMPLES PER INTERVAL to the CSV: each\n"
		     "event's samples per <ms> of the run (uProf's\n"
		     "default 1000; 0 or less: the whole run); the\n"
		     "same buckets as trace.json's counter tracks and\n"
		     "report.html's Timeline bars",
		     agg_interval, 0),
	OPT_CALLBACK_NOARG(0, "show-percentage",
			   "report.csv's table values as percent of each\n"
			   "event's total (default: CPU_TIME seconds, event\n"
			   "counts)",
			   show, RPT_SHOW_PERCENTAGE),
	OPT_CALLBACK_NOARG(0, "show-sample-count", "report.csv's table values as samples",
			   show, RPT_SHOW_SAMPLE_COUNT),
	OPT_CALLBACK_NOARG(0, "show-event-count",
			   "report.csv's table values as event counts\n"
			   "(samples x interval; CPU_TIME in ns)",
			   show, RPT_SHOW_EVENT_COUNT),
	OPT_INCLUDE(cli_time_filter_options, STATE, a),
	OPT_INCLUDE(cli_binary_path_options, STATE, a),
	OPT_BOOL(0, "retranslate", STATE, a.opts.retranslate,
		 "unwind every stack again rather than use\n"
		 "translated.bin (uprof translate), and write\n"
		 "it anew"),
	OPT_INCLUDE(cli_source_path_options, STATE, a),
	OPT_INCLUDE(cli_function_detail_options, STATE, a),
	OPT_BOOL('g', NULL, STATE, a.opts.detail,
		 "with --detail (implied): a CALLGRAPH section per\n"
		 "process when call stacks were collected"),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "export",
	  .argh = "<what>",
	  .help = "also write one of these (repeat it or give a\n"
		  "comma list; 'all' is every one):",
	  .fn = parse_exports,
	  .help_more = export_names },
	OPT_STRING(0, "export-dir", STATE, export_dir, "<dir>",
		   "where exports go (default: the session directory)"),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "tool",
	  .argh = "<t.so>[,k=v,...]",
	  .help = "run a tool of the tool API (uprof-tool(3)) over the\n"
		  "session (or an MPI job: its ranks' MPI data) with\n"
		  "these knob values: its sections are appended to\n"
		  "the CSV, its files go to <session>/tools/<name>/\n"
		  "(see 'uprof info --tool <t.so>' for its knobs)",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = tool },
	OPT_CALLBACK(0, "tool-timeout", "<s>", "each tool's time limit (default 300)", tool, 1),
	OPT_CALLBACK(0, "tool-cpu", "<s>", "each tool's CPU time limit (default 300)", tool, 2),
	OPT_CALLBACK(0, "tool-memory", "<MiB>",
		     "the memory each tool may take on top of the\n"
		     "report's (default 1024)",
		     tool, 3),
	OPT_CALLBACK(0, "category", "<list>",
		     "only these domains' sections in report.csv: cpu\n"
		     "(hottest tables, call graphs, --detail), mpi,\n"
		     "openmp, os, or a comma list (default: all)",
		     category, 0),
	OPT_STRING(0, "rank", STATE, ranks, "<list>", "an MPI job: only these ranks (e.g. 0-3,8)"),
	OPT_INCLUDE(cli_host_options, STATE, a),
	OPT_INCLUDE(cli_refused_report_options, STATE, a),
	OPT_INCLUDE_SAME(cli_log_options),
	OPT_INCLUDE_SAME(cli_refused_report_only_options),
	OPT_HELP(),
	OPT_END(),
};

const struct cli_option *cli_report_options(void)
{
	return cli_report_options_table;
}
