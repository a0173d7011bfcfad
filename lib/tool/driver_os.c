// SPDX-License-Identifier: MIT
/*
 * Report time, in the tool's child: a --trace os session's thread states and system calls
 * (uprof_tool.h 1.3's os_thread and os_syscall), the rows lib/report writes as THREAD
 * STATES and SYSTEM CALLS BY THREAD (rpt_os_threads, rpt_os_calls), in seconds.
 */
#include "tool/internal.h"
#include "ostrace/ostrace.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

int tool_driver_os(struct tool_host *h)
{
	const struct uprof_tool_desc *t = &h->desc;
	const struct ost_thread *th;
	const struct ost_call_stat *c;
	size_t nt = t->os_thread ? rpt_os_threads(h->report, &th) : 0;
	size_t nc = t->os_syscall ? rpt_os_calls(h->report, &c) : 0;
	char name[32];
	int ret;

	for (size_t i = 0; i < nt; i++) {
		ret = t->os_thread(t->ctx, &(struct uprof_tool_os_thread){
						   .size = sizeof(struct uprof_tool_os_thread),
						   .pid = th[i].pid,
						   .tid = th[i].tid,
						   .lifetime_s = sec(th[i].end - th[i].start),
						   .running_s = sec(th[i].state_ns[OST_RUNNING]),
						   .runnable_s = sec(th[i].state_ns[OST_RUNNABLE]),
						   .blocked_s = sec(th[i].state_ns[OST_BLOCKED]),
						   .sleep_s = sec(th[i].blocked_ns[OST_WAIT_SLEEP]),
						   .io_s = sec(th[i].blocked_ns[OST_WAIT_IO]),
						   .lock_s = sec(th[i].blocked_ns[OST_WAIT_LOCK]),
						   .other_s = sec(th[i].blocked_ns[OST_WAIT_OTHER]),
						   .unaccounted_s = sec(th[i].unaccounted_ns),
						   .switches = th[i].switches,
						   .preemptions = th[i].preemptions,
						   .wakeups = th[i].wakeups });
		if (ret)
			return tool_driver_failed(h, "os_thread", ret);
	}
	for (size_t i = 0; i < nc; i++) {
		ret = t->os_syscall(
			t->ctx, &(struct uprof_tool_os_syscall){
					.size = sizeof(struct uprof_tool_os_syscall),
					.pid = c[i].pid,
					.tid = c[i].tid,
					.name = ost_syscall_name(c[i].nr, name, sizeof(name)),
					.nr = c[i].nr,
					.calls = c[i].calls,
					.errors = c[i].errors,
					.bytes = c[i].bytes,
					.total_s = sec(c[i].total_ns),
					/* no call: no minimum (report.csv's 0) */
					.min_s = c[i].min_ns == UINT64_MAX ? 0 : sec(c[i].min_ns),
					.max_s = sec(c[i].max_ns) });
		if (ret)
			return tool_driver_failed(h, "os_syscall", ret);
	}
	return 0;
}
