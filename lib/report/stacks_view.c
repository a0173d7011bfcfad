// SPDX-License-Identifier: MIT
/*
 * The call stacks as the modules above report read them (report.h): lib/export's
 * folded stacks, flame graph and trace, and the terminal's call-stack facts. They get
 * copies of what stacks.h keeps, never the model itself, so it can change shape.
 */
#include "report/stacks.h"

#include <errno.h>
#include <string.h>

int rpt_stacks_ready(struct rpt *r)
{
	int ret;

	if (!r->stacks || !r->stacks->built || !r->opts.exports)
		return -EINVAL;
	ret = rpt_callgraph_build(r, true); /* exports name inlined frames */
	if (ret)
		return ret;
	rpt_stacks_finish(r->stacks); /* and go through each thread's samples in time order */
	return 0;
}

void rpt_stacks_facts(const struct rpt *r, struct rpt_stacks_facts *out)
{
	const struct rpt_stacks *st = r->stacks;

	*out = (struct rpt_stacks_facts){
		.dir = r->dir,
		.info = &r->info,
		.samples = r->samples,
		.collected = st->collected,
		.nstacks = st->nsyms,
		.nsamples = st->nsamples,
		.nspans = st->nspans,
		.npauses = r->npauses,
		.nprocs = r->world.nprocs,
		.timeline = st->keep,
		.stride = st->stride,
		.left_out = st->keep && st->bounded ? st->seen - st->nsamples : 0,
	};
}

void rpt_stack_at(const struct rpt *r, size_t i, struct rpt_stack_view *out)
{
	const struct rpt_symstack *s = &r->stacks->syms[i];

	*out = (struct rpt_stack_view){ s->proc, s->n, &r->stacks->fids[s->first], s->count };
}

static enum rpt_fn_kind fn_kind(const struct rpt_cfunc *fn)
{
	if (fn->kind == RPT_CF_MARK)
		return RPT_FN_MARK;
	if (fn->kind == RPT_CF_INLINED)
		return RPT_FN_INLINED;
	return fn->module == RPT_MODULE_KERNEL ? RPT_FN_KERNEL : RPT_FN_FUNCTION;
}

void rpt_stack_func(const struct rpt *r, uint32_t fn, struct rpt_stack_fn *out)
{
	const struct rpt_cfunc *f = &r->stacks->funcs[fn];

	*out = (struct rpt_stack_fn){ f->name, rpt_callgraph_module(r, f), fn_kind(f) };
}

void rpt_stack_sample_at(const struct rpt *r, size_t i, struct rpt_stack_sample *out)
{
	const struct rpt_ssample *s = &r->stacks->samples[i];

	*out = (struct rpt_stack_sample){ s->time, s->tid, r->stacks->stacks[s->stack].sym };
}

void rpt_task_span_at(const struct rpt *r, size_t i, struct rpt_task_span_view *out)
{
	const struct rpt_task_span *sp = &r->stacks->spans[i];
	const struct rpt_task_item *it = &r->items[sp->item];

	*out = (struct rpt_task_span_view){ sp->begin, sp->end,	   sp->pid,
					    sp->tid,   it->domain, it->name };
}

void rpt_process_at(const struct rpt *r, int proc, struct rpt_process_view *out)
{
	const struct rpt_process *p = &r->world.procs[proc];

	*out = (struct rpt_process_view){ p->pid, p->comm, p->samples };
}

bool rpt_thread_of(const struct rpt *r, uint32_t tid, struct rpt_thread_view *out)
{
	uint64_t *slot = util_hash_find(&r->world.tid_index, tid, 0, 0);
	const struct rpt_thread *t = slot ? &r->world.threads[*slot - 1] : NULL;

	if (!t)
		return false;
	*out = (struct rpt_thread_view){ t->tid, t->pid, t->comm, t->name, t->renamed };
	return true;
}

void rpt_pause_at(const struct rpt *r, size_t i, int64_t *from, int64_t *to)
{
	*from = r->pauses[i].from;
	*to = r->pauses[i].to;
}

void rpt_stack_summary(const struct rpt *r, struct rpt_stack_summary *s)
{
	const struct rpt_stacks *st = r->stacks;

	memset(s, 0, sizeof(*s));
	if (!st)
		return;
	s->collected = st->collected;
	s->stacks = st->nstacks;
	s->truncated = st->truncated;
	s->unwind_failed = st->unwind_failed;
	s->leaf_fixed = st->leaf_fixed;
	s->leaf_fp = st->leaf_fp;
	s->leaf_unknown = st->leaf_unknown;
	s->leaf_note = st->leaf_note[0] ? st->leaf_note : NULL;
	s->early = rpt_fpstack_hint(r, &s->early_pct, &s->early_module);
}
