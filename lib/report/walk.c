// SPDX-License-Identifier: MIT
/*
 * rpt_walk(): the report model handed out item by item, for lib/tool's callback driver.
 * The load keeps, with opts.walk, one small record per sample in time order (the order
 * the replay sees them in); functions are looked up once per distinct (module, offset),
 * source lines and call stacks only when a caller asks for them.
 */
#include "report/internal.h"
#include "report/stacks.h"

#include <errno.h>
#include <stdlib.h>

int rpt_walk_reserve(struct rpt *r, size_t n)
{
	struct rpt_wsample *g;

	if (n <= r->capwsamples)
		return 0;
	g = realloc(r->wsamples, n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	r->wsamples = g;
	r->capwsamples = n;
	return 0;
}

int rpt_walk_note(struct rpt *r, const struct rpt_wsample *s)
{
	if (r->nwsamples == r->capwsamples) {
		size_t cap = r->capwsamples ? r->capwsamples * 2 : 4096;
		struct rpt_wsample *g = realloc(r->wsamples, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		r->wsamples = g;
		r->capwsamples = cap;
	}
	r->wsamples[r->nwsamples++] = *s;
	return 0;
}

void rpt_walk_release(struct rpt *r)
{
	free(r->wsamples);
	r->wsamples = NULL;
	r->nwsamples = r->capwsamples = 0;
	util_hash_release(&r->walk_funcs);
}

/* The function of (thread, module, addr): the symbol table's answer, cached. -errno. */
static int func_of(struct rpt *r, const struct rpt_wsample *s)
{
	uint64_t *slot = util_hash_slot(&r->walk_funcs, (uint64_t)(uint32_t)s->module, s->addr, 0);
	int func, proc, ret;

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (int)(*slot - 1);
	ret = rpt_resolve(r, (int)s->thread, s->module, s->addr, &func, &proc);
	if (ret)
		return ret;
	*slot = (uint64_t)func + 1;
	return func;
}

static int walk_samples(struct rpt *r, const struct rpt_walker *w)
{
	int ret = 0;

	for (size_t i = 0; i < r->nwsamples && !ret; i++) {
		const struct rpt_wsample *s = &r->wsamples[i];
		const struct rpt_thread *t = &r->world.threads[s->thread];
		int func = func_of(r, s);

		if (func < 0)
			return func;
		ret = w->sample(w->ctx, &(struct rpt_walk_sample){
						.time = s->time,
						.ip = s->ip,
						.offset = s->addr,
						.pid = t->pid,
						.tid = t->tid,
						.cpu = s->cpu == UINT16_MAX ? -1 : s->cpu,
						.event = s->event,
						.module = s->module,
						.units = s->units,
						.function = r->funcs[func].name,
						.module_path = r->world.modules[s->module].path,
						.index = i });
	}
	return ret;
}

static int walk_world(struct rpt *r, const struct rpt_walker *w)
{
	const struct rpt_world *wd = &r->world;
	int ret = 0;

	for (int i = 0; i < wd->nprocs && !ret && w->process; i++) {
		const struct rpt_process *p = &wd->procs[i];

		if (p->pid < 0 && !p->samples)
			continue; /* the model's placeholder for records of no process: no process */
		ret = w->process(w->ctx, &(struct rpt_walk_process){
						 p->pid, p->comm, rpt_program_path(r, p->program),
						 p->samples });
	}
	for (int i = 0; i < wd->nthreads && !ret && w->thread; i++) {
		char name[96];

		rpt_thread_name(r, i, name, sizeof(name));
		ret = w->thread(w->ctx,
				&(struct rpt_walk_thread){ wd->threads[i].pid, wd->threads[i].tid,
							   name, wd->threads[i].samples });
	}
	for (int i = 0; i < wd->nmodules && !ret && w->module; i++)
		ret = w->module(w->ctx, &(struct rpt_walk_module){ i, wd->modules[i].path,
								   wd->modules[i].samples });
	return ret;
}

static int walk_tasks(struct rpt *r, const struct rpt_walker *w)
{
	struct rpt_stacks *st = r->stacks;
	int ret = 0;

	if (st->nspans)
		rpt_stacks_finish(st); /* samples by thread and time: counted per span */
	for (size_t i = 0; i < st->nspans && !ret; i++) {
		const struct rpt_task_span *sp = &st->spans[i];
		size_t first;

		ret = w->task(w->ctx, &(struct rpt_walk_task){
					      (int)sp->pid, (int)sp->tid, r->items[sp->item].domain,
					      r->items[sp->item].name, sp->begin, sp->end,
					      rpt_stacks_between(st, sp->tid, sp->begin, sp->end,
								 &first) });
	}
	return ret;
}

int rpt_walk(struct rpt *r, const struct rpt_walker *w)
{
	int ret = walk_world(r, w);

	/* tasks and pauses before the samples: a tool can place each sample as it comes */
	if (!ret && w->task)
		ret = walk_tasks(r, w);
	for (size_t i = 0; i < r->npauses && !ret && w->pause; i++)
		ret = w->pause(w->ctx, r->pauses[i].from, r->pauses[i].to);
	if (!ret && w->sample)
		ret = walk_samples(r, w);
	return ret;
}

int rpt_walk_source(struct rpt *r, size_t index, const char **file, int *line)
{
	struct rpt_stacks *st = r->stacks;
	const struct rpt_wsample *s;

	*file = NULL;
	*line = 0;
	if (index >= r->nwsamples)
		return -EINVAL;
	s = &r->wsamples[index];
	if (s->module == RPT_MODULE_KERNEL || s->module == RPT_MODULE_UNKNOWN)
		return -ENOENT;
	if (!st->inlines)
		st->inlines = rpt_inlines_new(r->locator);
	if (!st->inlines)
		return -ENOMEM;
	return rpt_inlines_line(st->inlines, r->world.modules[s->module].path, s->addr, file, line);
}

/* The stack of walked sample @index: its function ids in *@fids (leaf first), the count;
 * or, for an event other than the first (no stack kept), 0 with its function in *@func;
 * or -errno. */
static int stack_of(struct rpt *r, size_t index, const uint32_t **fids, int *func)
{
	const struct rpt_wsample *s;
	const struct rpt_symstack *sym;
	int ret;

	if (index >= r->nwsamples)
		return -EINVAL;
	s = &r->wsamples[index];
	if (s->stack == UINT32_MAX) {
		*func = func_of(r, s);
		return *func < 0 ? *func : 0;
	}
	ret = rpt_callgraph_build(r, false); /* once; a no-op when the report built it */
	if (ret)
		return ret;
	sym = rpt_callgraph_sym(r, s->stack);
	*fids = rpt_callgraph_fids(r, sym);
	return (int)sym->n;
}

int rpt_walk_stack(struct rpt *r, size_t index, const char **funcs, const char **mods, int max)
{
	const uint32_t *fids;
	int func, n = max > 0 ? stack_of(r, index, &fids, &func) : -EINVAL;

	if (n == 0) {
		funcs[0] = r->funcs[func].name;
		if (mods)
			mods[0] = r->world.modules[r->wsamples[index].module].path;
		return 1;
	}
	for (int i = 0; i < n && i < max; i++) {
		const struct rpt_cfunc *f = &r->stacks->funcs[fids[i]];

		funcs[i] = f->name;
		if (mods)
			mods[i] = rpt_callgraph_module(r, f);
	}
	return n < max ? n : max;
}

int rpt_walk_frames(struct rpt *r, size_t index, struct rpt_walk_frame *out, int max)
{
	const uint32_t *fids;
	int func, n = max > 0 ? stack_of(r, index, &fids, &func) : -EINVAL;

	if (n == 0) {
		const char *name = r->funcs[func].name;

		out[0] = (struct rpt_walk_frame){ name, name,
						  r->world.modules[r->wsamples[index].module].path,
						  r->wsamples[index].module == RPT_MODULE_KERNEL
							  ? RPT_FN_KERNEL
							  : RPT_FN_FUNCTION };
		return 1;
	}
	for (int i = 0; i < n && i < max; i++) {
		const struct rpt_cfunc *f = &r->stacks->funcs[fids[i]];
		struct rpt_stack_fn fn;

		rpt_stack_func(r, fids[i], &fn);
		out[i] = (struct rpt_walk_frame){ f->name, f->base ? f->base : f->name,
						  rpt_callgraph_module(r, f), fn.kind };
	}
	return n < max ? n : max;
}

/* ---- what an export of the walk names beside the samples ---- */

const char *rpt_module_path(const struct rpt *r, int module)
{
	return module >= 0 && module < r->world.nmodules ? r->world.modules[module].path : "";
}

bool rpt_module_is_unknown(const struct rpt *r, int module)
{
	(void)r;
	return module == RPT_MODULE_UNKNOWN;
}

void rpt_module_build_id(const struct rpt *r, int module, char *hex, size_t len)
{
	const struct rpt_file_id *id;
	size_t n = 0;

	if (len)
		hex[0] = '\0';
	if (module < 0 || module >= r->world.nmodules)
		return;
	id = &r->world.modules[module].id;
	if (!id->build_id_len) { /* not recorded: the file's own, when it is still the one */
		if (module != RPT_MODULE_KERNEL && module != RPT_MODULE_UNKNOWN &&
		    r->world.modules[module].path[0] == '/')
			rpt_file_build_id_hex(r->world.modules[module].path, id, hex, len);
		return;
	}
	for (unsigned i = 0; i < id->build_id_len && n + 2 < len; i++, n += 2)
		snprintf(hex + n, len - n, "%02x", id->build_id[i]);
}

bool rpt_stacks_collected(const struct rpt *r)
{
	return r->stacks && r->stacks->collected;
}

int rpt_event_count(const struct rpt *r)
{
	return r->info.nevents;
}

const char *rpt_event_name(const struct rpt *r, int event)
{
	return event >= 0 && event < r->info.nevents ? r->info.events[event].name : "unknown";
}

uint64_t rpt_event_period(const struct rpt *r, int event, uint64_t units)
{
	if (event < 0 || event >= r->info.nevents)
		return units;
	return r->info.events[event].weighted ? units : r->info.events[event].period * units;
}

bool rpt_event_is_timer(const struct rpt *r, int event)
{
	return event >= 0 && event < r->info.nevents && ses_event_is_timer(&r->info.events[event]);
}
