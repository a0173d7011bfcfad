// SPDX-License-Identifier: MIT
/*
 * A tool of API 1.3 (tests/e2e/tool_os.sh): the thread states and system calls of a
 * --trace os session it is called back with, written back as "OS THREADS" and "OS
 * SYSCALLS" in report.csv's own number style (%.6f seconds), so that the test holds them
 * against THREAD STATES and SYSTEM CALLS BY THREAD cell for cell. Built with -DDECLARE_1_2
 * it says it is a tool of API 1.2, where both slots were reserved: it must be refused.
 */
#include <errno.h>
#include <stdio.h>
#include <uprof_tool.h>

#include "tool_row.h"

static const struct uprof_tool_core *core;
static int nthreads, ncalls;

static int row(const char *text)
{
	return tool_row(core, "t", text);
}

static int thread(void *ctx, const struct uprof_tool_os_thread *t)
{
	char buf[512];
	int ret = 0;

	(void)ctx;
	if (t->size < sizeof(*t))
		return -EINVAL;
	if (!nthreads++)
		ret = core->section(core, "OS THREADS", "Row");
	snprintf(buf, sizeof(buf), "%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%llu,%llu,%llu",
		 t->tid, t->lifetime_s, t->running_s, t->runnable_s, t->blocked_s, t->sleep_s,
		 t->io_s, t->lock_s, t->other_s, t->unaccounted_s, (unsigned long long)t->switches,
		 (unsigned long long)t->preemptions, (unsigned long long)t->wakeups);
	return ret ? ret : row(buf);
}

static int syscall_row(void *ctx, const struct uprof_tool_os_syscall *c)
{
	char buf[512];
	int ret = 0;

	(void)ctx;
	if (c->size < sizeof(*c) || !c->name)
		return -EINVAL;
	if (!ncalls++)
		ret = core->section(core, "OS SYSCALLS", "Row");
	snprintf(buf, sizeof(buf), "%d,%s,%llu,%llu,%.6f,%.6f,%.6f,%.6f,%llu", c->tid, c->name,
		 (unsigned long long)c->calls, (unsigned long long)c->errors, c->total_s, c->min_s,
		 c->max_s, c->calls ? c->total_s / (double)c->calls : 0.0,
		 (unsigned long long)c->bytes);
	return ret ? ret : row(buf);
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc;
	(void)argv;
	core = c;
	d.name = "osstates";
#ifdef DECLARE_1_2 /* built as if against API 1.2, where both slots were reserved */
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
#endif
	d.os_thread = thread;
	d.os_syscall = syscall_row;
	return c->register_tool(c, &d);
}
