// SPDX-License-Identifier: MIT
/*
 * From unique stacks to functions: each frame becomes the function holding it, preceded
 * by the functions DWARF says were inlined there ("b (inlined)"); equal symbolized stacks
 * of a process are merged. Then, per process and over all:
 *   self   samples whose leaf is in the function, the functions inlined there skipped
 *          (rpt_callgraph_self(): the flat profile's CPU_TIME)
 *   total  samples with the function anywhere in the stack, once per sample however
 *          deep the recursion
 *   edges  caller -> callee pairs, once per sample
 * and for each task item the leaf functions of the samples inside its instances.
 * CSV: the header lines about stacks, "HOTTEST FUNCTIONS BY TOTAL TIME", the task view,
 * and "CALLGRAPH FOR PROCESS - name (PID:n)" in --detail.
 */
#include "symbols/symbols.h"
#include "report/stacks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYM_FRAMES 4096 /* a symbolized stack (inline chains included) */
#define EVENT "\"CPU_TIME\" (seconds)"

static const char *const mark_names[] = { "", "[truncated]", "[unwind failed]", "[ends early]" };

/* The function (@module, @name, @kind); @name must be interned. -ENOMEM. */
static long func_for(struct rpt_stacks *st, int module, const char *name, const char *base,
		     enum rpt_cfunc_kind kind)
{
	uint64_t *slot = util_hash_slot(&st->func_index, (uint64_t)(int64_t)module, (uintptr_t)name,
					kind);

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (long)(*slot - 1);
	if (st->nfuncs == st->capfuncs) {
		uint32_t cap = st->capfuncs ? st->capfuncs * 2 : 256;
		struct rpt_cfunc *g = realloc(st->funcs, sizeof(*g) * cap);

		if (!g)
			return -ENOMEM;
		st->funcs = g;
		st->capfuncs = cap;
	}
	st->funcs[st->nfuncs] = (struct rpt_cfunc){ name, base, module, kind, 0, 0, 0 };
	*slot = ++st->nfuncs;
	return (long)st->nfuncs - 1;
}

static int fpool_push(struct rpt_stacks *st, uint32_t fid)
{
	if (st->nfpool == st->capfpool) {
		size_t cap = st->capfpool ? st->capfpool * 2 : 1024;
		uint32_t *g = realloc(st->fpool, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		st->fpool = g;
		st->capfpool = cap;
	}
	st->fpool[st->nfpool++] = fid;
	return 0;
}

/* Functions of one frame, innermost inlined first, the enclosing function last. */
static int symbolize_frame(struct rpt *r, const struct rpt_frame *fr, size_t *first, int *n)
{
	struct rpt_stacks *st = r->stacks;
	uint64_t *slot = util_hash_slot(&st->frame_index, fr->module, fr->addr, 0);
	const char *inl[RPT_MAX_INLINE];
	struct rpt_sym sym;
	const char *path, *name;
	int ninl = 0;
	long fid;
	char buf[1024];

	if (!slot)
		return -ENOMEM;
	if (*slot) {
		*first = (size_t)((*slot & ((1ULL << 40) - 1)) - 1);
		*n = (int)(*slot >> 40);
		return 0;
	}
	*first = st->nfpool;
	if (fr->module == RPT_FRAME_MARK) {
		name = rpt_strpool_intern(&st->names, mark_names[fr->addr < 4 ? fr->addr : 2]);

		fid = name ? func_for(st, -1, name, name, RPT_CF_MARK) : -ENOMEM;
		if (fid < 0 || fpool_push(st, (uint32_t)fid))
			return -ENOMEM;
		goto done;
	}
	if (fr->module == RPT_MODULE_KERNEL) {
		rpt_symtab_lookup_kernel(r->symtab, fr->addr, &sym);
	} else {
		path = r->world.modules[fr->module].path;
		rpt_symtab_lookup(r->symtab, path, &r->world.modules[fr->module].id, fr->addr,
				  &sym);
		if (st->inlined && sym.resolved) /* fetched module by module before */
			ninl = rpt_callgraph_inlines(r, fr, inl);
		if (ninl < 0)
			return ninl;
	}
	for (int i = 0; i < ninl; i++) {
		const char *disp = NULL, *base = rpt_strpool_intern(&st->names, inl[i]);
		char *big = NULL;
		int len = snprintf(buf, sizeof(buf), "%s (inlined)", inl[i]);

		/* C++ template names pass 1 KB: the whole name, never a cut one */
		if (len >= (int)sizeof(buf) && asprintf(&big, "%s (inlined)", inl[i]) < 0)
			big = NULL;
		if (len >= 0 && (len < (int)sizeof(buf) || big))
			disp = rpt_strpool_intern(&st->names, big ? big : buf);
		free(big);
		fid = disp && base ? func_for(st, (int)fr->module, disp, base, RPT_CF_INLINED)
				   : -ENOMEM;
		if (fid < 0 || fpool_push(st, (uint32_t)fid))
			return -ENOMEM;
	}
	/* one pool for every name (symtab's, kallsyms', ours): equal names, equal pointers */
	name = rpt_strpool_intern(&st->names, sym.name);
	fid = name ? func_for(st, (int)fr->module, name, name, RPT_CF_FUNCTION) : -ENOMEM;
	if (fid < 0 || fpool_push(st, (uint32_t)fid))
		return -ENOMEM;
done:
	*n = (int)(st->nfpool - *first);
	*slot = ((uint64_t)*n << 40) | (*first + 1);
	return 0;
}

static uint64_t hash_fids(uint32_t proc, const uint32_t *v, uint32_t n)
{
	uint64_t h = 0x84222325cbf29ce4ULL ^ proc;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	return h ^ (h >> 31);
}

/* The merged symbolized stack for (@proc, @v[0..n)); -ENOMEM. */
static long intern_sym(struct rpt_stacks *st, uint32_t proc, const uint32_t *v, uint32_t n)
{
	uint64_t h = hash_fids(proc, v, n);

	for (uint64_t chain = 0;; chain++) {
		uint64_t *slot = util_hash_slot(&st->sym_index, h, proc, chain);
		struct rpt_symstack *s;

		if (!slot)
			return -ENOMEM;
		if (*slot) {
			s = &st->syms[*slot - 1];
			if (s->n == n && !memcmp(&st->fids[s->first], v, sizeof(*v) * n))
				return (long)(*slot - 1);
			continue;
		}
		if (st->nsyms == st->capsyms) {
			size_t cap = st->capsyms ? st->capsyms * 2 : 1024;
			struct rpt_symstack *g = realloc(st->syms, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			st->syms = g;
			st->capsyms = cap;
		}
		if (st->nfids + n > st->capfids) {
			size_t cap = st->capfids ? st->capfids * 2 : 8192;
			uint32_t *g;

			while (cap < st->nfids + n)
				cap *= 2;
			g = realloc(st->fids, cap * sizeof(*g));
			if (!g)
				return -ENOMEM;
			st->fids = g;
			st->capfids = cap;
		}
		memcpy(&st->fids[st->nfids], v, sizeof(*v) * n);
		st->syms[st->nsyms] = (struct rpt_symstack){ proc, n, st->nfids, 0, h };
		st->nfids += n;
		*slot = ++st->nsyms;
		return (long)st->nsyms - 1;
	}
}

static int symbolize_stack(struct rpt *r, struct rpt_stack *s, uint32_t *tmp)
{
	struct rpt_stacks *st = r->stacks;
	const struct rpt_thread *t = &r->world.threads[s->thread];
	uint64_t *pslot = util_hash_find(&r->world.pid_index, (uint32_t)t->pid, 0, 0);
	uint32_t n = 0;
	long sym;

	if (!pslot)
		return -EINVAL;
	for (uint32_t i = 0; i < s->nframes && n < MAX_SYM_FRAMES; i++) {
		size_t first;
		int k, ret = symbolize_frame(r, &st->frames[s->first + i], &first, &k);

		if (ret)
			return ret;
		for (int j = 0; j < k && n < MAX_SYM_FRAMES; j++)
			tmp[n++] = st->fpool[first + j];
	}
	/* an fp chain that stopped short of an entry point, with no mark saying why (the
	 * kernel's walk ends at a frame without a frame pointer, or a 0 return address, or
	 * there was no user part at all): marked, every one, as report counts them */
	if (n < MAX_SYM_FRAMES && !strcmp(r->info.callgraph_mode, "fp") &&
	    rpt_fpstack_ends_early(st, tmp, n, r->world.procs[*pslot - 1].nmaps > 0)) {
		const char *name = rpt_strpool_intern(&st->names, mark_names[RPT_MARK_ENDS_EARLY]);
		long fid = name ? func_for(st, -1, name, name, RPT_CF_MARK) : -ENOMEM;

		if (fid < 0)
			return (int)fid;
		tmp[n++] = (uint32_t)fid;
	}
	sym = intern_sym(st, (uint32_t)(*pslot - 1), tmp, n);
	if (sym < 0)
		return (int)sym;
	s->sym = (uint32_t)sym;
	st->syms[sym].count += s->count;
	return 0;
}

static int add_edge(struct rpt_stacks *st, uint32_t proc, uint32_t caller, uint32_t callee,
		    uint64_t stamp, uint64_t n)
{
	uint64_t *slot = util_hash_slot(&st->edge_index, proc, caller, callee);
	struct rpt_edge *e;

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (st->nedges == st->capedges) {
			size_t cap = st->capedges ? st->capedges * 2 : 1024;
			struct rpt_edge *g = realloc(st->edges, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			st->edges = g;
			st->capedges = cap;
		}
		st->edges[st->nedges] = (struct rpt_edge){ 0, 0 };
		*slot = ++st->nedges;
	}
	e = &st->edges[*slot - 1];
	if (e->stamp != stamp) { /* once per stack, however deep the recursion */
		e->stamp = stamp;
		e->count += n;
	}
	return 0;
}

/*
 * The function that gets a stack's self time: its leaf's own function, not the functions
 * inlined there (perf's rule: a sample belongs to the symbol holding its IP, and inlined
 * frames only show in stacks), so that self time here is the flat profile's.
 */
uint32_t rpt_callgraph_self(const struct rpt_stacks *st, const struct rpt_symstack *s)
{
	const uint32_t *v = &st->fids[s->first];
	uint32_t i = 0;

	while (i + 1 < s->n && st->funcs[v[i]].kind == RPT_CF_INLINED)
		i++;
	return v[i];
}

static int tally_sym(struct rpt_stacks *st, size_t idx)
{
	const struct rpt_symstack *s = &st->syms[idx];
	const uint32_t *v = &st->fids[s->first];
	uint64_t stamp = idx + 1;
	uint32_t self;

	if (!s->n || !s->count)
		return 0;
	self = rpt_callgraph_self(st, s);
	st->funcs[self].self += s->count;
	if (util_hash_add(&st->proc_self, s->proc, self, s->count))
		return -ENOMEM;
	for (uint32_t i = 0; i < s->n; i++) {
		struct rpt_cfunc *f = &st->funcs[v[i]];

		if (f->stamp != stamp) {
			f->stamp = stamp;
			f->total += s->count;
			if (util_hash_add(&st->proc_total, s->proc, v[i], s->count))
				return -ENOMEM;
		}
		if (i + 1 < s->n && add_edge(st, s->proc, v[i + 1], v[i], stamp, s->count))
			return -ENOMEM;
	}
	return 0;
}

/* Each task instance: the leaf functions (rpt_callgraph_self()) of its thread's samples
 * inside it. */
static int tally_tasks(struct rpt_stacks *st)
{
	if (st->nspans)
		rpt_stacks_finish(st);
	for (size_t i = 0; i < st->nspans; i++) {
		const struct rpt_task_span *sp = &st->spans[i];
		size_t first, n = rpt_stacks_between(st, sp->tid, sp->begin, sp->end, &first);

		for (size_t k = first; k < first + n; k++) {
			const struct rpt_symstack
				*s = &st->syms[st->stacks[st->samples[k].stack].sym];

			if (s->n && util_hash_add(&st->task_func, (uint64_t)sp->item,
						  rpt_callgraph_self(st, s), 1))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Forget what a build made, so that the next one starts afresh (the raw stacks stay);
 * also the release of those tables when the stacks are freed. */
void rpt_callgraph_reset(struct rpt_stacks *st)
{
	free(st->funcs);
	free(st->fpool);
	free(st->fids);
	free(st->syms);
	free(st->edges);
	st->funcs = NULL;
	st->fpool = st->fids = NULL;
	st->syms = NULL;
	st->edges = NULL;
	st->nfuncs = st->capfuncs = 0;
	st->nfpool = st->capfpool = st->nfids = st->capfids = 0;
	st->nsyms = st->capsyms = st->nedges = st->capedges = 0;
	util_hash_release(&st->func_index);
	util_hash_release(&st->frame_index);
	util_hash_release(&st->inline_index);
	free(st->inline_names);
	st->inline_names = NULL;
	st->ninline_names = st->capinline_names = 0;
	util_hash_release(&st->sym_index);
	util_hash_release(&st->proc_total);
	util_hash_release(&st->proc_self);
	util_hash_release(&st->edge_index);
	util_hash_release(&st->task_func);
	st->built = false;
}

int rpt_callgraph_build(struct rpt *r, bool inlines)
{
	struct rpt_stacks *st = r->stacks;
	uint32_t *tmp;
	int ret = 0;

	if (!st || (st->built && (st->inlined || !inlines)))
		return 0;
	if (st->built)
		rpt_callgraph_reset(st);
	st->inlined = inlines;
	if (inlines && (ret = rpt_callgraph_fetch_inlines(r)))
		return ret;
	tmp = malloc(sizeof(*tmp) * MAX_SYM_FRAMES);
	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < st->nstacks && !ret; i++)
		ret = symbolize_stack(r, &st->stacks[i], tmp);
	free(tmp);
	for (size_t i = 0; i < st->nsyms && !ret; i++)
		ret = tally_sym(st, i);
	if (!ret)
		ret = tally_tasks(st);
	st->built = !ret;
	return ret;
}

const struct rpt_symstack *rpt_callgraph_sym(const struct rpt *r, uint32_t stack)
{
	return &r->stacks->syms[r->stacks->stacks[stack].sym];
}

const uint32_t *rpt_callgraph_fids(const struct rpt *r, const struct rpt_symstack *sym)
{
	return &r->stacks->fids[sym->first];
}

const char *rpt_callgraph_module(const struct rpt *r, const struct rpt_cfunc *f)
{
	return f->module >= 0 ? r->world.modules[f->module].path : "";
}

/* ---- CSV ---- */

static double secs(const struct rpt *r, uint64_t samples)
{
	return (double)samples * rpt_sample_s(r);
}

static int limit(const struct rpt *r, int n)
{
	return r->opts.cutoff > 0 && n > r->opts.cutoff ? r->opts.cutoff : n;
}

static void title(const struct rpt *r, FILE *f, const char *what, const char *sort)
{
	if (r->opts.cutoff > 0)
		fprintf(f, "\n\"%d HOTTEST %s (Sort Event - %s)\"\n", r->opts.cutoff, what, sort);
	else
		fprintf(f, "\n\"ALL %s (Sort Event - %s)\"\n", what, sort);
}

static int cmp_sorted(const void *a, const void *b)
{
	const struct rpt_sorted *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->item - y->item;
}

static void func_cells(FILE *f, const struct rpt_cfunc *fn)
{
	util_csv_quoted(f, fn->name);
}

static int write_task_view(const struct rpt *r, FILE *f)
{
	const struct rpt_stacks *st = r->stacks;
	struct rpt_row *rows;
	int n;

	if (!r->has_tasks || !r->nitems)
		return 0;
	rows = malloc(sizeof(*rows) * (size_t)r->nitems);
	if (!rows)
		return -ENOMEM;
	n = rpt_rows(r, RPT_TASKS, rows, r->opts.cutoff > 0 ? r->opts.cutoff : r->nitems);
	title(r, f, "TASKS - HOTTEST FUNCTIONS", "CPU_TIME");
	fprintf(f, "DOMAIN,TASK,FUNCTION," EVENT ",Module\n");
	for (int i = 0; i < n; i++) {
		struct rpt_sorted *v;
		int item = -1, k;

		for (int j = 0; j < r->nitems && item < 0; j++)
			if (r->items[j].name == rows[i].name &&
			    r->items[j].domain == rows[i].module)
				item = j;
		k = item < 0 ? 0 : rpt_collect(&st->task_func, (uint64_t)item, &v);
		if (k < 0) {
			free(rows);
			return k;
		}
		for (int j = 0; j < limit(r, k); j++) {
			const struct rpt_cfunc *fn = &st->funcs[v[j].item];

			util_csv_quoted(f, rows[i].module);
			fputc(',', f);
			util_csv_quoted(f, rows[i].name);
			fputc(',', f);
			func_cells(f, fn);
			fprintf(f, ",%.4f,", secs(r, v[j].samples));
			util_csv_quoted(f, rpt_callgraph_module(r, fn));
			fputc('\n', f);
		}
		if (item >= 0)
			free(v);
	}
	free(rows);
	return 0;
}

int rpt_callgraph_write_top(const struct rpt *r, FILE *f)
{
	const struct rpt_stacks *st = r->stacks;
	struct rpt_sorted *v;
	int n = 0, ret;

	if (!st || !st->built)
		return 0;
	if (st->collected) {
		v = malloc(sizeof(*v) * (st->nfuncs ? st->nfuncs : 1));
		if (!v)
			return -ENOMEM;
		for (uint32_t i = 0; i < st->nfuncs; i++)
			if (st->funcs[i].total && st->funcs[i].kind != RPT_CF_MARK)
				v[n++] = (struct rpt_sorted){ (int)i, st->funcs[i].total };
		util_qsort(v, n, sizeof(*v), cmp_sorted);
		title(r, f, "FUNCTIONS BY TOTAL TIME", "TOTAL CPU_TIME");
		fprintf(f,
			"FUNCTION,\"TOTAL CPU_TIME\" (seconds),\"SELF CPU_TIME\" (seconds),Module\n");
		for (int i = 0; i < limit(r, n); i++) {
			const struct rpt_cfunc *fn = &st->funcs[v[i].item];

			func_cells(f, fn);
			fprintf(f, ",%.4f,%.4f,", secs(r, fn->total), secs(r, fn->self));
			util_csv_quoted(f, rpt_callgraph_module(r, fn));
			fputc('\n', f);
		}
		free(v);
	}
	ret = write_task_view(r, f);
	return ret;
}

/* Callers (@callers) or callees of @fn in @proc, largest first. */
static int related(const struct rpt_stacks *st, uint32_t proc, uint32_t fn, bool callers,
		   struct rpt_sorted **out)
{
	const struct util_hash *h = &st->edge_index;
	struct rpt_sorted *v = malloc(sizeof(*v) * (h->n ? h->n : 1));
	int n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		const struct util_hent *e = &h->e[i];

		if (!e->used || e->a != proc || (callers ? e->c : e->b) != fn)
			continue;
		v[n++] = (struct rpt_sorted){ (int)(callers ? e->b : e->c),
					      st->edges[e->val - 1].count };
	}
	util_qsort(v, n, sizeof(*v), cmp_sorted);
	*out = v;
	return n;
}

void rpt_callgraph_row(const struct rpt *r, FILE *f, uint32_t fn, const char *rel, uint64_t deep,
		       const uint64_t *self)
{
	const struct rpt_cfunc *c = &r->stacks->funcs[fn];

	func_cells(f, c);
	fprintf(f, ",%s,%.4f,", rel, secs(r, deep));
	if (self)
		fprintf(f, "%.4f", secs(r, *self));
	fprintf(f, ",%" PRIu64 ",", deep);
	if (self)
		fprintf(f, "%" PRIu64, *self);
	fputc(',', f);
	util_csv_quoted(f, rpt_callgraph_module(r, c));
	fputc('\n', f);
}

int rpt_callgraph_write_process(const struct rpt *r, FILE *f, int proc)
{
	const struct rpt_stacks *st = r->stacks;
	struct rpt_sorted *v, *rel;
	char name[96];
	int n, k;

	if (!st || !st->built || !st->collected)
		return 0;
	n = rpt_collect(&st->proc_total, (uint64_t)proc, &v);
	if (n < 0)
		return n;
	rpt_process_name(r, proc, name, sizeof(name));
	fputs("\nCALLGRAPH FOR PROCESS - ", f);
	util_put_escaped(f, name, UTIL_ESC_TEXT);
	fputc('\n', f);
	fprintf(f, "FUNCTION,RELATION,\"TOTAL CPU_TIME\" (seconds),\"SELF CPU_TIME\" (seconds),"
		   "DEEP SAMPLES,SELF SAMPLES,Module\n");
	for (int i = 0, shown = 0; i < n && shown < limit(r, n); i++) {
		uint32_t fn = (uint32_t)v[i].item;
		uint64_t *self = util_hash_find(&st->proc_self, (uint64_t)proc, fn, 0), zero = 0;

		if (st->funcs[fn].kind == RPT_CF_MARK)
			continue;
		shown++;
		rpt_callgraph_row(r, f, fn, "function", v[i].samples, self ? self : &zero);
		for (int pass = 0; pass < 2; pass++) {
			k = related(st, (uint32_t)proc, fn, pass == 0, &rel);
			if (k < 0) {
				free(v);
				return k;
			}
			for (int j = 0; j < limit(r, k); j++)
				rpt_callgraph_row(r, f, (uint32_t)rel[j].item,
						  pass == 0 ? "caller" : "callee", rel[j].samples,
						  NULL);
			free(rel);
		}
	}
	free(v);
	return 0;
}

void rpt_callgraph_write_details(const struct rpt *r, FILE *f)
{
	const struct rpt_stacks *st = r->stacks;
	const struct ses_info *in = &r->info;

	if (!st || !st->collected) {
		fprintf(f, "Call Stack Sampling:,\"False\"\n");
		return;
	}
	fprintf(f, "Call Stack Sampling:,\"True\"\n");
	if (!strcmp(in->callgraph_mode, "dwarf"))
		fprintf(f,
			"Call Stack Mode:,\"dwarf (%u bytes of user stack per sample, unwound "
			"with CFI), depth %d, %s\"\n",
			in->callgraph_stack_bytes, st->depth,
			in->callgraph_scope[0] ? in->callgraph_scope : "all");
	else
		fprintf(f, "Call Stack Mode:,\"%s, depth %d, %s\"\n",
			!strcmp(in->callgraph_mode, "fp") ? "frame pointers" : "callchain",
			st->depth, in->callgraph_scope[0] ? in->callgraph_scope : "all");
	fprintf(f, "Stacks Truncated:,\"%" PRIu64 "\"\n", st->truncated);
	fprintf(f, "Stacks Unwind Failed:,\"%" PRIu64 "\"\n", st->unwind_failed);
	rpt_fpstack_write_details(r, f);
}
