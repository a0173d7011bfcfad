// SPDX-License-Identifier: MIT
/*
 * Inline chains for the call graph, fetched one module file at a time. A module's DWARF
 * is the largest thing a report reads (libdw decompresses a file's debug sections whole),
 * and stacks visit modules in no order: looked up as the stacks come, every file's DWARF
 * stayed open until the end. Here every frame of one file is looked up while it is open,
 * and the file is closed before the next, so a report holds one module's DWARF at a time.
 * The chains are kept by (module, address) for callgraph.c's symbolize_frame.
 */
#include "symbols/symbols.h"
#include "report/stacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct fetch_key {
	const char *path;
	uint64_t addr;
	uint32_t module;
};

/* by file, then address: one file's frames together */
static int cmp_key(const void *a, const void *b)
{
	const struct fetch_key *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->module < y->module ? -1 : x->module > y->module;
}

/* A frame whose module file may have DWARF of its own (not the kernel, a mark, a JIT
 * map or dump). */
static const char *dwarf_path(const struct rpt *r, const struct rpt_frame *fr)
{
	const char *path;

	if (fr->module == RPT_FRAME_MARK || fr->module == RPT_MODULE_KERNEL)
		return NULL;
	path = r->world.modules[fr->module].path;
	if (path[0] != '/' || rpt_perfmap_is_path(path) || rpt_jitdump_is_path(path))
		return NULL;
	return path;
}

int rpt_callgraph_inlines(struct rpt *r, const struct rpt_frame *fr, const char **names)
{
	struct rpt_stacks *st = r->stacks;
	uint64_t *slot = util_hash_slot(&st->inline_index, fr->module, fr->addr, 0);
	const char *path = dwarf_path(r, fr);
	const char *got[RPT_MAX_INLINE];
	struct rpt_sym sym;
	size_t first;
	int n = 0;

	if (!slot)
		return -ENOMEM;
	if (*slot) {
		first = (size_t)((*slot & ((1ULL << 40) - 1)) - 1);
		n = (int)(*slot >> 40);
		if (n > 0) /* a cached "no chain" has no names, maybe not even the array */
			memcpy(names, &st->inline_names[first], sizeof(*names) * (size_t)n);
		return n;
	}
	if (path) {
		/* what symbolize_frame asks of a frame before its chain: a resolved symbol */
		rpt_symtab_lookup(r->symtab, path, &r->world.modules[fr->module].id, fr->addr,
				  &sym);
		if (sym.resolved && !st->inlines)
			st->inlines = rpt_inlines_new(r->locator);
		if (sym.resolved && st->inlines)
			n = rpt_inlines_at(st->inlines, path, fr->addr, got, RPT_MAX_INLINE);
	}
	if (n == 0) {
		*slot = 1; /* cached as "no chain": count 0, no names stored */
		return 0;
	}
	if (st->ninline_names + (size_t)n > st->capinline_names) {
		size_t cap = st->capinline_names ? st->capinline_names * 2 : 1024;
		const char **g;

		while (cap < st->ninline_names + (size_t)n)
			cap *= 2;
		g = realloc(st->inline_names, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		st->inline_names = g;
		st->capinline_names = cap;
	}
	first = st->ninline_names;
	memcpy(&st->inline_names[first], got, sizeof(*got) * (size_t)n);
	st->ninline_names += (size_t)n;
	*slot = ((uint64_t)n << 40) | (first + 1);
	memcpy(names, got, sizeof(*names) * (size_t)n);
	return n;
}

int rpt_callgraph_fetch_inlines(struct rpt *r)
{
	struct rpt_stacks *st = r->stacks;
	const char *names[RPT_MAX_INLINE];
	struct fetch_key *keys;
	size_t n = 0;
	int ret = 0;

	keys = malloc((st->nframes ? st->nframes : 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < st->nframes; i++) {
		const struct rpt_frame *fr = &st->frames[i];
		const char *path = dwarf_path(r, fr);

		if (path)
			keys[n++] = (struct fetch_key){ path, fr->addr, fr->module };
	}
	util_qsort(keys, n, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < n && ret >= 0; i++) {
		const struct rpt_frame fr = { .addr = keys[i].addr, .module = keys[i].module };

		if (i && strcmp(keys[i].path, keys[i - 1].path))
			rpt_inlines_close(st->inlines, keys[i - 1].path);
		ret = rpt_callgraph_inlines(r, &fr, names);
	}
	if (n)
		rpt_inlines_close(st->inlines, keys[n - 1].path);
	free(keys);
	return ret < 0 ? ret : 0;
}
