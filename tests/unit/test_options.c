// SPDX-License-Identifier: MIT
/* cli/options.c: the declarative option tables of every command, their parser and the
 * --help text generated from them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"

/* a shared group, with its own state embedded in each command's */
struct paths {
	const char *input;
	const char *dirs[4];
	int ndirs;
};

struct demo {
	bool quiet, detail;
	const char *out;
	int cutoff;
	struct paths paths;
	const char *said; /* what the callback saw: its data and value */
	char said_buf[64];
};

static int add_dir(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct paths *p = state;

	(void)o;
	(void)cmd;
	if (p->ndirs == 4)
		return 2;
	p->dirs[p->ndirs++] = arg;
	return -1;
}

static int note(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct demo *d = state;

	snprintf(d->said_buf, sizeof(d->said_buf), "%s:%ld:%s", cmd, (long)o->data,
		 arg ? arg : "(none)");
	d->said = d->said_buf;
	return o->data == 9 ? 7 : -1;
}

static const struct cli_option paths_group[] = {
	OPT_STRING('i', "input-dir", struct paths, input, "<dir>", "the session directory"),
	OPT_CALLBACK(0, "bin-path", "<dir>", "where binaries are", add_dir, 0),
	OPT_END(),
};

static const struct cli_option demo_options[] = {
	OPT_INCLUDE(paths_group, struct demo, paths),
	OPT_GROUP("Output:"),
	OPT_BOOL('q', "quiet", struct demo, quiet, "no progress line"),
	OPT_BOOL('g', NULL, struct demo, detail, "call graphs\nwith --detail"),
	OPT_STRING('o', "output", struct demo, out, "<file>", "where it goes"),
	{ .kind = CLI_OPTK_STRING, .long_name = "output-file", .offset = offsetof(struct demo, out),
	  .flags = CLI_OPT_HIDDEN }, /* an alias: the same value, not in --help */
	OPT_INT(0, "cutoff", struct demo, cutoff, "<n>", 0, 100, "a row count (0 = all)",
		"rows per section"),
	OPT_CALLBACK(0, "tool", "<t.so>", "run a tool", note, 3),
	OPT_CALLBACK_NOARG(0, "fail", "fails with 7", note, 9),
	OPT_CALLBACK(0, "limit-data", "<n>", NULL, note, 4),
	OPT_CALLBACK(0, "limit-size", "<n>", NULL, note, 4),
	OPT_REFUSED(0, "category", "<c>", "only cpu here", "cpu"),
	OPT_REFUSED(0, "inline", NULL, "not supported", NULL),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command demo = {
	.name = "demo",
	.usage = "usage: uprof demo [<options>] <dir>\n",
	.intro = "Does nothing.\n",
	.outro = "The end.\n",
	.options = demo_options,
	.column = 20,
};

static const struct cli_command demo_stop = {
	.name = "demo", .usage = "", .options = demo_options, .column = 20,
	.flags = CLI_STOP_AT_OPERAND,
};

/* stderr of a call, captured in a file */
struct capture {
	int saved;
	FILE *f;
	char text[512];
};

static void capture_start(struct capture *c)
{
	fflush(stderr);
	c->f = tmpfile();
	assert_non_null(c->f);
	c->saved = dup(2);
	dup2(fileno(c->f), 2);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	rewind(c->f);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->f);
	c->text[n] = 0;
	fclose(c->f);
	return c->text;
}

/* argv from a list of words ending in NULL (argv[0] is "demo") */
static int make_argv(char **argv, const char **words)
{
	int n = 0;

	argv[n++] = "demo";
	while (words[n - 1]) {
		argv[n] = (char *)words[n - 1];
		n++;
	}
	argv[n] = NULL;
	return n;
}

#define PARSE(cmd, st, argv, first, ...)                                                   \
	cli_options_parse(cmd, st, make_argv(argv, (const char *[]){ __VA_ARGS__, NULL }),  \
			  argv, first)

static void each_kind_is_parsed(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first = -1;

	(void)unused;
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-q", "--output=x.csv", "--cutoff",
			       "42", "--tool", "t.so,k=1", "-isess"),
			 -1);
	assert_true(d.quiet);
	assert_false(d.detail);
	assert_string_equal(d.out, "x.csv");
	assert_int_equal(d.cutoff, 42);
	assert_string_equal(d.said, "demo:3:t.so,k=1");
	assert_string_equal(d.paths.input, "sess");
	assert_int_equal(first, 8);
}

static void values_and_bundles(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first = -1;

	(void)unused;
	/* -qgo FILE: two flags and the value of the last; a value may start with '-' */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-qgo", "out", "-i", "-q"), -1);
	assert_true(d.quiet && d.detail);
	assert_string_equal(d.out, "out");
	assert_string_equal(d.paths.input, "-q");
	/* -oVALUE, an abbreviation, the last value wins */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-oa", "--out", "b", "--inp=s2"), -1);
	assert_string_equal(d.out, "b");
	assert_string_equal(d.paths.input, "s2");
}

static void groups_write_the_embedded_state(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first;

	(void)unused;
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--bin-path", "/a", "--bin-path=/b"),
			 -1);
	assert_int_equal(d.paths.ndirs, 2);
	assert_string_equal(d.paths.dirs[0], "/a");
	assert_string_equal(d.paths.dirs[1], "/b");
	/* a callback's exit code ends the parse */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--fail", "-q"), 7);
	assert_string_equal(d.said, "demo:9:(none)");
	assert_false(d.quiet);
}

static void operands_move_after_the_options(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first;

	(void)unused;
	/* as GNU getopt permutes: options, "--", then the operands in order */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "s1", "-q", "s2", "-o", "f", "--", "-g",
			       "x"),
			 -1);
	assert_int_equal(first, 5);
	assert_string_equal(argv[1], "-q");
	assert_string_equal(argv[2], "-o");
	assert_string_equal(argv[3], "f");
	assert_string_equal(argv[4], "--");
	assert_string_equal(argv[5], "s1");
	assert_string_equal(argv[6], "s2");
	assert_string_equal(argv[7], "-g");
	assert_string_equal(argv[8], "x");
	assert_false(d.detail); /* after "--": an operand */
	/* "-" is an operand */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-", "-q"), -1);
	assert_int_equal(first, 2);
	assert_string_equal(argv[2], "-");
}

static void stop_at_the_first_operand(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first;

	(void)unused;
	/* collect: the program's own options are its own */
	assert_int_equal(PARSE(&demo_stop, &d, argv, &first, "-q", "prog", "-g", "--output"),
			 -1);
	assert_int_equal(first, 2);
	assert_string_equal(argv[2], "prog");
	assert_false(d.detail);
	assert_int_equal(PARSE(&demo_stop, &d, argv, &first, "--", "-g"), -1);
	assert_int_equal(first, 2);
	assert_false(d.detail);
}

static void errors_are_one_line(void **unused)
{
	struct demo d = { 0 };
	struct capture c;
	char *argv[32];
	int first;

	(void)unused;
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--outptu", "x"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: unknown option '--outptu' (did you "
					     "mean --output?); see 'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--frobnicate=1"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: unknown option '--frobnicate'; see "
					     "'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-qz"), 2);
	assert_string_equal(capture_end(&c),
			    "uprof demo: unknown option '-z'; see 'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--output"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: option '--output' needs a value; see "
					     "'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "-o"), 2);
	assert_string_equal(capture_end(&c),
			    "uprof demo: option '-o' needs a value; see 'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--quiet=yes"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: option '--quiet' takes no value; see "
					     "'uprof demo --help'\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--cutoff", "-1"), 2);
	assert_string_equal(capture_end(&c),
			    "uprof demo: --cutoff '-1' is not a row count (0 = all)\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--c", "x"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: option '--c' is ambiguous (--cutoff, "
					     "--category, ...); see 'uprof demo --help'\n");
}

static void aliases_are_no_ambiguity(void **unused)
{
	struct demo d = { 0 };
	char *argv[32];
	int first;

	(void)unused;
	/* --limit abbreviates two names of one thing */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--limit", "5"), -1);
	assert_string_equal(d.said, "demo:4:5");
	/* --outp: --output and its hidden alias --output-file */
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--outp", "x"), -1);
	assert_string_equal(d.out, "x");
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--output-file=y"), -1);
	assert_string_equal(d.out, "y");
}

static void refused_options_say_why(void **unused)
{
	struct demo d = { 0 };
	struct capture c;
	char *argv[32];
	int first;

	(void)unused;
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--category", "cpu"), -1);
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--category=mpi"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: --category mpi: only cpu here\n");
	capture_start(&c);
	assert_int_equal(PARSE(&demo, &d, argv, &first, "--inline"), 2);
	assert_string_equal(capture_end(&c), "uprof demo: --inline: not supported\n");
}

static void suggestions(void **unused)
{
	static const char *const cmds[] = { "collect", "report", "compare", "diff" };

	(void)unused;
	assert_string_equal(cli_suggest_word(cmds, 4, "reprot"), "report");
	assert_string_equal(cli_suggest_word(cmds, 4, "col"), "collect");
	assert_string_equal(cli_suggest_word(cmds, 4, "compre"), "compare");
	assert_null(cli_suggest_word(cmds, 4, "frobnicate"));
	/* hidden names are never suggested */
	assert_null(cli_options_suggest(demo_options, "inlin"));
	assert_string_equal(cli_options_suggest(demo_options, "bin-paht"), "bin-path");
}

static void lookups_for_profile(void **unused)
{
	const struct cli_option *o;

	(void)unused;
	o = cli_options_find_long(demo_options, "bin-path=/x", 8);
	assert_non_null(o);
	assert_true(cli_option_takes_value(o));
	assert_null(cli_options_find_long(demo_options, "bin", 3)); /* exact names only */
	o = cli_options_find_short(demo_options, 'g');
	assert_non_null(o);
	assert_false(cli_option_takes_value(o));
	assert_null(cli_options_find_short(demo_options, 'z'));
}

static void help_is_generated_from_the_table(void **unused)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)unused;
	assert_non_null(f);
	cli_options_help(&demo, f);
	fclose(f);
	assert_string_equal(text,
			    "usage: uprof demo [<options>] <dir>\n"
			    "\n"
			    "Does nothing.\n"
			    "\n"
			    "  -i, --input-dir <dir>\n"
			    "                    the session directory\n"
			    "  --bin-path <dir>  where binaries are\n"
			    "\n"
			    "Output:\n"
			    "  -q, --quiet       no progress line\n"
			    "  -g                call graphs\n"
			    "                    with --detail\n"
			    "  -o, --output <file>\n"
			    "                    where it goes\n"
			    "  --cutoff <n>      rows per section\n"
			    "  --tool <t.so>     run a tool\n"
			    "  --fail            fails with 7\n"
			    "  -h, --help        this text\n"
			    "\n"
			    "The end.\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_kind_is_parsed),
		cmocka_unit_test(values_and_bundles),
		cmocka_unit_test(groups_write_the_embedded_state),
		cmocka_unit_test(operands_move_after_the_options),
		cmocka_unit_test(stop_at_the_first_operand),
		cmocka_unit_test(errors_are_one_line),
		cmocka_unit_test(aliases_are_no_ambiguity),
		cmocka_unit_test(refused_options_say_why),
		cmocka_unit_test(suggestions),
		cmocka_unit_test(lookups_for_profile),
		cmocka_unit_test(help_is_generated_from_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
