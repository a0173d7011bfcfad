// SPDX-License-Identifier: MIT
/*
 * lib/pmc's one explainer of perf_event_open failures: for each errno and situation
 * (a launched program, an attached process, per-CPU events; user or kernel code; root
 * or not) the exact line, read against a fake procfs (UPROF_PROCFS_ROOT).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"

static char procfs[64];
/* An unprivileged user who owns the fake process 77: ourselves, or as root 1000 */
static unsigned me;

/* A fake procfs with these sysctls ("" leaves the file out) and a process 77 of me. */
static void fake_proc(const char *paranoid, const char *ptrace)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s/sys/kernel/yama %s/77", procfs,
		 procfs, procfs);
	assert_int_equal(system(cmd), 0);
	if (!geteuid()) {
		snprintf(cmd, sizeof(cmd), "%s/77", procfs);
		assert_int_equal(chown(cmd, me, (gid_t)-1), 0);
	}
	if (*paranoid) {
		snprintf(cmd, sizeof(cmd), "echo %s > %s/sys/kernel/perf_event_paranoid", paranoid,
			 procfs);
		assert_int_equal(system(cmd), 0);
	}
	if (*ptrace) {
		snprintf(cmd, sizeof(cmd), "echo %s > %s/sys/kernel/yama/ptrace_scope", ptrace,
			 procfs);
		assert_int_equal(system(cmd), 0);
	}
}

static const char *explain(int err, enum pmc_open_scope scope, bool kernel, unsigned uid)
{
	static char msg[512];
	struct pmc_open_what w = { .event = "CPU_TIME", .pmu = "software", .scope = scope,
				   .kernel = kernel, .pid = 77, .uid = uid };

	pmc_open_strerror(err, &w, msg, sizeof(msg));
	return msg;
}

/* The same errno, the level each situation needs: 2, 1, 0. */
static void denied_names_the_level_needed(void **state)
{
	(void)state;
	fake_proc("2", "0");
	assert_string_equal(explain(-EACCES, PMC_OPEN_TASK, true, me),
			    "not permitted to open CPU_TIME (Permission denied): "
			    "kernel.perf_event_paranoid is 2 and sampling kernel code needs 1 or "
			    "lower; 'sysctl kernel.perf_event_paranoid=1' or run as root");
	assert_string_equal(explain(-EPERM, PMC_OPEN_CPU, false, me),
			    "not permitted to open CPU_TIME (Operation not permitted): "
			    "kernel.perf_event_paranoid is 2 and profiling every CPU (-a, uncore, "
			    "per-CPU counting) needs 0 or lower; 'sysctl "
			    "kernel.perf_event_paranoid=0' or run as root");
	fake_proc("3", "0"); /* Debian's level: not even user code */
	assert_string_equal(explain(-EACCES, PMC_OPEN_TASK, false, me),
			    "not permitted to open CPU_TIME (Permission denied): "
			    "kernel.perf_event_paranoid is 3 and profiling needs 2 or lower; "
			    "'sysctl kernel.perf_event_paranoid=2' or run as root");
}

/* Allowed by paranoid, or root: the refusal is someone else's. */
static void denied_by_something_else(void **state)
{
	static const char policy[] = "not permitted to open CPU_TIME (Permission denied) although "
				     "kernel.perf_event_paranoid allows it: a security policy "
				     "(capabilities, LSM, seccomp) refuses it";

	(void)state;
	fake_proc("1", "0");
	assert_string_equal(explain(-EACCES, PMC_OPEN_TASK, true, me), policy);
	fake_proc("2", "0");
	assert_string_equal(explain(-EACCES, PMC_OPEN_CPU, true, 0), policy); /* root */
	fake_proc("", ""); /* nothing readable: no guess at a level */
	assert_string_equal(explain(-EACCES, PMC_OPEN_TASK, true, me), policy);
}

static void denied_attach(void **state)
{
	char want[256];

	(void)state;
	fake_proc("1", "1");
	assert_string_equal(explain(-EACCES, PMC_OPEN_ATTACH, true, me),
			    "not permitted to attach to pid 77 (Permission denied): "
			    "kernel.yama.ptrace_scope is 1; try 0, or run as root");
	fake_proc("1", "0");
	snprintf(want, sizeof(want), "not permitted to attach to pid 77: it belongs to another "
				     "user (uid %u); run uprof as that user or as root", me);
	assert_string_equal(explain(-EACCES, PMC_OPEN_ATTACH, true, me + 1), want);
	fake_proc("2", "0"); /* the level comes before ptrace_scope */
	assert_non_null(strstr(explain(-EPERM, PMC_OPEN_ATTACH, true, me),
			       "kernel.perf_event_paranoid is 2 and sampling kernel code needs 1"));
	assert_string_equal(explain(-ESRCH, PMC_OPEN_ATTACH, true, me),
			    "process 77 ended before uprof could attach");
}

static void other_errors(void **state)
{
	static const struct {
		int err;
		const char *msg;
	} cases[] = {
		{ -ENOENT, "the kernel does not know CPU_TIME (PMU 'software' missing, or a code "
			   "this CPU lacks); check with 'uprof info --system'" },
		{ -EOPNOTSUPP, "CPU_TIME cannot be sampled on this PMU (uncore PMUs only count): "
			       "use counting mode, 'uprof pcm'" },
		{ -EBUSY, "the counters for CPU_TIME are busy: another profiler, or the NMI "
			  "watchdog ('sysctl kernel.nmi_watchdog=0')" },
		{ -EMFILE, "too many open files for CPU_TIME: raise 'ulimit -n'" },
		{ -ENOMEM, "not enough locked memory for the ring buffers of CPU_TIME: lower "
			   "-m/--mmap-pages or raise kernel.perf_event_mlock_kb" },
		{ -ESRCH, "the target process is gone" },
		{ -E2BIG, "cannot open CPU_TIME: Argument list too long" },
	};
	char msg[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(explain(cases[i].err, PMC_OPEN_TASK, true, me), cases[i].msg);
	pmc_open_strerror(-ENODEV, NULL, msg, sizeof(msg));
	assert_string_equal(msg, "the kernel does not know the event (PMU '?' missing, or a code "
				 "this CPU lacks); check with 'uprof info --system'");
	pmc_open_strerror(-EMFILE, NULL, msg, 8); /* cut, terminated */
	assert_string_equal(msg, "too man");
}

static void what_of_an_event(void **state)
{
	struct pmc_open_what w;
	struct pmc_event ev;
	char err[128];

	(void)state;
	assert_int_equal(pmc_event_parse("page-faults", 11, NULL, &ev, err, sizeof(err)), 0);
	ev.attr.exclude_kernel = 1;
	pmc_open_what_event(&w, &ev, PMC_OPEN_CPU);
	assert_string_equal(w.event, "page-faults");
	assert_string_equal(w.pmu, ev.pmu);
	assert_false(w.kernel);
	assert_int_equal(w.scope, PMC_OPEN_CPU);
	assert_int_equal(w.uid, geteuid());
	pmc_open_what_event(&w, NULL, PMC_OPEN_TASK);
	assert_null(w.event);
}

static int setup(void **state)
{
	(void)state;
	snprintf(procfs, sizeof(procfs), "/tmp/uprof-explain.%d", (int)getpid());
	me = geteuid() ? (unsigned)geteuid() : 1000;
	return setenv("UPROF_PROCFS_ROOT", procfs, 1);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", procfs);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(denied_names_the_level_needed),
		cmocka_unit_test(denied_by_something_else),
		cmocka_unit_test(denied_attach),
		cmocka_unit_test(other_errors),
		cmocka_unit_test(what_of_an_event),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
