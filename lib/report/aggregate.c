// SPDX-License-Identifier: MIT
/*
 * From (thread, module, address) counts to functions, and the tallies every section of
 * the report reads: per process, thread and module, and per process × function etc.
 * A function is (module, symbol name): the same name in two libraries stays two rows.
 */
#include "report/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int func_for(struct rpt *r, int module, const char *name)
{
	uint64_t *slot = util_hash_slot(&r->func_index, (uint64_t)module, (uintptr_t)name, 0);
	struct rpt_func *f;

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (int)(*slot - 1);
	if (r->nfuncs == r->capfuncs) {
		int cap = r->capfuncs ? r->capfuncs * 2 : 256;
		struct rpt_func *g = realloc(r->funcs, sizeof(*g) * cap);

		if (!g)
			return -ENOMEM;
		r->funcs = g;
		r->capfuncs = cap;
	}
	f = &r->funcs[r->nfuncs];
	f->name = name;
	f->module = module;
	f->samples = 0;
	*slot = (uint64_t)++r->nfuncs;
	return r->nfuncs - 1;
}

/*
 * --inline: the function inlined at @addr (a file offset of @module), innermost, from its
 * DWARF (lib/symbols' inline chains, what the call graph's and annotate's inlined frames
 * come from), else @name. Every name is interned in r->names then, so a function's rows
 * are one (func_for keys by the name's pointer) whichever table named it. NULL: -ENOMEM.
 */
static const char *inlined_name(struct rpt *r, int module, uint64_t addr, const char *name)
{
	const char *in[1];

	if (!r->inline_funcs) {
		r->inline_funcs = rpt_inlines_new(r->locator);
		if (!r->inline_funcs)
			return NULL;
	}
	if (module != RPT_MODULE_KERNEL && module != RPT_MODULE_UNKNOWN &&
	    rpt_inlines_at(r->inline_funcs, r->world.modules[module].path, addr, in, 1) == 1 &&
	    in[0])
		name = in[0];
	return rpt_strpool_intern(&r->names, name);
}

int rpt_resolve(struct rpt *r, int thread, int module, uint64_t addr, int *func, int *proc)
{
	struct rpt_world *w = &r->world;
	struct rpt_sym sym;
	uint64_t *slot;

	const char *name;

	if (module == RPT_MODULE_KERNEL)
		rpt_symtab_lookup_kernel(r->symtab, addr, &sym);
	else
		rpt_symtab_lookup(r->symtab, w->modules[module].path, &w->modules[module].id, addr,
				  &sym);
	name = sym.name;
	if (r->opts.inline_funcs) {
		name = inlined_name(r, module, addr, name);
		if (!name)
			return -ENOMEM;
	}
	*func = func_for(r, module, name);
	if (*func < 0)
		return *func;
	slot = util_hash_find(&w->pid_index, (uint32_t)w->threads[thread].pid, 0, 0);
	if (!slot)
		return -EINVAL;
	*proc = (int)(*slot - 1);
	return 0;
}

static int tally(struct rpt *r, const struct util_hent *e)
{
	struct rpt_world *w = &r->world;
	int thread = (int)e->a, module = (int)e->b, func, proc, ret;
	struct rpt_thread *t = &w->threads[thread];
	uint64_t n = e->val;
	int prog;

	ret = rpt_resolve(r, thread, module, e->c, &func, &proc);
	if (ret)
		return ret;
	prog = w->procs[proc].program;
	r->funcs[func].samples += n;
	w->modules[module].samples += n;
	t->samples += n;
	r->programs[prog].nprocs += !w->procs[proc].samples;
	r->programs[prog].samples += n;
	w->procs[proc].samples += n;
	if (util_hash_add(&r->proc_func, proc, func, n) ||
	    util_hash_add(&r->proc_module, proc, module, n) ||
	    util_hash_add(&r->prog_func, prog, func, n) ||
	    util_hash_add(&r->prog_module, prog, module, n) ||
	    util_hash_add(&r->thread_func, thread, func, n) ||
	    util_hash_add(&r->thread_module, thread, module, n) ||
	    util_hash_add(&r->module_func, module, func, n))
		return -ENOMEM;
	return 0;
}

int rpt_aggregate(struct rpt *r)
{
	int ret = rpt_programs_build(r);

	if (ret)
		return ret;
	for (size_t i = 0; i < r->addr_counts.cap; i++) {
		int ret;

		if (!r->addr_counts.e[i].used)
			continue;
		ret = tally(r, &r->addr_counts.e[i]);
		if (ret)
			return ret;
	}
	return rpt_events_aggregate(r);
}

int rpt_sorted_cmp(const void *a, const void *b)
{
	const struct rpt_sorted *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->item - y->item;
}

int rpt_collect(const struct util_hash *h, uint64_t owner, struct rpt_sorted **out)
{
	struct rpt_sorted *v;
	int n = 0;

	v = malloc(sizeof(*v) * (h->n ? h->n : 1));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++)
		if (h->e[i].used && h->e[i].a == owner && h->e[i].val)
			v[n++] = (struct rpt_sorted){ (int)h->e[i].b, h->e[i].val };
	util_qsort(v, n, sizeof(*v), rpt_sorted_cmp);
	*out = v;
	return n;
}

void rpt_process_name(const struct rpt *r, int proc, char *buf, size_t len)
{
	const struct rpt_process *p = &r->world.procs[proc];

	snprintf(buf, len, "%s (PID:%d)", p->comm, p->pid);
}

/* uProf's convention: a thread shows its own name when it has one, else Thread-<tid>. */
void rpt_thread_name(const struct rpt *r, int thread, char *buf, size_t len)
{
	const struct rpt_thread *t = &r->world.threads[thread];

	if (t->name)
		snprintf(buf, len, "%.63s (PID:%d)", t->name, t->pid);
	else if (t->tid == t->pid || t->renamed)
		snprintf(buf, len, "%s (PID:%d)", t->comm, t->pid);
	else
		snprintf(buf, len, "Thread-%d (PID:%d)", t->tid, t->pid);
}
