/* SPDX-License-Identifier: MIT */
/* Unit tests' access to the programs in build/targets (test_report.c, test_callgraph.c):
 * where one is, and where its functions are. Included after <cmocka.h>. */
#ifndef UPROF_TEST_TARGET_BINS_H
#define UPROF_TEST_TARGET_BINS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* $BUILD/targets/@name under the working directory (make check runs from the top),
 * else build/targets/@name: the sanitized build shares the plain build's targets. */
static inline void target_path(char *out, size_t len, const char *name)
{
	const char *build = getenv("BUILD");
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = 0;
	snprintf(out, len, "%s/%s/targets/%s", cwd, build ? build : "build", name);
	if (access(out, R_OK))
		snprintf(out, len, "%s/build/targets/%s", cwd, name);
}

/* @sym's address in @bin, as `nm @flags` prints it ("" or "-D": the dynamic symbols of a
 * stripped library); 0 when absent. */
static inline uint64_t nm_addr_flags(const char *bin, const char *flags, const char *sym)
{
	char cmd[PATH_MAX + 64], line[256], name[128];
	unsigned long long a;
	uint64_t found = 0;
	char type;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm %s %s", flags, bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 && !strcmp(name, sym))
			found = a;
	pclose(p);
	return found;
}

/* @sym's address in @bin, as nm prints it; 0 when absent. */
static inline uint64_t nm_addr(const char *bin, const char *sym)
{
	return nm_addr_flags(bin, "", sym);
}

#endif
