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

/* The program found at @found: its file (symlinks resolved) for the session, and the
 * path to exec, absolute (the program may start in --working-dir) but with its symlinks
 * kept: the kernel names a process after the basename of the path exec'd, so g++ (a
 * link to x86_64-linux-gnu-g++-12) and xzcat (to xz) keep the names they were run by,
 * as under perf record. */
static void found_at(struct collect_state *st, const char *found)
{
	char cwd[PATH_MAX];

	if (!realpath(found, st->prog_path))
		snprintf(st->prog_path, sizeof(st->prog_path), "%s", found);
	if (found[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(st->exec_path, sizeof(st->exec_path), "%s", found);
	else
		snprintf(st->exec_path, sizeof(st->exec_path), "%s/%s", cwd, found);
}

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
			return cli_error(1, CMD,
					 "cannot run '%s': not executable (%s); chmod +x it?", name,
					 strerror(errno));
		found_at(st, name);
		return -1;
	}
	for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, len ? p : ".", name);
		if (!stat(cand, &sb) && S_ISREG(sb.st_mode) && !access(cand, X_OK)) {
			found_at(st, cand);
			return -1;
		}
		p = colon ? colon + 1 : NULL;
	}
	return cli_error(1, CMD, "program '%s' not found in PATH", name);
}
