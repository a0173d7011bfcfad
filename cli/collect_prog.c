// SPDX-License-Identifier: MIT
/*
 * uprof collect: finding the program to run, as execvp would, before anything starts.
 */
#include "cli/collect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const CMD = "collect";

/* Find the program like execvp would, so that a typo fails before anything starts. */
int collect_resolve_program(struct collect_state *st)
{
	const char *name = st->prog_argv[0];
	const char *path = getenv("PATH");
	struct stat sb;

	if (!*name)
		return cli_error(1, CMD, "the program name is empty");
	if (strchr(name, '/')) {
		if (stat(name, &sb))
			return cli_error(1, CMD, "cannot run '%s': %s", name, strerror(errno));
		if (S_ISDIR(sb.st_mode))
			return cli_error(1, CMD, "cannot run '%s': it is a directory", name);
		if (access(name, X_OK))
			return cli_error(1, CMD, "cannot run '%s': not executable (%s); chmod +x it?",
					 name, strerror(errno));
		if (!realpath(name, st->prog_path))
			snprintf(st->prog_path, sizeof(st->prog_path), "%s", name);
		return -1;
	}
	for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, len ? p : ".", name);
		if (!stat(cand, &sb) && S_ISREG(sb.st_mode) && !access(cand, X_OK)) {
			if (!realpath(cand, st->prog_path))
				snprintf(st->prog_path, sizeof(st->prog_path), "%s", cand);
			return -1;
		}
		p = colon ? colon + 1 : NULL;
	}
	return cli_error(1, CMD, "program '%s' not found in PATH", name);
}
