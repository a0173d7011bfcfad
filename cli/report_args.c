// SPDX-License-Identifier: MIT
/*
 * The options report, translate, annotate and compare share, declared once: each group
 * is spliced into those commands' tables with OPT_INCLUDE, so that -i, the path options,
 * --time-filter, --host and the Function Detail Data options parse, check and read the
 * same everywhere.
 */
#include "cli/report_args.h"

#include <string.h>
#include <sys/stat.h>

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

/* --bin-path, --symbol-path, --src-path (o->data: which list) */
static int add_path(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct cli_report_args *a = state;
	int *n[] = { &a->opts.nbin_paths, &a->opts.nsymbol_paths, &a->opts.nsrc_paths };
	int ret = cli_add_dir(a->paths[o->data], n[o->data], CLI_MAX_PATHS, o->long_name, arg, cmd);

	a->opts.bin_paths = a->paths[CLI_PATHS_BIN];
	a->opts.symbol_paths = a->paths[CLI_PATHS_SYMBOL];
	a->opts.src_paths = a->paths[CLI_PATHS_SRC];
	return ret;
}

static int time_filter(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o;
	return cli_parse_time_filter(&((struct cli_report_args *)state)->opts, arg, cmd);
}

int cli_report_args_function(struct cli_report_args *a, const char *arg, const char *cmd)
{
	if (!*arg)
		return cli_error(EXIT_USAGE, cmd, "--function needs a function name");
	if (a->annot.n == CLI_MAX_FUNCTIONS)
		return cli_error(EXIT_USAGE, cmd, "--function: at most %d functions",
				 CLI_MAX_FUNCTIONS);
	a->annot.functions[a->annot.n++] = arg;
	a->opts.annotate = true;
	a->opts.functions = a->annot.functions;
	a->opts.nfunctions = a->annot.n;
	return -1;
}

enum { DISASM, DISASM_ONLY, DISASM_STYLE, FUNCTION };

static int function_detail(const struct cli_option *o, const char *arg, void *state,
			   const char *cmd)
{
	struct cli_report_args *a = state;

	switch (o->data) {
	case DISASM: /* and uProf 5.3's --disasm-full: every instruction, which it shows */
		a->opts.annotate = true;
		break;
	case DISASM_ONLY:
		a->opts.annotate = a->opts.disasm_only = true;
		break;
	case DISASM_STYLE:
		if (strcmp(arg, "att") && strcmp(arg, "intel"))
			return cli_error(EXIT_USAGE, cmd, "--disasm-style '%s': use att or intel",
					 arg);
		a->opts.att = !strcmp(arg, "att");
		break;
	case FUNCTION:
		return cli_report_args_function(a, arg, cmd);
	}
	return -1;
}

#define ARGS struct cli_report_args

const struct cli_option cli_input_options[] = {
	OPT_STRING('i', "input-dir", ARGS, input, "<dir>", "the session directory (required)"),
	OPT_END(),
};

const struct cli_option cli_binary_path_options[] = {
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "bin-path",
	  .argh = "<dir>",
	  .help = "where to find a profiled binary no longer at its\n"
		  "path (moved, or rebuilt): dir/<name> or\n"
		  "dir/<path>, taken when its build id matches;\n"
		  "before it, the build-id cache (~/.debug) is\n"
		  "tried",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = add_path,
	  .data = CLI_PATHS_BIN },
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "symbol-path",
	  .argh = "<dir>",
	  .help = "where to find separate debug files (.debug,\n"
		  "/usr/lib/debug's layout, .build-id/); then\n"
		  "the standard places and, with DEBUGINFOD_URLS\n"
		  "set, debuginfod",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = add_path,
	  .data = CLI_PATHS_SYMBOL },
	OPT_STRING(0, "kallsyms", ARGS, opts.kallsyms, "<file>",
		   "kernel symbols (default /proc/kallsyms)"),
	OPT_END(),
};

const struct cli_option cli_source_path_options[] = {
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "src-path",
	  .argh = "<dir>",
	  .help = "where source files are when not at the path\n"
		  "DWARF gives: dir/<path>, then with leading\n"
		  "directories left out",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = add_path,
	  .data = CLI_PATHS_SRC },
	OPT_END(),
};

const struct cli_option cli_time_filter_options[] = {
	OPT_CALLBACK(0, "time-filter", "<T1:T2>",
		     "only samples from T1 to T2 seconds after the\n"
		     "profile start (either side may be left out)",
		     time_filter, 0),
	OPT_END(),
};

const struct cli_option cli_host_options[] = {
	OPT_STRING(0, "host", ARGS, hosts, "<name,..>",
		   "an MPI job: only the ranks on these hosts\n"
		   "('all', the default, is every host)"),
	OPT_END(),
};

const struct cli_option cli_function_detail_options[] = {
	OPT_CALLBACK_NOARG(0, "disasm",
			   "Function Detail Data: samples per source line\n"
			   "and per instruction of the --cutoff hottest\n"
			   "functions (report adds it to report.csv;\n"
			   "annotate always shows it)",
			   function_detail, DISASM),
	OPT_CALLBACK_NOARG(0, "disasm-full",
			   "the same as --disasm (every instruction of\n"
			   "the function is always listed)",
			   function_detail, DISASM),
	OPT_CALLBACK_NOARG(0, "disasm-only", "the same, instructions only, no source lines",
			   function_detail, DISASM_ONLY),
	OPT_CALLBACK(0, "disasm-style", "<s>", "att or intel (default intel, as uProf's)",
		     function_detail, DISASM_STYLE),
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "function",
	  .argh = "<name>",
	  .help = "detail this function (implies --disasm; for\n"
		  "annotate, the same as naming it after the\n"
		  "options)",
	  .flags = CLI_OPT_REPEATABLE,
	  .fn = function_detail,
	  .data = FUNCTION },
	OPT_END(),
};
