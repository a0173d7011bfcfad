// SPDX-License-Identifier: MIT
/*
 * pcm's command words (top, profile, roofline, compare, hreport) are never taken for a
 * program to run (cli/pcm.c takes them when they come first; here they are only met in
 * the wrong place): uProf's AMDuProfPcm wants `--` before a program, so `uprof pcm -m ipc
 * top` is a command in the wrong place, not a request to measure top(1). A program of
 * such a name runs after `--`.
 */
#include "cli/cli.h"
#include "cli/pcm.h"

#include <stdio.h>
#include <string.h>

static const char *const PCM_COMMANDS[][2] = {
	{ "top", NULL },     { "profile", NULL }, { "roofline", NULL },
	{ "compare", NULL }, { "hreport", NULL },
};

int pcm_operand_check(int argc, char **argv, int first)
{
	const char *word = first < argc ? argv[first] : NULL;

	if (!word || (first > 0 && !strcmp(argv[first - 1], "--")))
		return -1;
	for (size_t i = 0; i < sizeof(PCM_COMMANDS) / sizeof(PCM_COMMANDS[0]); i++) {
		if (strcmp(word, PCM_COMMANDS[i][0]))
			continue;
		if (first > 1) {
			char what[256];

			snprintf(what, sizeof(what),
				 "'%s' is a pcm command, not a program: put it first ('uprof pcm "
				 "%s ...'); a program of that name runs after -- ('uprof pcm ... "
				 "-- %s')",
				 word, word, word);
			return cli_usage_error("pcm", what);
		}
		return cli_error(EXIT_USAGE, "pcm", "%s: %s", word,
				 PCM_COMMANDS[i][1] ? PCM_COMMANDS[i][1]
						    : "this pcm command is not built here");
	}
	return -1;
}
