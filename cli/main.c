// SPDX-License-Identifier: MIT
/* uprof: the command table. */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "collect", cmd_collect, "run a program and sample it into a session directory" },
	{ "report", cmd_report, "turn a session into report.csv and a summary on the terminal" },
	{ "profile", cmd_profile, "collect, then report on the session, in one command" },
	{ "translate", cmd_translate,
	  "unwind a session's stacks once, so later reports are faster" },
	{ "annotate", cmd_annotate,
	  "a function's source lines and instructions with their samples" },
	{ "compare", cmd_compare, "two sessions side by side, the largest changes first" },
	{ "diff", cmd_compare, "the same as compare" },
	{ "info", cmd_info, "list collect configurations and describe this system" },
	{ "pcm", cmd_pcm, "count core, L3, Data Fabric and OS events: metrics per interval" },
	{ "timechart", cmd_timechart, "frequency, P-state, power and temperature at an interval" },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uprof [--version] [--help] <command> [<options>] [<program> [<args>]]\n\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'uprof help <command>' (or 'uprof <command> --help') describes a command;\n"
		   "'man uprof' has the rest.\n");
}

/* A command's output to stdout is buffered: a write that fails (a full disk, /dev/full)
 * shows only as the stream's error flag or as a failing final flush. Every command returns
 * through here, so this one check covers them all: the exit is non-zero and stderr says
 * why, in one line (none more where the command already reported its failure). */
static int finish_stdout(int rc)
{
	int err, failed;

	errno = 0;
	failed = fflush(stdout) != 0 || ferror(stdout);
	err = errno;
	/* EBADF with nothing left to write: stdout was closed and nothing was lost */
	if (!failed && fclose(stdout) != 0 && errno != EBADF)
		failed = 1, err = errno;
	if (!failed)
		return rc;
	if (!(rc && cli_error_said()))
		fprintf(stderr, "uprof: writing to standard output failed%s%s\n", err ? ": " : "",
			err ? strerror(err) : "");
	return rc ? rc : 1;
}

/* "uprof: '<word>' is not a command (did you mean <near>?); ..." on stderr, exit code 2 */
static int not_a_command(const char *who, const char *word)
{
	const char *names[sizeof(commands) / sizeof(commands[0])];
	const char *near;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	near = cli_suggest_word(names, sizeof(names) / sizeof(names[0]), word);
	fprintf(stderr, "%s: '%s' is not a command%s%s%s; try 'uprof --help'\n", who, word,
		near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	return EXIT_USAGE;
}

/* "help <command>": the command's own --help, exactly as "<command> --help" prints it. */
static int help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(2, (char *[]){ argv[1], "--help", NULL });
	return not_a_command("uprof help", argv[1]);
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		return help(1, argv + 1);
	if (!strcmp(cmd, "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v") || !strcmp(cmd, "version")) {
		printf("uprof %s\n", UPROF_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return not_a_command("uprof", cmd);
}

int main(int argc, char **argv)
{
	return finish_stdout(run(argc, argv));
}
