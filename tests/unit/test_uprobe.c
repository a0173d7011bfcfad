// SPDX-License-Identifier: MIT
/*
 * lib/pmc/uprobe.c against a fake tracefs (a directory with a plain uprobe_events file,
 * which takes the appended commands as lines): the commands written for a probe and a
 * removal, a path uprobe_events cannot be told refused, and the sweep of a killed uprof's
 * leftovers reading every kind of line: only a group "uprof_<pid>" whose pid is gone is
 * removed; a live one, another tool's, a malformed or cut line stays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc/pmc.h"

static char root[64];

static void write_events(const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_events(void)
{
	static char buf[4096];
	char path[128];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* A pid that was a process and is no more (reaped). */
static pid_t gone_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

static void commands(void **state)
{
	char group[32];

	(void)state;
	write_events("");
	pmc_uprobe_group(group, sizeof(group), 4242);
	assert_string_equal(group, "uprof_4242");
	assert_int_equal(pmc_uprobe_add(root, group, "funcs", "/opt/app", 0x1310), 0);
	assert_int_equal(pmc_uprobe_add(root, group, "funcs", "/opt/my app", 0x10), -EINVAL);
	assert_int_equal(pmc_uprobe_add(root, group, "funcs", "/opt/a:b", 0x10), -EINVAL);
	assert_int_equal(pmc_uprobe_add(root, group, "funcs", "relative", 0x10), -EINVAL);
	assert_int_equal(pmc_uprobe_remove(root, group, "funcs"), 0);
	assert_string_equal(read_events(), "p:uprof_4242/funcs /opt/app:0x1310\n-:uprof_4242/funcs\n");
	/* no uprobe_events: this kernel has no uprobes */
	assert_int_equal(pmc_uprobe_add("/nonexistent-tracefs", group, "funcs", "/opt/app", 1),
			 -ENOENT);
}

static void sweep(void **state)
{
	char text[1024], want[1200];
	pid_t dead = gone_pid();
	int removed = -1;

	(void)state;
	snprintf(text, sizeof(text),
		 "p:uprof_%d/funcs /opt/app:0x0000000000001310\n" /* its uprof is gone */
		 "p:uprof_%d/funcs /opt/app:0x0000000000001340\n" /* a live one's */
		 "p:probe_app/main /opt/app:0x10\n"		  /* another tool's */
		 "r:uprof_%d/ret /opt/app:0x10\n"		  /* not a 'p:' line */
		 "p:uprof_12ab/funcs /opt/app:0x10\n"		  /* not a pid */
		 "p:uprof_99999999999/funcs /opt/app:0x10\n"	  /* past any pid */
		 "p:uprof_/funcs /opt/app:0x10\n"		  /* no pid */
		 "garbage\n"
		 "p:uprof_%d/cut", /* cut: no space after the event */
		 (int)dead, (int)getpid(), (int)dead, (int)dead);
	write_events(text);
	assert_int_equal(pmc_uprobe_sweep(root, &removed), 0);
	assert_int_equal(removed, 1);
	snprintf(want, sizeof(want), "%s-:uprof_%d/funcs\n", text, (int)dead);
	assert_string_equal(read_events(), want);
	/* nothing there: nothing to do */
	assert_int_equal(pmc_uprobe_sweep("/nonexistent-tracefs", &removed), 0);
	assert_int_equal(removed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(commands), cmocka_unit_test(sweep) };
	char dir[] = "/tmp/uprof-uprobe.XXXXXX";
	char path[128];
	int ret;

	if (!mkdtemp(dir))
		return 1;
	snprintf(root, sizeof(root), "%s", dir);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	unlink(path);
	rmdir(root);
	return ret;
}
