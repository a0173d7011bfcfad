// SPDX-License-Identifier: MIT
/* uprof: the command table. */
#include "cli/cli.h"

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
	{ "info", cmd_info, "list collect configurations and describe this system" },
	{ "pcm", cmd_pcm, "count core, L3, Data Fabric and OS events: metrics per interval" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: uprof [--version] [--help] <command> [<options>] [<program> [<args>]]\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'uprof <command> --help' describes a command; 'man uprof' has the rest.\n");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v") || !strcmp(cmd, "version")) {
		printf("uprof %s\n", UPROF_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "uprof: '%s' is not a command; try 'uprof --help'\n", cmd);
	return EXIT_USAGE;
}
