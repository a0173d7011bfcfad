// SPDX-License-Identifier: MIT
/*
 * What lib/export reads of a --trace os session (docs/DESIGN.md §12): its off-CPU time by
 * the stack that blocked, as report.h views of the report's own stacks, so that the
 * wall-clock exports merge it with the on-CPU samples on the same frames; and each
 * thread's states and calls over time, for the trace's slices.
 */
#include "report/ostrace.h"
#include "report/stacks.h"

#include <math.h>
#include <stdio.h>

size_t rpt_os_offcpu_count(const struct rpt *r)
{
	const struct ost_offcpu *o;

	return r->os && r->os->m ? ost_model_offcpu(r->os->m, &o) : 0;
}

void rpt_os_offcpu_at(const struct rpt *r, size_t i, struct rpt_offcpu_view *out)
{
	const struct ost_offcpu *o;

	ost_model_offcpu(r->os->m, &o);
	o += i;
	*out = (struct rpt_offcpu_view){
		o->pid, o->tid, UINT32_MAX, UINT32_MAX, ost_wait_name(o->wait), o->ns, o->count
	};
	for (int p = 0; p < r->world.nprocs; p++)
		if (r->world.procs[p].pid == o->pid)
			out->proc = (uint32_t)p;
	if (o->stack != OST_NO_STACK && r->stacks->built && o->stack < r->stacks->nstacks) {
		out->sym = r->stacks->stacks[o->stack].sym;
		out->proc = r->stacks->syms[out->sym].proc;
	}
}

_Static_assert(RPT_OS_SPANS_MAX == OST_SPANS_MAX, "report.h says what lib/ostrace keeps");
_Static_assert((int)RPT_OS_RUNNING == (int)OST_SPAN_RUNNING &&
		       (int)RPT_OS_RUNNABLE == (int)OST_SPAN_RUNNABLE &&
		       (int)RPT_OS_BLOCKED == (int)OST_SPAN_BLOCKED &&
		       (int)RPT_OS_CALL == (int)OST_SPAN_CALL &&
		       (int)OST_SPAN_RUNNING == (int)OST_RUNNING &&
		       (int)OST_SPAN_RUNNABLE == (int)OST_RUNNABLE &&
		       (int)OST_SPAN_BLOCKED == (int)OST_BLOCKED,
	       "a span's kind is its state (or a call), in report.h's order");

size_t rpt_os_span_count(const struct rpt *r, uint64_t *left_out)
{
	const struct ost_span *s;

	*left_out = 0;
	return r->os && r->os->m ? ost_model_spans(r->os->m, &s, left_out) : 0;
}

void rpt_os_span_at(const struct rpt *r, size_t i, struct rpt_os_span_view *out)
{
	const struct ost_span *s;
	uint64_t left_out;

	ost_model_spans(r->os->m, &s, &left_out);
	s += i;
	*out = (struct rpt_os_span_view){
		s->pid, s->tid, s->begin, s->end, (enum rpt_os_span_kind)s->kind, NULL, "", s->ret
	};
	if (s->kind == OST_SPAN_BLOCKED)
		out->wait = ost_wait_name((enum ost_wait)s->wait);
	if (s->kind == OST_SPAN_CALL) {
		char buf[32];

		snprintf(out->call, sizeof(out->call), "%s",
			 ost_syscall_name(s->nr, buf, sizeof(buf)));
	}
}

uint64_t rpt_sample_ns(const struct rpt *r)
{
	if (!r->info.nevents || !ses_event_is_timer(&r->info.events[0]))
		return 0;
	return (uint64_t)llround(rpt_sample_s(r) * 1e9);
}
