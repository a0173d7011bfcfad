// SPDX-License-Identifier: MIT
/*
 * The OS trace's results as the tool API hands them out (uprof_tool.h 1.3's os_thread and
 * os_syscall, lib/tool/driver_os.c): the model's own rows, the ones ostrace_csv.c writes
 * as THREAD STATES and SYSTEM CALLS BY THREAD, so that a tool's numbers are report.csv's.
 */
#include "report/ostrace.h"

size_t rpt_os_threads(const struct rpt *r, const struct ost_thread **out)
{
	*out = NULL;
	return r->os && r->os->m ? ost_model_threads(r->os->m, out) : 0;
}

size_t rpt_os_calls(const struct rpt *r, const struct ost_call_stat **out)
{
	*out = NULL;
	return r->os && r->os->m ? ost_model_calls(r->os->m, out) : 0;
}
