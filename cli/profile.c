// SPDX-License-Identifier: MIT
/*
 * uprof profile: collect, then report on the session it wrote, in one command (uProf's
 * profile). Each option goes to the command whose table has it: collect's and report's
 * own option tables (cli_collect_options, cli_report_options), so that the two commands
 * and profile never disagree on an option. An option both know (-p, -g, --tool,
 * --tool-timeout, -h) is collect's: it shapes the run; report reads what the run recorded.
 */
#include "cli/cli.h"
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "profile";

struct profile_state {
	char **cargv, **rargv; /* "collect" ..., "report" ... (pointers into argv) */
	int cargc, rargc;
};

enum owner { NONE, COLLECT, REPORT };

/* Who takes option @a (an argv word starting with '-'), and whether it takes a value */
static enum owner owner_of(const char *a, bool *value)
{
	const struct cli_option *t[] = { cli_collect_options(), cli_report_options() };
	static const enum owner owners[] = { COLLECT, REPORT };

	for (int k = 0; k < 2; k++) {
		const struct cli_option *o;

		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');

			o = cli_options_find_long(t[k], name,
						  eq ? (size_t)(eq - name) : strlen(name));
		} else {
			o = cli_options_find_short(t[k], (unsigned char)a[1]);
		}
		if (o) {
			*value = cli_option_takes_value(o);
			return owners[k];
		}
	}
	return NONE;
}

static void profile_help(void)
{
	printf("usage: uprof profile [<collect options>] [<report options>] [--] <program> [<args>]\n\n"
	       "Collect, then report: run and sample the program as 'uprof collect' does, then\n"
	       "write report.csv into the session and print its summary as 'uprof report -i\n"
	       "<session>' does. Every option of collect (uprof collect --help) and of report\n"
	       "(uprof report --help) is taken; one both have (-p, -g, --tool, --tool-timeout)\n"
	       "is collect's. report's -i is not: profile reports the session it made.\n\n"
	       "  -h, --help                 this text\n\n"
	       "The exit status is the program's (as collect's), or report's when the program\n"
	       "exited 0. man uprof-profile has the rest.\n");
}

/* Sort argv's options into collect's and report's; the program and its arguments go to
 * collect. -1 to go on, or the exit code of the message said. */
static int split(struct profile_state *st, int argc, char **argv)
{
	int i;

	st->cargv[st->cargc++] = "collect";
	st->rargv[st->rargc++] = "report";
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];
		bool value = false;
		enum owner o;
		bool inline_val;

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			profile_help();
			return 0;
		}
		o = owner_of(a, &value);
		if (o == NONE)
			return cli_error(EXIT_USAGE, CMD,
					 "unknown option '%s': see 'uprof collect "
					 "--help' and 'uprof report --help'",
					 a);
		if (o == REPORT &&
		    (!strcmp(a, "-i") || !strncmp(a, "-i", 2) || !strncmp(a, "--input-dir", 11)))
			return cli_error(EXIT_USAGE, CMD,
					 "'%s': profile reports the session it "
					 "collects; use 'uprof report -i' for another",
					 a);
		inline_val = a[1] == '-' ? strchr(a, '=') != NULL : a[2] != 0;
		if (o == COLLECT)
			st->cargv[st->cargc++] = argv[i];
		else
			st->rargv[st->rargc++] = argv[i];
		if (value && !inline_val) {
			if (i + 1 == argc)
				return cli_error(EXIT_USAGE, CMD, "'%s' needs a value", a);
			i++;
			if (o == COLLECT)
				st->cargv[st->cargc++] = argv[i];
			else
				st->rargv[st->rargc++] = argv[i];
		}
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	/* no program: collect says what it needs (one, or -p / -a to attach) */
	if (i < argc)
		st->cargv[st->cargc++] = "--";
	while (i < argc)
		st->cargv[st->cargc++] = argv[i++];
	st->cargv[st->cargc] = NULL;
	return -1;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_state st = { 0 };
	const char *session;
	int ret, rr;

	/* each gets at most every word of argv, plus its name, "--" or "-i DIR", and NULL */
	st.cargv = calloc((size_t)argc + 4, sizeof(char *));
	st.rargv = calloc((size_t)argc + 4, sizeof(char *));
	if (!st.cargv || !st.rargv) {
		ret = cli_error(1, CMD, "out of memory");
		goto out;
	}
	ret = split(&st, argc, argv);
	if (ret >= 0)
		goto out;
	/* report's options checked before the run, with a stand-in for its session */
	st.rargv[st.rargc] = "-i";
	st.rargv[st.rargc + 1] = "/";
	ret = cli_report_check_options(st.rargc + 2, st.rargv);
	if (ret >= 0)
		goto out;
	ret = cmd_collect(st.cargc, st.cargv);
	session = cli_collect_last_session();
	if (!*session)
		goto out; /* nothing collected: collect said why */
	st.rargv[st.rargc++] = "-i";
	st.rargv[st.rargc++] = (char *)session;
	st.rargv[st.rargc] = NULL;
	/* report's summary after collect's lines, not mixed into them */
	fflush(stderr);
	/* the directory collect made, by its fd: the path only names it */
	cli_report_give_session_fd(cli_collect_take_session_fd());
	rr = cmd_report(st.rargc, st.rargv);
	if (!ret)
		ret = rr;
out:
	free(st.cargv);
	free(st.rargv);
	return ret;
}
