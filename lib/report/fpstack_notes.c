// SPDX-License-Identifier: MIT
/*
 * -g stacks, better than perf's: (1) what the leaf copies did (leafstack_join.c joins
 * leafstack.data to the samples, stacks.c puts frameless leaves' callers back). (2) How
 * many fp stacks end early, before an entry point (no frame of the stack is _start,
 * __libc_start_main, a thread start, main...): at RPT_EARLY_PCT % or more, report.csv and
 * the terminal say once to use --call-graph dwarf, naming the module most of them end in.
 */
#include "report/stacks.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- stacks that end early ---- */

static const char *const entry_names[] = {
	"_start",
	"__libc_start_main",
	"__libc_start_main_impl",
	"__libc_start_call_main",
	"main",
	"start_thread",
	"clone",
	"clone3",
	"__clone",
	"__clone3",
	"__clone_internal",
	"thread_start",
	"_dl_start",
	"_dl_start_user",
	"__pthread_start",
};

static bool is_entry(const char *name)
{
	for (size_t i = 0; i < sizeof(entry_names) / sizeof(entry_names[0]); i++)
		if (name && !strcmp(name, entry_names[i]))
			return true;
	return false;
}

bool rpt_fpstack_ends_early(const struct rpt_stacks *st, const uint32_t *fids, uint32_t n,
			    bool user_process)
{
	bool user = user_process;

	if (!n || st->funcs[fids[n - 1]].kind == RPT_CF_MARK)
		return false; /* its end is said already */
	for (uint32_t j = 0; j < n; j++) {
		const struct rpt_cfunc *fn = &st->funcs[fids[j]];

		if (is_entry(fn->base))
			return false;
		user |= fn->module > RPT_MODULE_KERNEL;
	}
	return user;
}

int rpt_fpstack_early(struct rpt *r)
{
	struct rpt_stacks *st = r->stacks;
	uint64_t *per = NULL, best = 0;

	st->early_module = -1;
	st->user_stacks = st->early_stacks = 0;
	if (!st->built || strcmp(r->info.callgraph_mode, "fp"))
		return 0;
	per = calloc((size_t)r->world.nmodules + 1, sizeof(*per));
	if (!per)
		return -ENOMEM;
	for (size_t i = 0; i < st->nsyms; i++) {
		const struct rpt_symstack *sy = &st->syms[i];
		const uint32_t *fid = &st->fids[sy->first];
		const struct rpt_cfunc *outer;
		bool user = false, reached = false;
		int k = (int)sy->n - 1;

		for (uint32_t j = 0; j < sy->n; j++) {
			user |= st->funcs[fid[j]].module > RPT_MODULE_KERNEL;
			/* a walk that went on past the entry point into garbage reached it too */
			reached |= st->funcs[fid[j]].kind != RPT_CF_MARK &&
				   is_entry(st->funcs[fid[j]].base);
		}
		if (!user || k < 0)
			continue; /* a kernel thread's stack: no frame pointers of a program */
		st->user_stacks += sy->count;
		outer = &st->funcs[fid[k]];
		if (reached || (outer->kind == RPT_CF_MARK && !strcmp(outer->name, "[truncated]")))
			continue; /* complete, or cut by the depth limit: no frame pointer missing */
		while (k > 0 && st->funcs[fid[k]].kind == RPT_CF_MARK)
			k--;
		outer = &st->funcs[fid[k]];
		st->early_stacks += sy->count;
		if (outer->module >= 0 && outer->module < r->world.nmodules)
			per[outer->module] += sy->count;
	}
	for (int m = 0; m < r->world.nmodules; m++)
		if (per[m] > best) {
			best = per[m];
			st->early_module = m;
		}
	free(per);
	return 0;
}

bool rpt_fpstack_hint(const struct rpt *r, double *pct, const char **module)
{
	const struct rpt_stacks *st = r->stacks;
	const char *path, *slash;

	if (!st || !st->user_stacks || st->early_stacks * 100 < RPT_EARLY_PCT * st->user_stacks)
		return false;
	*pct = 100.0 * (double)st->early_stacks / (double)st->user_stacks;
	path = st->early_module >= 0 ? r->world.modules[st->early_module].path : "?";
	slash = strrchr(path, '/');
	*module = slash ? slash + 1 : path;
	return true;
}

void rpt_fpstack_write_details(const struct rpt *r, FILE *f)
{
	const struct rpt_stacks *st = r->stacks;
	const char *mod;
	double pct;

	if (st->leaf_expected || st->leaf_fixed || st->leaf_fp)
		fprintf(f,
			"Frameless Leaf Callers Recovered:,\"%" PRIu64 " (CFI at the leaf; %" PRIu64
			" leaves had frames, %" PRIu64 " unknown)\"\n",
			st->leaf_fixed, st->leaf_fp, st->leaf_unknown);
	if (st->leaf_note[0]) {
		fputs("Note:,", f);
		util_csv_quoted(f, st->leaf_note); /* may name a path */
		fputc('\n', f);
	}
	if (rpt_fpstack_hint(r, &pct, &mod)) {
		/* the module's name is the target's: any bytes */
		fprintf(f, "Note:,\"%.0f %% of the -g stacks end early (frame pointers missing in ",
			pct);
		util_put_escaped(f, mod, UTIL_ESC_CSV);
		fputs("): use --call-graph dwarf\"\n", f);
	}
}
